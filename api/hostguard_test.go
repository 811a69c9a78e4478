package api

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// guardedRequest sends a request with the given headers (Host among them) and returns
// the response and its body.
func guardedRequest(t *testing.T, method, url string, headers map[string]string, body string) (*http.Response, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// problemCode is the code of a problem document, or "".
func problemCode(b []byte) string {
	var p problemDoc
	_ = json.Unmarshal(b, &p)
	return p.Code
}

// TestKeylessGuard: a server without keys is the local admin's alone. The two attacks of a
// web page on it, DNS rebinding (another Host) and a cross-site text/plain POST (no
// preflight), are refused before they touch anything.
func TestKeylessGuard(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	if code := c.status("POST", sp+"/observations", map[string]any{"messages": []any{
		map[string]any{"speaker": "Ann", "content": "Ann keeps bees in her garden.", "timestamp": "2024-05-01T10:00:00Z"},
	}}); code != http.StatusOK {
		t.Fatalf("ingest: %d", code)
	}
	memories := func() int {
		var page struct{ Memories []any }
		c.do("GET", sp+"/memories", nil, &page)
		return len(page.Memories)
	}
	before := memories()

	t.Run("ErrDNSRebinding", func(t *testing.T) {
		resp, body := guardedRequest(t, "DELETE", srv.URL+sp, map[string]string{"Host": "evil.example.com", "Origin": "http://evil.example.com"}, "")
		if resp.StatusCode != http.StatusForbidden || problemCode(body) != "forbidden" {
			t.Errorf("DELETE with Host evil.example.com: %d %s, want 403 forbidden", resp.StatusCode, body)
		}
		if n := memories(); n != before || n == 0 {
			t.Errorf("the space holds %d memories after the refused DELETE, %d before", n, before)
		}
		// Every path, the probes and /mcp included, and with a port.
		for _, p := range []string{"/healthz", "/readyz", "/openapi.yaml", "/metrics", "/v1/info", "/ui/", sp + "/stats", "/no-such-path"} {
			if resp, body := guardedRequest(t, "GET", srv.URL+p, map[string]string{"Host": "evil.example.com:8080"}, ""); resp.StatusCode != http.StatusForbidden {
				t.Errorf("GET %s with Host evil.example.com:8080: %d %s, want 403", p, resp.StatusCode, body)
			}
		}
		if resp, body := postMCPHost(t, srv.URL, "", "rebound.example", rawToolsList); resp.StatusCode != http.StatusForbidden {
			t.Errorf("POST /mcp with Host rebound.example: %d %s, want 403", resp.StatusCode, body)
		}
		// Loopback names pass.
		for _, host := range []string{"localhost:1", "127.0.0.1", "127.3.4.5:80", "[::1]:8080", "LOCALHOST"} {
			if resp, body := guardedRequest(t, "GET", srv.URL+"/healthz", map[string]string{"Host": host}, ""); resp.StatusCode != http.StatusOK {
				t.Errorf("GET /healthz with Host %s: %d %s, want 200", host, resp.StatusCode, body)
			}
		}
	})

	t.Run("ErrTextPlainPOST", func(t *testing.T) {
		planted := `{"messages":[{"speaker":"attacker","content":"planted","timestamp":"2024-01-01T00:00:00Z"}]}`
		for _, ct := range []string{"text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""} {
			resp, body := guardedRequest(t, "POST", srv.URL+sp+"/observations", map[string]string{"Origin": "http://evil.example.com", "Content-Type": ct}, planted)
			if resp.StatusCode != http.StatusUnsupportedMediaType || problemCode(body) != "unsupported_media_type" {
				t.Errorf("POST with Content-Type %q: %d %s, want 415 unsupported_media_type", ct, resp.StatusCode, body)
			}
		}
		var page struct{ Memories []struct{ Content string } }
		c.do("GET", sp+"/memories?q=planted", nil, &page)
		if len(page.Memories) != 0 {
			t.Errorf("a refused POST planted %v", page.Memories)
		}
		// JSON with a charset passes; an import wants JSON Lines, and no other route does.
		if resp, body := guardedRequest(t, "POST", srv.URL+sp+"/recall", map[string]string{"Content-Type": "application/json; charset=utf-8"}, `{"query":"bees"}`); resp.StatusCode != http.StatusOK {
			t.Errorf("recall with charset: %d %s", resp.StatusCode, body)
		}
		if resp, body := guardedRequest(t, "POST", srv.URL+"/v1/spaces/"+cyphertest.NewSpace(t)+"/import", map[string]string{"Content-Type": "application/json"}, `{}`); resp.StatusCode != http.StatusUnsupportedMediaType {
			t.Errorf("import as application/json: %d %s, want 415", resp.StatusCode, body)
		}
		if resp, body := guardedRequest(t, "POST", srv.URL+sp+"/recall", map[string]string{"Content-Type": "application/x-ndjson"}, `{"query":"bees"}`); resp.StatusCode != http.StatusUnsupportedMediaType {
			t.Errorf("recall as application/x-ndjson: %d %s, want 415", resp.StatusCode, body)
		}
		if resp, body := postMCPHost(t, srv.URL, "", "", rawToolsList); resp.StatusCode != http.StatusOK {
			t.Errorf("POST /mcp as JSON: %d %s", resp.StatusCode, body)
		}
	})

	t.Run("ErrCrossOrigin", func(t *testing.T) {
		// JSON from another site's page: the browser says so (Sec-Fetch-Site), and a
		// preflight from it gets no CORS grant.
		resp, body := guardedRequest(t, "POST", srv.URL+sp+"/observations", map[string]string{
			"Origin": "http://evil.example.com", "Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"},
			`{"messages":[{"speaker":"x","content":"planted too","timestamp":"2024-01-01T00:00:00Z"}]}`)
		if resp.StatusCode != http.StatusForbidden || problemCode(body) != "forbidden" {
			t.Errorf("cross-site JSON POST: %d %s, want 403", resp.StatusCode, body)
		}
		resp, body = guardedRequest(t, "OPTIONS", srv.URL+sp+"/observations", map[string]string{
			"Origin": "http://evil.example.com", "Access-Control-Request-Method": "POST"}, "")
		if resp.StatusCode != http.StatusForbidden || resp.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("preflight from evil.example.com: %d %v %s, want 403 without a grant", resp.StatusCode, resp.Header, body)
		}
	})
}

