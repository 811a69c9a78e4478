package cypher_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestNeo4jBusy: a statement that waits for a lock another transaction holds (a recall's
// record behind an ingestion) gets no answer for longer than AnswerTimeout, but Neo4j
// answers others meanwhile: it is busy, not out of reach, and the call succeeds once the
// lock is released. The same call while Neo4j hangs still fails EUnavailable, Neo4j not
// answering. A statement that waits past RetryTime fails EUnavailable, Neo4j busy.
func TestNeo4jBusy(t *testing.T) {
	cfg := cyphertest.Config()
	cfg.UnavailableTimeout = 300 * time.Millisecond
	cfg.AnswerTimeout = time.Second
	cfg.RetryTime = time.Minute
	store, proxy := cyphertest.BehindProxy(t, cfg)
	direct := cyphertest.MustOpen(t) // not behind the proxy: it holds the lock and is never hung
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	memory := space + "-m"
	if err := direct.PutMemories(ctx, space, []realm.Node{{ID: memory, Type: realm.Fact, Content: "I am allergic to peanuts."}}, nil); err != nil {
		t.Fatal(err)
	}
	record := func(ctx context.Context, store *cypher.Store) error {
		now := time.Now()
		return store.RecordRecall(ctx, realm.Trace{ID: uuid.NewString(), Space: space, Query: "What am I allergic to?", CreatedAt: now}, []string{memory}, now)
	}

	t.Run("LockWait", func(t *testing.T) {
		release := cypher.HoldLock(t, direct, space, memory)
		done := make(chan error, 1)
		go func() { done <- record(ctx, store) }()
		// The lock is released once the call has waited for it three answer timeouts, as
		// Neo4j counts.
		for waited := time.Duration(0); waited < 3*cfg.AnswerTimeout; {
			select {
			case err := <-done:
				t.Fatalf("the call ended while the lock was held: %v, want it to wait for the lock", err)
			case <-time.After(50 * time.Millisecond):
			}
			var err error
			if waited, err = cypher.LockWait(ctx, direct); err != nil {
				t.Fatal(err)
			}
		}
		release()
		if err := <-done; err != nil {
			t.Errorf("once the lock is released: %v, want the call done", err)
		}
	})

	t.Run("Hung", func(t *testing.T) {
		proxy.Hang()
		defer proxy.Unhang()
		// The caller's deadline is far beyond AnswerTimeout: a call that meets it waited
		// for the hung Neo4j.
		ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		err := record(ctx, store)
		if realm.ErrorCode(err) != realm.EUnavailable || ctx.Err() != nil || !strings.Contains(err.Error(), "neo4j did not answer") || cypher.Busy(err) {
			t.Errorf("with neo4j hung: %v (the caller's deadline: %v), want unavailable, neo4j not answering (not cypher.Busy), before that deadline", err, ctx.Err())
		}
	})

	t.Run("LockWaitsPastRetryTime", func(t *testing.T) {
		// Two calls of one request each wait for the lock for less than RetryTime, and for
		// more than it together: the second fails, Neo4j busy, where alone it would succeed.
		cfg := cfg
		cfg.RetryTime = 3 * time.Second
		store, _ := cyphertest.BehindProxy(t, cfg)
		request := cypher.WithSharedWait(ctx)
		waitForLock := func() error {
			release := cypher.HoldLock(t, direct, space, memory)
			done := make(chan error, 1)
			go func() { done <- record(request, store) }()
			for waited := time.Duration(0); waited < 2*time.Second; {
				select {
				case err := <-done:
					release()
					return err
				case <-time.After(50 * time.Millisecond):
				}
				var err error
				if waited, err = cypher.LockWait(ctx, direct); err != nil {
					t.Fatal(err)
				}
			}
			release()
			return <-done
		}
		if err := waitForLock(); err != nil {
			t.Fatalf("the request's first wait for the lock: %v, want the call done", err)
		}
		if err := waitForLock(); realm.ErrorCode(err) != realm.EUnavailable || !strings.Contains(err.Error(), "neo4j is busy") {
			t.Errorf("the request's second wait for the lock: %v, want unavailable, neo4j busy", err)
		}
	})

	t.Run("LockHeldPastRetryTime", func(t *testing.T) {
		cfg := cfg
		cfg.RetryTime = 2 * time.Second
		store, _ := cyphertest.BehindProxy(t, cfg)
		cypher.HoldLock(t, direct, space, memory) // until the test ends
		ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		err := record(ctx, store)
		if realm.ErrorCode(err) != realm.EUnavailable || ctx.Err() != nil || !strings.Contains(err.Error(), "neo4j is busy") || !cypher.Busy(err) {
			t.Errorf("with the lock held: %v (the caller's deadline: %v), want unavailable, neo4j busy (cypher.Busy), before that deadline", err, ctx.Err())
		}
	})
}
