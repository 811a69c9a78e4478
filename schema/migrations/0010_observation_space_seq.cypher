// Recent observations of a space, in arrival order.
CREATE RANGE INDEX observation_space_seq IF NOT EXISTS FOR (o:Observation) ON (o.space, o.seq)
