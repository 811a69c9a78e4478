// Writes a client's correction of a memory (cypher.CorrectMemory; REALM.md §2: a state
// change is an add plus a supersedes edge, never an overwrite) under the space's lock,
// taken by memory_correct_read.cypher: the new memory, with its type label beside
// :Memory (checked by the caller), the provenance of the memory corrected (its
// DERIVED_FROM edges), the edges $edges between memories of the space (the supersedes
// edge from the new memory to the old one and the copies of the old one's edges), merged
// as integration_write.cypher merges them, and the end of the old memory's validity as
// integration_write ends a superseded memory's (an end already recorded never moves
// later, the first superseded_at kept). It moves the space's graph_version (the snapshot
// of the space this process holds follows the write: graphcache.go followWrite) and its
// memories_version (cypher.SpaceState).
// Params: $space, $old, $label, $props (the new memory's properties), $edges (list of
// {i, id, delete, from, to, type, layer, description, weight, confidence}: the rows of
// cypher.appendEdgeWrites; none deletes), $valid_until, $now.
// Returns one row: graph_before, graph_after, version_before, version_after (the
// space's graph_version and memories_version before and after), edges (the number of
// edges written); no row when the old memory is not in the space.
CALL () {
  MATCH (g:Space {id: $space})
  WITH g, g.graph_version AS graph_before, coalesce(g.memories_version, '') AS version_before
  SET g.graph_version = randomUUID(), g.memories_version = randomUUID()
  RETURN graph_before, g.graph_version AS graph_after, version_before, g.memories_version AS version_after
}
MATCH (old:Memory {id: $old, space: $space})
USING INDEX old:Memory(id)
CREATE (m:Memory:$($label))
SET m = $props
SET old.valid_until = CASE WHEN old.valid_until IS NULL OR $valid_until < old.valid_until THEN $valid_until ELSE old.valid_until END,
    old.superseded_at = coalesce(old.superseded_at, $now)
WITH old, m, graph_before, graph_after, version_before, version_after
CALL (old, m) {
  MATCH (old)-[:DERIVED_FROM]->(o:Observation)
  CREATE (m)-[:DERIVED_FROM]->(o)
  RETURN count(o) AS sources
}
CALL () {
  UNWIND $edges AS e
  MATCH (a:Memory {id: e.from, space: $space})
  USING INDEX a:Memory(id)
  MATCH (b:Memory {id: e.to, space: $space})
  USING INDEX b:Memory(id)
  MERGE (a)-[r:$(e.type)]->(b)
    ON CREATE SET r.id = e.id, r.layer = e.layer, r.initial_weight = e.weight, r.created_at = $now
  SET r.description = e.description, r.weight = e.weight, r.confidence = e.confidence, r.updated_at = $now
  RETURN count(r) AS edges
}
RETURN graph_before, graph_after, version_before, version_after, edges
