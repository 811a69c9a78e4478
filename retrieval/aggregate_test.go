package retrieval

import (
	"slices"
	"testing"

	"github.com/realm-memory/realm"
)

func TestSelectTop(t *testing.T) {
	c := func(id string, typ realm.NodeType, score float64, sources ...string) *candidate {
		return &candidate{Node: realm.Node{ID: id, Type: typ, Sources: sources}, Score: score}
	}
	ranked := []*candidate{
		c("ent", realm.Entity, 0.95, "o1", "o2", "o3", "o4"),
		c("turn", realm.Event, 0.9, "o1"),
		c("clause", realm.Event, 0.85, "o1"),     // within turn's provenance: left out
		c("merged", realm.Fact, 0.8, "o1", "o2"), // says more than turn: kept
		c("ep", realm.Episode, 0.75, "o1", "o2", "o3"),
		c("other", realm.Fact, 0.7, "o5"),
		c("nosrc", realm.Fact, 0.6),
	}
	ids := func(cs []*candidate) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Node.ID)
		}
		return out
	}
	tests := []struct {
		k    int
		want []string
	}{
		{10, []string{"turn", "merged", "other", "nosrc", "ent", "ep"}},
		{5, []string{"turn", "merged", "other", "nosrc", "ent"}},
		{2, []string{"turn", "merged"}},
	}
	for _, tt := range tests {
		if got := ids(selectTop(ranked, tt.k)); !slices.Equal(got, tt.want) {
			t.Errorf("k=%d: %v, want %v", tt.k, got, tt.want)
		}
	}
}
