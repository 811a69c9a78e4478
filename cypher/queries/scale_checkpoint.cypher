// Flushes the database's pages to its store files and waits until they are written, so
// that the scale benchmark measures the files on disk after what it wrote rather than
// before the next periodic checkpoint. Enterprise only: Community 5.26 has no
// db.checkpoint and fails with Neo.ClientError.Procedure.ProcedureNotFound.
// Params: none.
// Returns: success, message.
CALL db.checkpoint() YIELD success, message
RETURN success, message
