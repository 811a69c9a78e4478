// Client ids of observations are unique within a space (two tenants may reuse an id).
CREATE CONSTRAINT observation_key IF NOT EXISTS FOR (o:Observation) REQUIRE (o.space, o.id) IS UNIQUE
