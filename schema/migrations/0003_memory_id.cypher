// Memory ids are server-made UUIDs, unique across spaces.
CREATE CONSTRAINT memory_id IF NOT EXISTS FOR (m:Memory) REQUIRE m.id IS UNIQUE
