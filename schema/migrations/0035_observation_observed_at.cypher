// Finds the messages observed in a time window of a space without reading all of its
// messages: what was said then (seed_said_in.cypher).
CREATE RANGE INDEX observation_space_observed_at IF NOT EXISTS FOR (o:Observation) ON (o.space, o.observed_at)
