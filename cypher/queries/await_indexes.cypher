// Waits until every index is ONLINE, failing after $seconds.
// Params: $seconds. Returns: nothing.
CALL db.awaitIndexes($seconds)
