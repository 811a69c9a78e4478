package construction_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/agent/agenttest"
	"github.com/realm-memory/realm/agent/llm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// txFreeEmbedder is bowEmbedder that waits, before it embeds, until no transaction of
// store is open: a transaction that waited for the embedder would never end, and the
// test fails after a while. Reads beside the embedder are allowed (they end by
// themselves): a run reads what needs no vector while its candidates are embedded.
type txFreeEmbedder struct {
	bowEmbedder
	tb    testing.TB
	store *cypher.Store
	calls atomic.Int32
}

func (e *txFreeEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	e.calls.Add(1)
	for waited := time.Duration(0); e.store.OpenTransactions() != 0; waited += time.Millisecond {
		if waited > 10*time.Second {
			e.tb.Errorf("a transaction stayed open while the embedder waited for it to end: %d open", e.store.OpenTransactions())
			break
		}
		time.Sleep(time.Millisecond)
	}
	return e.bowEmbedder.Embed(ctx, texts)
}

// afterIntegrate is Agent that runs then once, after its first decision and before the
// pipeline applies it.
type afterIntegrate struct {
	agent.Agent
	then func()
	once sync.Once
}

func (a *afterIntegrate) Integrate(ctx context.Context, in agent.IntegrateInput) ([]agent.Integration, realm.Usage, error) {
	out, usage, err := a.Agent.Integrate(ctx, in)
	a.once.Do(a.then)
	return out, usage, err
}

// TestReadDecideApply: construction reads the neighbourhood, asks the model with no
// transaction open and the embedder with none waiting for it, then applies; when the
// neighbourhood changed meanwhile (another writer added a memory while the model was
// deciding), the apply writes nothing and the integration is decided again on the new
// neighbourhood.
func TestReadDecideApply(t *testing.T) {
	ctx := context.Background()
	cyphertest.MustOpen(t) // the schema and the erasure of the test's space, or a skip without Neo4j
	// A store of this test alone, so that its count of open transactions is this test's.
	store, err := cypher.Open(ctx, cyphertest.Config())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close(context.Background()) })
	space := cyphertest.NewSpace(t)
	emb := &txFreeEmbedder{tb: t, store: store}
	fake := agenttest.NewFakeOpenAI(t)
	lm, err := llm.New(llm.Config{BaseURL: fake.BaseURL(), APIKey: "test", Models: llm.Models{Extraction: "test-model"}, Timeout: 10 * time.Second},
		offline.New(offline.Options{}), zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	other := construction.New(store, &scriptAgent{}, emb, construction.Options{Owner: "other-" + space}, zerolog.Nop())
	// Once the model decided on the first neighbourhood, before the decision is applied,
	// another writer adds a memory near the candidate. Not in the model's reply: it would
	// wait for that whole ingestion, past the model's timeout on a loaded machine, and the
	// model would be asked again.
	writeAfterDecision := &afterIntegrate{Agent: lm, then: func() {
		if _, err := other.Ingest(ctx, space, []realm.Observation{msg("x1", "home: Ann lives in Rome")}); err != nil {
			t.Error(err)
		}
	}}
	p := construction.New(store, writeAfterDecision, emb, construction.Options{Owner: "llm-" + space}, zerolog.Nop())
	t.Cleanup(func() { p.Close(context.Background()); other.Close(context.Background()) })

	var integrateCalls atomic.Int32
	var firstPrompt, secondPrompt string
	fake.Handle(func(r agenttest.ChatRequest) agenttest.Response {
		if n := store.OpenTransactions(); n != 0 {
			t.Errorf("model called with %d transactions open", n)
		}
		if r.SchemaName() == "realm_extraction" {
			return agenttest.JSON(t, extraction("Ann lives in Rome.",
				cand{Type: "fact", Name: "Ann lives in Rome", Content: "Ann lives in Rome, in Trastevere.", Keywords: []string{"Rome"}}), 100, 20)
		}
		switch integrateCalls.Add(1) {
		case 1:
			firstPrompt = r.LastUser()
			return agenttest.JSON(t, integration(decision("C0", "add", "", "")), 100, 10)
		default:
			secondPrompt = r.LastUser()
			ref := neighbourRef(t, r, "fact", "home")
			return agenttest.JSON(t, integration(decision("C0", "merge", ref, "Ann lives in Rome, in Trastevere.")), 100, 10)
		}
	})
	res, err := p.Ingest(ctx, space, []realm.Observation{llmObs("o1", "Ann", "I live in Rome, in Trastevere.")})
	if err != nil {
		t.Fatal(err)
	}
	r := res[0]
	if r.Status != construction.StatusIntegrated || len(r.Added) != 0 || len(r.Merged) != 1 {
		t.Fatalf("result %+v, want one merge into the memory added meanwhile", r)
	}
	if n := integrateCalls.Load(); n != 2 {
		t.Fatalf("%d integrate calls, want 2: the decision made on the old neighbourhood was applied", n)
	}
	if strings.Contains(firstPrompt, "home:") || !strings.Contains(secondPrompt, "Ann lives in Rome") {
		t.Errorf("the second decision was not asked on the new neighbourhood:\n%s", secondPrompt)
	}
	if u := r.Usage[llm.StageIntegrate]; u.Calls != 2 {
		t.Errorf("integrate usage %+v, want both calls counted", u)
	}
	n, _, err := store.GetMemory(ctx, space, r.Merged[0])
	if err != nil {
		t.Fatal(err)
	}
	if n.Content != "Ann lives in Rome, in Trastevere." || len(n.Sources) != 2 {
		t.Errorf("merged memory %+v, want the merged content from x1 and o1", n)
	}
	if emb.calls.Load() < 3 { // o1's candidate, x1's candidate, o1's merge
		t.Errorf("%d embedder calls, want the merge re-embedded too", emb.calls.Load())
	}
	if st := mustStats(t, store, space); st.Memories != 1 || st.ObservationsPending != 0 {
		t.Errorf("stats %+v, want one memory and nothing pending", st)
	}
}
