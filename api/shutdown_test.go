package api

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/construction"
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

// TestShutdownCutsOffIngest: a synchronous ingestion cut off when the drain at shutdown
// runs out (its requests' base context cancelled with ErrShuttingDown) answers 503
// unavailable saying its messages stay pending, and they do.
func TestShutdownCutsOffIngest(t *testing.T) {
	stuck := &stuckAgent{Agent: offline.New(offline.Options{}), entered: make(chan struct{})}
	deps := testDeps(t)
	deps.Ingest = construction.New(deps.Store, stuck, embedder, construction.Options{}, zerolog.Nop())
	t.Cleanup(deps.Ingest.Wait)
	requests, cutOff := context.WithCancelCause(context.Background())
	defer cutOff(nil)
	srv := httptest.NewUnstartedServer(apitest.New(t).Handler(NewServer(Config{
		Embedder: EmbedderInfo{ID: embedder.ID(), Dim: embedder.Dim()}, LLM: LLMInfo{Mode: "offline"}}, deps)))
	srv.Config.BaseContext = func(net.Listener) context.Context { return requests }
	srv.Start()
	t.Cleanup(srv.Close)
	space := cyphertest.NewSpace(t)

	go func() {
		<-stuck.entered // the batch is stored, its first message being integrated
		cutOff(ErrShuttingDown)
	}()
	var p problemDoc
	resp := client{t: t, base: srv.URL}.do("POST", "/v1/spaces/"+space+"/observations", map[string]any{"messages": []map[string]string{
		{"id": "m1", "speaker": "Ana", "content": "I moved to Lisbon in May.", "timestamp": "2024-05-01T10:00:00Z"},
		{"id": "m2", "speaker": "Ana", "content": "My sister lives in Porto.", "timestamp": "2024-05-01T10:01:00Z"},
	}}, &p)
	if resp.StatusCode != http.StatusServiceUnavailable || p.Code != realm.EUnavailable || p.Detail != errIngestCutOff.Message || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("ingestion cut off by the shutdown: %d %+v, Retry-After %q; want 503 %q", resp.StatusCode, p, resp.Header.Get("Retry-After"), errIngestCutOff.Message)
	}
	for _, id := range []string{"m1", "m2"} {
		if o, err := deps.Store.Observation(context.Background(), space, id); err != nil || o.Status != "pending" {
			t.Errorf("message %s after the cut: %+v %v, want it stored, pending", id, o, err)
		}
	}
}
