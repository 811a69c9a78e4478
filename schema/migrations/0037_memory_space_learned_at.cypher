// Finds whether a space learned memories after a time without reading all of them: a
// recall as of a time before now leaves those out (memory_learned_after.cypher).
CREATE RANGE INDEX memory_space_learned_at IF NOT EXISTS FOR (m:Memory) ON (m.space, m.learned_at)
