package main

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestAwaitNeo4j: a step of the start that meets a Neo4j that does not serve (here it
// hangs, as one just started may) is run again, each wait logged with its cause, until
// Neo4j serves; a Neo4j that never does ends the wait with the cause; an error of
// another kind ends it at once.
func TestAwaitNeo4j(t *testing.T) {
	cfg := cyphertest.Config()
	cfg.UnavailableTimeout = 300 * time.Millisecond
	cfg.AnswerTimeout = 300 * time.Millisecond
	store, proxy := cyphertest.BehindProxy(t, cfg)
	ctx := context.Background()

	t.Run("OK", func(t *testing.T) {
		proxy.Hang()
		out := newLineLog(regexp.MustCompile(`("message":"neo4j does not serve yet: pinging again after a pause")`))
		go func() {
			<-out.match
			proxy.Unhang()
		}()
		if err := awaitNeo4j(ctx, newLogger(out, "info"), time.Hour, "pinging", func() error { return store.Ping(ctx) }); err != nil {
			t.Fatalf("once neo4j serves again: %v\n%s", err, out.String())
		}
		if !strings.Contains(out.String(), `"level":"warn","error":"realm unavailable: neo4j is unavailable: neo4j did not answer"`) {
			t.Errorf("the wait's log does not say why:\n%s", out.String())
		}
	})
	t.Run("ErrNeverServes", func(t *testing.T) {
		proxy.Hang()
		defer proxy.Unhang()
		out := newLineLog(regexp.MustCompile(`(^$)`)) // nothing to wait for
		err := awaitNeo4j(ctx, newLogger(out, "info"), 2*time.Second, "pinging", func() error { return store.Ping(ctx) })
		if realm.ErrorCode(err) != realm.EUnavailable || !strings.Contains(err.Error(), "neo4j did not answer") {
			t.Errorf("got %v, want unavailable with its cause", err)
		}
	})
	t.Run("ErrOther", func(t *testing.T) {
		runs := 0
		err := awaitNeo4j(ctx, newLogger(&strings.Builder{}, "info"), time.Hour, "checking", func() error {
			runs++
			return realm.Errorf(realm.EConflict, "the spaces were embedded with another")
		})
		if realm.ErrorCode(err) != realm.EConflict || runs != 1 {
			t.Errorf("got %v after %d runs, want the conflict after one", err, runs)
		}
	})
}
