// A client's correction sent with valid_from says the memory changed then and held until
// then: its supersedes edge says "changed by … as of …" (construction/correct.go), and
// recall keeps the memory for questions about the past. One written before said
// "corrected by …", as a correction sent without valid_from says, which marks a memory
// that never held (realm.IsCorrection). The stored times tell them apart: sent without
// valid_from, a correction ended the memory when it was made, in the second its own
// description names ("corrected by ops on 2026-12-06T08:56:29Z"); sent with it, at
// valid_from. This writes the edges of those ended at another time as a dated correction
// writes them now, in batches. Idempotent: an edge written so no longer says "corrected by".
MATCH (m:Memory)-[r:SUPERSEDES]->(old:Memory)
WHERE m.description STARTS WITH 'corrected by ' AND r.description STARTS WITH 'corrected by ' AND old.valid_until IS NOT NULL
CALL (m, r, old) {
  WITH m, r, old, split(m.description, ' on ')[-1] AS made
  WITH r, old, made, substring(m.description, size('corrected by '), size(m.description) - size('corrected by ') - size(' on ' + made)) AS by
  WHERE made =~ '[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(Z|[+-][0-9]{2}:[0-9]{2})' AND r.description STARTS WITH 'corrected by ' + by + ': '
    AND old.valid_until.epochSeconds <> datetime(made).epochSeconds
  SET r.description = 'changed by ' + by + ' as of ' + toString(datetime({epochSeconds: old.valid_until.epochSeconds})) +
    substring(r.description, size('corrected by ' + by))
} IN TRANSACTIONS OF 1000 ROWS
