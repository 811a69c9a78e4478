// The current holders of slots (construction: a change of a slot's value supersedes the
// memory that holds it, found so whatever the size of the space, not only among the
// most similar): per slot, the space's events and facts whose content says it (a Lucene
// phrase query of memory_text_space_key restricted to the space, built and escaped in
// Go: cypher.slotHolders) and whose validity has not ended, best match first, at most
// $k of the index's first $fetch matches.
// Params: $space, $slots (list of {i, lucene}), $k, $fetch.
// Returns: i (the slot's index), nodes (list of properties incl. embedding).
UNWIND $slots AS slot
CALL (slot) {
  CALL db.index.fulltext.queryNodes('memory_text_space_key', slot.lucene, {limit: $fetch}) YIELD node, score
  WHERE node.space = $space AND node.valid_until IS NULL AND (node:Fact OR node:Event)
  RETURN node
  ORDER BY score DESC, node.id
  LIMIT $k
}
RETURN slot.i AS i, collect(node {.*}) AS nodes
