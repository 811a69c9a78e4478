// Which of the ids are held by a memory of another space than $space (one a trusted
// import wrote with the ids of its file): the memories an ingestion of $space adds take
// others (Store.FreeMemoryIDs).
// Params: $space, $ids. Returns: id (one row per id held elsewhere).
UNWIND $ids AS mid
MATCH (m:Memory {id: mid})
USING INDEX m:Memory(id)
WHERE m.space <> $space
RETURN m.id AS id
