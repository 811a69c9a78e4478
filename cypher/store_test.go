package cypher_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

func TestOpen(t *testing.T) {
	cyphertest.MustOpen(t) // the server runs
	ctx := context.Background()
	t.Run("ErrPassword", func(t *testing.T) {
		cfg := cyphertest.Config()
		cfg.Password = "not-the-password"
		_, err := cypher.Open(ctx, cfg)
		if realm.ErrorCode(err) != realm.EUnauthorized {
			t.Fatalf("got %v, want an unauthorized error", err)
		}
		if !strings.Contains(err.Error(), "NEO4J_PASSWORD") {
			t.Errorf("error does not name the setting: %v", err)
		}
	})
	t.Run("ErrUnreachable", func(t *testing.T) {
		cfg := cyphertest.Config()
		cfg.URI = "bolt://127.0.0.1:1"
		_, err := cypher.Open(ctx, cfg)
		if realm.ErrorCode(err) != realm.EUnavailable {
			t.Fatalf("got %v, want an unavailable error", err)
		}
		if !strings.Contains(err.Error(), "NEO4J_URI") {
			t.Errorf("error does not name the setting: %v", err)
		}
	})
}

func TestServerInfo(t *testing.T) {
	s := cyphertest.MustOpen(t)
	version, edition, err := s.ServerInfo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(version, "5.26.") && !strings.HasPrefix(version, "2026.") {
		t.Errorf("version %q, want 5.26.x or 2026.x (the versions deploy/neo4j runs)", version)
	}
	if s.FiltersVectors() != strings.HasPrefix(version, "2026.") {
		t.Errorf("version %q: FiltersVectors %v", version, s.FiltersVectors())
	}
	if edition == "" {
		t.Error("no edition")
	}
}

func TestFiltersVectors(t *testing.T) {
	for version, want := range map[string]bool{
		"5.26.30": false, "5.27.0": false, "2025.10.1": false, "2026.01.0": true, "2026.08.1": true, "2027.1": true, "": false, "dev": false,
	} {
		if got := cypher.FiltersVectors(version); got != want {
			t.Errorf("FiltersVectors(%q) = %v, want %v", version, got, want)
		}
	}
}

// TestApplySchemaNeo4jBack: a schema statement that meets Neo4j gone as it is sent (a
// Neo4j restarted under load), again at each of ApplySchema's attempts, is run again as
// any statement, within NEO4J_UNAVAILABLE_TIMEOUT: the schema is applied once Neo4j is
// back.
func TestApplySchemaNeo4jBack(t *testing.T) {
	cfg := cyphertest.Config()
	cfg.UnavailableTimeout = 30 * time.Second
	s, proxy := cyphertest.BehindProxy(t, cfg)
	proxy.CutAt("CREATE VECTOR INDEX", 4, 500*time.Millisecond) // the vector index's, run at every ApplySchema
	if err := s.ApplySchema(context.Background(), cyphertest.Dims); err != nil {
		t.Fatal(err)
	}
}

func TestApplySchema(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	t.Run("ConcurrentAndRepeated", func(t *testing.T) {
		var wg sync.WaitGroup
		errs := make([]error, 3)
		for i := range errs {
			wg.Add(1)
			go func() { defer wg.Done(); errs[i] = s.ApplySchema(ctx, cyphertest.Dims) }()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
	})
	t.Run("IndexesOnline", func(t *testing.T) {
		indexes, err := s.Indexes(ctx)
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string]cypher.Index{}
		for _, ix := range indexes {
			byName[ix.Name] = ix
		}
		for name, kind := range map[string]string{"memory_embedding": "VECTOR", "memory_text_space_key": "FULLTEXT", "memory_space": "RANGE"} {
			ix, ok := byName[name]
			if !ok {
				t.Errorf("index %s missing", name)
				continue
			}
			if ix.Type != kind || ix.State != "ONLINE" {
				t.Errorf("index %s is %s %s, want %s ONLINE", name, ix.Type, ix.State, kind)
			}
		}
	})
}

// TestQueryFiles checks that every statement file is bound to a variable and opens with
// the comment doc.go asks for.
func TestQueryFiles(t *testing.T) {
	src, err := os.ReadFile("queries.go")
	if err != nil {
		t.Fatal(err)
	}
	var goSrc strings.Builder
	goSrc.Write(src)
	others, _ := filepath.Glob("*.go")
	for _, f := range others {
		b, _ := os.ReadFile(f)
		goSrc.Write(b)
	}
	files, err := filepath.Glob("queries/*.cypher")
	if err != nil || len(files) == 0 {
		t.Fatalf("no query files: %v", err)
	}
	for _, f := range files {
		if !strings.Contains(goSrc.String(), "//go:embed "+f+"\n") {
			t.Errorf("%s is not bound by //go:embed", f)
		}
		text, _ := os.ReadFile(f)
		if !strings.HasPrefix(string(text), "//") {
			t.Errorf("%s does not open with a comment", f)
		}
		if !regexp.MustCompile(`(?m)^// Params:`).Match(text) {
			t.Errorf("%s does not list its params", f)
		}
	}
}

func TestDeleteSpace(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	a, b := cyphertest.NewSpace(t), cyphertest.NewSpace(t)
	for _, space := range []string{a, b} {
		obs := []realm.Observation{{ID: "o1", Speaker: "Ana", Content: "Ana likes tea.", ObservedAt: time.Now()}}
		if _, err := s.SaveObservations(ctx, space, "test", cyphertest.Dims, obs, cypher.Lease{Owner: "t", Until: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	n, err := s.DeleteSpace(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 { // the observation and the space node
		t.Errorf("deleted %d nodes, want 2", n)
	}
	if _, err := s.Observation(ctx, a, "o1"); realm.ErrorCode(err) != realm.ENotFound {
		t.Errorf("space %s still holds its observation: %v", a, err)
	}
	if _, err := s.Observation(ctx, b, "o1"); err != nil {
		t.Errorf("space %s lost its observation: %v", b, err)
	}
}
