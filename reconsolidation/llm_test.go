package reconsolidation_test

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/agenttest"
	"github.com/realm-memory/realm/agent/llm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/reconsolidation"
)

// TestLLMAuditorLearnedLinks: the LLM auditor, as /answer's automatic reconsolidation
// runs it (the answer, no client feedback, source auto), against the scripted fake. Its
// labels are a judgement of the nodes, so they become learned links carrying the query:
// to the node it calls key evidence from its anchor, and to the one it calls misleading
// from the key node, unconfirmed (c = 0.6: w = γ·0.6). When the model's answers are
// invalid twice (one repair), the offline auditor's word overlap stands in and learns no
// link.
func TestLLMAuditorLearnedLinks(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	fake := agenttest.NewFakeOpenAI(t)
	lm, err := llm.New(llm.Config{BaseURL: fake.BaseURL(), APIKey: "test", Models: llm.Models{Extraction: "test-model"},
		Timeout: 5 * time.Second, MaxRetries: -1}, offline.New(offline.Options{}), zerolog.New(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	cfg := reconsolidation.DefaultConfig()
	r := reconsolidation.New(s, lm, cfg, zerolog.Nop())
	learned := func(space string, ids map[string]string) map[string]realm.Edge {
		t.Helper()
		edges, err := s.InducedEdges(ctx, space, []string{ids["s"], ids["k"], ids["m"]})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]realm.Edge{}
		for _, e := range edges {
			if e.Query != "" {
				out[e.From+">"+e.To] = e
			}
		}
		return out
	}

	t.Run("Judged", func(t *testing.T) {
		space, traceID, ids := traced(t, s)
		// The trace lists s, k, m best first: M1, M2, M3 in the prompt.
		fake.Enqueue(agenttest.JSON(t, map[string]any{"labels": []map[string]string{
			{"node": "M1", "label": "supporting_context"}, {"node": "M2", "label": "key_evidence"}, {"node": "M3", "label": "misleading"}},
			"edits": []map[string]any{}}, 60, 20))
		res, err := r.Reconsolidate(ctx, space, traceID, reconsolidation.Request{Answer: "On 7 May 2023.", Source: realm.EditSourceAuto})
		if err != nil {
			t.Fatal(err)
		}
		if res.Confirmed || res.Labels[ids["k"]] != realm.KeyEvidence || res.Labels[ids["m"]] != realm.Misleading || res.Usage[llm.StageAudit].Calls != 1 {
			t.Fatalf("result %+v", res)
		}
		links := learned(space, ids)
		key, mis := links[ids["s"]+">"+ids["k"]], links[ids["k"]+">"+ids["m"]]
		if len(links) != 2 || key.Label != realm.KeyEvidence || mis.Label != realm.Misleading || key.Predicate != realm.Contextualizes {
			t.Fatalf("learned links %+v; want s→k key evidence and k→m misleading", links)
		}
		want, _ := cfg.Rule(false).Add(0.6)
		if key.Query != "When did Caroline go to the LGBTQ support group?" || key.Weight != want || mis.Weight != want {
			t.Errorf("learned links %+v, %+v: want the trace's query, weight %v", key, mis, want)
		}
	})
	t.Run("WrongAnswer", func(t *testing.T) {
		// The client says the answer was wrong: the model's key evidence for it is no
		// ground to learn from (the node it calls misleading still is).
		space, traceID, ids := traced(t, s)
		fake.Enqueue(agenttest.JSON(t, map[string]any{"labels": []map[string]string{
			{"node": "M1", "label": "supporting_context"}, {"node": "M2", "label": "key_evidence"}, {"node": "M3", "label": "misleading"}},
			"edits": []map[string]any{}}, 60, 20))
		wrong := false
		if _, err := r.Reconsolidate(ctx, space, traceID, reconsolidation.Request{Answer: "On 7 May 2023.",
			Feedback: &realm.Feedback{Correct: &wrong}}); err != nil {
			t.Fatal(err)
		}
		links := learned(space, ids)
		for _, e := range links {
			if e.Label == realm.KeyEvidence {
				t.Errorf("learned link %+v labels key evidence of an answer the client called wrong", e)
			}
		}
		if len(links) != 1 || links[ids["s"]+">"+ids["m"]].Label != realm.Misleading {
			t.Errorf("learned links %+v; want s→m misleading alone", links)
		}
	})
	t.Run("FallbackLearnsNothing", func(t *testing.T) {
		space, traceID, ids := traced(t, s)
		fake.Enqueue(agenttest.Response{Content: "not json"}, agenttest.Response{Content: "still not json"})
		res, err := r.Reconsolidate(ctx, space, traceID, reconsolidation.Request{Answer: "On 7 May 2023.", Source: realm.EditSourceAuto})
		if err != nil {
			t.Fatal(err)
		}
		if res.Usage[llm.StageAudit].Fallbacks != 1 || len(res.Edits) == 0 {
			t.Fatalf("result %+v: want the offline auditor's edits after a counted fallback", res)
		}
		if links := learned(space, ids); len(links) != 0 {
			t.Errorf("learned links %+v from word overlap", links)
		}
	})
}
