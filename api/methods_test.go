package api

import (
	"net/http"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestMethodNotAllowed: a known path asked with a method it does not serve answers 405
// method_not_allowed with the methods it serves in Allow; with keys, only after the key
// is checked (no key: 401, as for every /v1 path).
func TestMethodNotAllowed(t *testing.T) {
	space := cyphertest.NewSpace(t)
	keys, err := ParseKeys("test", "ana sk-ana-0123456789abcdef read,write "+space)
	if err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, apitest.New(t), Config{Keys: keys})
	sp := "/v1/spaces/" + space
	tests := []struct {
		name, method, path, key string
		status                  int
		allow                   string
	}{
		{"Healthz", "POST", "/healthz", "", http.StatusMethodNotAllowed, "GET, HEAD"},
		{"Metrics", "DELETE", "/metrics", "", http.StatusMethodNotAllowed, "GET, HEAD"},
		{"Recall", "GET", sp + "/recall", "sk-ana-0123456789abcdef", http.StatusMethodNotAllowed, "POST"},
		{"Memory", "PUT", sp + "/memories/m1", "sk-ana-0123456789abcdef", http.StatusMethodNotAllowed, "GET, HEAD, PATCH, DELETE"},
		{"Observations", "PATCH", sp + "/observations", "sk-ana-0123456789abcdef", http.StatusMethodNotAllowed, "GET, HEAD, POST, DELETE"},
		{"ErrNoKeyFirst", "GET", sp + "/recall", "", http.StatusUnauthorized, ""},
		{"UnknownPathStays404", "GET", "/v1/nowhere", "sk-ana-0123456789abcdef", http.StatusNotFound, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := client{t: t, base: srv.URL, key: tt.key}
			var p problemDoc
			resp := c.do(tt.method, tt.path, nil, &p)
			if resp.StatusCode != tt.status || resp.Header.Get("Content-Type") != "application/problem+json" {
				t.Fatalf("status %d, type %q, want %d problem", resp.StatusCode, resp.Header.Get("Content-Type"), tt.status)
			}
			if got := resp.Header.Get("Allow"); got != tt.allow {
				t.Errorf("Allow %q, want %q", got, tt.allow)
			}
			if tt.status == http.StatusMethodNotAllowed && p.Code != realm.EMethodNotAllowed {
				t.Errorf("code %q, want %q", p.Code, realm.EMethodNotAllowed)
			}
		})
	}
}

// TestMethodNotAllowedEveryRoute: for every path of openapi.yaml, each method it does not
// serve answers 405 method_not_allowed with Allow listing the methods openapi.yaml gives
// it (and HEAD after GET), the space root (DELETE only) included, which a chi Route mount once answered 404.
// Under /v1/spaces/{space} tenancy comes first: no key is 401, and a key without access to
// the space gets 404 not_found whatever the method, as on a space that does not exist.
func TestMethodNotAllowedEveryRoute(t *testing.T) {
	space := cyphertest.NewSpace(t)
	keys, err := ParseKeys("test", "ana sk-ana-0123456789abcdef admin "+space+"\nbob sk-bob-0123456789abcdef admin other_"+space)
	if err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, apitest.New(t), Config{Keys: keys})
	const ana, bob = "sk-ana-0123456789abcdef", "sk-bob-0123456789abcdef"
	fill := strings.NewReplacer("{space}", space, "{id}", "x1")

	type row struct {
		method, path, key string
		status            int
		allow, code       string
	}
	// The space root by hand, and what no route takes.
	sp := "/v1/spaces/" + space
	tests := []row{
		{"GET", sp, ana, http.StatusMethodNotAllowed, "DELETE", realm.EMethodNotAllowed},
		{"POST", sp, ana, http.StatusMethodNotAllowed, "DELETE", realm.EMethodNotAllowed},
		{"GET", sp, bob, http.StatusNotFound, "", realm.ENotFound},
		{"GET", sp, "", http.StatusUnauthorized, "", realm.EUnauthorized},
		{"GET", "/v1/spaces/bad.name", ana, http.StatusBadRequest, "", realm.EInvalid},
		{"DELETE", sp + "/", ana, http.StatusNotFound, "", realm.ENotFound},
		{"GET", sp + "/nowhere", ana, http.StatusNotFound, "", realm.ENotFound},
		{"GET", sp + "/nowhere", bob, http.StatusNotFound, "", realm.ENotFound},
	}
	// Every path of the document, every method it does not serve.
	doc := apitest.Spec(t)
	paths := doc.Paths.InMatchingOrder()
	for _, p := range paths {
		ops := doc.Paths.Value(p).Operations()
		var allow []string
		for _, m := range probedMethods {
			if ops[m] != nil {
				allow = append(allow, m)
				if m == http.MethodGet {
					allow = append(allow, http.MethodHead)
				}
			}
		}
		for _, m := range probedMethods {
			if ops[m] != nil {
				continue
			}
			path := fill.Replace(p)
			tests = append(tests, row{m, path, ana, http.StatusMethodNotAllowed, strings.Join(allow, ", "), realm.EMethodNotAllowed})
			if strings.Contains(p, "{space}") {
				tests = append(tests,
					row{m, path, bob, http.StatusNotFound, "", realm.ENotFound},
					row{m, path, "", http.StatusUnauthorized, "", realm.EUnauthorized})
			}
		}
	}
	if len(tests) < 8+len(paths) {
		t.Fatalf("%d rows for %d paths", len(tests), len(paths))
	}
	for _, tt := range tests {
		name := tt.method + " " + tt.path + " key=" + map[string]string{ana: "ana", bob: "bob", "": "none"}[tt.key]
		t.Run(name, func(t *testing.T) {
			c := client{t: t, base: srv.URL, key: tt.key}
			var p problemDoc
			resp := c.do(tt.method, tt.path, nil, &p)
			if resp.StatusCode != tt.status || p.Code != tt.code || resp.Header.Get("Content-Type") != "application/problem+json" {
				t.Fatalf("status %d %q, type %q, want %d %q problem", resp.StatusCode, p.Code, resp.Header.Get("Content-Type"), tt.status, tt.code)
			}
			if got := resp.Header.Get("Allow"); got != tt.allow {
				t.Errorf("Allow %q, want %q", got, tt.allow)
			}
		})
	}
}

