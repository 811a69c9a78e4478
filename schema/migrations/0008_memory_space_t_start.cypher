// Time-range filters within a space.
CREATE RANGE INDEX memory_space_t_start IF NOT EXISTS FOR (m:Memory) ON (m.space, m.t_start)
