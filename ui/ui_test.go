package ui

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

func get(t *testing.T, h http.Handler, path string) *http.Response {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	return rec.Result()
}

func TestHandler(t *testing.T) {
	h := Handler()
	t.Run("Index", func(t *testing.T) {
		resp := get(t, h, "/ui/")
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "REALM memory explorer") {
			t.Fatalf("status %d, body %.200s", resp.StatusCode, body)
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self'") {
			t.Errorf("Content-Security-Policy %q", csp)
		}
	})
	t.Run("Redirect", func(t *testing.T) {
		resp := get(t, h, "/ui")
		if resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != "/ui/" {
			t.Errorf("status %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		for _, path := range []string{"/uix", "/ui/nothing.js"} {
			if code := get(t, h, path).StatusCode; code != http.StatusNotFound {
				t.Errorf("GET %s: %d", path, code)
			}
		}
	})
}

// TestFilesResolve: every file the page and its modules load is served, as JavaScript or CSS.
func TestFilesResolve(t *testing.T) {
	h := Handler()
	refs := regexp.MustCompile(`(?:src|href)="([a-z]+\.(?:js|css))"|from '\./([a-z]+\.js)'`)
	seen := map[string]bool{}
	queue := []string{""} // the page itself, /ui/
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		resp := get(t, h, "/ui/"+name)
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: status %d", name, resp.StatusCode)
			continue
		}
		want := map[string]string{".js": "text/javascript", ".css": "text/css", ".html": "text/html"}
		for ext, ct := range want {
			if strings.HasSuffix(name, ext) && !strings.HasPrefix(resp.Header.Get("Content-Type"), ct) {
				t.Errorf("%s: Content-Type %q", name, resp.Header.Get("Content-Type"))
			}
		}
		for _, m := range refs.FindAllStringSubmatch(string(body), -1) {
			ref := m[1] + m[2]
			if !seen[ref] {
				seen[ref] = true
				queue = append(queue, ref)
			}
		}
	}
	for _, f := range []string{"app.js", "dom.js", "graph.js", "style.css"} {
		if !seen[f] {
			t.Errorf("%s is never loaded", f)
		}
	}
}
