package cypher_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestHoldsMemoryOnceIntegrated: a space whose message reads integrated holds the
// memories its integration wrote, however soon after it is asked: readers poll the
// message while it is integrated, and each that reads it integrated asks at once. Neo4j
// makes the write's integrated mark visible before the index entries of its memories,
// and a client that read its message integrated (or its job done) was told the space
// held no memory (recall's 404).
func TestHoldsMemoryOnceIntegrated(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	var missed atomic.Int64
	for i := range 30 {
		space := cyphertest.NewSpace(t)
		lease := cypher.Lease{Owner: "owner-" + space, Until: time.Now().Add(time.Hour)}
		obs := []realm.Observation{{ID: "o1", Speaker: "Ann", Content: "Ann lives in Lisbon.", ObservedAt: time.Now()}}
		if _, err := s.SaveObservations(ctx, space, "test:bow", cyphertest.Dims, obs, lease); err != nil {
			t.Fatal(err)
		}
		var readers sync.WaitGroup
		for range 3 {
			readers.Go(func() {
				for {
					o, err := s.Observation(ctx, space, "o1")
					if err != nil {
						t.Error(err)
						return
					}
					if o.Status != realm.ObservationIntegrated {
						continue
					}
					if holds, err := s.HoldsMemory(ctx, space); err != nil || !holds {
						missed.Add(1)
						t.Errorf("space %d: its message read integrated, it holds a memory: %v, %v", i, holds, err)
					}
					return
				}
			})
		}
		v := make([]float32, cyphertest.Dims)
		v[0] = 1
		m := realm.Node{ID: space + "-m", Type: realm.Fact, Name: "Ann", Content: "Ann lives in Lisbon", Embedding: v}
		if _, err := s.ApplyIntegration(ctx, space, "o1", cypher.NeighbourQuery{}, nil, cypher.Integration{Adds: []realm.Node{m}}); err != nil {
			t.Fatal(err)
		}
		readers.Wait()
	}
	if n := missed.Load(); n > 0 {
		t.Errorf("%d of 90 reads found no memory right after the message read integrated", n)
	}
}
