package cypher

import (
	"context"
	"fmt"
	"time"

	"github.com/realm-memory/realm"
)

// PutMemories bulk-writes memories and edges into a space, bypassing construction: for
// tests and benchmarks that need a graph whose right answers are known. Symmetric
// predicates get their reverse edge too (id + "~rev"), as the write path does; an edge with
// a Query is a learned link (its Label kept) and marks the space as holding some. Nodes
// without CreatedAt get now; edges without InitialWeight get Weight. Nodes of another
// space are refused; an edge whose ends are not both in the space is an error.
func (s *Store) PutMemories(ctx context.Context, space string, nodes []realm.Node, edges []realm.Edge) error {
	const batch = 1000
	now := time.Now().UTC()
	for start := 0; start < len(nodes); start += batch {
		var rows []any
		for _, n := range nodes[start:min(start+batch, len(nodes))] {
			if n.Space != "" && n.Space != space {
				return realm.Errorf(realm.EInvalid, "memory %s belongs to space %s, not %s", n.ID, n.Space, space)
			}
			if !n.Type.Valid() {
				return realm.Errorf(realm.EInvalid, "memory %s has type %q", n.ID, n.Type)
			}
			rows = append(rows, map[string]any{"label": n.Type.Label(), "props": fixtureNodeProps(n, now)})
		}
		if _, err := s.write(ctx, qFixtureMemories, map[string]any{"space": space, "space_key": spaceKey(space), "nodes": rows}); err != nil {
			return err
		}
	}
	var rows []any
	for _, e := range edges {
		if !e.Predicate.Valid() {
			return realm.Errorf(realm.EInvalid, "edge %s has predicate %q", e.ID, e.Predicate)
		}
		rows = append(rows, fixtureEdgeRow(e, e.From, e.To, e.ID, now))
		if e.Predicate.Symmetric() {
			rows = append(rows, fixtureEdgeRow(e, e.To, e.From, e.ID+"~rev", now))
		}
	}
	for start := 0; start < len(rows); start += batch {
		part := rows[start:min(start+batch, len(rows))]
		recs, err := s.write(ctx, qFixtureEdges, map[string]any{"space": space, "edges": part})
		if err != nil {
			return err
		}
		if len(recs) == 0 || num(recs[0], "written") != int64(len(part)) {
			return fmt.Errorf("put memories: only some of %d edges have both ends in space %s", len(part), space)
		}
	}
	return nil
}

// RemoveFixture deletes every memory and trace of a space written by tests or benchmarks.
func (s *Store) RemoveFixture(ctx context.Context, space string) error {
	_, err := s.write(ctx, qFixtureRemove, map[string]any{"space": space})
	return err
}

func fixtureNodeProps(n realm.Node, now time.Time) map[string]any {
	created, updated := n.CreatedAt, n.UpdatedAt
	if created.IsZero() {
		created = now
	}
	if updated.IsZero() {
		updated = created
	}
	p := map[string]any{
		"id": n.ID, "type": string(n.Type), "name": n.Name, "content": n.Content,
		"description": n.Description, "keywords": n.Keywords, "sources": n.Sources,
		"created_at": created.UTC(), "updated_at": updated.UTC(), "access_count": n.AccessCount,
		"word_count": WordCount(n.Name, n.Content, n.Keywords),
	}
	if n.TStart != nil {
		p["t_start"] = n.TStart.UTC()
		end := *n.TStart
		if n.TEnd != nil {
			end = *n.TEnd
		}
		p["t_end"] = end.UTC()
	}
	if len(n.Embedding) > 0 {
		p["embedding"] = vector64(n.Embedding)
	}
	if len(n.Aliases) > 0 {
		p["aliases"] = n.Aliases
	}
	if len(n.Keywords) == 0 {
		delete(p, "keywords")
	}
	if len(n.Sources) == 0 {
		delete(p, "sources")
	}
	return p
}

func fixtureEdgeRow(e realm.Edge, from, to, id string, now time.Time) map[string]any {
	initial := e.InitialWeight
	if initial == 0 {
		initial = e.Weight
	}
	conf := e.Confidence
	if conf == 0 {
		conf = 1
	}
	props := map[string]any{
		"id": id, "layer": e.Predicate.Layer(), "description": e.Description, "weight": e.Weight,
		"initial_weight": initial, "confidence": conf, "created_at": now, "updated_at": now,
	}
	if e.Query != "" { // a learned link, as edit_batch writes one
		props["query"], props["label"] = e.Query, string(e.Label)
	}
	return map[string]any{"from": from, "to": to, "type": e.Predicate.RelType(), "props": props}
}
