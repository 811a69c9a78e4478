package cyphertest

import (
	"context"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
)

// TestConfigTimeouts: the tests' Neo4j settings take the timeouts of the environment, as
// realm serve does (a loaded machine sets a longer NEO4J_ANSWER_TIMEOUT).
func TestConfigTimeouts(t *testing.T) {
	t.Setenv("NEO4J_ANSWER_TIMEOUT", "42s")
	t.Setenv("NEO4J_RETRY_TIME", "2m")
	if c := Config(); c.AnswerTimeout != 42*time.Second || c.RetryTime != 2*time.Minute {
		t.Errorf("answer timeout %s, retry time %s, want 42s and 2m from the environment", c.AnswerTimeout, c.RetryTime)
	}
}

// TestNewSpaceErased: a space NewSpace named is erased when its test ends, also when the
// test wrote it through a store of its own and never called MustOpen (a server under
// test, run alone with -run).
func TestNewSpaceErased(t *testing.T) {
	ctx := context.Background()
	own, err := cypher.Open(ctx, Config())
	if err != nil {
		if Required() {
			t.Fatal(err)
		}
		t.Skipf("no neo4j: %v", err)
	}
	defer own.Close(ctx)
	var space string
	t.Run("Writes", func(t *testing.T) {
		space = NewSpace(t)
		o := realm.Observation{ID: "o1", Space: space, Speaker: "Ann", Content: "I live in Rome.", ObservedAt: time.Now()}
		if _, err := own.SaveObservations(ctx, space, "test:hash", Dims, []realm.Observation{o}, cypher.Lease{}); err != nil {
			t.Fatal(err)
		}
	})
	if exists, err := own.SpaceExists(ctx, space); err != nil || exists {
		t.Errorf("space %s after its test: exists %v (%v), want it erased", space, exists, err)
	}
}
