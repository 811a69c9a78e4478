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

// Predecessor is an older version, still holding, of a memory that begins to hold later.
type Predecessor struct {
	Of   string     // the newer memory's id
	Node realm.Node // the older one, which holds until the newer begins
}

// Predecessors returns, of the memories ids, the older versions they supersede (edges of
// at least wSuppress) that still hold at asOf: ids begin to hold after asOf. Errors:
// EUnavailable.
func (s *Store) Predecessors(ctx context.Context, space string, ids []string, asOf time.Time, wSuppress float64) ([]Predecessor, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	recs, err := s.read(ctx, qMemoryPredecessors, map[string]any{"space": space, "ids": ids, "as_of": asOf.UTC(), "w_suppress": wSuppress})
	if err != nil {
		return nil, err
	}
	out := make([]Predecessor, 0, len(recs))
	for _, r := range recs {
		out = append(out, Predecessor{Of: str(r, "new_id"), Node: nodeOf(mapOf(r, "node"))})
	}
	return out, nil
}

// EndedClause is a clause whose validity ended, comprised by a memory that still holds.
type EndedClause struct {
	Whole, Clause string // ids
}

// EndedClauses returns, of the memories ids that hold, the clauses they comprise whose
// validity ended by asOf and which query (a vector) is at least as close to as to the
// memory itself: a question about what changed. Errors: EUnavailable.
func (s *Store) EndedClauses(ctx context.Context, space string, ids []string, asOf time.Time, query []float32) ([]EndedClause, error) {
	if len(ids) == 0 || len(query) == 0 {
		return nil, nil
	}
	recs, err := s.read(ctx, qMemoryEndedClauses, map[string]any{"space": space, "ids": ids, "as_of": asOf.UTC(), "query": vectorParam(query)})
	if err != nil {
		return nil, err
	}
	out := make([]EndedClause, 0, len(recs))
	for _, r := range recs {
		out = append(out, EndedClause{Whole: str(r, "whole_id"), Clause: str(r, "clause_id")})
	}
	return out, nil
}
