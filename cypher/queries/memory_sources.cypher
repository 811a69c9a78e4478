// The sources (observation ids) of the memories of one space with the given ids, for the
// memories an expansion statement reached without them (InlineSources).
// Params: $space, $ids.
// Returns: id, sources.
UNWIND $ids AS mid
MATCH (m:Memory {id: mid})
USING INDEX m:Memory(id)
WHERE m.space = $space
RETURN m.id AS id, m.sources AS sources
