// Starts an import: creates the space's node if it has none and takes its write lock for
// the rest of the transaction, then says what the space holds, so the caller can refuse a
// space that is not empty. An unfinished import leaves import_id and import_until. A new
// space holds no learned link until import_edges writes one (cypher/learned.go).
// Params: $space, $now.
// Returns: import_id, import_until (null unless an import ran), contents (memories,
// observations, traces, edits and jobs of the space).
MERGE (s:Space {id: $space})
  ON CREATE SET s.learned_links = false
SET s.locked_at = $now
RETURN s.import_id AS import_id, s.import_until AS import_until,
       COUNT { MATCH (m:Memory) WHERE m.space = $space } +
       COUNT { MATCH (o:Observation) WHERE o.space = $space } +
       COUNT { MATCH (t:Trace) WHERE t.space = $space } +
       COUNT { MATCH (e:Edit) WHERE e.space = $space } +
       COUNT { MATCH (j:Job) WHERE j.space = $space } AS contents
