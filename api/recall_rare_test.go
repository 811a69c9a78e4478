package api

import (
	"fmt"
	"slices"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestRecallRareWord: the one note naming Boston answers "Who did I meet in Boston?"
// among many that say who was met elsewhere, and closer to the question by similarity.
func TestRecallRareWord(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	note := func(id, content string, day int) map[string]any {
		return map[string]any{"id": id, "speaker": "Sam Carter", "content": content, "timestamp": fmt.Sprintf("2026-03-%02dT10:00:00Z", day)}
	}
	people := []string{"Jonas", "Emil", "Zoe", "Iris", "Lena Ortiz", "Pedro Braun"}
	topics := []string{"the upcoming renewal", "a billing mismatch", "training for new hires", "a support escalation"}
	steps := []string{"share the case study", "schedule a follow-up in two weeks", "book a call with their legal team"}
	var notes []any
	for i := range 24 {
		notes = append(notes, note(fmt.Sprintf("met%d", i), fmt.Sprintf("Met %s at Hooli about %s; next step: %s.",
			people[i%len(people)], topics[i/len(people)], steps[i%len(steps)]), 1+i))
	}
	notes = append(notes, note("boston", "Met Priya Shah from Acme in Boston for the quarterly business review.", 28))
	c.remember(sp, notes)
	rec := c.recall(sp, map[string]any{"query": "Who did I meet in Boston?", "k": 10})
	if !slices.ContainsFunc(rec.Nodes, func(n realm.RecalledNode) bool { return slices.Contains(n.Node.Sources, "boston") }) {
		t.Errorf("want the note of Boston in the top 10: %s", said(rec.Nodes))
	}
}
