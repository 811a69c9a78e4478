package schema_test

import (
	"strings"
	"testing"

	"github.com/realm-memory/realm/schema"
)

func TestMigrations(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		ms, err := schema.Migrations(384)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range ms {
			if i > 0 && m.Version <= ms[i-1].Version {
				t.Errorf("migration %d (%s) out of order", m.Version, m.Name)
			}
			if !strings.Contains(m.Statement, "IF NOT EXISTS") {
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
		if !strings.Contains(vector, "`vector.dimensions`: 384") {
			t.Errorf("vector index statement lacks the dimension: %s", vector)
		}
	})
	t.Run("ErrDims", func(t *testing.T) {
		if _, err := schema.Migrations(0); err == nil {
			t.Fatal("want an error for dimension 0")
		}
	})
}
