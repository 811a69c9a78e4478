package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/bench"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// runBenchCmd runs `realm bench …` as run does, args as a user types them ("realm",
// "bench", …), but with the progress that run sends to the process's stderr kept in
// progress.
func runBenchCmd(ctx context.Context, args []string, getenv func(string) string, stdout, progress io.Writer) error {
	if len(args) < 2 || args[0] != "realm" || args[1] != "bench" {
		return realm.Errorf(realm.EInvalid, "not a realm bench command: %q", args)
	}
	return runBench(ctx, args[2:], getenv, stdout, progress)
}

// checkCleanReport fails unless stdout is the Markdown report alone, as written to
// mdFile (which may go on with its charts), and progress shows each of wantProgress: a
// `realm bench … > report.md` keeps the report without the progress lines.
func checkCleanReport(t *testing.T, stdout, progress, mdFile string, wantProgress ...string) {
	t.Helper()
	md, err := os.ReadFile(mdFile)
	if err != nil {
		t.Fatal(err)
	}
	report := strings.TrimSuffix(stdout, "\n")
	if report == "" || strings.Contains(stdout, "\r") || !strings.HasPrefix(string(md), report) {
		t.Errorf("stdout is not the report of %s alone:\n%q", mdFile, stdout)
	}
	for _, w := range wantProgress {
		if !strings.Contains(progress, w) {
			t.Errorf("progress lacks %q:\n%q", w, progress)
		}
		if strings.Contains(stdout, w) {
			t.Errorf("stdout holds the progress %q", w)
		}
	}
}

// TestBenchReconsolidationBoth runs `realm bench locomo --retrieval-only FILE
// --reconsolidation both` as a user types it (the file before the flags) on a small
// conversation, and reads back the report it writes; stdout holds the report alone, the
// progress goes apart.
func TestBenchReconsolidationBoth(t *testing.T) {
	store := cyphertest.MustOpen(t)
	prefix := cyphertest.NewSpace(t) + "-"
	t.Cleanup(func() { _, _ = store.DeleteSpace(context.Background(), prefix+"small-1") })
	out := filepath.Join(t.TempDir(), "report.json")
	var stdout, progress strings.Builder
	err := runBenchCmd(context.Background(), []string{"realm", "bench", "locomo", "--retrieval-only", "../../bench/testdata/locomo-small.json",
		"--reconsolidation", "both", "--curve", "5,10", "--space-prefix", prefix, "--out", out}, testEnv(nil), &stdout, &progress)
	if err != nil {
		t.Fatal(err)
	}
	checkCleanReport(t, stdout.String(), progress.String(), strings.TrimSuffix(out, ".json")+".md",
		"small-1 ingest", "reconsolidation on: question 12/12", "report: "+out)
	for _, want := range []string{"### Split all (small-1): 12 questions", "| REALM, reconsolidation off | nodes | k=10 |", "| hybrid | windows | ≤ ",
		"the strongest flat baseline at the same budget", "edges added", "restored every edge weight to the bit"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout.String())
		}
	}
	rep, b := readJSON[bench.RetrievalReport](t, out)
	if on := rep.Run(bench.ReconsolidationOn); len(rep.Runs) != 2 || on == nil || on.Edits == nil || rep.Questions != 12 || rep.Config["reconsolidation"] != "both" ||
		len(rep.Splits) != 1 || len(rep.Splits[0].Baselines) != 2*len(bench.Baselines) || rep.Splits[0].Budget != rep.Run(bench.ReconsolidationOff).ContextTokens {
		t.Errorf("report %s", b)
	}
	md, err := os.ReadFile(strings.TrimSuffix(out, ".json") + ".md")
	if err != nil || !strings.Contains(string(md), "| hybrid+focus | turns | k=10 |") || !strings.Contains(string(md), "| **read path** (24 questions) | question |") {
		t.Errorf("markdown beside the report: %v\n%s", err, md)
	}
	// Charts beside it, linked from the Markdown; the cost in the JSON.
	for _, name := range []string{"recall", "evidence-depth", "edge-weights", "recall-vs-context-all"} {
		svg, err := os.ReadFile(bench.ChartPath(out, name))
		if err != nil || countBars(t, svg) == 0 || !strings.Contains(string(md), "(report-"+name+".svg)") {
			t.Errorf("chart %s: %v", name, err)
		}
	}
	var withCost struct{ Cost bench.Cost }
	if err := json.Unmarshal(b, &withCost); err != nil || withCost.Cost.Questions != 24 || withCost.Cost.Observations != rep.Ingest.Observations || len(withCost.Cost.Stages) == 0 {
		t.Errorf("cost %+v: %v", withCost.Cost, err)
	}
	if e := rep.Run(bench.ReconsolidationOn).Edits; sum(e.HistogramBefore) != int64(e.EdgesBefore) || sum(e.HistogramAfter) != int64(e.EdgesAfter) {
		t.Errorf("histograms %v %v for %d and %d edges", e.HistogramBefore, e.HistogramAfter, e.EdgesBefore, e.EdgesAfter)
	}
}

