// Bulk-writes the observations of a synthetic scale-benchmark space (bench/scale.go), as
// integrated ones: the memories written next point to them.
// Params: $space, $observations (maps: id, session_id, speaker, content, observed_at, seq), $now.
// Returns: written (how many observations were written).
UNWIND $observations AS x
CREATE (o:Observation {space: $space, id: x.id})
SET o.session_id = x.session_id, o.speaker = x.speaker, o.content = x.content,
    o.observed_at = x.observed_at, o.seq = x.seq, o.status = 'integrated', o.attempts = 0,
    o.created_at = $now
RETURN count(o) AS written
