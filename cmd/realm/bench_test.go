package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/bench"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestBenchReconsolidationBoth runs `realm bench locomo --retrieval-only FILE
// --reconsolidation both` as a user types it (the file before the flags) on a small
// conversation, and reads back the report it writes.
func TestBenchReconsolidationBoth(t *testing.T) {
	store := cyphertest.MustOpen(t)
	prefix := cyphertest.NewSpace(t) + "-"
	t.Cleanup(func() { _, _ = store.DeleteSpace(context.Background(), prefix+"small-1") })
	out := filepath.Join(t.TempDir(), "report.json")
	var stdout strings.Builder
	err := run(context.Background(), []string{"realm", "bench", "locomo", "--retrieval-only", "../../bench/testdata/locomo-small.json",
		"--reconsolidation", "both", "--space-prefix", prefix, "--out", out}, testEnv(nil), &stdout)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| category | REALM, reconsolidation on | REALM, reconsolidation off | on − off | flat baseline |", "edges added", "restored every edge weight to the bit"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout.String())
		}
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rep bench.RetrievalReport
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if on := rep.Run(bench.ReconsolidationOn); len(rep.Runs) != 2 || on == nil || on.Edits == nil || rep.Questions != 12 || rep.Config["reconsolidation"] != "both" {
		t.Errorf("report %s", b)
	}
	md, err := os.ReadFile(strings.TrimSuffix(out, ".json") + ".md")
	if err != nil || !strings.Contains(string(md), "on − off") || !strings.Contains(string(md), "| **read path** (24 questions) | question |") {
		t.Errorf("markdown beside the report: %v\n%s", err, md)
	}
	// Charts beside it, linked from the Markdown; the cost in the JSON.
	for _, name := range []string{"recall", "evidence-depth", "edge-weights"} {
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
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := run(context.Background(), append([]string{"realm", "bench", "locomo"}, tt.args...), testEnv(nil), io.Discard)
			if realm.ErrorCode(err) != realm.EInvalid {
				t.Errorf("got %v, want invalid", err)
			}
		})
	}
}
