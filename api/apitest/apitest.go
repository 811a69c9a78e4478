// Package apitest checks real HTTP traffic against REALM's OpenAPI document
// (api/openapi.yaml) with kin-openapi. Tests wrap the server's handler (Handler) or their
// client's transport (Transport) with a Checker; every exchange is then checked:
//
//   - the endpoint is in the document (an undocumented one must answer a 4xx problem);
//   - a request the document refuses is refused by the server too (a 4xx);
//   - the response, its status, headers and body, is one the document allows.
//
// It imports kin-openapi and the standard library only, so the api package's own tests
// may use it.
package apitest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

var (
	once    sync.Once
	doc     *openapi3.T
	router  routers.Router
	loadErr error
)

// SpecPath is the path of api/openapi.yaml.
func SpecPath() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "openapi.yaml")
}

// Spec returns the parsed and validated document; the test fails when it is not a valid
// OpenAPI document.
func Spec(tb testing.TB) *openapi3.T {
	tb.Helper()
	once.Do(func() {
		b, err := os.ReadFile(SpecPath())
		if err != nil {
			loadErr = err
			return
		}
		doc, loadErr = openapi3.NewLoader().LoadFromData(b)
		if loadErr != nil {
			return
		}
		if loadErr = doc.Validate(context.Background()); loadErr != nil {
			return
		}
		// Routed on paths alone: the test servers listen on addresses of their own, not
		// on the document's servers.
		paths := *doc
		paths.Servers = nil
		router, loadErr = legacy.NewRouter(&paths)
	})
	if loadErr != nil {
		tb.Fatalf("api/openapi.yaml: %v", loadErr)
	}
	return doc
}

// Checker checks exchanges against the document and remembers which operations they
// reached.
type Checker struct {
	tb   testing.TB
	mu   sync.Mutex
	seen map[string]bool // "GET /v1/spaces/{space}/stats"
}

// New returns a Checker reporting through tb.
func New(tb testing.TB) *Checker {
	Spec(tb)
	return &Checker{tb: tb, seen: map[string]bool{}}
}

// Handler serves h, checking every exchange against the document.
func (c *Checker) Handler(h http.Handler) http.Handler {
	tb := c.tb
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			tb.Errorf("%s %s: reading the request body: %v", r.Method, r.URL, err)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		c.Check(r, body, rec.Code, rec.Header(), rec.Body.Bytes())
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	})
}

// Transport sends requests through next (http.DefaultTransport when nil), checking
// every exchange against the document.
func (c *Checker) Transport(next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		var body []byte
		if req.Body != nil {
			b, err := io.ReadAll(req.Body)
			if err != nil {
				return nil, err
			}
			body = b
			req.Body = io.NopCloser(bytes.NewReader(body))
		}
		resp, err := next.RoundTrip(req)
		if err != nil {
			return nil, err
		}
		respBody, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		resp.Body = io.NopCloser(bytes.NewReader(respBody))
		c.Check(req, body, resp.StatusCode, resp.Header, respBody)
		return resp, nil
	})
}

// Client is an http.Client whose exchanges are checked against the document.
func (c *Checker) Client() *http.Client {
	return &http.Client{Transport: c.Transport(nil)}
}

// Unseen lists the operations of the document ("GET /v1/info") that no checked
// exchange reached.
func (c *Checker) Unseen() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, op := range Operations(doc) {
		if !c.seen[op] {
			out = append(out, op)
		}
	}
	return out
}

// Operations lists the operations of a document as "METHOD /path", sorted.
func Operations(d *openapi3.T) []string {
	var out []string
	for path, item := range d.Paths.Map() {
		for method := range item.Operations() {
			out = append(out, method+" "+path)
		}
	}
	sort.Strings(out)
	return out
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Check reports every way in which one exchange disagrees with the document.
func (c *Checker) Check(req *http.Request, reqBody []byte, status int, header http.Header, respBody []byte) {
	tb := c.tb
	tb.Helper()
	name := req.Method + " " + req.URL.Path
	r := req.Clone(context.Background())
	r.Body = io.NopCloser(bytes.NewReader(reqBody))
	excludeBody := false
	if r.Method == http.MethodHead {
		// Answered as GET without a body (openapi.yaml's description): checked as GET, its
		// status and headers.
		r.Method, excludeBody = http.MethodGet, true
	}
	if r.URL.RawPath != "" {
		// Routed as the server routes it (api/methods.go routedPath): an escaped "/" in a
		// path parameter stays in that parameter.
		u := *r.URL
		u.Path, u.RawPath = r.URL.RawPath, ""
		r.URL = &u
	}
	route, params, err := router.FindRoute(r)
	if err == nil && slices.Contains(slices.Collect(maps.Values(params)), "") {
		// kin-openapi's legacy router takes DELETE /v1/spaces/s/memories for
		// DELETE /v1/spaces/{space}/memories/{id} with an empty id: no operation.
		err = fmt.Errorf("%s: an empty path parameter", name)
	}
	if err == nil && strings.HasSuffix(req.URL.Path, "/") && !strings.HasSuffix(route.Path, "/") {
		// It also takes GET /v1/spaces/ (an empty space id) for GET /v1/spaces.
		err = fmt.Errorf("%s: a trailing slash", name)
	}
	if err != nil {
		if status < 400 || status > 499 || header.Get("Content-Type") != "application/problem+json" {
			tb.Errorf("%s is not in openapi.yaml, yet the server answered %d %s", name, status, header.Get("Content-Type"))
		}
		return
	}
	c.mu.Lock()
	c.seen[route.Method+" "+route.Path] = true
	c.mu.Unlock()
	in := &openapi3filter.RequestValidationInput{
		Request: r, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true},
	}
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil && (status < 400 || status > 499) {
		tb.Errorf("%s: openapi.yaml refuses the request, the server answered %d:\n%v", name, status, err)
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in, Status: status, Header: header,
		Body:    io.NopCloser(bytes.NewReader(respBody)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true, ExcludeResponseBody: excludeBody},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		tb.Errorf("%s: the response breaks openapi.yaml: %v\nbody: %s", name, err, abbreviate(respBody))
	}
}

func abbreviate(b []byte) string {
	if len(b) > 2000 {
		return fmt.Sprintf("%s… (%d bytes)", b[:2000], len(b))
	}
	return string(b)
}
