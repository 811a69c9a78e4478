// Takes the write lock of an existing space for a client's correction of one of its
// memories (cypher.CorrectMemory; writes of a space are serialized across processes,
// ARCHITECTURE.md Scale-out) and reads, under that lock, what the correction is decided
// on: the space's import mark, the memory corrected, the memory of the correction's id
// if it exists already (the same correction sent again), and the corrected memory's edges
// to or from memories of the types $copy_types that are not learned links (no query),
// which the correction gets copies of (cypher.copiedEdges leaves out an entity the
// correction no longer names), and the memories that supersede it (a supersedes edge
// into it): a memory whose validity ended is history only while one does
// (memory_delete.cypher gives a memory back its validity when the last one goes).
// Params: $space, $id, $new_id, $copy_types, $now.
// Returns: no row when the space does not exist; else one row: import_id, import_until,
// old and done (properties without the embedding, null when there is none), newer (the
// ids of the memories superseding old), edges (list of {type, out (true: from the
// corrected memory), other, name (null but for an entity), weight, confidence,
// description}).
MATCH (s:Space {id: $space})
SET s.locked_at = $now
WITH s
OPTIONAL MATCH (m:Memory {id: $id, space: $space})
USING INDEX m:Memory(id)
OPTIONAL MATCH (c:Memory {id: $new_id, space: $space})
USING INDEX c:Memory(id)
RETURN s.import_id AS import_id, s.import_until AS import_until,
       m {.*, embedding: null} AS old, c {.*, embedding: null} AS done,
       CASE WHEN m IS NULL THEN [] ELSE
         [(x:Memory)-[:SUPERSEDES]->(m) WHERE x.space = $space AND x <> m | x.id] END AS newer,
       CASE WHEN m IS NULL THEN [] ELSE
         [(m)-[r]-(v:Memory) WHERE v.space = $space AND v.type IN $copy_types AND v <> m AND r.query IS NULL |
          {type: type(r), out: startNode(r) = m, other: v.id, name: CASE WHEN v:Entity THEN v.name END, weight: r.weight, confidence: r.confidence, description: r.description}]
       END AS edges