// readJSON reads the JSON file at path into a T, failing the test when it cannot, and
// returns the file's bytes too, for messages.
func readJSON[T any](t *testing.T, path string) (T, []byte) {
	t.Helper()
	var v T
	b, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(b, &v)
	}
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v, b
}

// runSmallLoCoMo runs realm bench locomo --retrieval-only on locomo-small with flag set
// to value, into spaces of a prefix of its own (erased afterwards), and checks that the
// report records the flag and asks the 12 questions. It returns the sample's space.
func runSmallLoCoMo(t *testing.T, store *cypher.Store, flag, value string) string {
	t.Helper()
	prefix := cyphertest.NewSpace(t) + "-"
	t.Cleanup(func() { _, _ = store.DeleteSpace(context.Background(), prefix+"small-1") })
	out := filepath.Join(t.TempDir(), "report.json")
	err := runBenchCmd(context.Background(), []string{"realm", "bench", "locomo", "--retrieval-only", "../../bench/testdata/locomo-small.json",
		"--" + flag, value, "--reconsolidation", "off", "--curve", "", "--space-prefix", prefix, "--out", out}, testEnv(nil), io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if rep, b := readJSON[bench.RetrievalReport](t, out); rep.Config[flag] != value || rep.Questions != 12 {
		t.Fatalf("report %s", b)
	}
	return prefix + "small-1"
}

// TestBenchLoCoMoWithoutSessionIDs: with --sessions none the turns are sent without
// session ids, and each of the conversation's three days gets its episode.
func TestBenchLoCoMoWithoutSessionIDs(t *testing.T) {
	store := cyphertest.MustOpen(t)
	space := runSmallLoCoMo(t, store, "sessions", "none")
	episodes, _, err := store.ListMemories(context.Background(), space, cypher.MemoryFilter{Type: realm.Episode}, "", 10)
	var names []string
	for _, e := range episodes {
		names = append(names, e.Name)
	}
	slices.Sort(names)
	if want := []string{"2023-05-08", "2023-05-20", "2023-07-02"}; err != nil || !slices.Equal(names, want) {
		t.Errorf("episodes %v, want %v: %v", names, want, err)
	}
}

// TestBenchLoCoMoChatRoles: with --speakers roles the conversation is stored as said by
// "user" and "assistant", and the questions ask about them so.
func TestBenchLoCoMoChatRoles(t *testing.T) {
	store := cyphertest.MustOpen(t)
	space := runSmallLoCoMo(t, store, "speakers", "roles")
	for q, want := range map[string]int{"Ana": 0, "user": 1} {
		people, _, err := store.ListMemories(context.Background(), space, cypher.MemoryFilter{Type: realm.Entity, Q: q + " (person)"}, "", 10)
		if err != nil || len(people) != want {
			t.Errorf("%d persons %q, want %d: %v", len(people), q, want, err)
		}
	}
}

func sum(xs []int64) int64 {
	var s int64
	for _, x := range xs {
		s += x
	}
	return s
}

func TestBenchErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"ErrReconsolidation", []string{"--retrieval-only", "--reconsolidation", "sometimes"}},
		{"ErrTwoFiles", []string{"--retrieval-only", "a.json", "b.json"}},
		{"ErrSplit", []string{"--retrieval-only", "--split", "test", "../../bench/testdata/locomo-small.json"}},
		{"ErrSplitEmpty", []string{"--retrieval-only", "--split", "validate", "../../bench/testdata/locomo-small.json"}},
		{"ErrCurve", []string{"--retrieval-only", "--curve", "5,ten", "../../bench/testdata/locomo-small.json"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := run(context.Background(), append([]string{"realm", "bench", "locomo"}, tt.args...), testEnv(nil), io.Discard)
			if realm.ErrorCode(err) != realm.EInvalid {
				t.Errorf("got %v, want invalid", err)
			}
		})
	}
}
