// The rows of graph_snapshot.cypher of some memories of a space only, the same columns but
// the version: what a snapshot reads again of the memories a write of this process
// touched (the ends of the edges it wrote), to follow the write (graphcache.go).
// Params: $space, $ids (memory ids), $inline_sources, $lean (those of ids whose memory
// edges the write left alone: their adjacent and out are null, not read — a speaker's
// entity, merged into by most observations, has 40,000 of them).
// Returns: node, embedding, sources_left_out, degree, adjacent (edge keys), out (maps:
// properties + type, start, end ids, key); no row for an id not of the space.
UNWIND $ids AS id
MATCH (m:Memory {id: id})
USING INDEX m:Memory(id)
WHERE m.space = $space
WITH m, id IN $lean AS lean, COUNT { (m)-[:DERIVED_FROM]-() } AS derived
RETURN m {.id, .space, .type, .name, .content, .description, .keywords, .aliases, .category, .role, .participants, sources: CASE WHEN derived <= $inline_sources THEN m.sources END, .created_at, .updated_at, .t_start, .t_end, .valid_until, .superseded_at, .learned_at, .last_said_at} AS node,
       m.embedding AS embedding,
       derived > $inline_sources AS sources_left_out,
       COUNT { (m)--() } - COUNT { (m)-[:DERIVED_FROM|REPEAT_OF]-() } AS degree,
       CASE WHEN NOT lean THEN
       [(m)-[r:CONTRADICTS|IMPLIES|CONSTRAINS|VERIFIES|PRECEDES|ENABLES|TRIGGERS|RESULTS_IN|
              COMPRISES|INSTANTIATES|SUMMARIZES|CORRELATES|SUPERSEDES|ANALOGOUS_TO|CONTEXTUALIZES]-() | elementId(r)] END AS adjacent,
       CASE WHEN NOT lean THEN
       [(m)-[r:CONTRADICTS|IMPLIES|CONSTRAINS|VERIFIES|PRECEDES|ENABLES|TRIGGERS|RESULTS_IN|
              COMPRISES|INSTANTIATES|SUMMARIZES|CORRELATES|SUPERSEDES|ANALOGOUS_TO|CONTEXTUALIZES]->(v) |
        r {.*, type: type(r), start: m.id, end: v.id, key: elementId(r)}] END AS out
