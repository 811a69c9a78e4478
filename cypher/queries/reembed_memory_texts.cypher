// The name and content of some memories of a space: what they are embedded from.
// Params: $space, $ids. Returns: id, name, content (no row for an id not in the space).
MATCH (m:Memory)
WHERE m.id IN $ids AND m.space = $space
RETURN m.id AS id, m.name AS name, m.content AS content
