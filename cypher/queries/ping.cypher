// Checks that the database answers a query.
// Params: none. Returns: ok.
RETURN 1 AS ok
