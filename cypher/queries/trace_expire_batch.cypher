// Deletes up to $batch traces, of any space, created before $cutoff (the retention's
// sweep); called until it deletes fewer than $batch, so one sweep never holds a large
// transaction. The edits logged from a trace keep its id and stay revertible: nothing else
// refers to the Trace node.
// Params: $cutoff, $batch. Returns: deleted.
MATCH (t:Trace)
WHERE t.created_at < $cutoff
WITH t LIMIT $batch
DETACH DELETE t
RETURN count(*) AS deleted
