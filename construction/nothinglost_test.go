package construction_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/agent/agenttest"
	"github.com/realm-memory/realm/agent/llm"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// fallbackCounter counts the LLM agent's fallback events by stage, as the metrics do.
type fallbackCounter struct {
	mu     sync.Mutex
	counts map[string]int
}

func (c *fallbackCounter) observe(e llm.Event) {
	if e.Kind != llm.LLMFallback {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.counts == nil {
		c.counts = map[string]int{}
	}
	c.counts[e.Stage] += e.Decisions
}

func (c *fallbackCounter) count(stage string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.counts[stage]
}

// memoriesFrom returns the memories of the space that derive from observation id.
func memoriesFrom(t *testing.T, store *cypher.Store, space, id string) []realm.Node {
	t.Helper()
	nodes, _, err := store.ListMemories(context.Background(), space, cypher.MemoryFilter{}, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []realm.Node
	for _, n := range nodes {
		for _, s := range n.Sources {
			if s == id {
				out = append(out, n)
			}
		}
	}
	return out
}

// TestNothingSaidLost: whatever the model answers, a message that says something ends
// with a memory that derives from it and holds what it said, unless a decision names the
// memory that already holds all of it.
func TestNothingSaidLost(t *testing.T) {
	const moved = "Big news: we moved from Lisbon to Berlin last week."
	holds := func(nodes []realm.Node, words ...string) bool {
		for _, n := range nodes {
			if n.Type != realm.Event && n.Type != realm.Fact {
				continue
			}
			all := true
			for _, w := range words {
				all = all && strings.Contains(n.Content, w)
			}
			if all {
				return true
			}
		}
		return false
	}

	t.Run("EmptyExtractionFallsBack", func(t *testing.T) {
		var fb fallbackCounter
		lp := newLLMPipeline(t, func(c *llm.Config) { c.Observe = fb.observe })
		// Schema-valid and empty, twice: the offline agent's unit is taken.
		empty := agenttest.JSON(t, extraction("Caroline shared news."), 50, 5)
		lp.fake.Enqueue(empty, empty)
		lp.fake.Handle(func(r agenttest.ChatRequest) agenttest.Response {
			return agenttest.JSON(t, integration(decision("C0", "add", "", "")), 50, 5)
		})
		r := lp.ingest(t, llmObs("o1", "Caroline", moved))
		if u := r.Usage[llm.StageExtract]; u.Calls != 2 || u.Failures != 2 || u.Fallbacks != 1 {
			t.Errorf("extract usage %+v, want an empty answer, its repair, then a fallback", u)
		}
		if n := fb.count(llm.StageExtract); n != 1 {
			t.Errorf("%d extract fallbacks observed, want 1", n)
		}
		if reqs := lp.fake.Requests(); !strings.Contains(reqs[1].LastUser(), "no event or fact candidate holds it") {
			t.Errorf("the repair does not say what is missing:\n%s", reqs[1].LastUser())
		}
		if got := memoriesFrom(t, lp.store, lp.space, "o1"); !holds(got, "Lisbon", "Berlin") {
			t.Errorf("memories from o1 %+v, want one holding what was said", got)
		}
	})

	t.Run("EntitiesOnlyRepaired", func(t *testing.T) {
		var fb fallbackCounter
		lp := newLLMPipeline(t, func(c *llm.Config) { c.Observe = fb.observe })
		lp.fake.Enqueue(
			agenttest.JSON(t, extraction("Caroline moved.", cand{Type: "entity", Name: "Berlin", Category: "place", Content: "Berlin is a city."}), 50, 5),
			agenttest.JSON(t, extraction("Caroline moved to Berlin.",
				cand{Type: "event", Name: "Caroline moves to Berlin", Content: "Caroline moved from Lisbon to Berlin in the week before 8 May 2023."}), 50, 5),
			agenttest.JSON(t, integration(decision("C0", "add", "", "")), 50, 5),
		)
		r := lp.ingest(t, llmObs("o1", "Caroline", moved))
		if u := r.Usage[llm.StageExtract]; u.Calls != 2 || u.Failures != 1 || u.Fallbacks != 0 || fb.count(llm.StageExtract) != 0 {
			t.Errorf("extract usage %+v, want the repair taken", u)
		}
		if got := memoriesFrom(t, lp.store, lp.space, "o1"); len(got) != 1 || !holds(got, "Caroline moved from Lisbon to Berlin") {
			t.Errorf("memories from o1 %+v, want the repaired event", got)
		}
	})

	t.Run("GreetingMayYieldNothing", func(t *testing.T) {
		lp := newLLMPipeline(t, nil)
		lp.fake.Enqueue(agenttest.JSON(t, extraction("Caroline greeted Melanie."), 50, 5))
		r := lp.ingest(t, llmObs("o1", "Caroline", "Hey Mel!"))
		if u := r.Usage[llm.StageExtract]; u.Calls != 1 || u.Failures != 0 || u.Fallbacks != 0 {
			t.Errorf("extract usage %+v, want an empty extraction of a greeting accepted", u)
		}
	})

	t.Run("SkipNamesTheHolder", func(t *testing.T) {
		var fb fallbackCounter
		lp := newLLMPipeline(t, func(c *llm.Config) { c.Observe = fb.observe })
		fact := cand{Type: "fact", Name: "Caroline lives in Berlin", Content: "Caroline lives in Berlin."}
		lp.fake.Enqueue(agenttest.JSON(t, extraction("Caroline lives in Berlin.", fact), 50, 5),
			agenttest.JSON(t, integration(decision("C0", "add", "", "")), 50, 5))
		first := lp.ingest(t, llmObs("o1", "Caroline", "I live in Berlin."))
		// The same again: a skip that names no neighbour is sent back, then one that
		// names the holder and says why is taken.
		lp.fake.Enqueue(agenttest.JSON(t, extraction("Caroline lives in Berlin.", fact), 50, 5),
			agenttest.JSON(t, integration(map[string]any{"candidate": "C0", "action": "skip", "merge_into": "", "merged_content": "", "reason": "", "edges": []any{}}), 50, 5))
		lp.fake.Handle(func(r agenttest.ChatRequest) agenttest.Response {
			r.Messages = r.Messages[:2] // the prompt, before the rejected answer and the repair
			ref := neighbourRef(t, r, "fact", "Caroline lives in Berlin")
			return agenttest.JSON(t, integration(decision("C0", "skip", ref, "")), 50, 5)
		})
		r := lp.ingest(t, llmObs("o2", "Caroline", "Did I tell you? I live in Berlin."))
		if len(r.Skipped) != 1 || len(r.Added) != 0 {
			t.Fatalf("result %+v, want the candidate skipped", r)
		}
		if u := r.Usage[llm.StageIntegrate]; u.Calls != 2 || u.Failures != 1 || fb.count(llm.StageIntegrate) != 0 {
			t.Errorf("integrate usage %+v, want a skip without its holder repaired", u)
		}
		reqs := lp.fake.Requests()
		if !strings.Contains(reqs[len(reqs)-1].LastUser(), "names the neighbour that holds it") {
			t.Errorf("the repair does not ask for the holder:\n%s", reqs[len(reqs)-1].LastUser())
		}
		if len(first.Added) != 1 {
			t.Fatalf("first result %+v", first)
		}
	})
}

// holderlessAgent skips every candidate without naming what holds it.
type holderlessAgent struct{ scriptAgent }

func (a *holderlessAgent) Integrate(ctx context.Context, in agent.IntegrateInput) ([]agent.Integration, realm.Usage, error) {
	out := make([]agent.Integration, len(in.Candidates))
	for i := range out {
		out[i] = agent.Integration{Action: agent.ActionSkip}
	}
	return out, realm.Usage{}, nil
}

// TestSkipWithoutHolderAdded: whatever the agent, a skip that names no neighbour holding
// the candidate is taken as an add.
func TestSkipWithoutHolderAdded(t *testing.T) {
	store := cyphertest.MustOpen(t)
	sp := cyphertest.NewSpace(t)
	q := construction.New(store, &holderlessAgent{}, bowEmbedder{}, construction.Options{Owner: "test-" + sp}, zerolog.Nop())
	t.Cleanup(func() { q.Close(context.Background()) })
	res := mustIngest(t, q, sp, msg("m1", "pet: Ann has a dog named Rex"))
	if len(res[0].Added) != 1 || len(res[0].Skipped) != 0 {
		t.Fatalf("result %+v, want the unjustified skip added", res[0])
	}
	if got := memoriesFrom(t, store, sp, "m1"); len(got) != 1 || got[0].Content != "Ann has a dog named Rex" {
		t.Errorf("memories from m1 %+v", got)
	}
}
