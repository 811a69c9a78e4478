package retrieval

import (
	"slices"
	"testing"
	"time"

	"github.com/realm-memory/realm"
)

func TestSelectTop(t *testing.T) {
	c := func(id string, typ realm.NodeType, score float64, sources ...string) *candidate {
		return &candidate{Node: realm.Node{ID: id, Type: typ, Sources: sources}, Score: score}
	}
	ranked := []*candidate{
		c("ent", realm.Entity, 0.95, "o1", "o2", "o3", "o4"),
		c("turn", realm.Event, 0.9, "o1"),        // within merged's provenance: merged takes its place
		c("clause", realm.Event, 0.85, "o1"),     // within merged's provenance: left out
		c("merged", realm.Fact, 0.8, "o1", "o2"), // says more than turn
		c("ep", realm.Episode, 0.75, "o1", "o2", "o3"),
		c("other", realm.Fact, 0.7, "o5"), // within wide's, but wide spans more than FullerMaxSources: kept
		c("nosrc", realm.Fact, 0.6),
		c("wide", realm.Fact, 0.5, "o5", "o6", "o7", "o8"),
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
		{10, []string{"merged", "other", "nosrc", "wide", "ent", "ep"}},
		{5, []string{"merged", "other", "nosrc", "wide", "ent"}},
		{2, []string{"merged", "other"}},
	}
	for _, tt := range tests {
		if got := ids(selectTop(ranked, tt.k)); !slices.Equal(got, tt.want) {
			t.Errorf("k=%d: %v, want %v", tt.k, got, tt.want)
		}
	}
	// merged stands where turn ranked, with turn's score: a client that keeps the nodes
	// above a score keeps it; the candidate itself keeps its own.
	top := selectTop(ranked, 10)
	var scores []float64
	for _, c := range top {
		scores = append(scores, c.Score)
	}
	if want := []float64{0.9, 0.7, 0.6, 0.5, 0.95, 0.75}; !slices.Equal(scores, want) {
		t.Errorf("scores %v, want %v", scores, want)
	}
	if ranked[3].Score != 0.8 {
		t.Errorf("merged's candidate score changed to %v", ranked[3].Score)
	}
	// A turn whose validity ended (its home changed) does not repeat its clause that still
	// holds (the job), only its clause that ended with it.
	ended := func(c *candidate) *candidate { c.Node.ValidUntil = &time.Time{}; return c }
	told := []*candidate{ended(c("turn", realm.Fact, 0.9, "o1")), c("job", realm.Fact, 0.8, "o1"), ended(c("home", realm.Fact, 0.7, "o1"))}
	if got := ids(selectTop(told, 10)); !slices.Equal(got, []string{"turn", "job"}) {
		t.Errorf("ended turn: %v, want [turn job]", got)
	}
	// Nor does an ended exchange take the place of its clause that still holds.
	told = []*candidate{c("job", realm.Fact, 0.8, "o2"), ended(c("exchange", realm.Fact, 0.4, "o1", "o2"))}
	if got := selectTop(told, 10); len(got) != 2 || got[0].Node.ID != "job" || got[1].Score != 0.4 {
		t.Errorf("ended exchange: %v, want job first, the exchange at its own score", ids(got))
	}
}
