package cypher

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm"
)

// testStore opens a Store of its own on the tests' Neo4j, with cfg's durations
// (cyphertest imports this package, so its shared store is not available here), the
// schema applied: a test run alone on a fresh Neo4j finds the indexes its statements use.
func testStore(t testing.TB, cfg Config) *Store {
	t.Helper()
	// With the default durations: a test's own are for the statements it tests.
	schemaOnce.Do(func() { schemaErr = openTestStore(t, Config{}).ApplySchema(context.Background(), 384) })
	if schemaErr != nil {
		t.Fatalf("applying the schema: %v", schemaErr)
	}
	return openTestStore(t, cfg)
}

// schemaOnce applies the schema for the first testStore of the test process (schemaErr).
var (
	schemaOnce sync.Once
	schemaErr  error
)

// openTestStore opens a Store on the tests' Neo4j, with cfg's durations, closed when the
// test ends.
func openTestStore(t testing.TB, cfg Config) *Store {
	t.Helper()
	env := func(key, def string) string {
		if v := os.Getenv(key); v != "" {
			return v
		}
		return def
	}
	cfg.URI = env("NEO4J_URI", "bolt://127.0.0.1:7687")
	cfg.User = env("NEO4J_USER", "neo4j")
	cfg.Password = env("NEO4J_PASSWORD", "realm-dev-password")
	cfg.Database = os.Getenv("NEO4J_DATABASE")
	s, err := Open(context.Background(), cfg)
	if err != nil {
		if os.Getenv("REALM_REQUIRE_NEO4J") != "" || os.Getenv("CI") != "" {
			t.Fatalf("neo4j is required: %v", err)
		}
		t.Skipf("no neo4j: %v", err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}

// TestRunTxRetries: a transaction that Neo4j fails for a transient reason runs again until
// it succeeds; one that fails for any other reason runs once and its error is returned.
func TestRunTxRetries(t *testing.T) {
	s := testStore(t, Config{RetryTime: time.Minute})
	ctx := context.Background()
	deadlock := func() error {
		return &neo4j.Neo4jError{Code: "Neo.TransientError.Transaction.DeadlockDetected", Msg: "scripted deadlock"}
	}
	tests := []struct {
		name      string
		failures  int   // attempts that fail before one succeeds
		err       error // what a failing attempt returns
		wantCalls int
		wantCode  string // "" for success
	}{
		{name: "OK", failures: 0, err: nil, wantCalls: 1},
		{name: "DeadlockRetried", failures: 3, err: deadlock(), wantCalls: 4},
		{name: "ErrNotRetried", failures: 1, err: realm.Errorf(realm.ENotFound, "scripted"), wantCalls: 1, wantCode: realm.ENotFound},
		{name: "ErrSyntaxNotRetried", failures: 1, err: &neo4j.Neo4jError{Code: "Neo.ClientError.Statement.SyntaxError", Msg: "scripted"}, wantCalls: 1, wantCode: realm.EInternal},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			_, err := s.writeTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
				calls++
				if calls <= tc.failures {
					return nil, tc.err
				}
				return collect(ctx, tx, qPing, nil)
			})
			if calls != tc.wantCalls {
				t.Errorf("%d attempts, want %d", calls, tc.wantCalls)
			}
			if got := realm.ErrorCode(err); got != tc.wantCode {
				t.Errorf("error %v (code %q), want code %q", err, got, tc.wantCode)
			}
		})
	}
}

// TestRunTxGivesUp: a transient error that persists past RetryTime is EUnavailable.
func TestRunTxGivesUp(t *testing.T) {
	s := testStore(t, Config{RetryTime: 300 * time.Millisecond})
	calls := 0
	_, err := s.readTx(context.Background(), func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		calls++
		return nil, &neo4j.Neo4jError{Code: "Neo.TransientError.Transaction.DeadlockDetected", Msg: "scripted"}
	})
	if realm.ErrorCode(err) != realm.EUnavailable || calls < 2 {
		t.Errorf("after %d attempts: %v, want unavailable after more than one attempt", calls, err)
	}
}

// TestRunTxDatabaseUnavailable: a database that is not available (Neo4j starting or
// stopping) is retried for UnavailableTimeout, as an unreachable Neo4j is, not for
// RetryTime as a deadlock is.
func TestRunTxDatabaseUnavailable(t *testing.T) {
	s := testStore(t, Config{RetryTime: time.Minute, UnavailableTimeout: 300 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	_, err := s.readTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		return nil, &neo4j.Neo4jError{Code: "Neo.TransientError.General.DatabaseUnavailable", Msg: "scripted"}
	})
	if realm.ErrorCode(err) != realm.EUnavailable || ctx.Err() != nil {
		t.Errorf("%v (the caller's deadline: %v), want unavailable before that deadline", err, ctx.Err())
	}
}

// TestRunTxUnavailableTimeout: a database that stays unavailable is retried until
// UnavailableTimeout has passed since the first failure, the last attempt made once it
// has: not given up before a pause that would reach it, 2 to 3 s into 3.
func TestRunTxUnavailableTimeout(t *testing.T) {
	s := testStore(t, Config{RetryTime: time.Minute, UnavailableTimeout: time.Second})
	var first, last time.Time
	_, err := s.readTx(context.Background(), func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		last = time.Now()
		if first.IsZero() {
			first = last
		}
		return nil, &neo4j.Neo4jError{Code: "Neo.TransientError.General.DatabaseUnavailable", Msg: "scripted"}
	})
	if realm.ErrorCode(err) != realm.EUnavailable || last.Sub(first) < s.unavailableTimeout {
		t.Errorf("%v, the last attempt %s after the first, want unavailable after an attempt at least %s after it", err, last.Sub(first), s.unavailableTimeout)
	}
}

