// Finds a space's Edit nodes without reading every Edit of the database (a space's statistics
// and list of edits, its import and deletion). The composite index on (space, …) serves only
// statements that also bound its second property: without this one, those statements scanned
// every Edit of every space.
CREATE RANGE INDEX edit_space IF NOT EXISTS FOR (e:Edit) ON (e.space)
