// The dimension of the vector index on Memory.embedding, if it exists, and whether it
// holds the space for filtered searches (Neo4j 2026.x: WITH [m.space]).
// Params: none. Returns: dims, filtered.
SHOW VECTOR INDEXES YIELD name, options, properties
WHERE name = 'memory_embedding'
RETURN options.indexConfig['vector.dimensions'] AS dims, 'space' IN properties AS filtered
