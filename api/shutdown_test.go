package api

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// stuckAgent is the offline agent whose extractions last until their context ends, as a
// long batch outlasts the drain at shutdown; entered is closed at the first.
type stuckAgent struct {
	agent.Agent
	entered chan struct{}
	once    sync.Once
}

func (a *stuckAgent) Extract(ctx context.Context, _ agent.ExtractInput) (agent.Extraction, realm.Usage, error) {
	a.once.Do(func() { close(a.entered) })
	<-ctx.Done()
	return agent.Extraction{}, nil, ctx.Err()
}

// serveUntilCut serves the API with an ingestion stuck in its first extraction, and cuts
// its requests off (their base context cancelled with ErrShuttingDown) once one is there,
// as the drain at shutdown running out does. It returns the server and its store.
func serveUntilCut(t *testing.T) (*httptest.Server, *cypher.Store) {
	t.Helper()
	stuck := &stuckAgent{Agent: offline.New(offline.Options{}), entered: make(chan struct{})}
	deps := testDeps(t)
	deps.Ingest = construction.New(deps.Store, stuck, embedder, construction.Options{}, zerolog.Nop())
	t.Cleanup(deps.Ingest.Wait)
	requests, cutOff := context.WithCancelCause(context.Background())
	t.Cleanup(func() { cutOff(nil) })
	srv := httptest.NewUnstartedServer(apitest.New(t).Handler(NewServer(Config{
		Embedder: EmbedderInfo{ID: embedder.ID(), Dim: embedder.Dim()}, LLM: LLMInfo{Mode: "offline"}}, deps)))
	srv.Config.BaseContext = func(net.Listener) context.Context { return requests }
	srv.Start()
	t.Cleanup(srv.Close)
	go func() {
		<-stuck.entered // the batch is stored, its first message being integrated
		cutOff(ErrShuttingDown)
	}()
	return srv, deps.Store
}

// TestShutdownCutsOffIngest: a synchronous ingestion cut off when the drain at shutdown
// runs out (its requests' base context cancelled with ErrShuttingDown) answers 503
// unavailable saying its messages stay pending, and they do.
func TestShutdownCutsOffIngest(t *testing.T) {
	srv, store := serveUntilCut(t)
	space := cyphertest.NewSpace(t)
	var p problemDoc
	resp := client{t: t, base: srv.URL}.do("POST", "/v1/spaces/"+space+"/observations", map[string]any{"messages": []map[string]string{
		{"id": "m1", "speaker": "Ana", "content": "I moved to Lisbon in May.", "timestamp": "2024-05-01T10:00:00Z"},
		{"id": "m2", "speaker": "Ana", "content": "My sister lives in Porto.", "timestamp": "2024-05-01T10:01:00Z"},
	}}, &p)
	if resp.StatusCode != http.StatusServiceUnavailable || p.Code != realm.EUnavailable || p.Detail != errIngestCutOff.Message || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("ingestion cut off by the shutdown: %d %+v, Retry-After %q; want 503 %q", resp.StatusCode, p, resp.Header.Get("Retry-After"), errIngestCutOff.Message)
	}
	for _, id := range []string{"m1", "m2"} {
		if o, err := store.Observation(context.Background(), space, id); err != nil || o.Status != "pending" {
			t.Errorf("message %s after the cut: %+v %v, want it stored, pending", id, o, err)
		}
	}
}

// TestShutdownCutsOffMCP: an MCP call cut off when the drain at shutdown runs out is
// cancelled, as a route's request is (the SDK runs it in a context the request's end does
// not reach), and answers 503 with Retry-After, a JSON-RPC error of its id saying its
// messages stay pending; they do.
func TestShutdownCutsOffMCP(t *testing.T) {
	srv, store := serveUntilCut(t)
	space := cyphertest.NewSpace(t)
	resp, body := postMCP(t, srv.URL, "", []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"remember","arguments":`+
		`{"space":"`+space+`","messages":[{"id":"m1","speaker":"Ana","content":"I moved to Lisbon in May."}]}}}`))
	var rpc struct {
		ID    int
		Error struct {
			Code    int
			Message string
		}
	}
	if err := json.Unmarshal(body, &rpc); err != nil {
		t.Fatalf("%d %s: %v", resp.StatusCode, body, err)
	}
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || rpc.ID != 7 ||
		rpc.Error.Code != rpcServerError || !strings.Contains(rpc.Error.Message, errIngestCutOff.Message) {
		t.Fatalf("MCP call cut off by the shutdown: %d, Retry-After %q, %s; want 503 with the JSON-RPC error %q",
			resp.StatusCode, resp.Header.Get("Retry-After"), body, errIngestCutOff.Message)
	}
	if o, err := store.Observation(context.Background(), space, "m1"); err != nil || o.Status != "pending" {
		t.Errorf("the message after the cut: %+v %v, want it stored, pending", o, err)
	}
}
