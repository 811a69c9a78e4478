package api

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/realm-memory/realm"
)

// probedMethods are the methods a 405's Allow header may list.
var probedMethods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// routeIndex answers the requests no route takes: a path served with other methods gets
// 405 method_not_allowed with those methods in Allow (RFC 9110 §15.5.6), any other path
// 404 not_found. It is both the router's NotFound and its MethodNotAllowed handler.
//
// It matches on a flat copy of the routes (chi.Walk) instead of asking the router: the
// Route mount of /v1/spaces/{space} takes every method on the space root itself, so
// chi sends GET /v1/spaces/{space} to the subrouter, which has no such route and calls
// NotFound, and the router's own Match says every method matches there. The flat copy
// knows only the real routes (the root: DELETE). chi does not hand a custom handler its
// list of methods either, so the copy is asked one method at a time (only on this path).
//
// Under /v1/spaces/{space} this runs inside the mount, after its middlewares: a key is
// authenticated, the space name checked and the key's access to the space checked before
// a wrong method is told so. A key without access to the space gets 404, as for a
// space that does not exist, whatever the method (TestTenancy); only the space's own
// keys learn which methods a path serves. Elsewhere (probes, /v1/info, /mcp) 405 comes
// first: those paths are public in openapi.yaml and name no space.
type routeIndex struct {
	flat *chi.Mux
	// methods are those, of probedMethods, that some route serves: what a CORS preflight
	// allows (guard.go).
	methods []string
}

// newRouteIndex copies the routes of routes; call it once every route is registered.
func newRouteIndex(routes chi.Routes) *routeIndex {
	flat := chi.NewRouter()
	never := http.NotFoundHandler() // matched, never served
	served := map[string]bool{}
	_ = chi.Walk(routes, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		flat.Method(method, route, never)
		served[method] = true
		return nil
	})
	ix := &routeIndex{flat: flat}
	for _, m := range probedMethods {
		if served[m] {
			ix.methods = append(ix.methods, m)
		}
	}
	return ix
}

// allowed lists the methods, of probedMethods, that some route serves on path, HEAD
// after GET: a GET route answers HEAD too (middleware.GetHead in NewServer).
func (ix *routeIndex) allowed(path string) []string {
	var allow []string
	for _, m := range probedMethods {
		if ix.flat.Match(chi.NewRouteContext(), m, path) {
			allow = append(allow, m)
			if m == http.MethodGet {
				allow = append(allow, http.MethodHead)
			}
		}
	}
	return allow
}

// noRoute answers a request no route took: 405 with Allow, or 404.
func (ix *routeIndex) noRoute(w http.ResponseWriter, r *http.Request) {
	allow := ix.allowed(routedPath(r))
	if len(allow) == 0 {
		writeError(w, r, realm.Errorf(realm.ENotFound, "no endpoint %s %s", r.Method, r.URL.Path))
		return
	}
	w.Header().Set("Allow", strings.Join(allow, ", "))
	writeError(w, r, realm.Errorf(realm.EMethodNotAllowed, "method %s is not allowed here; allowed: %s",
		r.Method, strings.Join(allow, ", ")))
}

// routedPath is the path chi routes on: the raw one when the path has escapes.
func routedPath(r *http.Request) string {
	if r.URL.RawPath != "" {
		return r.URL.RawPath
	}
	return r.URL.Path
}
