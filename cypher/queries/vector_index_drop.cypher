// Drops the vector index so that it can be created with another dimension.
// Params: none. Returns: nothing.
DROP INDEX memory_embedding IF EXISTS
