// Links the imported observations a memory let go from its provenance, of too many
// repeats, to that memory (REPEAT_OF: integration_write.cypher), as their repeat_of lists
// it: a file carries the list only. Run once the memories are written
// (cypher.Import.Finish); a memory the file does not hold gets no edge.
// Params: $space. Returns: created.
// It moves the space's graph_version first (expansion's snapshot of the space is then read again).
CALL () {
  OPTIONAL MATCH (g:Space {id: $space})
  SET g.graph_version = randomUUID()
}
MATCH (p:Observation {space: $space})
WHERE p.repeat_of IS NOT NULL
UNWIND p.repeat_of AS mid
MATCH (m:Memory {id: mid})
USING INDEX m:Memory(id)
WHERE m.space = $space
MERGE (p)-[:REPEAT_OF]->(m)
RETURN count(*) AS created
