// Gives a space being imported the exported space's properties, embedder and dimension,
// once the file has been read through. Run after import_renew in the same transaction.
// The exported graph_version is replaced by a new one (a snapshot of the space as it was
// before the import must not pass for it). Whether the space may hold learned links is what
// the import wrote (import_begin, import_edges), not what the file says (cypher/learned.go).
// Params: $space, $props, $embedder, $dims. Returns: nothing.
MATCH (s:Space {id: $space})
WITH s, s.learned_links AS learned
SET s += $props, s.embedder = $embedder, s.dims = $dims, s.graph_version = randomUUID(), s.learned_links = learned
