package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/embed"
	"github.com/realm-memory/realm/reconsolidation"
	"github.com/realm-memory/realm/retrieval"
)

var (
	embedderOnce sync.Once
	embedder     realm.Embedder
	embedderErr  error
)

// testDeps are the real pipelines over the tests' Neo4j, with the offline agent and the
// embedder `realm serve` would pick (local when installed, else hash).
func testDeps(t testing.TB) Deps {
	t.Helper()
	return testDepsOn(t, cyphertest.MustOpen(t))
}

// testDepsOn builds the pipelines over store.
func testDepsOn(t testing.TB, store *cypher.Store) Deps {
	t.Helper()
	logger := zerolog.New(io.Discard)
	embedderOnce.Do(func() {
		cfg, err := embed.ConfigFromEnv(os.Getenv)
		if err != nil {
			embedderErr = err
			return
		}
		embedder, embedderErr = embed.New(cfg, logger)
	})
	if embedderErr != nil {
		t.Fatal(embedderErr)
	}
	ingest := construction.New(store, offline.New(offline.Options{}), embedder, construction.Options{}, logger)
	t.Cleanup(ingest.Wait)
	return Deps{
		Store:  store,
		Ingest: ingest,
		Recall: retrieval.New(store, embedder, offline.New(offline.Options{}), retrieval.Options{}, logger),
		Reconsolidate: reconsolidation.New(store, offline.New(offline.Options{}),
			reconsolidation.DefaultConfig(), logger),
		Logger: logger,
	}
}

// newTestServer serves the API over real HTTP, every exchange checked against
// openapi.yaml by c (nil: unchecked, for a test that streams a request body, which the
// checker reads whole first); with adjust, the test changes the dependencies first.
func newTestServer(t testing.TB, c *apitest.Checker, cfg Config, adjust ...func(*Deps)) *httptest.Server {
	t.Helper()
	deps := testDeps(t)
	for _, f := range adjust {
		f(&deps)
	}
	cfg.Embedder = EmbedderInfo{ID: embedder.ID(), Dim: embedder.Dim()}
	cfg.LLM = LLMInfo{Mode: "offline"}
	h := NewServer(cfg, deps)
	if c != nil {
		h = c.Handler(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// client sends JSON requests to a test server, with a key when it has one.
type client struct {
	t      testing.TB
	base   string
	key    string
	header http.Header // more headers of every request
}

// do sends method url with body (JSON-encoded unless it is []byte) and decodes the
// response into v when v is not nil; it returns the response.
func (c client) do(method, path string, body, v any) *http.Response {
	c.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	for k, v := range c.header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	if v != nil && len(b) > 0 && resp.Header.Get("Content-Type") != "application/x-ndjson" { // an export is not one JSON value
		if err := json.Unmarshal(b, v); err != nil {
			c.t.Fatalf("%s %s: %v: %s", method, path, err, b)
		}
	}
	return resp
}

// status sends a request and returns only the status.
func (c client) status(method, path string, body any) int {
	c.t.Helper()
	return c.do(method, path, body, nil).StatusCode
}

// remember ingests messages into the space at path sp (/v1/spaces/…), synchronously, and
// stops the test unless they were taken.
func (c client) remember(sp string, messages any) {
	c.t.Helper()
	if code := c.status("POST", sp+"/observations", map[string]any{"messages": messages}); code != http.StatusOK {
		c.t.Fatalf("ingest: %d", code)
	}
}

// awaitJob polls GET /v1/jobs/{id} until the job no longer runs, and decodes the job as
// it then is into v.
func (c client) awaitJob(id string, v any) {
	c.t.Helper()
	for i := 0; ; i++ {
		var j struct{ Status string }
		c.do("GET", "/v1/jobs/"+id, nil, &j)
		if j.Status != "running" {
			c.do("GET", "/v1/jobs/"+id, nil, v)
			return
		}
		if i > 600 {
			c.t.Fatalf("job %s still running", id)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// memories lists the memories of the space at sp (/v1/spaces/…) with the query given
// ("limit=100&q=…"), and stops the test unless the list is served.
func (c client) memories(sp, query string) []realm.Node {
	c.t.Helper()
	var page struct{ Memories []realm.Node }
	if code := c.do("GET", sp+"/memories?"+query, nil, &page).StatusCode; code != http.StatusOK {
		c.t.Fatalf("list memories?%s: %d", query, code)
	}
	return page.Memories
}

// recall asks the space at sp (/v1/spaces/…) and stops the test unless the recall is
// served.
func (c client) recall(sp string, body map[string]any) realm.RecallResult {
	c.t.Helper()
	var rec realm.RecallResult
	if code := c.do("POST", sp+"/recall", body, &rec).StatusCode; code != http.StatusOK {
		c.t.Fatalf("recall %q: %d", body["query"], code)
	}
	return rec
}

// said lists recalled nodes with their scores, best first, for a failure message.
func said(nodes []realm.RecalledNode) string {
	var out []string
	for _, n := range nodes {
		out = append(out, fmt.Sprintf("%.3f %s", n.Score, n.Node.Content))
	}
	return strings.Join(out, " | ")
}

// problemDoc is the part of a problem+json the tests read.
type problemDoc struct {
	Code   string
	Detail string
	Fields map[string]string
}
