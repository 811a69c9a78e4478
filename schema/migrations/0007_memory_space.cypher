// Every memory query filters by space.
CREATE RANGE INDEX memory_space IF NOT EXISTS FOR (m:Memory) ON (m.space)
