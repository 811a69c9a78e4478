// memory_text_space (0018) is read by no statement since memory_text_space_key (0025)
// restricts a query to one space exactly; every commit that writes a memory would
// still update it. Idempotent.
DROP INDEX memory_text_space IF EXISTS
