package cypher_test

import (
	"context"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestPendingObservations: observations saved and not integrated are counted; the count
// is database-wide, so other tests' pending observations may add to it.
func TestPendingObservations(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	obs := []realm.Observation{
		{ID: "p1", Speaker: "Ana", Content: "Ana likes tea.", ObservedAt: time.Now()},
		{ID: "p2", Speaker: "Ana", Content: "Ana moved to Porto.", ObservedAt: time.Now()},
	}
	if _, err := s.SaveObservations(ctx, space, "test", cyphertest.Dims, obs, cypher.Lease{Owner: "t", Until: time.Now()}); err != nil {
		t.Fatal(err)
	}
	n, err := s.PendingObservations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Stats(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	if st.ObservationsPending != 2 || n < 2 {
		t.Errorf("pending: %d in the space, %d in all; want 2 and at least 2", st.ObservationsPending, n)
	}
}
