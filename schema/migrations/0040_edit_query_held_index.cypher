// Finds the edits that still hold their query's text (0039) without reading every Edit of
// the database: the retention's sweep reads these only, each run (learned_expiring.cypher,
// edit_erase_orphaned.cypher). An edit leaves the index when the sweep erases its text.
CREATE RANGE INDEX edit_query_held IF NOT EXISTS FOR (e:Edit) ON (e.query_held)
