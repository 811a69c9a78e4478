// Stores a batch of observations of one space, each unless (space, id) exists
// (idempotent), giving a new one the next seq of its space, in batch order, and status
// pending, and the number of messages the space forgot so far (generation, none before
// any: realm.Observation.Generation). A pending observation whose lease is free, expired
// or already ours is leased to $owner. Run after space_ensure_lock; ids must be distinct
// within the batch.
// A message sent again keeps what it was stored with, its sent_by too (the API key that
// sent it first). A message that replaces another (replaces: realm.Observation.Replaces)
// is returned with the seq of that one when the space holds it (an earlier message of
// the batch included): the caller refuses it otherwise, or when that one comes after it.
// Params: $space, $observations (list of {i, id, session_id, speaker, role: '' for none,
// which stores none, content, observed_at, utc_offset: the seconds east of UTC of the
// timestamp as sent, sent_by: the API key's name, '' for none, which stores none, replaces:
// the id of the message it replaces, '' for none, which stores none}), $now,
// $owner, $until.
// Returns: i (the index in $observations), o (the stored properties), new, claimed,
// replaced_seq (the seq of the message o replaces, null when none or not in the space).
MATCH (s:Space {id: $space})
UNWIND $observations AS x
MERGE (o:Observation {space: $space, id: x.id})
  ON CREATE SET o.session_id = x.session_id, o.speaker = x.speaker, o.role = CASE WHEN x.role <> '' THEN x.role END,
                o.sent_by = CASE WHEN x.sent_by <> '' THEN x.sent_by END,
                o.replaces = CASE WHEN x.replaces <> '' THEN x.replaces END,
                o.content = x.content,
                o.observed_at = x.observed_at, o.utc_offset = x.utc_offset, o.status = 'pending', o.attempts = 0,
                o.created_at = $now, o.is_new = true, o.generation = s.forgotten
WITH s, x, o, coalesce(o.is_new, false) AS new
ORDER BY x.i
REMOVE o.is_new
FOREACH (_ IN CASE WHEN new THEN [1] ELSE [] END |
  SET s.seq = s.seq + 1
  SET o.seq = s.seq)
FOREACH (_ IN CASE WHEN $owner <> '' AND o.status = 'pending'
                    AND (new OR o.lease_until IS NULL OR o.lease_until < $now OR o.lease_owner = $owner)
              THEN [1] ELSE [] END |
  SET o.lease_owner = $owner, o.lease_until = $until)
WITH x, o, new
OPTIONAL MATCH (r:Observation {space: $space, id: o.replaces})
RETURN x.i AS i, o {.*} AS o, new, (o.lease_owner = $owner AND o.lease_until = $until) AS claimed, r.seq AS replaced_seq
ORDER BY i
