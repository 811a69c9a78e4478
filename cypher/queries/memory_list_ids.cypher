// memory_list.cypher's page, of the memories among $ids only: each memory by its id
// (hinted), not by the space's memories, so a lookup of a few costs what they hold.
// Params: as memory_list.cypher's, and $ids. Returns: as memory_list.cypher.
UNWIND $ids AS mid
MATCH (m:Memory {id: mid})
USING INDEX m:Memory(id)
WHERE m.space = $space AND m.created_at >= $from AND m.created_at < $until
  AND ($after_at IS NULL OR m.created_at > $after_at OR m.id > $after_id)
  AND ($type IS NULL OR m.type = $type)
  AND ($q IS NULL OR toLower(m.content) CONTAINS $q OR toLower(m.name) CONTAINS $q)
  AND ($current IS NULL OR $current = ((m.valid_until IS NULL OR m.valid_until > $now)
       AND NOT EXISTS { (m)-[:SUPERSEDES]->(o:Memory) WHERE o.valid_until > $now }))
WITH DISTINCT m
ORDER BY m.created_at, m.id
LIMIT $limit
RETURN m {.*, embedding: null} AS m
