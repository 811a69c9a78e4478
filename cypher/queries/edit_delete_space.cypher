// Deletes the edit log of a space (when the space goes, and after tests). It moves the
// space's graph_version, as every write of its edits does (a space's statistics are kept
// while it holds: cypher/statsmemo.go).
// Params: $space.
// Returns: nothing.
CALL () {
  OPTIONAL MATCH (g:Space {id: $space})
  SET g.graph_version = randomUUID()
}
MATCH (x:Edit)
WHERE x.space = $space
DELETE x
