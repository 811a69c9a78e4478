package cypher

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm"
)

// saveOne stores one pending observation of id into space.
func saveOne(t *testing.T, s *Store, space, id string) {
	t.Helper()
	obs := []realm.Observation{{ID: id, Speaker: "Ana", Content: "Ana adopted a cat named " + id + ".", ObservedAt: time.Now()}}
	if _, err := s.SaveObservations(context.Background(), space, "test", 384, obs, Lease{Owner: "t", Until: time.Now().Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
}

// TestEraseWithConcurrentWrites: what a save or an async ingestion's job writes into a
// space between its erasure's batches and the deletion of its node (the erasure's hook,
// where a concurrent request may land) is erased with it, and a job recorded for messages
// whose space was erased since they were saved is not recorded: nothing of the space is
// left, no message without its space, no job reading its messages forgotten.
func TestEraseWithConcurrentWrites(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		// between writes into the space between the batches and the node's deletion;
		// after, once the erasure returned.
		between, after func(t *testing.T, s *Store, space string)
	}{
		{name: "Save", between: func(t *testing.T, s *Store, space string) { saveOne(t, s, space, "o2") }},
		{name: "JobWhileErasing", between: func(t *testing.T, s *Store, space string) {
			if err := s.CreateJob(ctx, space, space+"-job", []string{"o1"}); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "JobAfterErasure", after: func(t *testing.T, s *Store, space string) {
			if err := s.CreateJob(ctx, space, space+"-job", []string{"o1"}); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := testStore(t, Config{})
			space := fullTextSpace(t, s)
			saveOne(t, s, space, "o1")
			once := false
			s.erasing = func(erased string) {
				if erased == space && !once && tc.between != nil {
					once = true
					tc.between(t, s, space)
				}
			}
			if _, err := s.DeleteSpace(ctx, space); err != nil {
				t.Fatal(err)
			}
			if tc.after != nil {
				tc.after(t, s, space)
			}
			for _, id := range []string{"o1", "o2"} {
				if o, err := s.Observation(ctx, space, id); realm.ErrorCode(err) != realm.ENotFound {
					t.Errorf("observation %s after the erasure: %+v %v, want not found", id, o, err)
				}
			}
			if exists, err := s.SpaceExists(ctx, space); err != nil || exists {
				t.Errorf("the space exists after its erasure: %v %v", exists, err)
			}
			if job, err := s.Job(ctx, "", space+"-job"); realm.ErrorCode(err) != realm.ENotFound || !strings.Contains(err.Error(), "erased") {
				t.Errorf("job after the erasure: %+v %v, want not found, saying the space was erased", job, err)
			}
		})
	}
}

// TestSaveWaitingForErasure: a save that waits for the space's lock while the erasure
// deletes the space's node stores nothing into the space erased: it creates the space
// anew, its observation in it, not one left without its space.
func TestSaveWaitingForErasure(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	space := fullTextSpace(t, s)
	saveOne(t, s, space, "o1")
	if _, err := s.write(ctx, qSpaceDeleteBatch, map[string]any{"space": space, "batch": spaceDeleteBatch, "import": ""}); err != nil {
		t.Fatal(err)
	}
	// The erasure's last statement, its transaction held open: it holds the space's lock.
	sess := s.driver.NewSession(ctx, neo4j.SessionConfig{DatabaseName: s.db})
	defer sess.Close(ctx)
	tx, err := sess.BeginTransaction(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close(ctx)
	if _, err := collect(ctx, tx, qSpaceDeleteNode, map[string]any{"space": space, "now": time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	saved := make(chan struct{})
	go func() {
		defer close(saved)
		saveOne(t, s, space, "o2")
	}()
	awaitLockWait(t, s)
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	<-saved
	if _, err := s.Observation(ctx, space, "o2"); err != nil {
		t.Fatalf("the save after the erasure: %v", err)
	}
	spaces, _, err := s.ListSpaces(ctx, []string{space}, func(string) bool { return true }, "", 10)
	if err != nil || len(spaces) != 1 || spaces[0].ID != space {
		t.Errorf("spaces %+v %v: the message saved after the erasure has no space", spaces, err)
	}
}

// awaitLockWait returns once a transaction of the database waits for a lock.
func awaitLockWait(t *testing.T, s *Store) {
	t.Helper()
	ctx := context.Background()
	for range 600 {
		recs, err := neo4j.ExecuteQuery(ctx, s.driver, "SHOW TRANSACTIONS YIELD status WHERE status STARTS WITH 'Blocked' RETURN count(*) AS n",
			nil, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(s.db))
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := recs.Records[0].Get("n"); n.(int64) > 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("no transaction waits for a lock")
}
