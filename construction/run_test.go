package construction_test

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// countingEmbedder is bowEmbedder counting its calls and texts.
type countingEmbedder struct {
	bowEmbedder
	calls, texts atomic.Int32
}

func (e *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	e.calls.Add(1)
	e.texts.Add(int32(len(texts)))
	return e.bowEmbedder.Embed(ctx, texts)
}

// TestRunOfObservations: a batch goes through as one run — one embedder call for the
// candidates of all its observations — and gives the graph that sending its observations
// one a call gives: a later observation merges into, skips against and supersedes what an
// earlier one of the same batch added, and links to it.
func TestRunOfObservations(t *testing.T) {
	ctx := context.Background()
	store := cyphertest.MustOpen(t)
	obs := []realm.Observation{
		msg("b1", "home: Ann lives in Paris; drink: Ann likes tea"),
		msg("b2", "home: Ann lives in Paris"),                  // skip: b1 said it
		msg("b3", "drink: Ann likes green tea"),                // merge into b1's drink
		msg("b4", "home: Ann now lives in Rome; pet: a dog"),   // supersedes b1's home
		msg("b5", "pet: Ann has a dog; job: Ann is a baker"),   // merge into b4's pet
		msg("b6", "job: Ann is a baker; city: Ann likes Rome"), // skip the job
	}
	graph := func(batch int) (cypher.Stats, []construction.Result, *countingEmbedder) {
		space := cyphertest.NewSpace(t)
		emb := &countingEmbedder{}
		p := construction.New(store, &scriptAgent{}, emb, construction.Options{Owner: "run-" + space}, zerolog.Nop())
		t.Cleanup(func() { p.Close(context.Background()) })
		var results []construction.Result
		for i := 0; i < len(obs); i += batch {
			res, err := p.Ingest(ctx, space, obs[i:min(i+batch, len(obs))])
			if err != nil {
				t.Fatal(err)
			}
			results = append(results, res...)
		}
		return mustStats(t, store, space), results, emb
	}
	oneStats, one, _ := graph(1)
	runStats, run, emb := graph(len(obs))
	if n := emb.calls.Load(); n != 1 {
		t.Errorf("%d embedder calls for the batch, want 1 (no merge changed a content the run had not embedded)", n)
	}
	for i := range obs {
		o, r := one[i], run[i]
		if r.Status != construction.StatusIntegrated || len(r.Added) != len(o.Added) || len(r.Merged) != len(o.Merged) ||
			!slices.Equal(r.Skipped, o.Skipped) || len(r.Edges) != len(o.Edges) {
			t.Errorf("observation %s in a batch: %+v\none a call: %+v", obs[i].ID, r, o)
		}
	}
	if runStats.Memories != oneStats.Memories || runStats.Edges != oneStats.Edges || fmt.Sprint(runStats.ByType) != fmt.Sprint(oneStats.ByType) ||
		fmt.Sprint(runStats.ByPredicate) != fmt.Sprint(oneStats.ByPredicate) || runStats.ObservationsPending != 0 {
		t.Errorf("in a batch: %+v\none a call: %+v", runStats, oneStats)
	}
	if len(run[1].Skipped) != 1 || len(run[2].Merged) != 1 || run[2].Merged[0] != run[0].Added[1] || len(run[4].Merged) != 1 || run[4].Merged[0] != run[3].Added[1] {
		t.Errorf("the batch's later observations did not see what its earlier ones added: %+v", run)
	}
	if !slices.ContainsFunc(run[3].Edges, func(e realm.Edge) bool { return e.Predicate == realm.Supersedes && e.To == run[0].Added[0] }) {
		t.Errorf("b4's edges %+v, want supersedes to b1's home", run[3].Edges)
	}
}