// TestHead: every GET route answers HEAD as it answers GET, without a body (net/http
// sends none): the same status and headers for the public paths (an uptime check), and
// under the same key, scope, tenancy and rate limit checks for the keyed ones; a path
// without GET answers HEAD 405 as it answers GET, with the same Allow.
func TestHead(t *testing.T) {
	space := cyphertest.NewSpace(t)
	keys, err := ParseKeys("test", "ana sk-ana-0123456789abcdef read,write "+space+"\nwes sk-wes-0123456789abcdef write "+space+"\nbob sk-bob-0123456789abcdef read other_"+space)
	if err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, apitest.New(t), Config{Keys: keys})
	const ana, wes, bob = "sk-ana-0123456789abcdef", "sk-wes-0123456789abcdef", "sk-bob-0123456789abcdef"
	sp := "/v1/spaces/" + space
	(client{t: t, base: srv.URL, key: ana}).remember(sp, []map[string]string{
		{"speaker": "Ana", "content": "I moved to Lisbon in 2021.", "timestamp": "2023-01-10T09:00:00Z"}})
	tests := []struct {
		name, path, key string
		status          int
	}{
		{"Healthz", "/healthz", "", http.StatusOK},
		{"Readyz", "/readyz", "", http.StatusOK},
		{"Spec", "/openapi.yaml", "", http.StatusOK},
		{"Info", "/v1/info", ana, http.StatusOK},
		{"Memories", sp + "/memories", ana, http.StatusOK},
		{"Export", sp + "/export", ana, http.StatusOK},
		{"ErrNoKey", sp + "/memories", "", http.StatusUnauthorized},
		{"ErrWriteOnlyKey", sp + "/memories", wes, http.StatusForbidden},
		{"ErrOtherTenant", sp + "/memories", bob, http.StatusNotFound},
		{"ErrNoSuchMemory", sp + "/memories/nowhere", ana, http.StatusNotFound},
		{"ErrPostRoute", sp + "/recall", ana, http.StatusMethodNotAllowed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := client{t: t, base: srv.URL, key: tt.key}
			get, head := c.do("GET", tt.path, nil, nil), c.do("HEAD", tt.path, nil, nil)
			if head.StatusCode != tt.status || get.StatusCode != tt.status {
				t.Fatalf("HEAD %d, GET %d; want %d", head.StatusCode, get.StatusCode, tt.status)
			}
			for _, h := range []string{"Content-Type", "Cache-Control", "WWW-Authenticate", "RateLimit-Limit", "Allow"} {
				if head.Header.Get(h) != get.Header.Get(h) {
					t.Errorf("%s: HEAD %q, GET %q", h, head.Header.Get(h), get.Header.Get(h))
				}
			}
		})
	}
}
