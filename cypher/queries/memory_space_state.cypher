// A fingerprint of a space's memories, read with a run's neighbourhoods and again under
// the space's lock before the run is written: adding, deleting, merging into or ending
// the validity of a memory changes it (count, the sum of the update times in ms, the
// superseded count), so an unchanged one means the neighbourhoods read are still the
// space's and need not be read again.
// Params: $space. Returns: n, updated, superseded.
MATCH (m:Memory {space: $space})
RETURN count(m) AS n, sum(m.updated_at.epochMillis) AS updated, count(m.superseded_at) AS superseded
