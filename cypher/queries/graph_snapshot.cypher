// A space's memory graph as expansion reads it (cypher/graphcache.go): its graph_version,
// read first, then one row per memory: the properties nodeOf reads but the access stats
// (a recall's access writes do not move the version), its embedding, whether its sources
// are left out (as expand_neighbours.cypher leaves them), its degree less its provenance
// edges and its repeats let go (REPEAT_OF) (the hub test of the expansion statements), the keys of its memory edges in either
// direction in the store's order (as the expansion statements' patterns read them), and
// the memory edges that start at it.
// One page of the space's memories at a time, in id order from the one after $after:
// 100,000 memories read in one statement took Neo4j 4.5 min, in pages of 5,000 22 s.
// Params: $space, $inline_sources, $after (the last id of the page before; '' first),
// $page (memories a page).
// Returns: version, node, embedding, sources_left_out, degree, adjacent (edge keys),
// out (maps: properties + type, start, end ids, key).
OPTIONAL MATCH (s:Space {id: $space})
WITH coalesce(s.graph_version, '') AS version
MATCH (m:Memory)
WHERE m.space = $space AND m.id > $after
WITH version, m
ORDER BY m.id
LIMIT $page
WITH version, m, COUNT { (m)-[:DERIVED_FROM]-() } AS derived
RETURN version,
       m {.id, .space, .type, .name, .content, .description, .keywords, .aliases, .category, .role, .participants, sources: CASE WHEN derived <= $inline_sources THEN m.sources END, .created_at, .updated_at, .t_start, .t_end, .valid_until, .superseded_at, .learned_at, .last_said_at} AS node,
       m.embedding AS embedding,
       derived > $inline_sources AS sources_left_out,
       COUNT { (m)--() } - COUNT { (m)-[:DERIVED_FROM|REPEAT_OF]-() } AS degree,
       [(m)-[r:CONTRADICTS|IMPLIES|CONSTRAINS|VERIFIES|PRECEDES|ENABLES|TRIGGERS|RESULTS_IN|
              COMPRISES|INSTANTIATES|SUMMARIZES|CORRELATES|SUPERSEDES|ANALOGOUS_TO|CONTEXTUALIZES]-() | elementId(r)] AS adjacent,
       [(m)-[r:CONTRADICTS|IMPLIES|CONSTRAINS|VERIFIES|PRECEDES|ENABLES|TRIGGERS|RESULTS_IN|
              COMPRISES|INSTANTIATES|SUMMARIZES|CORRELATES|SUPERSEDES|ANALOGOUS_TO|CONTEXTUALIZES]->(v) |
        r {.*, type: type(r), start: m.id, end: v.id, key: elementId(r)}] AS out
