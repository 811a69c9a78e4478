package cypher

import (
	"context"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// HoldLock takes the write lock of memory id of the space in a write transaction of its
// own, as an ingestion's transaction does, and holds it until the returned func is called
// (or the test ends); the transaction then commits (tests only).
func HoldLock(tb testing.TB, s *Store, space, id string) (release func()) {
	tb.Helper()
	held, done, ended := make(chan error, 1), make(chan struct{}), make(chan error, 1)
	go func() {
		_, err := s.writeTx(context.Background(), func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
			_, err := collect(ctx, tx, newQuery("test_hold_lock", "MATCH (m:Memory {id: $id}) WHERE m.space = $space SET m.held = true"),
				map[string]any{"space": space, "id": id})
			held <- err
			<-done
			return nil, err
		})
		ended <- err
	}()
	if err := <-held; err != nil {
		tb.Fatalf("taking the lock of memory %s: %v", id, err)
	}
	released := false
	release = func() {
		if !released {
			released = true
			close(done)
			if err := <-ended; err != nil {
				tb.Errorf("releasing the lock of memory %s: %v", id, err)
			}
		}
	}
	tb.Cleanup(release)
	return release
}

// LockWait is how long the transaction of Neo4j that has waited longest for a lock it
// waits for now has waited (0: none waits), as Neo4j counts it (tests only).
func LockWait(ctx context.Context, s *Store) (time.Duration, error) {
	recs, err := s.read(ctx, newQuery("test_lock_wait",
		"SHOW TRANSACTIONS YIELD status, waitTime WHERE status STARTS WITH 'Blocked' RETURN max(waitTime.milliseconds) AS ms"), nil)
	if err != nil || len(recs) == 0 {
		return 0, err
	}
	return time.Duration(num(recs[0], "ms")) * time.Millisecond, nil
}
