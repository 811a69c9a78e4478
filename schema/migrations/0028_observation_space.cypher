// Finds a space's Observation nodes without reading every Observation of the database (a
// space's statistics, export, import and deletion). The composite index on (space, …) serves
// only statements that also bound its second property: without this one, those statements
// scanned every Observation of every space.
CREATE RANGE INDEX observation_space IF NOT EXISTS FOR (o:Observation) ON (o.space)
