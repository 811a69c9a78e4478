// Merges a candidate into an existing memory of the same space: new content and
// embedding (when given), keywords and sources extended, updated_at, and provenance to
// the observation.
// Params: $space, $id, $content, $embedding, $keywords, $observation, $now. Returns: id
// (no row when the memory is not in the space).
MATCH (m:Memory {id: $id, space: $space})
MATCH (o:Observation {space: $space, id: $observation})
SET m.content = coalesce($content, m.content),
    m.embedding = coalesce($embedding, m.embedding),
    m.keywords = $keywords,
    m.sources = CASE WHEN $observation IN coalesce(m.sources, []) THEN m.sources
                     ELSE coalesce(m.sources, []) + $observation END,
    m.updated_at = $now
MERGE (m)-[:DERIVED_FROM]->(o)
RETURN m.id AS id
