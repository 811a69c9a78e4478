package cypher_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestNeo4jHung: while Neo4j takes connections and answers nothing (it hangs, or it is
// starting), a call fails EUnavailable once it has waited AnswerTimeout for an answer,
// not when its caller gives up; once Neo4j answers again, calls succeed on the same
// store.
func TestNeo4jHung(t *testing.T) {
	cfg := cyphertest.Config()
	cfg.UnavailableTimeout = 300 * time.Millisecond
	cfg.AnswerTimeout = 300 * time.Millisecond
	store, proxy := cyphertest.BehindProxy(t, cfg)
	space := cyphertest.NewSpace(t)
	calls := []struct {
		name string
		run  func(context.Context) error
	}{
		{name: "AutoCommit", run: store.Ping},
		{name: "ManagedTransaction", run: func(ctx context.Context) error {
			_, err := store.EditStats(ctx, space)
			return err
		}},
	}
	for _, c := range calls {
		if err := c.run(context.Background()); err != nil {
			t.Fatalf("%s before the hang: %v", c.name, err)
		}
	}

	proxy.Hang()
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			// The caller's deadline is far beyond AnswerTimeout: a call that meets it
			// waited for the hung Neo4j.
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			err := c.run(ctx)
			if realm.ErrorCode(err) != realm.EUnavailable || ctx.Err() != nil {
				t.Errorf("with neo4j hung: %v (the caller's deadline: %v), want unavailable before that deadline", err, ctx.Err())
			}
			if !strings.Contains(err.Error(), "neo4j is unavailable: neo4j did not answer") {
				t.Errorf("with neo4j hung: %v, want the cause said", err)
			}
		})
	}

	proxy.Unhang()
	for _, c := range calls {
		if err := c.run(context.Background()); err != nil {
			t.Errorf("%s once neo4j answers again: %v", c.name, err)
		}
	}
}
