// A session's episode by its name (episodes.cypher): the write path links what is said in
// a session to the session's episode however many memories the space holds.
CREATE RANGE INDEX memory_space_name IF NOT EXISTS FOR (m:Memory) ON (m.space, m.name)
