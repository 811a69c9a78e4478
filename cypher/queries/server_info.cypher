// The server's kernel version and edition.
// Params: none. Returns: version, edition.
CALL dbms.components() YIELD name, versions, edition
WHERE name = 'Neo4j Kernel'
RETURN versions[0] AS version, edition
