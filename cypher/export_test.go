package cypher

import "context"

// SetMemoryProps sets properties of memory id of the space that the fixture writer does
// not (tests only).
func SetMemoryProps(ctx context.Context, s *Store, space, id string, props map[string]any) error {
	_, err := s.write(ctx, newQuery("test_memory_props", "MATCH (m:Memory {id: $id}) WHERE m.space = $space SET m += $props"),
		map[string]any{"space": space, "id": id, "props": props})
	return err
}

// JoinSpaces writes a CORRELATES edge from memory a of one space to memory b of another,
// which no writer of the store does (tests only: expansion must not follow it).
func JoinSpaces(ctx context.Context, s *Store, a, b string) error {
	_, err := s.write(ctx, newQuery("test_join_spaces",
		"MATCH (x:Memory {id: $a}), (y:Memory {id: $b}) CREATE (x)-[:CORRELATES {id: $a + '>' + $b, weight: 0.9, w0: 0.9}]->(y)"),
		map[string]any{"a": a, "b": b})
	return err
}

// DeriveFrom writes a DERIVED_FROM edge from memory id to each of the memories from, as
// the write path does from a memory to its observations (tests only: the provenance count
// the expansion statements read).
func DeriveFrom(ctx context.Context, s *Store, id string, from []string) error {
	_, err := s.write(ctx, newQuery("test_derive_from",
		"MATCH (m:Memory {id: $id}) UNWIND $from AS f MATCH (o:Memory {id: f}) CREATE (m)-[:DERIVED_FROM]->(o)"),
		map[string]any{"id": id, "from": from})
	return err
}

// SetTraceExpireBatch makes ExpireTraces delete n traces a statement until the test ends
// (tests only: a few traces then take several batches).
func SetTraceExpireBatch(tb interface{ Cleanup(func()) }, n int) {
	old := traceExpireBatch
	traceExpireBatch = n
	tb.Cleanup(func() { traceExpireBatch = old })
}

// DeleteTraceOnly deletes trace id of the space and nothing else, as the sweep of a
// version that did not erase a question with its trace did (tests only: the edits and
// learned links made from it keep the question's text).
func DeleteTraceOnly(ctx context.Context, s *Store, space, id string) error {
	_, err := s.write(ctx, newQuery("test_trace_delete_only", "MATCH (t:Trace {id: $id}) WHERE t.space = $space DELETE t"),
		map[string]any{"space": space, "id": id})
	return err
}
