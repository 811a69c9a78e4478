// Marks the space as being imported by $import until $until (renewed by import_renew)
// and gives it the exported space's properties, embedder and dimension. Run after
// import_begin in the same transaction.
// Params: $space, $import, $until, $props, $embedder, $dims. Returns: nothing.
MATCH (s:Space {id: $space})
SET s += $props, s.embedder = $embedder, s.dims = $dims,
    s.import_id = $import, s.import_until = $until
