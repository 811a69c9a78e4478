package bench_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/bench"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/embed"
	"github.com/realm-memory/realm/retrieval"
)

// The generator gives the shape asked of it: LoCoMo's type shares, ~0.84 observations
// per memory, ~4.8 directed edges per memory over the six predicates construction writes,
// unique ids, edges between generated memories, and the same space for the same seed.
func TestGenerateScale(t *testing.T) {
	for _, n := range []int{1000, 20000} {
		g := bench.GenerateScale("s", n, 7)
		if len(g.Memories) != n {
			t.Fatalf("n=%d: %d memories", n, len(g.Memories))
		}
		byType := map[realm.NodeType]int{}
		ids := map[string]bool{}
		for _, m := range g.Memories {
			byType[m.Type]++
			if ids[m.ID] {
				t.Fatalf("n=%d: duplicate id %s", n, m.ID)
			}
			ids[m.ID] = true
			if m.Content == "" || len(m.Sources) == 0 {
				t.Fatalf("n=%d: memory %s has no content or no sources", n, m.ID)
			}
		}
		for typ, want := range map[realm.NodeType]float64{realm.Event: 0.49, realm.Fact: 0.41, realm.Entity: 0.06, realm.Episode: 0.04} {
			if got := float64(byType[typ]) / float64(n); math.Abs(got-want) > 0.01 {
				t.Errorf("n=%d: %s share %.3f, want %.2f", n, typ, got, want)
			}
		}
		if got := float64(len(g.Observations)) / float64(n); math.Abs(got-419.0/498) > 0.01 {
			t.Errorf("n=%d: %.3f observations per memory, want 0.84", n, got)
		}
		preds := map[realm.Predicate]int{}
		for _, e := range g.Edges {
			preds[e.Predicate]++
			if !ids[e.From] || !ids[e.To] || e.From == e.To {
				t.Fatalf("n=%d: edge %s joins %s and %s", n, e.ID, e.From, e.To)
			}
		}
		if got := float64(len(g.Edges)) / float64(n); got < 4.5 || got > 5.1 {
			t.Errorf("n=%d: %.2f edges per memory, want about 4.8", n, got)
		}
		if len(preds) != 6 {
			t.Errorf("n=%d: predicates %v, want the six construction writes", n, preds)
		}
		if len(g.Questions) < n/2 {
			t.Errorf("n=%d: only %d questions", n, len(g.Questions))
		}
	}
	a, b := bench.GenerateScale("s", 1000, 7), bench.GenerateScale("s", 1000, 7)
	if a.Memories[500].Content != b.Memories[500].Content || len(a.Edges) != len(b.Edges) || a.Questions[3] != b.Questions[3] {
		t.Error("the same seed gave another space")
	}
}

