// The read path's in-memory keyword index and graph snapshot (cypher/keywordindex.go,
// cypher/graphcache.go) serve a space only while its memories_version / graph_version is
// the one they were read at; a space written before these versions existed has none, and
// would be read from the statements until its next write. This gives every such space
// one. Idempotent: only missing versions are set.
MATCH (s:Space) WHERE s.memories_version IS NULL OR s.graph_version IS NULL
SET s.memories_version = coalesce(s.memories_version, randomUUID()),
    s.graph_version = coalesce(s.graph_version, randomUUID())
