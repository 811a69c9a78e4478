package retrieval_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/retrieval"
)

// TestRecallFiltersNarrowAndWide: a session filter and a one-day filter return only the
// memories said then, whether the filter's memories are few enough to be scored each
// (narrow: K of them, although none resembles the question) or more than that bound,
// when the memories the searches find are asked about as they come (wide: the bound
// lowered to 5; more than those read first, the others the over-fetched searches found).
func TestRecallFiltersNarrowAndWide(t *testing.T) {
	s := cyphertest.MustOpen(t)
	space := mustSaidSpace(t, s, 300, 15) // 20 sessions of 15, one a day
	ctx := context.Background()
	r := retrieval.New(s, wordEmbedder{}, offline.New(offline.Options{}), retrieval.DefaultOptions(), zerolog.Nop())
	day := time.Date(2023, 1, 8, 0, 0, 0, 0, time.UTC) // s7's
	until := day.Add(24*time.Hour - time.Second)
	ofS7 := func(id string) bool {
		var i int
		_, err := fmt.Sscanf(id, space+":%d", &i)
		return err == nil && i/15 == 7
	}
	for _, bound := range []int{1000, 5} {
		for name, f := range map[string]*realm.RecallFilters{
			"session": {SessionIDs: []string{"s7"}},
			"day":     {SaidSince: &day, SaidUntil: &until},
		} {
			t.Run(fmt.Sprintf("%s/bound%d", name, bound), func(t *testing.T) {
				defer retrieval.SetFilterExactMax(bound)()
				res, err := r.Recall(ctx, space, realm.RecallRequest{Query: "What was in the quarterly tax report?", Filters: f})
				if err != nil {
					t.Fatal(err)
				}
				if narrow := bound >= 15; narrow && len(res.Nodes) != 10 {
					t.Errorf("%d nodes, want 10", len(res.Nodes))
				} else if !narrow && len(res.Nodes) <= bound {
					t.Errorf("%d nodes, want more than the %d read first", len(res.Nodes), bound)
				}
				for _, n := range res.Nodes {
					if !ofS7(n.Node.ID) {
						t.Errorf("%s %q is not said in s7", n.Node.ID, n.Node.Content)
					}
				}
			})
		}
	}
}
