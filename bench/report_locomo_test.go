package bench_test

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/bench"
)

func TestLoCoMoVariants(t *testing.T) {
	for _, tt := range []struct {
		name  string
		cfg   bench.LoCoMoConfig
		want  []string
		error bool
	}{
		{"Default", bench.LoCoMoConfig{}, []string{"adaptive, reconsolidation on"}, false},
		{"Off", bench.LoCoMoConfig{Reconsolidation: "off", Shuffle: []uint64{3}}, []string{"adaptive, reconsolidation off"}, false},
		{"BothShuffledStrategies", bench.LoCoMoConfig{Reconsolidation: "both", Shuffle: []uint64{3, 9, 3},
			Strategies: []realm.Strategy{realm.StrategyPath, realm.StrategyBeam}},
			[]string{"path_search, reconsolidation off", "path_search, reconsolidation on", "path_search, reconsolidation on, shuffle 3", "path_search, reconsolidation on, shuffle 9",
				"subgraph_beam, reconsolidation off", "subgraph_beam, reconsolidation on", "subgraph_beam, reconsolidation on, shuffle 3", "subgraph_beam, reconsolidation on, shuffle 9"}, false},
		{"ErrMode", bench.LoCoMoConfig{Reconsolidation: "sometimes"}, nil, true},
		{"ErrStrategy", bench.LoCoMoConfig{Strategies: []realm.Strategy{"random"}}, nil, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			vs, err := tt.cfg.Variants()
			if tt.error {
				if realm.ErrorCode(err) != realm.EInvalid {
					t.Errorf("got %v, want invalid", err)
				}
				return
			}
			var names []string
			for _, v := range vs {
				names = append(names, v.Name)
			}
			if strings.Join(names, "|") != strings.Join(tt.want, "|") {
				t.Errorf("variants %q, want %q", names, tt.want)
			}
		})
	}
}

// q builds a question result.
func q(cat int, score float64, depth string, recall float64, usage realm.Usage) bench.QuestionResult {
	return bench.QuestionResult{Category: cat, Score: score, FirstDepth: depth, HasEvidence: depth != "", Recall: recall, Usage: usage}
}