// TestGuardWithKeys: with API keys any Host passes (a reverse proxy), bodies are still
// checked, and the origins of REALM_CORS_ORIGINS get CORS grants.
func TestGuardWithKeys(t *testing.T) {
	keys, err := ParseKeys("test", "ops sk-ops-0123456789abcdef admin *")
	if err != nil {
		t.Fatal(err)
	}
	app := "https://app.example.com"
	// Without the spec's checker: a CORS preflight (OPTIONS) is the browser's, not an
	// operation of the API.
	srv := httptest.NewServer(NewServer(Config{Keys: keys, CORSOrigins: []string{app}}, testDeps(t)))
	t.Cleanup(srv.Close)
	space := cyphertest.NewSpace(t)
	auth := "Bearer sk-ops-0123456789abcdef"

	if resp, body := guardedRequest(t, "GET", srv.URL+"/v1/spaces", map[string]string{"Host": "memory.example.com", "Authorization": auth}, ""); resp.StatusCode != http.StatusOK {
		t.Errorf("GET through a proxy's Host: %d %s", resp.StatusCode, body)
	}
	if resp, body := guardedRequest(t, "POST", srv.URL+"/v1/spaces/"+space+"/recall", map[string]string{"Authorization": auth, "Content-Type": "text/plain"}, `{"query":"x"}`); resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("text/plain with a key: %d %s, want 415", resp.StatusCode, body)
	}
	resp, body := guardedRequest(t, "OPTIONS", srv.URL+"/v1/spaces/"+space+"/recall", map[string]string{
		"Origin": app, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type"}, "")
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != app ||
		!strings.Contains(resp.Header.Get("Access-Control-Allow-Headers"), "Authorization") {
		t.Errorf("preflight from %s: %d %v %s", app, resp.StatusCode, resp.Header, body)
	}
	// Every method of openapi.yaml, PATCH (a memory's correction) included.
	for _, p := range apitest.Spec(t).Paths.Map() {
		for m := range p.Operations() {
			resp, _ := guardedRequest(t, "OPTIONS", srv.URL+"/v1/spaces/"+space+"/memories/m1", map[string]string{
				"Origin": app, "Access-Control-Request-Method": m}, "")
			if allowed := strings.Split(resp.Header.Get("Access-Control-Allow-Methods"), ", "); resp.StatusCode != http.StatusNoContent || !slices.Contains(allowed, m) {
				t.Errorf("preflight of %s from %s: %d, Access-Control-Allow-Methods %q", m, app, resp.StatusCode, allowed)
			}
		}
	}
	resp, body = guardedRequest(t, "GET", srv.URL+"/v1/spaces", map[string]string{
		"Origin": app, "Sec-Fetch-Site": "cross-site", "Authorization": auth}, "")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Access-Control-Allow-Origin") != app {
		t.Errorf("GET from %s: %d %v %s", app, resp.StatusCode, resp.Header, body)
	}
	resp, body = guardedRequest(t, "POST", srv.URL+"/v1/spaces/"+space+"/observations", map[string]string{
		"Origin": app, "Sec-Fetch-Site": "cross-site", "Authorization": auth, "Content-Type": "application/json"},
		`{"messages":[{"speaker":"Ann","content":"Ann keeps bees.","timestamp":"2024-05-01T10:00:00Z"}]}`)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Access-Control-Allow-Origin") != app {
		t.Errorf("POST from %s: %d %s", app, resp.StatusCode, bytes.TrimSpace(body))
	}
	resp, _ = guardedRequest(t, "GET", srv.URL+"/v1/spaces/"+space+"/stats", map[string]string{
		"Origin": "https://other.example.com", "Authorization": auth}, "")
	if resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("an origin outside the list got a CORS grant: %v", resp.Header)
	}
}

func TestValidOrigin(t *testing.T) {
	for o, want := range map[string]bool{
		"https://app.example.com": true, "http://localhost:3000": true,
		"app.example.com": false, "https://app.example.com/path": false, "": false, "*": false,
	} {
		if got := ValidOrigin(o); got != want {
			t.Errorf("ValidOrigin(%q) = %v, want %v", o, got, want)
		}
	}
}