// RunScale on a small space of the real Neo4j: the space written holds what was
// generated (counts by type, degree), every stage is measured, the store directory is
// read after a checkpoint where the edition has one (else the report says it has not),
// the space is gone after.
func TestRunScale(t *testing.T) {
	store := cyphertest.MustOpen(t)
	ctx := context.Background()
	emb := embed.NewHash(cyphertest.Dims)
	log := zerolog.Nop()
	prefix := cyphertest.NewSpace(t) + "-"
	deps := bench.ScaleDeps{
		Store: store, Embedder: emb,
		Ingest: ingester{construction.New(store, offline.New(offline.Options{}), emb, construction.Options{}, log)},
		Retriever: func(e realm.Embedder) *retrieval.Retriever {
			return retrieval.New(store, e, offline.New(offline.Options{}), retrieval.Options{}, log)
		},
	}
	t.Cleanup(func() { _, _ = store.DeleteSpace(context.WithoutCancel(ctx), prefix+"600") })
	// A stand-in for Neo4j's data directory: the figures are what lies there.
	storeDir := t.TempDir()
	for file, size := range map[string]int{"databases/neo4j/neostore": 1000, "transactions/neo4j/neostore.transaction.db.0": 500} {
		path := filepath.Join(storeDir, file)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, edition, err := store.ServerInfo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var progress, profile strings.Builder
	rep, err := bench.RunScale(ctx, deps, bench.ScaleConfig{Sizes: []int{600}, SpacePrefix: prefix, Queries: 3, ReconRuns: 2, IngestTurns: 5, IngestWarmup: 1, IngestSpaces: 2, EmbedPool: 100,
		StoreDir: storeDir, Profile: &profile}, &progress)
	if err != nil {
		t.Fatalf("%v\n%s", err, progress.String())
	}
	if len(rep.Sizes) != 1 {
		t.Fatalf("%d sizes reported", len(rep.Sizes))
	}
	sz := rep.Sizes[0]
	if sz.Shape.Memories != 600 || sz.ByType[realm.Event] != 294 || sz.ByType[realm.Entity] != 36 || sz.Observations != 505 {
		t.Errorf("stored %d memories %v, %d observations; want 600 (event 294, entity 36), 505", sz.Shape.Memories, sz.ByType, sz.Observations)
	}
	if sz.EdgesPerNode < 4.5 || sz.EdgesPerNode > 5.1 || len(sz.ByPredicate) != 6 || sz.Shape.Derived < 600 {
		t.Errorf("%.2f edges per memory over %v, %d provenance edges", sz.EdgesPerNode, sz.ByPredicate, sz.Shape.Derived)
	}
	if !sz.Build.VectorsReused || sz.Build.Embedded != 100 {
		t.Errorf("embedded %d texts (reused %v), want a pool of 100", sz.Build.Embedded, sz.Build.VectorsReused)
	}
	for _, strategy := range []realm.Strategy{realm.Adaptive, realm.StrategyPath, realm.StrategyBeam} {
		if q := sz.Recall[string(strategy)][retrieval.StageTotal]; q.N != 3 || q.P50 <= 0 {
			t.Errorf("%s: total %+v, want 3 timed recalls", strategy, q)
		}
	}
	// Outside expansion a recall runs exactly its counts, a vector and a full-text seed,
	// the induced edges, the ended clauses of the memories that hold (a question about the
	// present) and the record of its trace and accesses (one statement); the learned links
	// are not read, as the space holds none; the profile has a line per timed recall, each
	// listing its statements.
	if f := sz.FixedStatements[string(realm.Adaptive)]; f.P50 != 6 {
		t.Errorf("statements outside expansion per recall %+v, want 6", f)
	}
	if c, tx := sz.Statements[string(realm.Adaptive)], sz.Transactions[string(realm.Adaptive)]; c.P50 < 5 || tx.P50 > c.P50 {
		t.Errorf("statements per recall %+v, transactions %+v", c, tx)
	}
	if q := sz.Recall[string(realm.Adaptive)][bench.StageFixed]; q.N != 3 || q.P50 <= 0 || !strings.Contains(rep.Markdown(), "all stages but expand") {
		t.Errorf("all stages but expand: %+v", q)
	}
	lines := strings.Split(strings.TrimSpace(profile.String()), "\n")
	if len(lines) != 9 || !strings.Contains(lines[0], `"name":"seed_space_size"`) || !strings.Contains(lines[8], `"strategy":"subgraph_beam"`) {
		t.Errorf("%d profile lines, want 9 (3 strategies × 3 queries); first: %s", len(lines), lines[0])
	}
	if sz.Seeds["vector_index"].N != 3 || sz.Seeds["exact_scan"].N != 3 || sz.Reconcile.N != 2 || sz.Revert.N != 2 || sz.EditsDone < 20 {
		t.Errorf("seeds %+v, reconsolidation %+v (%.1f edits)", sz.Seeds, sz.Reconcile, sz.EditsDone)
	}
	if sz.Ingest.Observations != 5 || sz.Ingest.PerSecond <= 0 || sz.IngestOne.Observations != 5 || sz.IngestOne.PerSecond <= 0 {
		t.Errorf("ingest %+v, one a call %+v", sz.Ingest, sz.IngestOne)
	}
	if f := sz.IngestFirst; f == nil || f.Observations != 5 || f.PerSecond <= 0 || !strings.Contains(rep.Markdown(), "a first batch into the space, timed apart: 5 observations") {
		t.Errorf("first batch %+v", f)
	}
	if w := sz.IngestWarmup; len(w) != 2 || w[0].Observations != 5 || w[1].Observations != 5 || !strings.Contains(rep.Markdown(), "Warm-up before it") {
		t.Errorf("warm-up %+v", w)
	}
	if p := sz.IngestParallel; p == nil || p.Observations != 10 || p.PerSecond <= 0 || !strings.Contains(rep.Markdown(), "into 2 new spaces at once") {
		t.Errorf("parallel ingestion %+v", p)
	}
	if len(rep.Goals) < 4 || !strings.Contains(rep.Markdown(), "## 600 memories") {
		t.Errorf("goals %v; markdown:\n%s", rep.Goals, rep.Markdown())
	}
	when := ", read without a checkpoint (Community has no db.checkpoint()"
	if edition != "community" {
		when = ", after a checkpoint;"
	}
	if sz.StoreBytes != 1000 || sz.TxLogBytes != 500 || sz.StoreCheckpointed != (edition != "community") || !strings.Contains(rep.Markdown(), "(transaction logs)"+when) {
		t.Errorf("store %d + %d bytes, checkpointed %t on %s edition; markdown:\n%s", sz.StoreBytes, sz.TxLogBytes, sz.StoreCheckpointed, edition, rep.Markdown())
	}
	for _, space := range []string{prefix + "600", prefix + "600-warmup-1", prefix + "600-parallel-1", prefix + "600-parallel-2"} {
		stats, err := store.Stats(ctx, space)
		if err != nil || stats.Memories != 0 || stats.Observations != 0 {
			t.Errorf("space %s was left behind: %+v, %v", space, stats, err)
		}
	}
}
