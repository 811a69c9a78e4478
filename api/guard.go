package api

import (
	"mime"
	"net"
	"net/http"
	"slices"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/realm-memory/realm"
)

// guard is the first check every request meets, whatever its route (those to come
// included), before any key is looked at: what keeps a web page the user happens to visit
// away from a server on the user's machine.
//
//   - Without API keys the server listens on loopback only and every caller is the local
//     admin; a request naming another host (Host: evil.example.com) is a web page that
//     rebound its own domain to 127.0.0.1 (DNS rebinding) and is refused (403). With keys,
//     the bearer key is the defence, and a reverse proxy may pass any Host.
//   - A request body must be JSON (Content-Type application/json), an import's JSON Lines
//     (application/x-ndjson), else 415: a browser sends text/plain and form bodies to any
//     site without asking it first (no CORS preflight).
//   - Cross-origin requests of a browser that change something (net/http's
//     CrossOriginProtection: Sec-Fetch-Site, else Origin against Host) are refused (403)
//     unless their origin is in Config.CORSOrigins, whose pages also get the CORS headers
//     and preflight answers that let them read the API.
func (s *server) guard(next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	for _, o := range s.cfg.CORSOrigins {
		if err := cop.AddTrustedOrigin(o); err != nil {
			panic("api: CORS origin " + o + ": " + err.Error()) // cmd validates them (ValidOrigin)
		}
	}
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, realm.Errorf(realm.EForbidden, "cross-origin request refused: origin %q is not allowed (REALM_CORS_ORIGINS)", r.Header.Get("Origin")))
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(s.cfg.Keys) == 0 && !loopbackHost(r.Host) {
			writeError(w, r, realm.Errorf(realm.EForbidden, "host %q refused: without API keys this server answers only requests to localhost, 127.0.0.1 or [::1]", r.Host))
			return
		}
		origin := r.Header.Get("Origin")
		allowed := origin != "" && slices.Contains(s.cfg.CORSOrigins, origin)
		if allowed {
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", origin)
			h.Add("Vary", "Origin")
			h.Set("Access-Control-Expose-Headers", "X-Request-Id, Location, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, WWW-Authenticate, Allow")
		}
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			s.preflight(w, r, allowed)
			return
		}
		if err := s.bodyTypeErr(r); err != nil {
			writeError(w, r, err)
			return
		}
		cop.Handler(next).ServeHTTP(w, r)
	})
}

// preflight answers a browser's CORS preflight: 204 with what an allowed origin may send
// (every method a route serves), 403 for any other origin.
func (s *server) preflight(w http.ResponseWriter, r *http.Request, allowed bool) {
	if !allowed {
		writeError(w, r, realm.Errorf(realm.EForbidden, "cross-origin request refused: origin %q is not allowed (REALM_CORS_ORIGINS)", r.Header.Get("Origin")))
		return
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Methods", strings.Join(s.index.methods, ", "))
	h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, X-Request-Id, Mcp-Protocol-Version, Mcp-Session-Id")
	h.Set("Access-Control-Max-Age", "600")
	w.WriteHeader(http.StatusNoContent)
}

// bodyMediaTypes are the routes whose body is not JSON.
var bodyMediaTypes = map[string]string{"/v1/spaces/{space}/import": "application/x-ndjson"}

// bodyTypeErr refuses (unsupported_media_type, 415) a request with a body that is not of its
// route's media type: application/json but for the routes in bodyMediaTypes. Parameters
// such as charset=utf-8 are allowed; a request without a body needs no Content-Type.
func (s *server) bodyTypeErr(r *http.Request) error {
	if r.ContentLength == 0 || r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	rctx := chi.NewRouteContext()
	if s.index == nil || !s.index.flat.Match(rctx, r.Method, routedPath(r)) {
		return nil // no such route: 404 or 405 (methods.go), whatever the body
	}
	want := "application/json"
	if t, ok := bodyMediaTypes[rctx.RoutePattern()]; ok {
		want = t
	}
	got, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || got != want {
		return realm.Errorf(eUnsupportedMediaType, "the request body must be %s (Content-Type: %s), not %q",
			want, want, r.Header.Get("Content-Type"))
	}
	return nil
}

// loopbackHost reports whether a Host header names this machine's loopback interface:
// localhost, 127.0.0.0/8 or ::1, with or without a port.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ValidOrigin reports whether o is an origin for Config.CORSOrigins: scheme://host[:port],
// no path, as browsers send it in Origin.
func ValidOrigin(o string) bool {
	return http.NewCrossOriginProtection().AddTrustedOrigin(o) == nil
}
