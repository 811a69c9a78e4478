package bench_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/bench"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/embed"
	"github.com/realm-memory/realm/reconsolidation"
	"github.com/realm-memory/realm/retrieval"
)

// ingester adapts the construction pipeline to bench.Ingester.
type ingester struct{ p *construction.Pipeline }

func (i ingester) Ingest(ctx context.Context, space string, obs []realm.Observation) (int, error) {
	res, err := i.p.Ingest(ctx, space, obs)
	return len(res), err
}

// TestRunRetrievalReconsolidation runs the LoCoMo retrieval bench with reconsolidation
// on and off over one ingestion, on a real Neo4j with the offline agent and the hash
// embedder: both runs are reported, the first question (asked before any edit) gets the
// same recall both ways, every edit is counted, and the space is left as ingested. The
// small fixture goes in twice, as a tune and a validate conversation, so that the report
// has its three splits, each with the flat baselines beside REALM.
func TestRunRetrievalReconsolidation(t *testing.T) {
	store := cyphertest.MustOpen(t)
	ctx := context.Background()
	small, err := bench.LoadLoCoMo("testdata/locomo-small.json")
	if err != nil {
		t.Fatal(err)
	}
	tune, validate := small[0], small[0]
	tune.ID, validate.ID = "conv-26", "conv-42"
	samples := []bench.Sample{tune, validate}
	emb := embed.NewHash(cyphertest.Dims)
	log := zerolog.Nop()
	deps := bench.RetrievalDeps{
		Ingest: ingester{construction.New(store, offline.New(offline.Options{}), emb, construction.Options{}, log)},
		Recall: retrieval.New(store, emb, offline.New(offline.Options{}), retrieval.Options{}, log),
		Reconsolidate: reconsolidation.New(store, offline.New(offline.Options{}),
			reconsolidation.DefaultConfig(), log),
		Graph:    store,
		Embedder: emb,
		Traces:   store,
	}
	space := cyphertest.NewSpace(t)
	prefix := space + "-"
	t.Cleanup(func() {
		for _, s := range samples {
			_, _ = store.DeleteSpace(context.WithoutCancel(ctx), prefix+s.ID)
		}
	})
	cfg := bench.RetrievalConfig{K: 10, SpacePrefix: prefix, Reconsolidation: bench.ReconsolidationBoth, CurveK: []int{5, 10}}

	rep, err := bench.RunRetrieval(ctx, samples, deps, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	on, off := rep.Run(bench.ReconsolidationOn), rep.Run(bench.ReconsolidationOff)
	if len(rep.Runs) != 2 || on == nil || off == nil || rep.Runs[0].Reconsolidation != bench.ReconsolidationOn {
		t.Fatalf("runs %+v, want on then off", rep.Runs)
	}
	if off.Edits != nil || on.Edits == nil {
		t.Fatalf("edit reports: on %+v, off %+v", on.Edits, off.Edits)
	}
	e := on.Edits
	if rep.Questions == 0 || e.Audits != rep.Questions {
		t.Errorf("%d audits for %d questions", e.Audits, rep.Questions)
	}
	if e.Added+e.Strengthened+e.Weakened == 0 || e.WithEdits == 0 {
		t.Errorf("no edits at all: %+v; the fixture is meant to exercise reconsolidation", e)
	}
	if !e.Restored || e.Mismatches != 0 {
		t.Errorf("the space was not restored exactly: %d mismatches", e.Mismatches)
	}
	if e.EdgesAfter-e.EdgesBefore > e.Added {
		t.Errorf("edges %d → %d with %d adds", e.EdgesBefore, e.EdgesAfter, e.Added)
	}
	c := rep.Comparison
	if c == nil || c.FirstAsked != len(samples) || c.FirstSame != c.FirstAsked || c.Better+c.Worse+c.Same != rep.Questions {
		t.Errorf("comparison %+v for %d questions of %d samples", c, rep.Questions, len(samples))
	}
	var reverted int64
	for _, s := range samples {
		st, err := store.EditStats(ctx, prefix+s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if st.Added+st.Strengthened+st.Weakened != 0 {
			t.Errorf("%s keeps live edits after the run: %+v", s.ID, st)
		}
		reverted += st.Reverted
	}
	if reverted != int64(e.Added+e.Strengthened+e.Weakened) {
		t.Errorf("%d edits reverted, the report counts %d", reverted, e.Added+e.Strengthened+e.Weakened)
	}
	checkSplits(t, rep, off)
	md := rep.Markdown()
	for _, want := range []string{"REALM, reconsolidation on", "REALM, reconsolidation off", "### Split validate (conv-42)", "| bm25 | windows | k=10 |", "restored every edge weight to the bit"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	t.Log("\n" + md)

	// The space was left as ingested: a second run, off only, matches the first's off run.
	cfg.Reconsolidation = bench.ReconsolidationOff
	again, err := bench.RunRetrieval(ctx, samples, deps, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := again.Run(bench.ReconsolidationOff); got == nil || got.Overall != off.Overall || len(again.Runs) != 1 {
		t.Errorf("second run off: %+v, first run off: %+v", again.Runs, off)
	}
	if v := again.Split(bench.SplitValidate); v == nil || len(v.Realm) != 1 || v.Realm[0].Overall != rep.Split(bench.SplitValidate).Headline().Overall {
		t.Errorf("second run, validate split: %+v", v)
	}

	t.Run("ErrMode", func(t *testing.T) {
		cfg.Reconsolidation = "sometimes"
		if _, err := bench.RunRetrieval(ctx, samples, deps, cfg, nil); realm.ErrorCode(err) != realm.EInvalid {
			t.Errorf("got %v, want invalid", err)
		}
	})
}

// checkSplits checks the splits of a report on two copies of the small fixture, conv-26
// (tune) and conv-42 (validate): the same figures on each, REALM's mean context as the
// budget, and BM25's recall@10 as computed by hand (TestFlatBaselinesLoCoMo): 23/24 on
// turns (the question on what Maria and Ben have in common finds one of its two turns),
// 1 on windows.
func checkSplits(t *testing.T, rep bench.RetrievalReport, off *bench.RunReport) {
	t.Helper()
	if len(rep.Splits) != 3 || rep.Splits[0].Split != bench.SplitAll || rep.Split(bench.SplitTune) == nil || rep.Split(bench.SplitValidate) == nil {
		t.Fatalf("splits %+v", rep.Splits)
	}
	all := rep.Split(bench.SplitAll)
	if h := all.Headline(); h == nil || h.Reconsolidation != bench.ReconsolidationOff || h.Overall != off.Overall || all.Budget != off.ContextTokens {
		t.Errorf("all: headline %+v, budget %.1f; the off run: %+v", h, all.Budget, off.MethodReport)
	}
	if off.PromptTokens <= off.ContextTokens {
		t.Errorf("the answer prompt (%.1f tokens) adds types and times to the contents (%.1f)", off.PromptTokens, off.ContextTokens)
	}
	for _, name := range []string{bench.SplitTune, bench.SplitValidate} {
		s := rep.Split(name)
		if s.Questions != rep.Questions/2 || len(s.Samples) != 1 || len(s.Realm) != 2 {
			t.Errorf("%s: %d questions of %v, %d runs", name, s.Questions, s.Samples, len(s.Realm))
		}
		if len(s.Baselines) != 2*len(bench.Baselines) {
			t.Fatalf("%s: %d baseline rows", name, len(s.Baselines))
		}
		rows := map[string]bench.FlatRow{}
		for _, b := range s.Baselines {
			rows[b.String()+" "+b.Selection] = b
			if b.Selection == bench.SelectionBudget && (b.Budget != s.Budget || b.ContextTokens > s.Budget) {
				t.Errorf("%s %s: budget %.1f, context %.1f; REALM's %.1f", name, b.Baseline, b.Budget, b.ContextTokens, s.Budget)
			}
		}
		if got := rows["bm25, turns k"]; math.Abs(got.Overall-23.0/24) > 1e-9 {
			t.Errorf("%s: BM25 turns recall@10 %.4f, want 23/24", name, got.Overall)
		}
		if got := rows["bm25, windows k"]; got.Overall != 1 {
			t.Errorf("%s: BM25 windows recall@10 %.4f, want 1", name, got.Overall)
		}
		// 18 turns are too few for a common name (CommonNameMin 20): the focus is the question.
		for _, sel := range []string{" k", " budget"} {
			if h, f := rows["hybrid, windows"+sel], rows["hybrid+focus, windows"+sel]; h.Overall != f.Overall || h.ContextTokens != f.ContextTokens {
				t.Errorf("%s: hybrid %+v, hybrid with the focus %+v", name, h, f)
			}
		}
		if f := s.Strongest(); f == nil || f.Selection != bench.SelectionBudget {
			t.Errorf("%s: strongest %+v", name, f)
		}
		if len(s.Curves) != 1+len(bench.Baselines) || len(s.Curves[0].Points) != 2 || s.Curves[0].Points[1].Recall != s.Headline().Overall ||
			s.Curves[0].Points[0].Tokens >= s.Curves[0].Points[1].Tokens {
			t.Errorf("%s: curves %+v", name, s.Curves)
		}
	}
}
