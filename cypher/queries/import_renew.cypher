// Extends an import's lease on its space before each batch, under the space's write lock;
// no row when the space is gone or another import took it over.
// Params: $space, $import, $until. Returns: id.
MATCH (s:Space {id: $space})
WHERE s.import_id = $import
SET s.import_until = $until
RETURN s.id AS id
