package cypher_test

import (
	"context"
	"testing"

	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestCheckpoint: Enterprise checkpoints when asked; Community has no db.checkpoint,
// which Checkpoint reports as not done rather than as an error, so that the scale
// benchmark runs on either and says which.
func TestCheckpoint(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	_, edition, err := s.ServerInfo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	done, err := s.Checkpoint(ctx)
	if err != nil {
		t.Fatalf("Checkpoint on %s edition: %v", edition, err)
	}
	if want := edition != "community"; done != want {
		t.Errorf("Checkpoint on %s edition reports done %t, want %t", edition, done, want)
	}
}
