// Writes the supersedes edges just imported of a client's correction sent with valid_from
// by a version that said "corrected by …" of it as migration 0043_supersedes_dated_change
// writes the stored ones: "changed by … as of …", the memory corrected ended at another
// time than the second its correction's description names. An edge an export of this
// version holds never opens so.
// Params: $space, $rows (import_edges.cypher's). Returns: set.
UNWIND $rows AS e
WITH e WHERE e.type = 'SUPERSEDES' AND e.props.description STARTS WITH 'corrected by '
MATCH (m:Memory {id: e.from})-[r:SUPERSEDES]->(old:Memory {id: e.to})
USING INDEX m:Memory(id)
WHERE m.space = $space AND old.space = $space AND m.description STARTS WITH 'corrected by ' AND old.valid_until IS NOT NULL
WITH m, r, old, split(m.description, ' on ')[-1] AS made
WITH r, old, made, substring(m.description, size('corrected by '), size(m.description) - size('corrected by ') - size(' on ' + made)) AS by
WHERE made =~ '[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(Z|[+-][0-9]{2}:[0-9]{2})' AND r.description STARTS WITH 'corrected by ' + by + ': '
  AND old.valid_until.epochSeconds <> datetime(made).epochSeconds
SET r.description = 'changed by ' + by + ' as of ' + toString(datetime({epochSeconds: old.valid_until.epochSeconds})) +
  substring(r.description, size('corrected by ' + by))
RETURN count(r) AS set
