// Finds the memories a forget left to derive again (cypher.DeleteObservation marks them
// rederive: true, cypher.Store.RederiveMemory removes the mark) without reading every
// Memory of the database: the server's resumption reads these only, each pass
// (memory_rederive_pending.cypher). A memory leaves the index when it is derived again.
CREATE RANGE INDEX memory_rederive IF NOT EXISTS FOR (m:Memory) ON (m.rederive)
