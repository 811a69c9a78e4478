// The dimension of the vector index on Memory.embedding, if it exists.
// Params: none. Returns: dims.
SHOW VECTOR INDEXES YIELD name, options
WHERE name = 'memory_embedding'
RETURN options.indexConfig['vector.dimensions'] AS dims
