package retrieval

import (
	"testing"

	"github.com/realm-memory/realm"
)

// TestPartsNotRedundant: the parts of one long message share its provenance, yet a part
// repeats no other (the results of a pasted paper are not its methods), while a clause of
// the message still repeats the part picked before it, and a part repeats a clause picked
// before it only when the clause says all the part says.
func TestPartsNotRedundant(t *testing.T) {
	node := func(desc, content string) *candidate {
		return &candidate{Node: realm.Node{Type: realm.Event, Description: desc, Content: content, Sources: []string{"smith"}}}
	}
	part1 := node("Said by Dana on 20 November 2026. Part 1 of 2.", "Methods: 40 sleepers.")
	part2 := node("Said by Dana on 20 November 2026. Part 2 of 2.",
		"Decision (earlier draft): we migrate the billing database in February. Decision: we keep the billing database on MySQL; the migration is postponed to Q3.")
	clause := node("Said by Dana on 20 November 2026.", "Decision (earlier draft): we migrate the billing database in February.")
	if redundant(part2, []*candidate{part1}) {
		t.Error("part 2 repeats part 1")
	}
	if !redundant(clause, []*candidate{part1}) {
		t.Error("a clause of the message does not repeat its part")
	}
	if redundant(part2, []*candidate{clause}) {
		t.Error("the part holding the decision repeats a clause of one sentence of it")
	}
	if whole := node("Said by Dana on 20 November 2026.", part2.Node.Content); !redundant(part2, []*candidate{whole}) {
		t.Error("a part does not repeat a node saying all it says")
	}
}
