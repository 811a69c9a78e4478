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
	says := func(c *candidate, content string) *candidate { c.Node.Content = content; return c }
	ranked := []*candidate{
		c("ent", realm.Entity, 0.95, "o1", "o2", "o3", "o4"),
		says(c("turn", realm.Event, 0.9, "o1"), "Maya ran 5 km."),                     // within merged's provenance: merged takes its place
		says(c("clause", realm.Event, 0.85, "o1"), "Maya's legs felt heavy."),         // within merged's provenance: left out
		says(c("merged", realm.Fact, 0.8, "o1", "o2"), "Maya ran 5 km by the river."), // says more than turn
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
		// Fewer than K left: the repeats fill it, best first, but turn, which merged says
		// (it replaced it): each thing said comes back once.
		{10, []string{"merged", "other", "nosrc", "wide", "ent", "ep", "clause"}},
		{7, []string{"merged", "other", "nosrc", "wide", "ent", "ep", "clause"}},
		{5, []string{"merged", "other", "nosrc", "wide", "ent"}},
		{2, []string{"merged", "other"}},
	}
	for _, tt := range tests {
		got, replaced := selectTop(ranked, tt.k)
		if !slices.Equal(ids(got), tt.want) {
			t.Errorf("k=%d: %v, want %v", tt.k, ids(got), tt.want)
		}
		if want := []realm.TraceReplaced{{ID: "turn", By: "merged"}}; !slices.Equal(replaced, want) {
			t.Errorf("k=%d: replaced %v, want %v", tt.k, replaced, want)
		}
	}
	// merged stands where turn ranked, with turn's score: a client that keeps the nodes
	// above a score keeps it; the candidate itself keeps its own.
	top, _ := selectTop(ranked, 6)
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
	if got, _ := selectTop(told, 2); !slices.Equal(ids(got), []string{"turn", "job"}) {
		t.Errorf("ended turn: %v, want [turn job]", ids(got))
	}
	// A correction keeps the sources of the clause it corrects: it is no repeat of the
	// whole message they told, nor the message of it, whichever ranks first. A newer
	// version the message says (a move it told) repeats it.
	said := func(c *candidate, content string, newer bool) *candidate {
		c.Node.Content, c.Newer = content, newer
		return c
	}
	whole := func(score float64) *candidate {
		return said(c("whole", realm.Fact, score, "o1"), "Maya lives on Elm Street in Leeds. Work at Brightline keeps Maya busy.", false)
	}
	other := said(c("other", realm.Fact, 0.7, "o2"), "Maya's sister works in a bakery.", false)
	for _, tt := range []struct {
		told []*candidate
		want []string
	}{
		{[]*candidate{whole(0.9), said(c("correction", realm.Fact, 0.8, "o1"), "Maya lives on Canal Road in Manchester.", true), other}, []string{"whole", "correction"}},
		{[]*candidate{said(c("correction", realm.Fact, 0.9, "o1"), "Maya lives on Canal Road in Manchester.", true), whole(0.8), other}, []string{"correction", "whole"}},
		{[]*candidate{whole(0.9), said(c("moved", realm.Fact, 0.8, "o1"), "Maya lives on Elm Street in Leeds.", true), other}, []string{"whole", "other"}},
	} {
		if got, _ := selectTop(tt.told, 2); !slices.Equal(ids(got), tt.want) {
			t.Errorf("newer version: %v, want %v", ids(got), tt.want)
		}
	}
	// A clause said of a message returned whole does not fill K beside it; the whole
	// message, a repeat of its clause returned, takes the clause's place, with its score.
	clause := func(score float64) *candidate {
		return said(c("clause", realm.Event, score, "o9"), "Maya ran 5 km along the river.", false)
	}
	entry := func(score float64) *candidate {
		return said(c("entry", realm.Event, score, "o9"), "Maya ran 5 km along the river. Her legs felt heavy.", false)
	}
	if got, replaced := selectTop([]*candidate{entry(0.9), clause(0.8)}, 10); !slices.Equal(ids(got), []string{"entry"}) || replaced != nil {
		t.Errorf("clause of an entry returned: %v replaced %v, want [entry]", ids(got), replaced)
	}
	got, replaced := selectTop([]*candidate{clause(0.9), entry(0.8)}, 10)
	if !slices.Equal(ids(got), []string{"entry"}) || got[0].Score != 0.9 || !slices.Equal(replaced, []realm.TraceReplaced{{ID: "clause", By: "entry"}}) {
		t.Errorf("entry of a clause returned: %v replaced %v, want [entry] at 0.9, replacing clause", ids(got), replaced)
	}
	// Nor does an ended exchange take the place of its clause that still holds.
	told = []*candidate{c("job", realm.Fact, 0.8, "o2"), ended(c("exchange", realm.Fact, 0.4, "o1", "o2"))}
	if got, _ := selectTop(told, 10); len(got) != 2 || got[0].Node.ID != "job" || got[1].Score != 0.4 {
		t.Errorf("ended exchange: %v, want job first, the exchange at its own score", ids(got))
	}
}

// TestSelectTopFullerSaysAll: a node gives way to one of more turns holding its
// provenance only when that one says every word it says: not a correction, which keeps
// the provenance of what it corrects, nor a turn whose date the exchange quotes unresolved.
func TestSelectTopFullerSaysAll(t *testing.T) {
	c := func(id string, score float64, content string, sources ...string) *candidate {
		return &candidate{Node: realm.Node{ID: id, Type: realm.Event, Content: content, Sources: sources}, Score: score}
	}
	exchange := c("exchange", 0.7, `user said: "user ordered a blender last week, order 5521." assistant: Thanks for waiting. user's blender will arrive on June 3 (3 June 2026).`, "q1", "q2")
	refund := c("exchange", 0.7, `assistant said: "assistant issued a refund for order 7731 today." Great, thanks.`, "r2", "r3")
	tests := []struct {
		name     string
		ranked   []*candidate
		want     []string
		replaced []realm.TraceReplaced
	}{
		{"TurnGivesWay", []*candidate{c("turn", 0.9, "assistant: user's blender will arrive on June 3 (3 June 2026).", "q2"), exchange},
			[]string{"exchange"}, []realm.TraceReplaced{{ID: "turn", By: "exchange"}}},
		{"Correction", []*candidate{c("correction", 0.9, "The blender will arrive on June 9 (9 June 2026).", "q2"), exchange},
			[]string{"correction", "exchange"}, nil},
		{"DateResolved", []*candidate{c("turn", 0.9, "assistant: assistant issued a refund for order 7731 today (22 March 2026).", "r2"), refund},
			[]string{"turn", "exchange"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			top, replaced := selectTop(tt.ranked, 10)
			var got []string
			for _, c := range top {
				got = append(got, c.Node.ID)
			}
			if !slices.Equal(got, tt.want) || !slices.Equal(replaced, tt.replaced) || top[0].Score != 0.9 {
				t.Errorf("%v replaced %v (first at %v), want %v replaced %v at 0.9", got, replaced, top[0].Score, tt.want, tt.replaced)
			}
		})
	}
}
