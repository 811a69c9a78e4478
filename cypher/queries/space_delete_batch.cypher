// Deletes up to $batch nodes of one space (memories with their edges, observations,
// traces, edits, jobs); called until it deletes nothing, so a large space never needs
// one huge transaction.
// Params: $space, $batch, $import (the import erasing what an interrupted one left,
// Import.wipe; '' for an erasure of the space). Returns: deleted.
// It moves the space's graph_version first (expansion's snapshot of the space is then read
// again), and, erasing the space, marks it as being erased: no trace is written into it any
// more (trace_create.cypher); an import's wipe erases what another left, not the space. It takes the space from any other import holding it: that
// import's next write finds its hold gone (import_renew.cypher) and writes nothing, so
// that the batches after it erase all it wrote.
CALL () {
  OPTIONAL MATCH (g:Space {id: $space})
  WITH g, g.import_id = $import AS kept
  SET g.graph_version = randomUUID(), g.erasing = CASE WHEN $import = '' THEN true ELSE g.erasing END,
      g.import_id = CASE WHEN kept THEN g.import_id END, g.import_until = CASE WHEN kept THEN g.import_until END
}
MATCH (n)
WHERE (n:Memory OR n:Observation OR n:Trace OR n:Edit OR n:Job) AND n.space = $space
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS deleted
