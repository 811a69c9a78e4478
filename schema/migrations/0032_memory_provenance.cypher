// A memory's provenance edges (DERIVED_FROM) cover all the observations among its sources
// (integration_write.cypher); a memory added before had an edge to the observation that
// added it only, not to the others it derived from (a reply's exchange: the turn it
// answers). This adds the missing ones, in batches. Idempotent: MERGE.
MATCH (m:Memory) WHERE size(coalesce(m.sources, [])) > 1
CALL (m) {
  UNWIND m.sources AS sid
  MATCH (o:Observation {space: m.space, id: sid})
  USING INDEX o:Observation(space, id)
  MERGE (m)-[:DERIVED_FROM]->(o)
} IN TRANSACTIONS OF 1000 ROWS
