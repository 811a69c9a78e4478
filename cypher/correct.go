package cypher

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm"
)

// Correction is a client's correction of a memory (CorrectMemory).
type Correction struct {
	// Old is the memory corrected as it was read before the correction was decided: the
	// correction is refused when it changed since (its UpdatedAt).
	Old realm.Node
	// New is the new memory, complete but for its provenance, which is Old's as stored.
	New realm.Node
	// Supersedes is the edge from New to Old.
	Supersedes EdgeWrite
	// ValidUntil is when Old stops holding.
	ValidUntil time.Time
	// CopyEdgesOf: Old's edges to and from memories of these types (learned links aside)
	// are copied to New, with their weights and descriptions, but for an entity that Old
	// names and New does not ("Marina, not Marta": not Marta).
	CopyEdgesOf []realm.NodeType
}

// CorrectMemory writes a correction in one write transaction, under the space's lock:
// the new memory with the old one's provenance, the supersedes edge, the copies of the
// old one's edges, and the end of the old one's validity (REALM.md §2: never an
// overwrite). It returns the new memory's id: that of a memory of New's id already
// stored (the same correction sent again) without writing anything. The caches of the
// space this process holds (graph snapshot, embeddings, keyword index) follow the write.
// Errors: ENotFound (space or memory), EConflict (an import holds the space; the memory
// was superseded, or changed since it was read), EInvalid (New's type), EUnavailable.
func (s *Store) CorrectMemory(ctx context.Context, space string, c Correction) (string, error) {
	if !c.New.Type.Valid() {
		return "", realm.Errorf(realm.EInvalid, "memory type %q is not one of entity, event, episode, fact", c.New.Type)
	}
	defer s.graphs.writing(space)()
	var written func(context.Context) // the caches' follow of the write, once committed (the transaction's context has ended)
	_, err := s.writeTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		written = nil
		now := time.Now().UTC()
		types := make([]string, len(c.CopyEdgesOf))
		for i, t := range c.CopyEdgesOf {
			types[i] = string(t)
		}
		recs, err := collect(ctx, tx, qMemoryCorrectRead, map[string]any{
			"space": space, "id": c.Old.ID, "new_id": c.New.ID, "copy_types": types, "now": now,
		})
		if err != nil {
			return nil, err
		}
		if len(recs) == 0 {
			return nil, realm.Errorf(realm.ENotFound, "space %q not found", space)
		}
		r := recs[0]
		if err := importRefusal(space, r); err != nil {
			return nil, err
		}
		if mapOf(r, "done") != nil {
			return nil, nil // corrected so already
		}
		old, err := correctable(space, c.Old, mapOf(r, "old"), slices.Sorted(slices.Values(stringList(valueOf(r, "newer")))))
		if err != nil {
			return nil, err
		}
		edges := append([]EdgeWrite{c.Supersedes}, copiedEdges(c, r)...)
		written, err = writeCorrection(ctx, tx, s, space, old, c, edges, now)
		return nil, err
	})
	if err != nil {
		return "", err
	}
	if written != nil {
		written(ctx)
	}
	return c.New.ID, nil
}

// correctable is the stored memory p (nil: none) that read was read as, or why it may
// not be corrected: it changed since, or it is history, newer (the memories superseding
// it) being its newer versions. A memory whose validity ended without a newer version
// left (memory_delete.cypher restores it; this reads one that was not) may be corrected:
// the correction becomes its newer version.
func correctable(space string, read realm.Node, p map[string]any, newer []string) (realm.Node, error) {
	if p == nil {
		return realm.Node{}, realm.Errorf(realm.ENotFound, "memory %q not found in space %q", read.ID, space)
	}
	old := nodeOf(p)
	switch {
	case old.ValidUntil != nil && len(newer) > 0:
		return old, realm.Errorf(realm.EConflict,
			"memory %q was superseded by %s (its validity ended %s): it is history; correct its newer version",
			old.ID, strings.Join(newer, ", "), old.ValidUntil.UTC().Format(time.RFC3339))
	case !old.UpdatedAt.Equal(read.UpdatedAt):
		return old, realm.Errorf(realm.EConflict, "memory %q changed while it was corrected; send the correction again", old.ID)
	}
	return old, nil
}

// copiedEdges are the edges of memory_correct_read's row r, from or to c's new memory
// instead of the old, but for those to an entity that the old content names and the new
// one does not. A symmetric edge is read both ways and written both ways from one.
func copiedEdges(c Correction, r *neo4j.Record) []EdgeWrite {
	var out []EdgeWrite
	v, _ := r.Get("edges")
	oldText, newText := strings.ToLower(c.Old.Content), strings.ToLower(c.New.Content)
	for _, item := range asList(v) {
		e, _ := item.(map[string]any)
		pred := realm.PredicateOfRelType(propString(e, "type"))
		outgoing, _ := e["out"].(bool)
		if pred.Symmetric() && !outgoing {
			continue
		}
		if name := strings.ToLower(propString(e, "name")); name != "" && strings.Contains(oldText, name) && !strings.Contains(newText, name) {
			continue // the entity the correction took back
		}
		w := EdgeWrite{Op: EdgeAdd, From: c.New.ID, To: propString(e, "other"), Predicate: pred,
			Weight: propFloat(e, "weight"), Confidence: propFloat(e, "confidence"), Description: propString(e, "description")}
		if !outgoing {
			w.From, w.To = w.To, w.From
		}
		out = append(out, w)
	}
	return out
}

// writeCorrection writes c in tx (memory_correct_write.cypher) over the stored old
// memory, with edges, and returns the caches' follow of the write, to call once committed.
func writeCorrection(ctx context.Context, tx neo4j.ManagedTransaction, s *Store, space string, old realm.Node, c Correction, edges []EdgeWrite, now time.Time) (func(context.Context), error) {
	// Each correction's edge ids derive from its memory's, as an observation's from it.
	rows, _, err := appendEdgeWrites(nil, nil, space, "correction\x00"+c.New.ID, edges, now)
	if err != nil {
		return nil, err
	}
	n := c.New
	n.Sources = old.Sources
	props := nodeProps(space, "", n, now)
	props["sources"] = orEmpty(old.Sources) // nodeProps gives a memory without sources its observation's
	recs, err := collect(ctx, tx, qMemoryCorrectWrite, map[string]any{
		"space": space, "old": old.ID, "label": n.Type.Label(), "props": props, "edges": rows,
		"valid_until": c.ValidUntil.UTC(), "now": now,
	})
	if err != nil || len(recs) == 0 {
		return nil, err // no row: the memory is gone, which the lock rules out
	}
	r := recs[0]
	ids := []string{n.ID, old.ID}
	for _, e := range edges {
		ids = append(ids, e.From, e.To)
	}
	slices.Sort(ids)
	move := graphMove{before: str(r, "graph_before"), after: str(r, "graph_after"), ids: slices.Compact(ids)}
	before, after := str(r, "version_before"), str(r, "version_after")
	return func(ctx context.Context) {
		s.followWrite(ctx, space, move)
		// The embeddings and keyword index held for the version the write found take the
		// new memory (the old one's text and embedding stay); others are left to be read again.
		if known := s.knownState(space); before != "" && known.Version == before {
			ins := []ObservationIntegration{{Integration: Integration{Adds: []realm.Node{n}}}}
			state := SpaceState{N: known.N + 1, Version: after}
			s.vectors.written(space, known, state, ins)
			s.texts.written(space, known, state, ins, nil)
		}
	}, nil
}
