package construction_test

import (
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestPastedWordsStored: with the offline agent, the memories stored keep who said what in
// a pasted transcript, each line's "I" its own speaker's whatever the name, and a date
// inside parentheses is resolved in them without a parenthesis inside another.
func TestPastedWordsStored(t *testing.T) {
	p, store := offlinePipeline(t)
	space := cyphertest.NewSpace(t)
	at := time.Date(2026, time.December, 7, 10, 0, 0, 0, time.UTC)
	mustIngest(t, p, space,
		realm.Observation{ID: "o1", SessionID: "s1", Speaker: "Dana", Role: "user", ObservedAt: at,
			Content: "Tom: I will email the ethics board.\nMarcus: I think the budget is too small."},
		realm.Observation{ID: "o2", SessionID: "s1", Speaker: "Dana", Role: "user", ObservedAt: at.Add(time.Minute),
			Content: "I read the Vaswani paper on attention (accessed 3 Dec)."},
	)
	byID, _ := graphOf(t, store, space, 100)
	for _, want := range []string{
		"Dana: Tom: Tom will email the ethics board.\nMarcus: Marcus thinks the budget is too small.",
		"Dana read the Vaswani paper on attention (accessed 3 Dec, 3 December 2026).",
	} {
		found := false
		for _, n := range byID {
			found = found || n.Content == want
		}
		if !found {
			var contents []string
			for _, n := range byID {
				contents = append(contents, n.Content)
			}
			t.Errorf("no memory %q among %q", want, contents)
		}
	}
}
