// The shape of a space's memory graph for the scale benchmark: memories, directed memory
// edges, the largest degree (both directions) and provenance edges.
// Params: $space.
// Returns: memories, edges, max_degree, derived.
MATCH (m:Memory) WHERE m.space = $space
WITH m, COUNT { (m)-->(:Memory) } AS out, COUNT { (m)--(:Memory) } AS degree,
     COUNT { (m)-[:DERIVED_FROM]->(:Observation) } AS derived
RETURN count(m) AS memories, sum(out) AS edges, max(degree) AS max_degree, sum(derived) AS derived
