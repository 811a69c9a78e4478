// Recent memories of a space (N_recent) and cursor paging.
CREATE RANGE INDEX memory_space_created_at IF NOT EXISTS FOR (m:Memory) ON (m.space, m.created_at)
