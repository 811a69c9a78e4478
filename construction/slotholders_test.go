package construction_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestMoveSupersedesInACrowdedSpace: a move supersedes the old home however many
// memories are more similar to it than the home is — here 60 lunches "in Lisbon last
// weekend", far more than a neighbourhood holds (construction.Options.NeighbourK by
// vector and by keywords): the home, the current holder of the slot, is read as such.
// Sent one by one, the move goes the single-observation way, in a batch as a run.
func TestMoveSupersedesInACrowdedSpace(t *testing.T) {
	p, store := offlinePipeline(t)
	const home = "Nora lives in Lisbon, in an apartment near Alfama."
	friends := []string{"Marta", "Jonas", "Priya", "Keiko", "Liam", "Sofia"}
	foods := []string{"ramen", "paella", "sushi", "falafel", "tacos", "curry", "pho", "risotto", "pierogi", "bibimbap"}
	at := time.Date(2025, 2, 1, 18, 0, 0, 0, time.UTC)
	history := []realm.Observation{{ID: "home", SessionID: "s0", Speaker: "Nora", Content: "I live in Lisbon, in an apartment near Alfama.", ObservedAt: at}}
	for i := range 60 {
		day := at.AddDate(0, 0, 7*(i+1))
		history = append(history, realm.Observation{ID: fmt.Sprintf("lunch%d", i), SessionID: fmt.Sprintf("s%d", i+1), Speaker: "Nora",
			Content:    fmt.Sprintf("We had %s with %s in Lisbon last weekend, the new place is in Alfama.", foods[i%len(foods)], friends[i%len(friends)]),
			ObservedAt: day})
	}
	move := realm.Observation{ID: "move", SessionID: "s-move", Speaker: "Nora", Content: "We moved to Berlin last weekend, the new flat is in Kreuzberg.", ObservedAt: at.AddDate(0, 0, 7*62)}
	for _, tt := range []struct {
		name  string
		batch bool
	}{{"OneObservation", false}, {"Run", true}} {
		t.Run(tt.name, func(t *testing.T) {
			space := cyphertest.NewSpace(t)
			mustIngest(t, p, space, history...)
			if tt.batch {
				mustIngest(t, p, space, realm.Observation{ID: "hi", SessionID: "s-move", Speaker: "Sam", Content: "Hi Nora, long time no see!", ObservedAt: move.ObservedAt.Add(-time.Minute)}, move)
			} else {
				mustIngest(t, p, space, move)
			}
			nodes, edges, err := store.Graph(context.Background(), space, "", 0, 1000)
			if err != nil {
				t.Fatal(err)
			}
			byID := map[string]realm.Node{}
			for _, n := range nodes {
				byID[n.ID] = n
			}
			for _, n := range nodes {
				if n.Content != home {
					continue
				}
				for _, e := range edges {
					if e.Predicate == realm.Supersedes && e.To == n.ID && byID[e.From].Sources[0] == "move" && n.ValidUntil != nil {
						return
					}
				}
				t.Fatalf("the move did not supersede %q (valid until %v) among %d memories", home, n.ValidUntil, len(nodes))
			}
			t.Fatalf("no memory %q among %d", home, len(nodes))
		})
	}
}
