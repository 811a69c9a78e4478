// An observation a memory let go from its provenance, of too many repeats, lists the
// memory in its repeat_of and has an edge REPEAT_OF to it (integration_write.cypher),
// by which forgetting the memory finds it without reading every observation of its
// space (observation_delete_memories.cypher); one let go before had no edge. This adds
// the missing ones, in batches. Idempotent: MERGE.
MATCH (p:Observation) WHERE p.repeat_of IS NOT NULL
CALL (p) {
  UNWIND p.repeat_of AS mid
  MATCH (m:Memory {id: mid})
  USING INDEX m:Memory(id)
  WHERE m.space = p.space
  MERGE (p)-[:REPEAT_OF]->(m)
} IN TRANSACTIONS OF 1000 ROWS
