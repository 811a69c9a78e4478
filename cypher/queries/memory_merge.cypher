// Merges candidates into existing memories of the same space, in list order (a memory
// merged by several observations of a run takes each row in turn): per merge, new
// content and embedding (when given), the complete keyword list, the observation added
// to sources, updated_at, the word count of the new text (cypher.WordCount), and
// provenance to the observation.
// Params: $space, $merges (list of {observation, id, content, embedding, keywords, at}),
// at being the merge's updated_at.
// Returns: observation, id (one row per merge whose memory and observation are in the space).
// It moves the space's graph_version first (expansion's snapshot of the space is then read again).
CALL () {
  OPTIONAL MATCH (g:Space {id: $space})
  SET g.graph_version = randomUUID()
}
UNWIND $merges AS x
MATCH (o:Observation {space: $space, id: x.observation})
MATCH (m:Memory {id: x.id, space: $space})
SET m.content = coalesce(x.content, m.content),
    m.embedding = coalesce(x.embedding, m.embedding),
    m.keywords = x.keywords,
    m.sources = CASE WHEN x.observation IN coalesce(m.sources, []) THEN m.sources
                     ELSE coalesce(m.sources, []) + x.observation END,
    m.updated_at = x.at
SET m.word_count = size([w IN split(coalesce(m.name, '') + ' ' + coalesce(m.content, '') + ' ' + reduce(k = '', y IN coalesce(m.keywords, []) | k + ' ' + y), ' ') WHERE w <> ''])
MERGE (m)-[:DERIVED_FROM]->(o)
RETURN x.observation AS observation, m.id AS id
