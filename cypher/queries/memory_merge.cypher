// Merges candidates into existing memories of the same space: per merge, new content and
// embedding (when given), the complete keyword list, the observation added to sources,
// updated_at, and provenance to the observation. Merge ids are distinct.
// Params: $space, $observation, $merges (list of {id, content, embedding, keywords}), $now.
// Returns: id (one row per merge whose memory is in the space).
MATCH (o:Observation {space: $space, id: $observation})
UNWIND $merges AS x
MATCH (m:Memory {id: x.id, space: $space})
SET m.content = coalesce(x.content, m.content),
    m.embedding = coalesce(x.embedding, m.embedding),
    m.keywords = x.keywords,
    m.sources = CASE WHEN $observation IN coalesce(m.sources, []) THEN m.sources
                     ELSE coalesce(m.sources, []) + $observation END,
    m.updated_at = $now
MERGE (m)-[:DERIVED_FROM]->(o)
RETURN m.id AS id
