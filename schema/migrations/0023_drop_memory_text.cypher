// memory_text (0013) is read by no statement since seeds are scored per space from
// memory_text_space (0018), yet every commit that writes a memory updated it: 4–8 ms of
// Neo4j's CPU per such commit, measured one memory a transaction. Idempotent.
DROP INDEX memory_text IF EXISTS