// TestRunTxSharedWait: the calls of a request (WithSharedWait) retry transient errors
// within RetryTime in all, from the first failure: a call that meets them after another
// retried for most of RetryTime fails EUnavailable, where alone (WithOwnWaits) it
// succeeds.
func TestRunTxSharedWait(t *testing.T) {
	s := testStore(t, Config{RetryTime: 2 * time.Second})
	// failing fails with a deadlock for most of RetryTime, from its first attempt, then succeeds.
	failing := func() txWork {
		var since time.Time
		return func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
			if since.IsZero() {
				since = time.Now()
			}
			if time.Since(since) < s.retryTime*3/4 {
				return nil, &neo4j.Neo4jError{Code: "Neo.TransientError.Transaction.DeadlockDetected", Msg: "scripted"}
			}
			return collect(ctx, tx, qPing, nil)
		}
	}
	request := WithSharedWait(context.Background())
	if _, err := s.writeTx(request, failing()); err != nil {
		t.Fatalf("the request's first call: %v, want it done within RetryTime", err)
	}
	if _, err := s.writeTx(WithOwnWaits(request), failing()); err != nil {
		t.Errorf("a call on its own: %v, want it done within its own RetryTime", err)
	}
	if _, err := s.writeTx(request, failing()); realm.ErrorCode(err) != realm.EUnavailable {
		t.Errorf("the request's second call: %v, want unavailable: the request has retried for RetryTime", err)
	}
}

func TestTimeoutsFromEnv(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want Config
		err  string // a part of the error, "" for none
	}{
		{name: "Unset", env: nil, want: Config{}},
		{name: "OK", env: map[string]string{"NEO4J_UNAVAILABLE_TIMEOUT": "1500ms", "NEO4J_ANSWER_TIMEOUT": "20s", "NEO4J_RETRY_TIME": "1m", "NEO4J_CONNECT_TIMEOUT": "1s"},
			want: Config{UnavailableTimeout: 1500 * time.Millisecond, AnswerTimeout: 20 * time.Second, RetryTime: time.Minute, ConnectTimeout: time.Second}},
		{name: "ErrSyntax", env: map[string]string{"NEO4J_RETRY_TIME": "30"}, err: "NEO4J_RETRY_TIME"},
		{name: "ErrNegative", env: map[string]string{"NEO4J_UNAVAILABLE_TIMEOUT": "-1s"}, err: "NEO4J_UNAVAILABLE_TIMEOUT"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var c Config
			err := c.TimeoutsFromEnv(func(k string) string { return tc.env[k] })
			if tc.err != "" {
				if realm.ErrorCode(err) != realm.EInvalid || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, want an invalid error naming %s", err, tc.err)
				}
				return
			}
			if err != nil || c != tc.want {
				t.Errorf("got %+v, %v; want %+v", c, err, tc.want)
			}
		})
	}
	if d := (Config{}).withDefaults(); d.UnavailableTimeout != DefaultUnavailableTimeout || d.AnswerTimeout != DefaultAnswerTimeout ||
		d.RetryTime != DefaultRetryTime || d.ConnectTimeout != DefaultConnectTimeout {
		t.Errorf("defaults %+v", d)
	}
}

// TestTranslateHandshakeCutOff: a handshake that a stopping or starting Neo4j cut off
// offers no Bolt version; the driver says so in an error of its words alone, which is
// Neo4j unavailable (503), not an internal error.
func TestTranslateHandshakeCutOff(t *testing.T) {
	err := translate(fmt.Errorf("connect: %w", errors.New("none of the server offered Bolt versions are supported (offered: []cypher.protocolVersion{})")))
	if realm.ErrorCode(err) != realm.EUnavailable {
		t.Errorf("translate: %v (%s), want unavailable", err, realm.ErrorCode(err))
	}
}

// TestLaterStatementWait: a statement after the first of a transaction waits for Neo4j's
// answer as the first does: one that waits for a lock past RetryTime, while Neo4j answers
// the probes, fails EUnavailable, Neo4j busy, instead of waiting for as long as the lock
// is held.
func TestLaterStatementWait(t *testing.T) {
	s := testStore(t, Config{AnswerTimeout: time.Second, RetryTime: 2 * time.Second})
	params := map[string]any{"space": fmt.Sprintf("test-later-statement-%d", time.Now().UnixNano()), "id": "m"}
	if _, err := s.write(context.Background(), newQuery("test_memory_create", "CREATE (:Memory {id: $id, space: $space})"), params); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = s.write(context.Background(), newQuery("test_memory_delete", "MATCH (m:Memory {id: $id}) WHERE m.space = $space DETACH DELETE m"), params)
	})
	HoldLock(t, s, params["space"].(string), "m") // until the test ends
	// The caller's deadline is far beyond RetryTime: a call that meets it waited for the lock.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := s.writeTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		if _, err := collect(ctx, tx, qPing, nil); err != nil {
			return nil, err
		}
		return collect(ctx, tx, newQuery("test_take_lock", "MATCH (m:Memory {id: $id}) WHERE m.space = $space SET m.taken = true"), params)
	})
	if realm.ErrorCode(err) != realm.EUnavailable || ctx.Err() != nil || !strings.Contains(err.Error(), "neo4j is busy") {
		t.Errorf("with the lock held: %v (the caller's deadline: %v), want unavailable, neo4j busy, before that deadline", err, ctx.Err())
	}
}
