// What the in-memory keyword index (cypher/keywordindex.go) holds of a space's memories:
// for each, what seed_fulltext.cypher matches, scores and filters by (name, content,
// keywords, word_count, type, t_start, t_end), with the space's fingerprint
// (cypher.SpaceState, as seed_space_size.cypher reads it) before and after reading them,
// so that the caller keeps only a read that no write of the write path overlapped.
// Params: $space. Returns one row: n, version, after (the version read last), memories
// (list of [id, name, content, keywords, word_count, type, t_start, t_end]).
CALL () {
  OPTIONAL MATCH (s:Space {id: $space})
  RETURN coalesce(s.memories_version, '') AS version
}
CALL () {
  MATCH (m:Memory {space: $space})
  RETURN collect([m.id, m.name, m.content, m.keywords, m.word_count, m.type, m.t_start, m.t_end]) AS memories
}
CALL () {
  OPTIONAL MATCH (s:Space {id: $space})
  RETURN coalesce(s.memories_version, '') AS after
}
RETURN size(memories) AS n, version, after, memories
