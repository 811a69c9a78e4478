package api

import (
	"net/http"
	"slices"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/reconsolidation"
)

// toolingMessages are a developer's notes on a project's tools: several say "we use".
var toolingMessages = []map[string]string{
	{"id": "t1", "session_id": "s1", "role": "user", "content": "We use pnpm for all JavaScript packages in this repo.", "timestamp": "2026-03-02T09:00:00Z"},
	{"id": "t2", "session_id": "s1", "role": "user", "content": "We use TypeScript 5.6 with strict mode turned on.", "timestamp": "2026-03-02T09:01:00Z"},
	{"id": "t3", "session_id": "s1", "role": "user", "content": "For Python we use ruff format instead of black.", "timestamp": "2026-03-02T09:02:00Z"},
	{"id": "t4", "session_id": "s1", "role": "user", "content": "Heads up: pnpm install fails on Node 18, so CI pins Node 20.", "timestamp": "2026-03-02T09:03:00Z"},
	{"id": "t5", "session_id": "s1", "role": "user", "content": "Priya reviews every database migration before it ships.", "timestamp": "2026-03-02T09:04:00Z"},
	{"id": "t6", "session_id": "s1", "role": "user", "content": "The staging server restarts every night at 2am.", "timestamp": "2026-03-02T09:05:00Z"},
}

// TestFeedbackReinforcesWhatItNames: feedback reinforces what it names, never the
// opposite. An answer confirmed right makes key evidence of the memory that states it
// (its own words, pnpm, not the question's "use"), and nothing else gains from it; a
// memory the client calls misleading gains no edge or weight: the edges that led to it
// are weakened and it gets a misleading link for the query, which the edit says, and it
// ranks lower when the query is asked again. An answer said wrong makes nothing key
// evidence.
func TestFeedbackReinforcesWhatItNames(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, toolingMessages)
	const query = "Which package manager do we use?"
	recall := func() (realm.RecallResult, map[string]string) {
		t.Helper()
		var rec realm.RecallResult
		if code := c.do("POST", sp+"/recall", map[string]any{"query": query}, &rec).StatusCode; code != http.StatusOK {
			t.Fatalf("recall: %d", code)
		}
		turn := map[string]string{} // the turn a recalled event or fact was said in → its id
		for _, n := range rec.Nodes {
			if (n.Node.Type == realm.Event || n.Node.Type == realm.Fact) && len(n.Node.Sources) == 1 {
				turn[n.Node.Sources[0]] = n.Node.ID
			}
		}
		for _, want := range []string{"t1", "t2", "t3", "t5"} {
			if turn[want] == "" {
				t.Fatalf("the memory of turn %s was not recalled: %+v", want, rec.Nodes)
			}
		}
		return rec, turn
	}
	feedback := func(traceID string, fb map[string]any) reconsolidation.Result {
		t.Helper()
		var res reconsolidation.Result
		if code := c.do("POST", sp+"/traces/"+traceID+"/feedback", fb, &res).StatusCode; code != http.StatusOK {
			t.Fatalf("feedback %v: %d", fb, code)
		}
		return res
	}

	t.Run("AnswerWords", func(t *testing.T) {
		rec, turn := recall()
		res := feedback(rec.TraceID, map[string]any{"answer": "We use pnpm, not npm.", "correct": true})
		pnpm := turn["t1"]
		for id, l := range res.Labels {
			if (id == pnpm) != (l == realm.KeyEvidence) {
				t.Errorf("%s (%s) is %s: want the pnpm memory alone key evidence", id, contentOf(rec, id), l)
			}
		}
		for _, e := range res.Edits {
			if e.From != pnpm && e.To != pnpm {
				t.Errorf("edit %s %s %s→%s: neither end states the answer", e.Action, e.Predicate, contentOf(rec, e.From), contentOf(rec, e.To))
			}
		}
	})

	// A wrong answer confirms nothing it relied on: no node is key evidence, the best
	// ranked included, and nothing gains from it.
	t.Run("WrongAnswer", func(t *testing.T) {
		for _, fb := range []map[string]any{{"correct": false}, {"answer": "We use npm.", "correct": false}} {
			rec, _ := recall()
			res := feedback(rec.TraceID, fb)
			if len(res.Labels) != len(rec.Nodes) {
				t.Errorf("%v: %d labels for %d recalled memories", fb, len(res.Labels), len(rec.Nodes))
			}
			for id, l := range res.Labels {
				if l == realm.KeyEvidence {
					t.Errorf("%v: %s (%s) is key evidence of a wrong answer", fb, id, contentOf(rec, id))
				}
			}
			for _, e := range res.Edits {
				if e.Action != realm.EditWeaken {
					t.Errorf("%v: edit %s %s %s→%s: a wrong answer strengthens", fb, e.Action, e.Predicate, contentOf(rec, e.From), contentOf(rec, e.To))
				}
			}
		}
	})

	t.Run("Misleading", func(t *testing.T) {
		rec, turn := recall()
		priya := turn["t5"]
		before := scoreOf(rec, priya)
		res := feedback(rec.TraceID, map[string]any{"misleading_node_ids": []string{priya}})
		if res.Labels[priya] != realm.Misleading {
			t.Errorf("the memory called misleading is %s", res.Labels[priya])
		}
		var logged struct{ Edits []realm.Edit }
		c.do("GET", sp+"/edits?trace="+rec.TraceID, nil, &logged)
		if len(logged.Edits) != len(res.Edits) {
			t.Fatalf("%d edits logged, %d applied", len(logged.Edits), len(res.Edits))
		}
		for _, edits := range [][]realm.Edit{res.Edits, logged.Edits} {
			for _, e := range edits {
				if e.From != priya && e.To != priya {
					continue
				}
				learned := e.Action == realm.EditAdd && e.To == priya && e.Label == realm.Misleading && e.Query == query
				if e.Action != realm.EditWeaken && !learned {
					t.Errorf("edit %s %s %s→%s, weight %g, label %q: the misleading memory gains", e.Action, e.Predicate, contentOf(rec, e.From), contentOf(rec, e.To), e.NewWeight, e.Label)
				}
			}
		}
		again, _ := recall()
		if after := scoreOf(again, priya); after >= before {
			t.Errorf("the misleading memory scores %g after the feedback, %g before", after, before)
		}
	})
}

// contentOf is the content of the recalled node id, else id.
func contentOf(rec realm.RecallResult, id string) string {
	for _, n := range rec.Nodes {
		if n.Node.ID == id {
			return n.Node.Content
		}
	}
	return id
}

// scoreOf is the score of the recalled node id, 0 when it was not recalled.
func scoreOf(rec realm.RecallResult, id string) float64 {
	i := slices.IndexFunc(rec.Nodes, func(n realm.RecalledNode) bool { return n.Node.ID == id })
	if i < 0 {
		return 0
	}
	return rec.Nodes[i].Score
}
