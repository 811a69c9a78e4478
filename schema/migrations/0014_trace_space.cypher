CREATE RANGE INDEX trace_space_created_at IF NOT EXISTS FOR (t:Trace) ON (t.space, t.created_at)
