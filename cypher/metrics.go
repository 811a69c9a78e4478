package cypher

import (
	"context"
	_ "embed"
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
