package bench_test

import (
	"context"
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
// same recall both ways, every edit is counted, and the space is left as ingested.
func TestRunRetrievalReconsolidation(t *testing.T) {
	store := cyphertest.MustOpen(t)
	ctx := context.Background()
	samples, err := bench.LoadLoCoMo("testdata/locomo-small.json")
	if err != nil {
		t.Fatal(err)
	}
	emb := embed.NewHash(cyphertest.Dims)
	log := zerolog.Nop()
	deps := bench.RetrievalDeps{
		Ingest: ingester{construction.New(store, offline.New(offline.Options{}), emb, construction.Options{}, log)},
		Recall: retrieval.New(store, emb, offline.New(offline.Options{}), retrieval.Options{}, log),
		Reconsolidate: reconsolidation.New(store, offline.New(offline.Options{}),
			reconsolidation.DefaultConfig(), log),
		Graph:    store,
		Embedder: emb,
	}
	space := cyphertest.NewSpace(t)
	prefix := space + "-"
	t.Cleanup(func() {
		for _, s := range samples {
			_, _ = store.DeleteSpace(context.WithoutCancel(ctx), prefix+s.ID)
		}
	})
	cfg := bench.RetrievalConfig{K: 10, SpacePrefix: prefix, Reconsolidation: bench.ReconsolidationBoth}

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
	for _, s := range samples {
		st, err := store.EditStats(ctx, prefix+s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if st.Added+st.Strengthened+st.Weakened != 0 {
			t.Errorf("%s keeps live edits after the run: %+v", s.ID, st)
		}
		if st.Reverted != int64(e.Added+e.Strengthened+e.Weakened) {
			t.Errorf("%s: %d edits reverted, the report counts %d", s.ID, st.Reverted, e.Added+e.Strengthened+e.Weakened)
		}
	}
	md := rep.Markdown()
	for _, want := range []string{"REALM, reconsolidation on", "REALM, reconsolidation off", "on − off", "restored every edge weight to the bit"} {
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

	t.Run("ErrMode", func(t *testing.T) {
		cfg.Reconsolidation = "sometimes"
		if _, err := bench.RunRetrieval(ctx, samples, deps, cfg, nil); realm.ErrorCode(err) != realm.EInvalid {
			t.Errorf("got %v, want invalid", err)
		}
	})
}
