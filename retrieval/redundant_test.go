package retrieval

import (
	"testing"

	"github.com/realm-memory/realm"
)

// TestPartsNotRedundant: the parts of one long message share its provenance, yet a part
// repeats no other (the results of a pasted paper are not its methods), while a clause of
// the message still repeats the part picked before it.
func TestPartsNotRedundant(t *testing.T) {
	node := func(desc string) *candidate {
		return &candidate{Node: realm.Node{Type: realm.Event, Description: desc, Sources: []string{"smith"}}}
	}
	part1 := node("Said by Dana on 20 November 2026. Part 1 of 2.")
	part2 := node("Said by Dana on 20 November 2026. Part 2 of 2.")
	clause := node("Said by Dana on 20 November 2026.")
	if redundant(part2, []*candidate{part1}) {
		t.Error("part 2 repeats part 1")
	}
	if !redundant(clause, []*candidate{part1}) {
		t.Error("a clause of the message does not repeat its part")
	}
}
