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
