package cypher

import "context"

// SetMemoryProps sets properties of memory id of the space that the fixture writer does
// not (tests only).
func SetMemoryProps(ctx context.Context, s *Store, space, id string, props map[string]any) error {
	_, err := s.write(ctx, newQuery("test_memory_props", "MATCH (m:Memory {id: $id}) WHERE m.space = $space SET m += $props"),
		map[string]any{"space": space, "id": id, "props": props})
	return err
}
