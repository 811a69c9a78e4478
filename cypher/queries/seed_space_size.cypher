// Counts the memories of a space and of the whole database, to choose between the
// vector index and an exact scan (REALM.md §3.1; ARCHITECTURE.md, tenancy).
// Params: $space. Returns: in_space, total.
RETURN COUNT { MATCH (m:Memory) WHERE m.space = $space } AS in_space,
       COUNT { MATCH (n:Memory) } AS total
