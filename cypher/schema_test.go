package cypher

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/schema"
)

// qTestMigrationForget deletes a migration's record, as if it had never been applied.
var qTestMigrationForget = newQuery("test_migration_forget", `MATCH (m:Migration {version: $version}) DELETE m`)

// TestApplySchemaRefusesNewerStore: a store that records a migration this build does not
// know (a newer REALM migrated it) is refused with the fix named, and is never ready.
func TestApplySchemaRefusesNewerStore(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	migrations, err := schema.Migrations(384, s.filtered)
	if err != nil {
		t.Fatal(err)
	}
	newer := migrations[len(migrations)-1].Version + 1
	t.Cleanup(func() {
		if _, err := s.write(context.Background(), qTestMigrationForget, map[string]any{"version": newer}); err != nil {
			t.Errorf("forgetting the newer migration: %v", err)
		}
	})
	if _, err := s.write(ctx, qMigrationRecord, map[string]any{"version": newer, "name": "from_the_future", "now": time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	err = s.ApplySchema(ctx, 384)
	if realm.ErrorCode(err) != realm.EConflict || !strings.Contains(err.Error(), "migrated by a newer REALM") ||
		!strings.Contains(err.Error(), "from_the_future unknown to this build") || !strings.Contains(err.Error(), "restore a backup") {
		t.Errorf("apply schema: %v, want a conflict naming the unknown migration and the fix", err)
	}
	ok, reason, err := s.SchemaReady(ctx, 384)
	if ok || err != nil || !strings.Contains(reason, "from_the_future") {
		t.Errorf("ready %v, reason %q, %v: want not ready, naming the unknown migration", ok, reason, err)
	}
}

// TestApplySchemaLogsMigrations: each migration applied is logged with its name and how
// long it took, then a summary; a start that applies none logs nothing.
func TestApplySchemaLogsMigrations(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	// The space id's constraint is applied again (IF NOT EXISTS: a no-op) once forgotten.
	if _, err := s.write(ctx, qTestMigrationForget, map[string]any{"version": 1}); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	logged := zerolog.New(&logs).WithContext(ctx)
	if err := s.ApplySchema(logged, 384); err != nil {
		t.Fatal(err)
	}
	var lines []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var l map[string]any
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		lines = append(lines, l)
	}
	if len(lines) != 2 || lines[0]["migration"] != "0001_space_id" || lines[0]["took"] == nil ||
		lines[1]["migrations"] != 1.0 || lines[1]["took"] == nil || lines[0]["level"] != "info" || lines[1]["level"] != "info" {
		t.Errorf("logged %s, want the migration 0001_space_id with how long it took, then a summary of one", logs.String())
	}
	logs.Reset()
	if err := s.ApplySchema(logged, 384); err != nil {
		t.Fatal(err)
	}
	if logs.Len() > 0 {
		t.Errorf("nothing to apply, but logged %s", logs.String())
	}
}

// mustMigration is the statement of the migration named name, as ApplySchema runs it.
func mustMigration(t *testing.T, s *Store, name string) string {
	t.Helper()
	migrations, err := schema.Migrations(384, s.filtered)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(migrations, func(m schema.Migration) bool { return m.Name == name })
	if i < 0 {
		t.Fatalf("no %s migration", name)
	}
	return migrations[i].Statement
}
