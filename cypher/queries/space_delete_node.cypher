// Deletes the (:Space) node itself, after its contents.
// Params: $space. Returns: deleted.
MATCH (s:Space {id: $space})
DETACH DELETE s
RETURN count(*) AS deleted
