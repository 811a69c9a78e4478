package construction_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/retrieval"
)

// key is the part of a derived id that does not depend on the space (cypher.DerivedID).
func key(id string) string { return id[:18] }

// graphShape lists a space's memories and edges with their ids cut to key, sorted: two
// spaces built alike have the same shape. It fails when an id is not a derived one.
func graphShape(t *testing.T, s *cypher.Store, space string) (shape []string, ids []string) {
	t.Helper()
	ctx := context.Background()
	nodes, _, err := s.ListMemories(ctx, space, cypher.MemoryFilter{}, "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes {
		ids = append(ids, n.ID)
		shape = append(shape, fmt.Sprintf("memory %s %s %q %v", key(n.ID), n.Type, n.Content, n.Sources))
		_, edges, err := s.GetMemory(ctx, space, n.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range edges {
			if e.From == n.ID { // each edge once, from its tail
				ids = append(ids, e.ID)
				shape = append(shape, fmt.Sprintf("edge %s %s-%s->%s %.2f", key(e.ID), key(e.From), e.Predicate, key(e.To), e.Weight))
			}
		}
	}
	slices.Sort(shape)
	return shape, ids
}

// TestDerivedIDs: memory and edge ids derive from the space, the observation and the
// candidate (or edge row), so the same observations give two spaces the same graph, ids
// equal but for their space's half; and no two memories meet on an id.
func TestDerivedIDs(t *testing.T) {
	p, ag, store := newPipeline(t, construction.Options{MaxAttempts: 3})
	ctx := context.Background()
	obs := []realm.Observation{
		msg("m1", "home: Ann lives in Paris; drink: Ann likes green tea"),
		msg("m2", "drink: Ann likes green tea with honey"),
		msg("m3", "home: Ann now lives in Berlin; pet: Ann has a cat"),
		// Two candidates alike in everything but their place in the observation.
		msg("m4", "book: Ann reads Dune; book: Ann reads Dune"),
	}
	a, b := cyphertest.NewSpace(t), cyphertest.NewSpace(t)
	made := map[string]string{} // memory id → the observation and candidate that added it
	for _, o := range obs {
		for _, space := range []string{a, b} {
			for i, id := range mustIngest(t, p, space, o)[0].Added {
				made[id] = fmt.Sprintf("%s#%d", o.ID, i)
			}
		}
	}

	t.Run("SameGraphInTwoSpaces", func(t *testing.T) {
		shapeA, idsA := graphShape(t, store, a)
		shapeB, idsB := graphShape(t, store, b)
		if len(shapeA) < 8 || !slices.Equal(shapeA, shapeB) {
			t.Fatalf("shapes differ or too small:\n%v\n%v", shapeA, shapeB)
		}
		for _, id := range idsA {
			if slices.Contains(idsB, id) {
				t.Errorf("id %s in both spaces", id)
			}
		}
	})
	t.Run("SameRecallInTwoSpaces", func(t *testing.T) {
		// m6's six memories are alike but for their ids: which of them a recall gives
		// first, and keeps of the duplicates, is decided by their ids, alike in both
		// spaces only for derived ids (for random ones, by chance).
		for _, space := range []string{a, b} {
			for i, id := range mustIngest(t, p, space, msg("m6", strings.Repeat("fact/dune: Ann reads Dune;", 6)))[0].Added {
				made[id] = fmt.Sprintf("m6#%d", i)
			}
		}
		r := retrieval.New(store, bowEmbedder{}, offline.New(offline.Options{}), retrieval.DefaultOptions(), zerolog.Nop())
		var got [2][]string
		for k, space := range []string{a, b} {
			res, err := r.Recall(ctx, space, realm.RecallRequest{Query: "Which book does Ann read, Dune?"})
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range res.Nodes {
				got[k] = append(got[k], fmt.Sprintf("%s %.6f", made[n.Node.ID], n.Score))
			}
		}
		if !strings.Contains(fmt.Sprint(got[0]), "m6#") || !slices.Equal(got[0], got[1]) {
			t.Errorf("recalls differ or hold none of m6's memories:\n%v\n%v", got[0], got[1])
		}
	})
	t.Run("MemoryID", func(t *testing.T) {
		res := mustIngest(t, p, a, msg("m5", "car: Ann drives a red car; bike: Ann rides a bike"))
		want := []string{cypher.MemoryID(a, "m5", 0), cypher.MemoryID(a, "m5", 1)}
		if !slices.Equal(res[0].Added, want) {
			t.Errorf("added %v, want %v", res[0].Added, want)
		}
	})
	t.Run("CandidatesOfOneObservation", func(t *testing.T) {
		nodes, _, err := store.ListMemories(ctx, a, cypher.MemoryFilter{Q: "book"}, "", 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(nodes) != 2 || nodes[0].ID == nodes[1].ID {
			t.Errorf("memories of m4: %+v, want two", nodes)
		}
	})
	t.Run("ResentObservation", func(t *testing.T) {
		before, _ := graphShape(t, store, a)
		res := mustIngest(t, p, a, obs[0])
		after, _ := graphShape(t, store, a)
		if res[0].Status != construction.StatusAlreadyIntegrated || !slices.Equal(before, after) {
			t.Errorf("status %s; graph changed: %v", res[0].Status, !slices.Equal(before, after))
		}
	})
	t.Run("RetryAfterFailure", func(t *testing.T) {
		space := cyphertest.NewSpace(t)
		ag.failSpace.Store(space)
		ag.failures.Store(1)
		res := mustIngest(t, p, space, msg("m1", "home: Ann lives in Paris"))
		if res[0].Status == construction.StatusIntegrated {
			t.Fatalf("result %+v, want the scripted failure", res[0])
		}
		if n, err := p.ResumePendingSpace(ctx, space); err != nil || n != 1 {
			t.Fatalf("resumed %d, %v", n, err)
		}
		if _, _, err := store.GetMemory(ctx, space, cypher.MemoryID(space, "m1", 0)); err != nil {
			t.Error(err)
		}
	})
	t.Run("CollisionFailsLoudly", func(t *testing.T) {
		// A memory already holding the id a candidate derives (a space deleted while
		// its observation is sent again): the integration fails and leaves it be.
		space := cyphertest.NewSpace(t)
		mustIngest(t, p, space, msg("m0", "home: Ann lives in Paris"))
		id := cypher.MemoryID(space, "m1", 0)
		held := realm.Node{ID: id, Type: realm.Fact, Name: "held", Content: "already here"}
		if err := store.PutMemories(ctx, space, []realm.Node{held}, nil); err != nil {
			t.Fatal(err)
		}
		res := mustIngest(t, p, space, msg("m1", "drink: Ann likes coffee"))
		if res[0].Status == construction.StatusIntegrated || !strings.Contains(res[0].Error, "has the id of a memory this integration adds") {
			t.Errorf("result %+v, want an error", res[0])
		}
		n, _, err := store.GetMemory(ctx, space, id)
		if err != nil || n.Content != "already here" {
			t.Errorf("memory %+v, %v: overwritten", n, err)
		}
	})
	t.Run("IDHeldByAnotherSpace", func(t *testing.T) {
		// A memory of another space holding the id a candidate derives (an import that
		// kept its file's ids): the candidate takes another id, derived from that one.
		space, other := cyphertest.NewSpace(t), cyphertest.NewSpace(t)
		id := cypher.MemoryID(space, "m1", 0)
		held := realm.Node{ID: id, Type: realm.Fact, Name: "held", Content: "already here"}
		if err := store.PutMemories(ctx, other, []realm.Node{held}, nil); err != nil {
			t.Fatal(err)
		}
		res := mustIngest(t, p, space, msg("m1", "drink: Ann likes coffee"))
		want := cypher.DerivedID(space, "held\x00"+id)
		if res[0].Status != construction.StatusIntegrated || !slices.Equal(res[0].Added, []string{want}) {
			t.Errorf("result %+v, want integrated adding %s", res[0], want)
		}
		n, _, err := store.GetMemory(ctx, other, id)
		if err != nil || n.Content != "already here" {
			t.Errorf("memory %+v, %v: overwritten", n, err)
		}
	})
}
