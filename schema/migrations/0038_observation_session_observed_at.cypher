// Reads one session's messages in the order they were said without reading the rest of
// the space (observation_list.cypher).
CREATE RANGE INDEX observation_space_session_observed_at IF NOT EXISTS FOR (o:Observation) ON (o.space, o.session_id, o.observed_at)
