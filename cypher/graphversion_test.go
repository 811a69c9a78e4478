package cypher

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// graphVersionExempt are the statements that write and read memories but change nothing
// that expansion reads (graphcache.go), or whose transaction moved it already, so they
// leave the space's graph_version alone.
var graphVersionExempt = map[string]string{
	"recall_record.cypher":               "a memory's access_count and last_accessed_at only (the snapshot leaves them out)",
	"import_begin.cypher":                "counts memories; writes the Space node's lock",
	"space_lock_run.cypher":              "counts memories; writes the Space node's lock",
	"memory_correct_read.cypher":         "reads memories; writes the Space node's lock (memory_correct_write.cypher, in the same transaction, moves graph_version)",
	"observation_delete_memories.cypher": "observation_delete_lock.cypher, in the same transaction, moved graph_version",
	"observation_delete_finish.cypher":   "observation_delete_lock.cypher, in the same transaction, moved graph_version",
	"import_learned.cypher":              "import_memories.cypher, in the same transaction, moved graph_version",
	"import_dated_changes.cypher":        "import_edges.cypher, in the same transaction, moved graph_version",
	"trace_create.cypher":                "reads whether a test fixture's space holds a memory; writes a trace only",
	"space_delete_node.cypher":           "reads whether a memory of the space is left; deletes the Space node only, once none is",
	"reembed_space_finish.cypher":        "removes the query_embedding of learned links, which expansion does not read (retrieval/consolidate.go reads it from the store)",
}

var (
	updating     = regexp.MustCompile(`\b(CREATE|MERGE|SET|DELETE|REMOVE)\b`)
	memoryGraph  = regexp.MustCompile(`:Memory\b|DERIVED_FROM`)
	commentLines = regexp.MustCompile(`(?m)^\s*//.*$`)
)

// Every statement that writes and touches memories (a :Memory node or its provenance)
// moves the space's graph_version, so that no expansion reads a snapshot of the space
// from before it; the few exempt ones say why.
func TestWritesMoveGraphVersion(t *testing.T) {
	checked := 0
	for name, body := range statementBodies(t) {
		if !updating.MatchString(body) || !memoryGraph.MatchString(body) {
			continue
		}
		checked++
		_, exempt := graphVersionExempt[name]
		moves := strings.Contains(body, "graph_version = randomUUID()")
		switch {
		case !moves && !exempt:
			t.Errorf("%s writes and touches memories but does not move the space's graph_version", name)
		case moves && exempt:
			t.Errorf("%s moves graph_version: take it off the exempt list", name)
		}
	}
	for name := range graphVersionExempt {
		if _, err := os.Stat(filepath.Join("queries", name)); err != nil {
			t.Errorf("exempt statement %s: %v", name, err)
		}
	}
	if checked < 15 {
		t.Fatalf("only %d statements write memories: the test's patterns are wrong", checked)
	}
}

// REALM_GRAPH_CACHE sets how many memories the snapshots hold: unset keeps the default,
// 0 none, a bad value is refused naming the variable.
func TestGraphCacheFromEnv(t *testing.T) {
	for _, tt := range []struct {
		env  string
		want int
		bad  bool
	}{{"", 0, false}, {"0", -1, false}, {"5000", 5000, false}, {"-3", 0, true}, {"many", 0, true}} {
		var c Config
		err := c.GraphCacheFromEnv(func(string) string { return tt.env })
		if tt.bad != (err != nil) || c.GraphCacheMax != tt.want {
			t.Errorf("REALM_GRAPH_CACHE=%q: %d, %v", tt.env, c.GraphCacheMax, err)
		}
		if tt.bad && !strings.Contains(err.Error(), "REALM_GRAPH_CACHE") {
			t.Errorf("REALM_GRAPH_CACHE=%q: the error does not name the variable: %v", tt.env, err)
		}
	}
	if (Config{}).withDefaults().GraphCacheMax != DefaultGraphCacheMax {
		t.Error("the default graph cache is not DefaultGraphCacheMax")
	}
}

// learnedLinksExempt are the statements that write memory edges but never one with a
// query (a learned link), so they leave the space's learned_links alone.
var learnedLinksExempt = map[string]string{
	"integration_write.cypher":    "the write path's edges: named properties, never a query",
	"memory_correct_write.cypher": "a correction's supersedes edge and copies of edges without a query (memory_correct_read.cypher)",
}

// memoryEdgeWrite: a statement that creates or merges a memory edge (every one names its
// type from a parameter, a whitelisted predicate's).
var memoryEdgeWrite = regexp.MustCompile(`(CREATE|MERGE) \(\w+\)-\[\w+:\$\(`)

// Every statement that can write a memory edge with a query marks the space as holding
// learned links (learned.go), so that no recall of it skips them; the few exempt ones say
// why.
func TestLearnedLinksMarked(t *testing.T) {
	checked := 0
	for name, body := range statementBodies(t) {
		if !memoryEdgeWrite.MatchString(body) {
			continue
		}
		checked++
		_, exempt := learnedLinksExempt[name]
		marks := strings.Contains(body, "g.learned_links = CASE WHEN any(")
		switch {
		case !marks && !exempt:
			t.Errorf("%s writes memory edges but does not mark the space when one carries a query", name)
		case marks && exempt:
			t.Errorf("%s marks learned links: take it off the exempt list", name)
		}
	}
	if checked < 5 {
		t.Fatalf("only %d statements write memory edges: the test's pattern is wrong", checked)
	}
}

// statementBodies reads every statement file, by file name, its comments left out.
func statementBodies(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("queries", "*.cypher"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no statements: %v", err)
	}
	bodies := make(map[string]string, len(files))
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		bodies[filepath.Base(f)] = commentLines.ReplaceAllString(string(text), "")
	}
	return bodies
}
