CREATE RANGE INDEX edit_space_created_at IF NOT EXISTS FOR (e:Edit) ON (e.space, e.created_at)
