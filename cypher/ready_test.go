package cypher

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// TestReadyWhileBusy: with every connection of the pool taken by transactions that
// Neo4j keeps answering (a tenant's heavy ingestion), the readiness check cannot get a
// connection before its deadline, yet Neo4j is there: Ready says ready, as it did before
// the load. (A Neo4j cut off answers nothing meanwhile and is not ready: api's
// TestNeo4jDown.)
func TestReadyWhileBusy(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	if ok, reason, err := s.Ready(ctx, 384); !ok || err != nil {
		t.Fatalf("ready before the load: %v %q %v", ok, reason, err)
	}

	stop := make(chan struct{})
	var holding, done sync.WaitGroup
	holding.Add(poolSize)
	for range poolSize {
		done.Add(1)
		go func() {
			defer done.Done()
			first := true
			_, err := s.readTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
				for {
					if _, err := collect(ctx, tx, qPing, nil); err != nil {
						return nil, err
					}
					if first {
						first = false
						holding.Done()
					}
					select {
					case <-stop:
						return nil, nil
					case <-time.After(10 * time.Millisecond):
					}
				}
			})
			if err != nil {
				t.Errorf("a transaction holding a connection: %v", err)
			}
		}()
	}
	defer done.Wait()
	defer close(stop)
	holding.Wait()

	probe, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if ok, reason, err := s.Ready(probe, 384); !ok || err != nil {
		t.Errorf("ready with the pool taken by work neo4j answers: %v %q %v, want ready", ok, reason, err)
	}
}
