// Every index of the database with its kind and state (for /readyz and tests).
// Params: none. Returns: name, type, state.
SHOW INDEXES YIELD name, type, state
RETURN name, type, state
ORDER BY name
