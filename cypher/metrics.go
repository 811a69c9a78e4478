package cypher

import (
	"context"
	_ "embed"
	"maps"
)

var (
	//go:embed queries/observation_pending_count.cypher
	observationPendingCountCypher string
	qObservationPendingCount      = newQuery("observation_pending_count", observationPendingCountCypher)
)

// PendingObservations counts the observations of all spaces that wait for integration.
// Errors: EUnavailable.
func (s *Store) PendingObservations(ctx context.Context) (int64, error) {
	recs, err := s.read(ctx, qObservationPendingCount, map[string]any{})
	if err != nil || len(recs) == 0 {
		return 0, err
	}
	return num(recs[0], "n"), nil
}

// RecallsWithoutSnapshot counts, by reason (SnapshotReasons), the recalls of this store
// that expanded a space the graph cache admits by the statements, its snapshot not held
// or of another version: such a recall runs more statements, reading far more of the
// database, than one expanded from the snapshot.
func (s *Store) RecallsWithoutSnapshot() map[string]int64 {
	c := &s.graphs
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.without)
}
