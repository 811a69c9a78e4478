package api

import (
	"slices"
	"testing"

	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestRecallWhoseFact: the memories of a health assistant keep whose fact each is ("user's
// brother is allergic to shellfish"): a question about the asker ("What am I allergic
// to?") recalls the asker's facts before their family's, and a question about a relative
// ("What is my mother allergic to?") that relative's before the asker's and other
// relatives'.
func TestRecallWhoseFact(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	c.remember(sp, []any{
		userSaid("self-allergy", "I'm allergic to peanuts and I carry an EpiPen.", "2026-03-01T09:00:00Z"),
		userSaid("brother-allergy", "My brother is allergic to shellfish.", "2026-03-01T09:01:00Z"),
		userSaid("mother-allergy", "My mother is allergic to latex.", "2026-03-01T09:02:00Z"),
		userSaid("dad-meds", "My dad takes warfarin 5 mg.", "2026-03-01T09:03:00Z"),
		userSaid("self-meds", "I take levothyroxine 75 mcg every morning.", "2026-03-01T09:04:00Z"),
		userSaid("mother-diabetes", "My mother has type 2 diabetes.", "2026-03-01T09:05:00Z"),
		userSaid("self-asthma", "I have asthma and use an albuterol inhaler.", "2026-03-01T09:06:00Z"),
		userSaid("mother-meds", "My mom takes metformin twice a day.", "2026-03-01T09:07:00Z"),
		userSaid("self-diabetes", "I have type 1 diabetes.", "2026-03-01T09:08:00Z"),
	})
	for query, want := range map[string]string{
		"What am I allergic to?":                  "self-allergy",
		"What medications do I take?":             "self-meds",
		"What is my mother allergic to?":          "mother-allergy",
		"What medications does my dad take?":      "dad-meds",
		"What medications does my mom take?":      "mother-meds",
		"Does my mother have diabetes?":           "mother-diabetes",
		"Do I have diabetes?":                     "self-diabetes",
		"What kind of diabetes does my mom have?": "mother-diabetes",
	} {
		rec := c.recall(sp, map[string]any{"query": query})
		if len(rec.Nodes) == 0 || !slices.Contains(rec.Nodes[0].Node.Sources, want) {
			t.Errorf("%q: want the memory of %s first: %s", query, want, said(rec.Nodes))
		}
	}
}
