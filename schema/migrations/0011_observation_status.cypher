// Pending observations are resumed at start.
CREATE RANGE INDEX observation_status IF NOT EXISTS FOR (o:Observation) ON (o.status)
