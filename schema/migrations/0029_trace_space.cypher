// Finds a space's Trace nodes without reading every Trace of the database (the import into a
// space and its deletion). The composite index on (space, …) serves only statements that also
// bound its second property: without this one, those statements scanned every Trace of every
// space.
CREATE RANGE INDEX trace_space IF NOT EXISTS FOR (t:Trace) ON (t.space)
