package cypher

import (
	"context"
	"time"

	"github.com/realm-memory/realm"
)

// ValidityEnd ends a superseded memory's validity (REALM.md §2 "Ours"): it held until
// ValidUntil, when its newer version began.
type ValidityEnd struct {
	ID         string
	ValidUntil time.Time
}

// Successor is a newer version of a superseded memory.
type Successor struct {
	Of          string // the superseded memory's id
	Weight      float64
	Description string // the supersedes edge's: what changed
	Node        realm.Node
}

// Successors returns the newer versions of the given memories (supersedes edges of at
// least wSuppress into them), best edge first per memory. Errors: EUnavailable.
func (s *Store) Successors(ctx context.Context, space string, ids []string, wSuppress float64) ([]Successor, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	recs, err := s.read(ctx, qMemorySuccessors, map[string]any{"space": space, "ids": ids, "w_suppress": wSuppress})
	if err != nil {
		return nil, err
	}
	out := make([]Successor, 0, len(recs))
	for _, r := range recs {
		w, _ := r.Get("weight")
		wf, _ := w.(float64)
		out = append(out, Successor{Of: str(r, "old_id"), Weight: wf, Description: str(r, "description"), Node: nodeOf(mapOf(r, "node"))})
	}
	return out, nil
}
