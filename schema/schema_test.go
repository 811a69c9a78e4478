package schema_test

import (
	"strings"
	"testing"

	"github.com/realm-memory/realm/schema"
)

func TestMigrations(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		ms, err := schema.Migrations(384, false)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range ms {
			if i > 0 && m.Version <= ms[i-1].Version {
				t.Errorf("migration %d (%s) out of order", m.Version, m.Name)
			}
			// A schema statement is IF NOT EXISTS (a drop IF EXISTS); a data one sets what IS
			// NULL only, MERGEs, or rewrites what opens with a text (STARTS WITH) into what
			// does not (0043: "corrected by …" into "changed by …").
			if !strings.Contains(m.Statement, "IF NOT EXISTS") && !strings.Contains(m.Statement, "IS NULL") && !strings.Contains(m.Statement, "IF EXISTS") && !strings.Contains(m.Statement, "MERGE") && !strings.Contains(m.Statement, "STARTS WITH") {
				t.Errorf("migration %d (%s) is not idempotent", m.Version, m.Name)
			}
			if strings.Contains(m.Statement, "{{") {
				t.Errorf("migration %d (%s) has an unfilled placeholder", m.Version, m.Name)
			}
		}
		var vector string
		for _, m := range ms {
			if m.Name == "memory_embedding" {
				vector = m.Statement
			}
		}
		if !strings.Contains(vector, "`vector.dimensions`: 384") || strings.Contains(vector, "CYPHER 25 CREATE") || strings.Contains(vector, "(m.embedding) WITH") {
			t.Errorf("vector index statement for 5.26: %s", vector)
		}
	})
	t.Run("Filtered", func(t *testing.T) {
		ms, err := schema.Migrations(384, true)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			if m.Name == "memory_embedding" && !strings.Contains(m.Statement, "CYPHER 25 CREATE VECTOR INDEX memory_embedding IF NOT EXISTS FOR (m:Memory) ON (m.embedding) WITH [m.space]") {
				t.Errorf("vector index statement for 2026.x: %s", m.Statement)
			}
		}
	})
	t.Run("ErrDims", func(t *testing.T) {
		if _, err := schema.Migrations(0, false); err == nil {
			t.Fatal("want an error for dimension 0")
		}
	})
}
