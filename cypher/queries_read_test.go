package cypher

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
)

// The expansion statements name the memory relationship types in their patterns (so
// that provenance edges are not read): every such list is exactly the predicates'.
func TestReadStatementsNameEveryPredicate(t *testing.T) {
	want := relTypes(realm.Predicates)
	slices.Sort(want)
	list := regexp.MustCompile(`\[r\d?:([A-Z_|\s]+)\]`)
	for _, q := range []query{qExpandNeighbours, qExpandPaths, qInducedEdges} {
		lists := list.FindAllStringSubmatch(q.text, -1)
		if len(lists) == 0 {
			t.Errorf("%s names no relationship types", q.name)
		}
		for _, m := range lists {
			got := strings.Fields(strings.ReplaceAll(m[1], "|", " "))
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("%s names %v, want the predicates' %v", q.name, got, want)
			}
		}
	}
}