// TestNewLoCoMoReport computes a report from hand-made sample results: accuracies per
// category with the adversarial category apart, per sample, evidence depths, edits,
// histograms and cost; then renders it and writes its files.
func TestNewLoCoMoReport(t *testing.T) {
	cfg := bench.LoCoMoConfig{Reconsolidation: "both", Settings: map[string]string{"judge_model": "j", "judge_runs": "1"}, Info: map[string]string{"commit": "abc"}}
	variants, err := cfg.Variants()
	if err != nil {
		t.Fatal(err)
	}
	off, on := variants[0].Name, variants[1].Name
	ans := realm.Usage{"answer": {Calls: 1, PromptTokens: 100, CompletionTokens: 10, LatencyMS: 5}, "judge": {Calls: 1, PromptTokens: 40, CompletionTokens: 4}}
	samples := []bench.SampleResult{
		{Sample: "s1", Observations: 3, IngestUsage: realm.Usage{"extract": {Calls: 3, PromptTokens: 300}}, HistogramBefore: []int64{0, 0, 0, 0, 0, 1, 2, 0, 3, 0},
			Variants: []bench.VariantResult{
				{Variant: off, Questions: []bench.QuestionResult{q(1, 1, "0", 1, ans), q(2, 0, "none", 0, ans), q(5, 1, "", 0, ans)}},
				{Variant: on, Questions: []bench.QuestionResult{q(1, 1, "0", 1, ans), q(2, 1, "1", 0.5, ans), q(5, 0, "", 0, ans)},
					Edits: &bench.EditCounts{EditTally: bench.EditTally{Audits: 3, WithEdits: 1, Added: 2}, Restored: true}, HistogramAfter: []int64{0, 0, 0, 0, 2, 1, 2, 0, 3, 0}},
			}},
		{Sample: "s2", Observations: 1, IngestUsage: realm.Usage{"extract": {Calls: 1, PromptTokens: 100}}, HistogramBefore: []int64{1, 0, 0, 0, 0, 0, 0, 0, 0, 0},
			Variants: []bench.VariantResult{
				{Variant: off, Questions: []bench.QuestionResult{q(4, 0.5, "0", 1, ans), {Category: 4, AnswerError: "unavailable", FirstDepth: "none", HasEvidence: true}}},
				{Variant: on, Questions: []bench.QuestionResult{q(4, 1, "0", 1, ans), q(4, 0, "2", 1, ans)},
					Edits: &bench.EditCounts{EditTally: bench.EditTally{Audits: 2, Weakened: 1}, Mismatches: 1}, HistogramAfter: []int64{1}},
			}},
	}
	rep := bench.NewLoCoMoReport(cfg, variants, samples)
	ro, rn := rep.Run(off), rep.Run(on)
	if ro == nil || rn == nil || len(rep.Runs) != 2 {
		t.Fatalf("runs %+v", rep.Runs)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	for _, tt := range []struct {
		run                 *bench.LoCoMoVariantReport
		multi, temporal     float64
		single, overall     float64
		adversarial, recall float64
		s1                  float64
	}{
		{ro, 1, 0, 0.25, 1.5 / 4, 1, 0.5, 0.5},
		{rn, 1, 1, 0.5, 3.0 / 4, 0, 0.875, 1},
	} {
		a := tt.run.Accuracy
		if !near(a.ByCategory["multi-hop"], tt.multi) || !near(a.ByCategory["temporal"], tt.temporal) || !near(a.ByCategory["single-hop"], tt.single) ||
			!near(a.Overall, tt.overall) || !near(a.Adversarial, tt.adversarial) || !near(tt.run.RecallOverall, tt.recall) || !near(tt.run.PerSample["s1"], tt.s1) {
			t.Errorf("%s: accuracy %+v, recall %.3f, per sample %v", tt.run.Name, a, tt.run.RecallOverall, tt.run.PerSample)
		}
		if _, ok := a.ByCategory["open-domain"]; ok || a.Counts["adversarial"] != 1 || a.Counts["single-hop"] != 2 || tt.run.Questions != 5 {
			t.Errorf("%s: categories %v, counts %v", tt.run.Name, a.ByCategory, a.Counts)
		}
	}
	if ro.AnswerFailures != 1 || ro.FirstDepth["none"] != 2 || ro.FirstDepth["0"] != 2 || rn.FirstDepth["2"] != 1 {
		t.Errorf("off: failures %d, depths %v; on: depths %v", ro.AnswerFailures, ro.FirstDepth, rn.FirstDepth)
	}
	if ro.Edits != nil || rn.Edits == nil || rn.Edits.Audits != 5 || rn.Edits.Added != 2 || rn.Edits.Weakened != 1 || rn.Edits.Restored {
		t.Errorf("edits: off %+v, on %+v (one sample was not restored)", ro.Edits, rn.Edits)
	}
	if rep.Ingest.Histogram[0] != 1 || rep.Ingest.Histogram[8] != 3 || rn.HistogramAfter[0] != 1 || rn.HistogramAfter[4] != 2 {
		t.Errorf("histograms %v, after %v", rep.Ingest.Histogram, rn.HistogramAfter)
	}
	// Cost: 4 observations; 10 questions over both runs, 9 of them billed.
	c := rep.Cost
	if c.Observations != 4 || c.Questions != 10 || c.PerObservation.PromptTokens != 100 || c.PerQuestion.Calls != 1.8 || c.PerQuestion.PromptTokens != 126 {
		t.Errorf("cost %+v", c)
	}
	if p := rn.Cost.PerQuestion; p.Calls != 2 || p.PromptTokens != 140 || p.LatencyMS != 5 {
		t.Errorf("on run per question %+v", p)
	}

	md := rep.Markdown()
	for _, want := range []string{"| 1 multi-hop | 1 | 1.000 | 1.000 | 0.645 |", "| **overall** (1–4) | 4 | 0.375 | 0.750 | 0.760 |",
		"| 5 adversarial (apart) | 1 | 1.000 | 0.000 | – |", "adaptive: +0.375 overall", "| none | 2 | 0 |",
		"reverting them all left 1 edges different", "| 0.4–0.5 | 0 | 2 |", "| extract | observation | 4 | 400 |", "Built from commit `abc`"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	charts := rep.Charts()
	want := map[string]int{"accuracy": 3, "reconsolidation": 2, "evidence-depth": 2, "edge-weights": 2, "cost": 2} // series per chart
	if len(charts) != len(want) {
		t.Errorf("%d charts", len(charts))
	}
	out := filepath.Join(t.TempDir(), "r", "locomo.json")
	files, err := bench.WriteReport(out, rep, md+bench.ChartsMarkdown(out, charts), charts)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2+len(charts) {
		t.Errorf("files %v", files)
	}
	for _, ch := range charts {
		if len(ch.Series) != want[ch.Name] {
			t.Errorf("chart %s: %d series, want %d", ch.Name, len(ch.Series), want[ch.Name])
		}
		b, err := os.ReadFile(bench.ChartPath(out, ch.Name))
		if err != nil {
			t.Fatal(err)
		}
		if bars := parseBars(t, string(b)); len(bars) != len(ch.Series)*len(ch.Groups) {
			t.Errorf("%s: %d bars for %d series × %d groups", ch.Name, len(bars), len(ch.Series), len(ch.Groups))
		}
	}
	if b, err := os.ReadFile(filepath.Join(filepath.Dir(out), "locomo.md")); err != nil || !strings.Contains(string(b), "](locomo-edge-weights.svg)") {
		t.Errorf("markdown file: %v\n%s", err, b)
	}
}

// TestRetrievalCharts: a retrieval-only report gets its charts too.
func TestRetrievalCharts(t *testing.T) {
	before := bench.WeightHistogram(map[string]float64{"a": 0, "b": 0.1, "c": 0.95, "d": 1, "e": 1.2, "f": -0.1, "g": 0.55})
	if want := []int64{2, 1, 0, 0, 0, 1, 0, 0, 0, 3}; !slices.Equal(before, want) {
		t.Errorf("WeightHistogram %v, want %v", before, want)
	}
	after := []int64{2, 1, 0, 0, 1, 1, 0, 0, 0, 3}
	rep := bench.RetrievalReport{K: 10,
		Runs: []bench.RunReport{{Reconsolidation: "on", MethodReport: bench.MethodReport{ByCategory: bench.CatRecall{"temporal": 0.8}, Overall: 0.7},
			FirstDepth: map[string]int{"0": 5, "none": 2, "10": 1, "2": 1}, Edits: &bench.EditReport{HistogramBefore: before, HistogramAfter: after}}},
		Splits: []bench.SplitReport{{Split: "all",
			Baselines: []bench.FlatRow{
				{Baseline: bench.Baselines[0], Selection: bench.SelectionK, MethodReport: bench.MethodReport{Overall: 0.9}},
				{Baseline: bench.Baselines[0], Selection: bench.SelectionBudget, Budget: 600, MethodReport: bench.MethodReport{Overall: 0.4}},
				{Baseline: bench.Baselines[6], Selection: bench.SelectionBudget, Budget: 600, MethodReport: bench.MethodReport{Overall: 0.5}},
			},
			Curves: []bench.CurveLine{{Name: "REALM, reconsolidation off", Points: []bench.CurvePoint{{K: 5, Tokens: 300, Recall: 0.6}, {K: 10, Tokens: 600, Recall: 0.7}}},
				{Name: bench.Baselines[6].String(), Points: []bench.CurvePoint{{Budget: 300, Tokens: 280, Recall: 0.4}}}}}}}
	charts := rep.Charts()
	// The bars show the strongest baseline at the equal budget, not the best at k.
	if len(charts) != 4 || charts[0].Name != "recall" || len(charts[0].Series) != 2 || charts[0].Series[0].Values[1] != 0.8 || charts[0].Series[1].Values[4] != 0.5 {
		t.Fatalf("charts %+v", charts)
	}
	if c := charts[3]; c.Name != "recall-vs-context-all" || c.Line == nil || len(c.Line.Lines) != 2 || !c.Line.Lines[0].Bold || !c.Line.Lines[1].Dashed {
		t.Errorf("curve chart %+v", c)
	}
	if pts := parsePoints(t, charts[3].SVG()); len(pts) != 3 || pts[1] != [2]float64{600, 0.7} {
		t.Errorf("curve points %v", pts)
	}
	if got := strings.Join(charts[1].Groups, ","); got != "0,2,10,none" {
		t.Errorf("depth groups %s", got)
	}
	if h := charts[2]; h.Name != "edge-weights" || len(h.Series) != 2 || h.Series[1].Values[4] != 1 {
		t.Errorf("histogram chart %+v", h)
	}
	if md := rep.HistogramMarkdown(); !strings.Contains(md, "| 0.4–0.5 | 0 | 1 |") || !strings.Contains(md, "| 0.9–1.0 | 3 | 3 |") {
		t.Errorf("histogram table:\n%s", md)
	}
	rep.Runs[0].Edits = nil
	if len(rep.Charts()) != 3 || rep.HistogramMarkdown() != "" {
		t.Error("a run without reconsolidation has no histogram")
	}
}
