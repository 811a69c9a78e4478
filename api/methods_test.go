package api

import (
	"net/http"
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
		{"Healthz", "POST", "/healthz", "", http.StatusMethodNotAllowed, "GET"},
		{"Metrics", "DELETE", "/metrics", "", http.StatusMethodNotAllowed, "GET"},
		{"Recall", "GET", sp + "/recall", "sk-ana-0123456789abcdef", http.StatusMethodNotAllowed, "POST"},
		{"Memory", "PUT", sp + "/memories/m1", "sk-ana-0123456789abcdef", http.StatusMethodNotAllowed, "GET, DELETE"},
		{"Observations", "PATCH", sp + "/observations", "sk-ana-0123456789abcdef", http.StatusMethodNotAllowed, "POST"},
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
