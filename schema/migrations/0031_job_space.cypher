// Finds a space's Job nodes without reading every Job of the database (the import into a space
// and its deletion). The composite index on (space, …) serves only statements that also bound
// its second property: without this one, those statements scanned every Job of every space.
CREATE RANGE INDEX job_space IF NOT EXISTS FOR (j:Job) ON (j.space)
