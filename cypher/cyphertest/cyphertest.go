// Package cyphertest gives tests a real Neo4j: the one NEO4J_URI names, else the local
// server of deploy/neo4j (started if needed). Tests isolate themselves by a fresh space.
// When CI or REALM_REQUIRE_NEO4J is set, a test that cannot reach Neo4j fails instead
// of skipping.
package cyphertest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/realm-memory/realm/cypher"
)

// Dims is the vector dimension tests use; it matches the local and hash embedders.
const Dims = 384

// Config returns the Neo4j settings tests use, from the environment or the local defaults,
// its timeouts read as realm serve reads them (NEO4J_ANSWER_TIMEOUT …: cypher.Config);
// it panics on a bad one, as serve refuses to start.
func Config() cypher.Config {
	c := cypher.Config{
		URI:      getenv("NEO4J_URI", "bolt://127.0.0.1:7687"),
		User:     getenv("NEO4J_USER", "neo4j"),
		Password: getenv("NEO4J_PASSWORD", "realm-dev-password"),
		Database: os.Getenv("NEO4J_DATABASE"),
	}
	if err := c.TimeoutsFromEnv(os.Getenv); err != nil {
		panic(err)
	}
	return c
}

var (
	once    sync.Once
	store   *cypher.Store
	openErr error
)

// MustOpen returns a Store on a Neo4j with the schema applied, shared by the tests of
// the package. It skips the test when Neo4j cannot be had, or fails under CI.
func MustOpen(tb testing.TB) *cypher.Store {
	tb.Helper()
	once.Do(func() { store, openErr = open() })
	if openErr != nil {
		if Required() {
			tb.Fatalf("neo4j is required (CI or REALM_REQUIRE_NEO4J is set): %v", openErr)
		}
		tb.Skipf("no neo4j: %v", openErr)
	}
	return store
}

func open() (*cypher.Store, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if os.Getenv("NEO4J_URI") == "" {
		cmd := exec.CommandContext(ctx, filepath.Join(RepoRoot(), "deploy", "neo4j", "neo4j.sh"), "start")
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return nil, err
		}
	}
	s, err := cypher.Open(ctx, Config())
	if err != nil {
		return nil, err
	}
	if err := s.ApplySchema(ctx, Dims); err != nil {
		return nil, err
	}
	return s, nil
}

// Required reports whether tests must fail rather than skip without Neo4j: under CI
// and under `make test`, which sets REALM_REQUIRE_NEO4J.
func Required() bool {
	return os.Getenv("CI") != "" || os.Getenv("REALM_REQUIRE_NEO4J") != ""
}

// SpacePrefix begins the id of every space NewSpace gives. A `realm serve` under test
// leaves these spaces out of its embedder check (REALM_UNCHECKED_SPACE_PREFIX): other test
// runs on the same database, running or crashed, hold such spaces made with test embedders.
const SpacePrefix = "test_"

// NewSpace returns a space id no other test uses, erased when the test ends, also by a
// test that wrote it through a store of its own, or a server, without MustOpen (a space
// left behind with a test embedder would stop `realm serve` on the same database unless
// it leaves out SpacePrefix).
func NewSpace(tb testing.TB) string {
	tb.Helper()
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		tb.Fatal(err)
	}
	space := SpacePrefix + hex.EncodeToString(b)
	tb.Cleanup(func() {
		once.Do(func() { store, openErr = open() })
		if openErr != nil {
			return // no Neo4j: nothing was written
		}
		if _, err := store.DeleteSpace(context.Background(), space); err != nil {
			tb.Errorf("erasing test space %s: %v", space, err)
		}
	})
	return space
}

// RepoRoot is the repository's root directory.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

func getenv(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}
