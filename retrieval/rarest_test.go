package retrieval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
)

// TestKeepRarest: with K = 3, "Boston" held only by the 5th event, that event takes the
// 3rd place with the 3rd's score when the seed search found it, and stays where it is
// when expansion reached it; an event within the first K holding it changes nothing.
func TestKeepRarest(t *testing.T) {
	for _, tc := range []struct {
		name   string
		at     int // the Boston event's place in the ranking
		depth  int
		want   string
		scored float64 // the Boston event's score after
	}{
		{"a seed ranked 5th", 4, 0, "e0 e1 boston e2 e3", 0.8},
		{"reached by expansion", 4, 1, "e0 e1 e2 e3 boston", 0.6},
		{"a seed ranked 2nd", 1, 0, "e0 boston e1 e2 e3", 0.9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ids := []string{"e0", "e1", "e2", "e3"}
			ids = append(ids[:tc.at], append([]string{"boston"}, ids[tc.at:]...)...)
			var ranked []*candidate
			for i, id := range ids {
				c := &candidate{Node: realm.Node{ID: id, Type: realm.Event, Content: fmt.Sprintf("Met Jonas at Hooli about renewal %d.", i)}, Score: 1 - float64(i)/10}
				if id == "boston" {
					c.Node.Content, c.Depth = "Met Priya in Boston.", tc.depth
				}
				ranked = append(ranked, c)
			}
			run := &run{set: settings{K: 3}, plans: []realm.Plan{{Keywords: []string{"meet", "Boston"}}}}
			var got []string
			for _, c := range run.keepRarest(ranked) {
				got = append(got, c.Node.ID)
				if c.Node.ID == "boston" && c.Score != tc.scored {
					t.Errorf("boston scored %v, want %v", c.Score, tc.scored)
				}
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("got %s, want %s", strings.Join(got, " "), tc.want)
			}
		})
	}
}
