package cypher

import "context"

// DeleteSpace erases a space and everything in it, and nothing of any other space.
// It deletes in batches and returns how many nodes went. Errors: EUnavailable.
func (s *Store) DeleteSpace(ctx context.Context, space string) (int64, error) {
	s.vectors.drop(space)
	s.graphs.drop(space)
	s.texts.drop(space)
	var total int64
	for {
		recs, err := s.write(ctx, qSpaceDeleteBatch, map[string]any{"space": space, "batch": 5000})
		if err != nil {
			return total, err
		}
		n := num(recs[0], "deleted")
		total += n
		if n == 0 {
			break
		}
	}
	recs, err := s.write(ctx, qSpaceDeleteNode, map[string]any{"space": space})
	if err != nil {
		return total, err
	}
	return total + num(recs[0], "deleted"), nil
}
