package bench

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/internal/text"
	"github.com/realm-memory/realm/reconsolidation"
	"github.com/realm-memory/realm/retrieval"
)

// The scale benchmark (`realm bench scale`): synthetic spaces of N memories with the
// shape of the real graphs (scale_gen.go), written in bulk, then measured: recall
// latency per stage (without embedding), the two vector seed searches against each
// other, reconsolidation apply, offline ingestion, store size and heap.

// ScaleConfig configures a scale run.
type ScaleConfig struct {
	Sizes        []int
	SpacePrefix  string           // each size's space is SpacePrefix + N
	Keep         bool             // keep the spaces afterwards (a later run reuses them)
	BuildOnly    bool             // build (or find) and describe the spaces, measure nothing (implies Keep)
	Strategies   []realm.Strategy // recall strategies timed (empty: adaptive, path_search, subgraph_beam)
	Queries      int              // recalls measured per size and strategy
	ReconRuns    int              // reconsolidations of 20 edits measured per size
	IngestTurns  int              // observations sent through the real write path per size
	EmbedPool    int              // 0: embed every memory; else embed this many distinct texts and reuse their vectors
	EmbedBatch   int              // texts per embedder call
	StoreDir     string           // the Neo4j database directory, measured on disk ("" : not measured)
	Seed         uint64
	RetrievalOpt retrieval.Options // zero: defaults
	// NoExactScan leaves the exact-scan seed search unmeasured: at 100k it costs seconds a
	// question, and the read path does not choose it there.
	NoExactScan bool
	// WarmGraph reads the space's graph snapshot (cypher/graphcache.go) before the recalls
	// are timed, when REALM_GRAPH_CACHE admits the space: above GraphSyncMax the recalls
	// would otherwise use the statements until it is read in the background.
	WarmGraph bool
	// Profile, when set, receives one JSON line per timed recall: its stage timings, its
	// expansion steps and every statement it ran with its duration, database hits and rows
	// (the recall is run once more under PROFILE for the counts, untimed).
	Profile io.Writer
	// IngestCPUProfile, when set, is where the CPU profiles of this process during the
	// ingestion are written: IngestCPUProfile+".batches.pprof" and +".one.pprof", and
	// during the interleaved rounds (Interleave) +".interleave.pprof".
	IngestCPUProfile string
	// ReconWarmup is how many reconsolidations (applied and reverted, untimed) go before the
	// timed ones: on a freshly started Neo4j an apply of 20 edits took 50 ms and more over
	// its first hundred, 6–9 ms after about 250 (Neo4j's JVM compiling the code they run;
	// the same binary's p50 fell 78 → 40 → 24 → 19 ms over four runs), and the figures are
	// meant to be a running server's.
	ReconWarmup int
	// IngestWarmup is how many rounds of the ingestion (IngestTurns) go first, each into a
	// new throwaway space (deleted after the measure): Neo4j compiles the write path's
	// statements over its first thousands of observations (on a freshly started Neo4j,
	// idle, rounds of 400 in batches of 100 from one client and 400 one a call: batches
	// 50 → 98 → 118 → 130–144 obs/s over rounds 1, 2, 3 and 4–12, Neo4j's CPU an
	// observation 26 → 2–3 ms), and the figures are meant to be a running server's.
	IngestWarmup int
	// IngestSpaces, above 1, adds a measure of batches sent to this many new spaces at
	// once, one client each (ingestParallel).
	IngestSpaces int
	// Interleave, when not 0, is how many rounds of one observation ingested then one
	// recall are timed after the other measures, as an agent alternates them: whether the
	// recalls still expand from the graph snapshot while the space is written to. Each
	// round adds the observation's memories to the space (kept with Keep).
	Interleave int
}

// ScaleDeps are what a scale run drives.
type ScaleDeps struct {
	Store    *cypher.Store
	Embedder realm.Embedder
	Ingest   Ingester // the write path (construction.Pipeline), for ingest throughput
	// Retriever builds the read path over an embedder (a memoizing one, so that recall
	// timings exclude embedding).
	Retriever func(emb realm.Embedder) *retrieval.Retriever
}

// ScaleReport is the outcome of a scale run.
type ScaleReport struct {
	Machine Machine           `json:"machine"`
	Config  map[string]string `json:"config"`
	Sizes   []ScaleSize       `json:"sizes"`
	Goals   []Goal            `json:"goals"`
	Notes   []string          `json:"notes"`
}

// Machine describes where the run happened.
type Machine struct {
	Cores        int       `json:"cores"`
	MemoryGiB    float64   `json:"memory_gib"`
	CPU          string    `json:"cpu"`
	Neo4j        string    `json:"neo4j"`
	LoadStart    []float64 `json:"load_average_start"`
	LoadEnd      []float64 `json:"load_average_end"`
	GoVersion    string    `json:"go"`
	StartedAtUTC string    `json:"started_at"`
}

// Quantiles of a latency, in milliseconds.
type Quantiles struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50_ms"`
	P95 float64 `json:"p95_ms"`
	P99 float64 `json:"p99_ms"`
	Max float64 `json:"max_ms"`
}

// Counts are the quantiles of a count.
type Counts struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	Max float64 `json:"max"`
}

func counts(v []float64) Counts {
	q := quantiles(v)
	return Counts{P50: q.P50, P95: q.P95, Max: q.Max}
}

func quantiles(v []float64) Quantiles {
	if len(v) == 0 {
		return Quantiles{}
	}
	s := slices.Clone(v)
	slices.Sort(s)
	at := func(q float64) float64 { return s[min(len(s)-1, int(math.Ceil(q*float64(len(s))))-1)] }
	return Quantiles{N: len(s), P50: at(0.5), P95: at(0.95), P99: at(0.99), Max: s[len(s)-1]}
}

// ScaleSize is what was measured on one size.
type ScaleSize struct {
	N     int               `json:"n"`
	Space string            `json:"space"`
	Shape cypher.GraphShape `json:"shape"`
	// Counts by type and predicate as stored.
	ByType            map[realm.NodeType]int64  `json:"by_type"`
	ByPredicate       map[realm.Predicate]int64 `json:"by_predicate"`
	Observations      int64                     `json:"observations"`
	EdgesPerNode      float64                   `json:"edges_per_memory"`
	Build             BuildReport               `json:"build"`
	StoreBytes        int64                     `json:"store_bytes"`                  // database directory on disk after the build
	TxLogBytes        int64                     `json:"tx_log_bytes"`                 // transaction logs on disk after the build
	StoreCheckpointed bool                      `json:"store_checkpointed,omitempty"` // both read after a checkpoint (Enterprise only); else the database files lag the logs
	Heap              cypher.Heap               `json:"heap"`                         // after the recalls
	SeedMethod        string                    `json:"seed_method"`                  // what the read path chooses at this size
	Seeds             map[string]Quantiles      `json:"seed_searches"`                // exact_scan, vector_index, fulltext
	// The space's in-memory keyword index (cypher/keywordindex.go), read before the
	// seeds are measured: its size, read time and the Go heap it holds (after a GC).
	KeywordIndex      cypher.KeywordIndexStats `json:"keyword_index"`
	KeywordIndexBytes uint64                   `json:"keyword_index_heap_bytes"`
	// The space's graph snapshot read before the recalls (ScaleConfig.WarmGraph): its size
	// and read time, the Go heap it holds (after a GC) and the bytes allocated reading it.
	GraphSnapshot       *cypher.GraphStats `json:"graph_snapshot,omitempty"`
	GraphSnapshotBytes  uint64             `json:"graph_snapshot_heap_bytes,omitempty"`
	GraphSnapshotAllocs uint64             `json:"graph_snapshot_alloc_bytes,omitempty"`
	// Whether the recalls still expand from the snapshot after the reconsolidations and
	// their reverts: it follows this process's edits rather than going stale.
	GraphSnapshotCurrent bool `json:"graph_snapshot_current_after_reconsolidations,omitempty"`
	// Recall stages per strategy (adaptive, path_search, subgraph_beam): plan, seed,
	// expand, aggregate, record, total; embedding excluded.
	Recall    map[string]map[string]Quantiles `json:"recall"`
	TargetHit float64                         `json:"target_at_k"` // share of adaptive recalls whose generated answer is in the top K
	EmbedMS   Quantiles                       `json:"recall_embedding"`
	Reconcile Quantiles                       `json:"reconsolidation_apply_20"`
	// ReconcileWarmup: the untimed warm-up's applies (ScaleConfig.ReconWarmup), timed all the same.
	ReconcileWarmup Quantiles    `json:"reconsolidation_apply_20_warmup"`
	Revert          Quantiles    `json:"reconsolidation_revert_20"` // the timed applies' reverts
	EditsDone       float64      `json:"edits_applied_mean"`
	Ingest          IngestReport `json:"ingest"`        // batches of ScaleIngestBatch
	IngestOne       IngestReport `json:"ingest_single"` // one observation a call
	// The warm-up rounds' ingestion (ScaleConfig.IngestWarmup), batches then one a call
	// for each, each round into a new throwaway space.
	IngestWarmup []IngestReport `json:"ingest_warmup,omitempty"`
	// The first batch into the measured space, before the measure (firstBatch).
	IngestFirst *IngestReport `json:"ingest_first_batch,omitempty"`
	// Batches into ScaleConfig.IngestSpaces new spaces at once, all together.
	IngestParallel *IngestReport `json:"ingest_parallel,omitempty"`
	LoadBefore     []float64     `json:"load_average_before"`
	LoadAfter      []float64     `json:"load_average_after"`
	// Recalls each after one observation ingested (ScaleConfig.Interleave).
	Interleave *InterleaveReport `json:"interleave,omitempty"`
	// Statements (round trips to Neo4j) and transactions per timed recall, per strategy.
	Statements   map[string]Counts `json:"statements_per_recall,omitempty"`
	Transactions map[string]Counts `json:"transactions_per_recall,omitempty"`
	// Statements per timed recall outside expansion (plan, seed, aggregate, record), per
	// strategy: the recall's fixed cost in round trips.
	FixedStatements map[string]Counts `json:"fixed_statements_per_recall,omitempty"`
}

// InterleaveReport is ScaleConfig.Interleave's rounds of one observation ingested (one a
// call, through the write path, embedding included) then one adaptive recall (its texts
// embedded before).
type InterleaveReport struct {
	Rounds int       `json:"rounds"`
	Recall Quantiles `json:"recall"` // total, embedding excluded
	Ingest Quantiles `json:"ingest"` // one observation
	// FromSnapshot counts the recalls that found the space's snapshot current (of the
	// space's graph version as the round's ingestion left it): they expanded from it.
	FromSnapshot int `json:"recalls_from_snapshot"`
	// Each round: the ingestion's and the recall's time (ms), whether the snapshot was
	// current, and the recall's expansion statements (0 from the snapshot).
	Each []InterleaveRound `json:"each"`
	// FollowRead is the statement that reads again what an ingestion touched, for the
	// snapshot to follow it (graph_snapshot_memories), per ingestion that ran it.
	FollowRead    Quantiles `json:"follow_read"`
	MemoriesAdded int64     `json:"memories_added"`
	Load          []float64 `json:"load_average_before"`
}

// InterleaveRound is one round of InterleaveReport.
type InterleaveRound struct {
	IngestMS         float64 `json:"ingest_ms"`
	RecallMS         float64 `json:"recall_ms"`
	SnapshotCurrent  bool    `json:"snapshot_current"`
	ExpandStatements int     `json:"expand_statements"`
	// The recall's stages (ms) and its three slowest kinds of statement.
	Stages     map[string]float64 `json:"stages"`
	Statements string             `json:"slowest_statements"`
}

// StageFixed is the recall figure of every stage but expansion (total − expand, per
// recall): what a recall costs whatever its expansion does.
const StageFixed = "fixed"

// BuildReport says how the space was built.
type BuildReport struct {
	Reused          bool    `json:"reused"`
	Embedded        int     `json:"embedded_texts"`
	EmbedSeconds    float64 `json:"embed_seconds"`
	EmbedPerSecond  float64 `json:"embed_per_second"`
	WriteSeconds    float64 `json:"write_seconds"`
	MemoriesPerSec  float64 `json:"memories_per_second"`
	VectorsReused   bool    `json:"vectors_reused"`
	EmbedderID      string  `json:"embedder"`
	Observations    int     `json:"observations"`
	GeneratedEdges  int     `json:"generated_edges"`
	GeneratedQuests int     `json:"questions"`
}

// Goal is one of issue #7's performance goals.
type Goal struct {
	Name   string  `json:"name"`
	Target string  `json:"target"`
	Value  float64 `json:"value"`
	Unit   string  `json:"unit"`
	Met    bool    `json:"met"`
	By     string  `json:"by"`
}

// RunScale builds and measures each size in turn; progress goes to progress (may be nil).
func RunScale(ctx context.Context, deps ScaleDeps, cfg ScaleConfig, progress io.Writer) (ScaleReport, error) {
	if progress == nil {
		progress = io.Discard
	}
	if cfg.Queries <= 0 {
		cfg.Queries = 100
	}
	if cfg.ReconRuns <= 0 {
		cfg.ReconRuns = 30
	}
	if cfg.EmbedBatch <= 0 {
		cfg.EmbedBatch = 64
	}
	if cfg.SpacePrefix == "" {
		cfg.SpacePrefix = "scale-"
	}
	if cfg.Seed == 0 {
		cfg.Seed = 7
	}
	rep := ScaleReport{Machine: describeMachine(ctx, deps.Store)}
	for _, n := range cfg.Sizes {
		sz, err := runScaleSize(ctx, deps, cfg, n, progress)
		if err != nil {
			return rep, fmt.Errorf("size %d: %w", n, err)
		}
		rep.Sizes = append(rep.Sizes, sz)
	}
	rep.Machine.LoadEnd = loadAverage()
	rep.Goals = ScaleGoals(rep.Sizes)
	return rep, nil
}

func runScaleSize(ctx context.Context, deps ScaleDeps, cfg ScaleConfig, n int, progress io.Writer) (ScaleSize, error) {
	space := cfg.SpacePrefix + strconv.Itoa(n)
	sz := ScaleSize{N: n, Space: space, LoadBefore: loadAverage(), Seeds: map[string]Quantiles{}, Recall: map[string]map[string]Quantiles{},
		Statements: map[string]Counts{}, Transactions: map[string]Counts{}, FixedStatements: map[string]Counts{}}
	started := time.Now()
	gen := GenerateScale(space, n, cfg.Seed)
	fmt.Fprintf(progress, "scale %d: generated %d memories, %d observations, %d edges, %d questions in %s\n",
		n, len(gen.Memories), len(gen.Observations), len(gen.Edges), len(gen.Questions), time.Since(started).Round(time.Millisecond))
	sz.Build = BuildReport{EmbedderID: deps.Embedder.ID(), Observations: len(gen.Observations), GeneratedEdges: len(gen.Edges), GeneratedQuests: len(gen.Questions)}

	stats, err := deps.Store.Stats(ctx, space)
	if err != nil {
		return sz, err
	}
	switch {
	case stats.Memories >= int64(len(gen.Memories)) && stats.Observations >= int64(len(gen.Observations)):
		sz.Build.Reused = true
		fmt.Fprintf(progress, "scale %d: reusing space %s (%d memories)\n", n, space, stats.Memories)
	default:
		if stats.Memories > 0 || stats.Observations > 0 {
			if _, err := deps.Store.DeleteSpace(ctx, space); err != nil {
				return sz, err
			}
		}
		if err := buildScaleSpace(ctx, deps, cfg, gen, &sz.Build, progress); err != nil {
			return sz, err
		}
	}
	if !cfg.Keep && !cfg.BuildOnly {
		defer func() {
			if _, err := deps.Store.DeleteSpace(context.WithoutCancel(ctx), space); err != nil {
				fmt.Fprintf(progress, "scale %d: deleting %s: %v\n", n, space, err)
			}
		}()
	}
	if stats, err = deps.Store.Stats(ctx, space); err != nil {
		return sz, err
	}
	sz.ByType, sz.ByPredicate, sz.Observations = stats.ByType, stats.ByPredicate, stats.Observations
	if sz.Shape, err = deps.Store.SpaceShape(ctx, space); err != nil {
		return sz, err
	}
	sz.EdgesPerNode = float64(sz.Shape.Edges) / float64(max(1, sz.Shape.Memories))
	if cfg.StoreDir != "" {
		// What was just written may still be in the page cache and the transaction logs:
		// a checkpoint writes it to the store files first. Community has none to ask for.
		done, err := deps.Store.Checkpoint(ctx)
		if err != nil {
			fmt.Fprintf(progress, "scale %d: no checkpoint before measuring the store: %v\n", n, err)
		}
		sz.StoreCheckpointed = done
		sz.StoreBytes = dirBytes(filepath.Join(cfg.StoreDir, "databases", "neo4j"))
		sz.TxLogBytes = dirBytes(filepath.Join(cfg.StoreDir, "transactions", "neo4j"))
	}

	if cfg.BuildOnly {
		sz.LoadAfter = loadAverage()
		return sz, nil
	}
	memo := newMemoEmbedder(deps.Embedder)
	r := deps.Retriever(memo)
	questions := gen.Questions[:min(len(gen.Questions), cfg.Queries)]
	if err := measureKeywordIndex(ctx, deps.Store, space, &sz); err != nil {
		return sz, err
	}
	fmt.Fprintf(progress, "scale %d: keyword index of %d memories, %d terms, %d postings read in %.0f ms, %.1f MiB of heap\n",
		n, sz.KeywordIndex.Memories, sz.KeywordIndex.Terms, sz.KeywordIndex.Postings, ms(sz.KeywordIndex.Load), float64(sz.KeywordIndexBytes)/(1<<20))
	if err := measureSeeds(ctx, deps.Store, memo, cfg, space, questions, &sz); err != nil {
		return sz, err
	}
	fmt.Fprintf(progress, "scale %d: seeds exact p50 %.1f ms, index p50 %.1f ms, full-text p50 %.1f ms (read path picks %s)\n",
		n, sz.Seeds["exact_scan"].P50, sz.Seeds["vector_index"].P50, sz.Seeds["fulltext"].P50, sz.SeedMethod)
	if cfg.WarmGraph {
		if err := measureGraphSnapshot(ctx, deps.Store, space, &sz); err != nil {
			return sz, err
		}
		g := sz.GraphSnapshot
		fmt.Fprintf(progress, "scale %d: graph snapshot of %d memories, %d edges read in %.1f s, %.1f MiB of heap (%.0f MiB allocated reading it)\n",
			n, g.Memories, g.Edges, g.Load.Seconds(), mib(int64(sz.GraphSnapshotBytes)), mib(int64(sz.GraphSnapshotAllocs)))
	}
	strategies := cfg.Strategies
	if len(strategies) == 0 {
		strategies = []realm.Strategy{realm.Adaptive, realm.StrategyPath, realm.StrategyBeam}
	}
	results, err := measureRecall(ctx, deps.Store, r, memo, space, questions, strategies, &sz, cfg.Profile, progress)
	if err != nil {
		return sz, err
	}
	if sz.Heap, err = deps.Store.ServerHeap(ctx); err != nil {
		return sz, err
	}
	if err := measureReconsolidation(ctx, deps.Store, space, results, cfg.ReconRuns, cfg.ReconWarmup, &sz); err != nil {
		return sz, err
	}
	fmt.Fprintf(progress, "scale %d: reconsolidation apply of 20 edits p50 %.1f ms, revert p50 %.1f ms\n", n, sz.Reconcile.P50, sz.Revert.P50)
	if sz.GraphSnapshot != nil {
		if sz.GraphSnapshotCurrent, err = deps.Store.GraphCurrent(ctx, space); err != nil {
			return sz, err
		}
		fmt.Fprintf(progress, "scale %d: graph snapshot current after the reconsolidations: %t\n", n, sz.GraphSnapshotCurrent)
	}
	if cfg.Interleave > 0 && deps.Ingest != nil {
		if err := measureInterleave(ctx, deps.Ingest, deps.Store, r, space, gen, questions, cfg, &sz, progress); err != nil {
			return sz, err
		}
	}
	if cfg.IngestTurns > 0 && deps.Ingest != nil {
		if err := measureIngest(ctx, deps.Ingest, deps.Store, space, gen, cfg, &sz, progress); err != nil {
			return sz, err
		}
	}
	sz.LoadAfter = loadAverage()
	return sz, nil
}

// buildScaleSpace embeds the memories and writes the space.
func buildScaleSpace(ctx context.Context, deps ScaleDeps, cfg ScaleConfig, gen ScaleSpace, b *BuildReport, progress io.Writer) error {
	texts := make([]string, len(gen.Memories))
	for i, m := range gen.Memories {
		texts[i] = construction.EmbedText(m.Name, m.Content)
	}
	distinct := len(texts)
	if cfg.EmbedPool > 0 && cfg.EmbedPool < distinct {
		distinct = cfg.EmbedPool
		b.VectorsReused = true
	}
	started := time.Now()
	vecs := make([][]float32, distinct)
	for i := 0; i < distinct; i += cfg.EmbedBatch {
		end := min(i+cfg.EmbedBatch, distinct)
		v, err := deps.Embedder.Embed(ctx, texts[i:end])
		if err != nil {
			return err
		}
		copy(vecs[i:end], v)
		if (i/cfg.EmbedBatch)%50 == 0 {
			fmt.Fprintf(progress, "\r  %s", ProgressLine("embed", end, distinct, time.Since(started)))
		}
	}
	b.Embedded = distinct
	b.EmbedSeconds = time.Since(started).Seconds()
	b.EmbedPerSecond = float64(distinct) / b.EmbedSeconds
	fmt.Fprintf(progress, "\r  embedded %d texts in %.1f s (%.0f/s)\n", distinct, b.EmbedSeconds, b.EmbedPerSecond)
	for i := range gen.Memories {
		gen.Memories[i].Embedding = vecs[i%distinct]
	}

	started = time.Now()
	space := strings.SplitN(gen.Memories[0].ID, ":", 2)[0]
	if err := deps.Store.PutScaleSpace(ctx, space, deps.Embedder.ID(), deps.Embedder.Dim(), int64(len(gen.Observations)), gen.Summary); err != nil {
		return err
	}
	if err := deps.Store.PutScaleObservations(ctx, space, gen.Observations); err != nil {
		return err
	}
	for i := 0; i < len(gen.Memories); i += 10 * cypher.ScaleBatch {
		part := gen.Memories[i:min(i+10*cypher.ScaleBatch, len(gen.Memories))]
		if _, err := deps.Store.PutScaleMemories(ctx, space, part); err != nil {
			return err
		}
		fmt.Fprintf(progress, "\r  %s", ProgressLine("memories", i+len(part), len(gen.Memories), time.Since(started)))
	}
	for i := 0; i < len(gen.Edges); i += 10 * cypher.ScaleBatch {
		part := gen.Edges[i:min(i+10*cypher.ScaleBatch, len(gen.Edges))]
		if err := deps.Store.PutScaleEdges(ctx, space, part); err != nil {
			return err
		}
		fmt.Fprintf(progress, "\r  %s", ProgressLine("edges", i+len(part), len(gen.Edges), time.Since(started)))
	}
	b.WriteSeconds = time.Since(started).Seconds()
	b.MemoriesPerSec = float64(len(gen.Memories)) / b.WriteSeconds
	fmt.Fprintf(progress, "\r  wrote %d observations, %d memories, %d edges in %.1f s\n", len(gen.Observations), len(gen.Memories), len(gen.Edges), b.WriteSeconds)
	return nil
}

// measureSeeds times the three seed searches of one hybrid plan on each question (the
// query embedded beforehand): the exact cosine scan and the vector index with the
// over-fetch the read path would use, both whatever the read path would choose, and the
// full-text index.
func measureSeeds(ctx context.Context, s *cypher.Store, emb *memoEmbedder, cfg ScaleConfig, space string, qs []ScaleQuestion, sz *ScaleSize) error {
	opts := cfg.RetrievalOpt
	if opts == (retrieval.Options{}) {
		opts = retrieval.DefaultOptions()
	}
	counts, err := s.SpaceCounts(ctx, space)
	if err != nil {
		return err
	}
	inSpace, total := counts.InSpace, counts.Total
	fetch := opts.SeedCandidates * int((total+inSpace-1)/max(1, inSpace)) * 2
	sz.SeedMethod = realm.SeedVectorIndex
	if inSpace <= opts.ExactScanMax || fetch > opts.IndexFetchMax {
		sz.SeedMethod = realm.SeedExactScan
	}
	texts := make([]string, len(qs))
	for i, q := range qs {
		texts[i] = q.Query
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		return err
	}
	times := map[string][]float64{}
	for i, q := range qs {
		sq := cypher.SeedQuery{Embedding: vecs[i], Keywords: text.Keywords(q.Query, 8), Limit: opts.SeedCandidates, SpaceSize: inSpace, SpaceVersion: counts.Version}
		for _, m := range []string{"exact_scan", "vector_index", "fulltext"} {
			if m == "exact_scan" && cfg.NoExactScan {
				continue
			}
			t := time.Now()
			switch m {
			case "exact_scan":
				_, err = s.SeedByExactScan(ctx, space, sq)
			case "vector_index":
				_, err = s.SeedByVectorIndex(ctx, space, sq, fetch)
			default:
				_, err = s.SeedByFullText(ctx, space, sq)
			}
			if err != nil {
				return err
			}
			times[m] = append(times[m], ms(time.Since(t)))
		}
	}
	for m, v := range times {
		sz.Seeds[m] = quantiles(v)
	}
	return nil
}

// measureKeywordIndex reads the space's keyword index, so that the seeds and recalls
// measured after use it, and records its size, read time and heap.
func measureKeywordIndex(ctx context.Context, s *cypher.Store, space string, sz *ScaleSize) error {
	var err error
	sz.KeywordIndexBytes, _ = heapHeld(func() { sz.KeywordIndex, err = s.LoadKeywordIndex(ctx, space) })
	return err
}

// measureGraphSnapshot reads the space's graph snapshot, so that the recalls measured
// after expand from it, and records its size, read time and heap (ScaleConfig.WarmGraph).
func measureGraphSnapshot(ctx context.Context, s *cypher.Store, space string, sz *ScaleSize) error {
	var st cypher.GraphStats
	var err error
	sz.GraphSnapshotBytes, sz.GraphSnapshotAllocs = heapHeld(func() { st, err = s.LoadGraph(ctx, space) })
	if err != nil {
		return err
	}
	if st.Memories == 0 {
		return fmt.Errorf("--warm-graph: the graph cache does not admit space %s (REALM_GRAPH_CACHE below its size?)", space)
	}
	sz.GraphSnapshot = &st
	return nil
}

// heapHeld runs load and returns the Go heap it left held (after a GC) and the bytes it
// allocated.
func heapHeld(load func()) (held, allocated uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	load()
	runtime.GC()
	runtime.ReadMemStats(&after)
	if after.HeapAlloc > before.HeapAlloc {
		held = after.HeapAlloc - before.HeapAlloc
	}
	return held, after.TotalAlloc - before.TotalAlloc
}

// measureRecall recalls each question with each strategy twice: the first call embeds
// what it needs (memoized), the second is timed, so the stages exclude embedding.
func measureRecall(ctx context.Context, store *cypher.Store, r *retrieval.Retriever, memo *memoEmbedder, space string, qs []ScaleQuestion, strategies []realm.Strategy, sz *ScaleSize, profile io.Writer, progress io.Writer) ([]realm.RecallResult, error) {
	var results []realm.RecallResult
	var embedMS []float64
	hits := 0
	for _, strategy := range strategies {
		stages := map[string][]float64{}
		var statements, transactions, fixed []float64
		for i, q := range qs {
			req := realm.RecallRequest{Query: q.Query, Strategy: strategy}
			before := memo.spent()
			if _, err := r.Recall(ctx, space, req); err != nil {
				return nil, err
			}
			if strategy == strategies[0] {
				embedMS = append(embedMS, ms(memo.spent()-before))
			}
			logged, log := cypher.WithStatementLog(ctx)
			res, err := r.Recall(logged, space, req)
			if err != nil {
				return nil, err
			}
			statements = append(statements, float64(len(log.Statements)))
			fixed = append(fixed, float64(fixedStatements(log)))
			transactions = append(transactions, float64(log.Transactions))
			if profile != nil {
				// Once more under PROFILE (untimed), for the statements' database hits and rows.
				profiled, plog := cypher.WithStatementProfile(ctx)
				if _, err := r.Recall(profiled, space, req); err != nil {
					return nil, err
				}
				if err := profileRecall(ctx, store, profile, space, strategy, q.Query, res, log, plog); err != nil {
					return nil, err
				}
			}
			for stage, v := range res.Timings {
				stages[stage] = append(stages[stage], v)
			}
			stages[StageFixed] = append(stages[StageFixed], res.Timings[retrieval.StageTotal]-res.Timings[retrieval.StageExpand])
			if strategy == strategies[0] {
				results = append(results, res)
				for _, n := range res.Nodes {
					if n.Node.ID == q.Target {
						hits++
						break
					}
				}
			}
			if i%10 == 9 {
				fmt.Fprintf(progress, "\r  recall %s %d/%d", strategy, i+1, len(qs))
			}
		}
		sz.Statements[string(strategy)], sz.Transactions[string(strategy)] = counts(statements), counts(transactions)
		sz.FixedStatements[string(strategy)] = counts(fixed)
		sz.Recall[string(strategy)] = map[string]Quantiles{}
		for stage, v := range stages {
			sz.Recall[string(strategy)][stage] = quantiles(v)
		}
		t := sz.Recall[string(strategy)][retrieval.StageTotal]
		fmt.Fprintf(progress, "\r  recall %s: total p50 %.1f ms, p95 %.1f ms, p99 %.1f ms; expand p50 %.1f ms\n",
			strategy, t.P50, t.P95, t.P99, sz.Recall[string(strategy)][retrieval.StageExpand].P50)
	}
	sz.EmbedMS = quantiles(embedMS)
	sz.TargetHit = float64(hits) / float64(max(1, len(qs)))
	return results, nil
}

// fixedStatements counts the statements of a recall outside expansion (expand_*).
func fixedStatements(log *cypher.StatementLog) int {
	n := 0
	for _, st := range log.Statements {
		if !strings.HasPrefix(st.Name, "expand_") {
			n++
		}
	}
	return n
}

// profileRecall writes one JSON line about a timed recall: its stage timings, its
// trace's expansion (decisions and steps: atom, frontier, nodes reached) and the
// statements it ran, in order, with their durations (ms) and, from the same recall run
// again under PROFILE (plog), their database hits and rows.
func profileRecall(ctx context.Context, store *cypher.Store, w io.Writer, space string, strategy realm.Strategy, query string, res realm.RecallResult, log, plog *cypher.StatementLog) error {
	tr, err := store.Trace(ctx, space, res.TraceID)
	if err != nil {
		return err
	}
	type step struct {
		Depth    int      `json:"depth"`
		Mode     string   `json:"mode"`
		Frontier []string `json:"frontier"`
		Reached  int      `json:"reached"`
	}
	type statement struct {
		Name   string  `json:"name"`
		MS     float64 `json:"ms"`
		DBHits int64   `json:"db_hits"`
		Rows   int64   `json:"rows"`
	}
	line := struct {
		Strategy     realm.Strategy     `json:"strategy"`
		Query        string             `json:"query"`
		Timings      map[string]float64 `json:"timings"`
		Decisions    int                `json:"decisions"`
		Steps        []step             `json:"steps"`
		Transactions int                `json:"transactions"`
		TxMS         float64            `json:"transactions_ms"`
		Statements   []statement        `json:"statements"`
	}{Strategy: strategy, Query: query, Timings: res.Timings, Decisions: len(tr.Decisions), Transactions: log.Transactions, TxMS: ms(log.TxTime)}
	for _, s := range tr.Steps {
		line.Steps = append(line.Steps, step{Depth: s.Depth, Mode: string(s.Atom.Mode), Frontier: s.Frontier, Reached: len(s.Reached)})
	}
	for i, s := range log.Statements {
		st := statement{Name: s.Name, MS: ms(s.Duration)}
		if i < len(plog.Statements) && plog.Statements[i].Name == s.Name {
			st.DBHits, st.Rows = plog.Statements[i].DBHits, plog.Statements[i].Rows
		}
		line.Statements = append(line.Statements, st)
	}
	b, err := json.Marshal(line)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// measureReconsolidation applies 20 edits among the nodes of a recall (strengthen and
// weaken the edges among them, add correlates between unlinked pairs) in one transaction,
// as reconsolidation does, timing the apply; each is reverted afterwards (timed apart). The
// warmup first ones are reported apart (ScaleConfig.ReconWarmup).
func measureReconsolidation(ctx context.Context, s *cypher.Store, space string, results []realm.RecallResult, runs, warmup int, sz *ScaleSize) error {
	rule := reconsolidation.DefaultConfig().Rule(false)
	var times, warm, reverts []float64
	var applied int
	for i := -warmup; i < runs && len(results) > 0; i++ {
		res := results[(i+warmup)%len(results)]
		edits := twentyEdits(res)
		if len(edits) == 0 {
			continue
		}
		id := fmt.Sprintf("scale-bench-%d", i)
		t := time.Now()
		done, err := s.ApplyEdits(ctx, space, cypher.EditBatch{ReconsolidationID: id, TraceID: res.TraceID,
			Source: realm.EditSourceAuto, Edits: edits, NewWeight: rule.NewWeight, Step: rule.Step, Floor: rule.WMin})
		if err != nil {
			return err
		}
		if i < 0 {
			warm = append(warm, ms(time.Since(t)))
		} else {
			times = append(times, ms(time.Since(t)))
			applied += len(done)
		}
		t = time.Now()
		if _, err := s.RevertReconsolidation(ctx, space, id, time.Now()); err != nil {
			return err
		}
		if i >= 0 {
			reverts = append(reverts, ms(time.Since(t)))
		}
	}
	sz.Reconcile, sz.ReconcileWarmup, sz.Revert = quantiles(times), quantiles(warm), quantiles(reverts)
	sz.EditsDone = float64(applied) / float64(max(1, len(times)))
	return nil
}

// twentyEdits proposes 20 edits among a recall's nodes: strengthen (weaken every third)
// each edge among them, then add correlates between unlinked pairs.
func twentyEdits(res realm.RecallResult) []realm.EditProposal {
	var out []realm.EditProposal
	linked := map[[2]string]bool{}
	for i, e := range res.Edges {
		linked[[2]string{e.From, e.To}], linked[[2]string{e.To, e.From}] = true, true
		if len(out) == 12 {
			continue
		}
		action := realm.EditStrengthen
		if i%3 == 2 {
			action = realm.EditWeaken
		}
		out = append(out, realm.EditProposal{From: e.From, To: e.To, Action: action, Predicate: e.Predicate, Confidence: 0.8})
	}
	for i := 0; i < len(res.Nodes) && len(out) < 20; i++ {
		for j := i + 1; j < len(res.Nodes) && len(out) < 20; j++ {
			a, b := res.Nodes[i].Node.ID, res.Nodes[j].Node.ID
			if !linked[[2]string{a, b}] {
				linked[[2]string{a, b}], linked[[2]string{b, a}] = true, true
				out = append(out, realm.EditProposal{From: a, To: b, Action: realm.EditAdd, Predicate: realm.Implies, Confidence: 0.8})
			}
		}
	}
	return out
}

// ScaleIngestBatch is the batch size of the scale benchmark's batched ingestion.
const ScaleIngestBatch = 100

// measureIngest sends new turns of the conversation through the write path, embedding
// included: IngestTurns of them in batches of ScaleIngestBatch, then as many again one a
// call, as a conversation arrives. IngestWarmup rounds of the same go first (warmupRound).
func measureIngest(ctx context.Context, ing Ingester, store *cypher.Store, space string, gen ScaleSpace, cfg ScaleConfig, sz *ScaleSize, progress io.Writer) error {
	for round := range cfg.IngestWarmup {
		warm := fmt.Sprintf("%s-warmup-%d", space, round+1)
		defer func() { _, _ = store.DeleteSpace(context.WithoutCancel(ctx), warm) }()
		batches, one, err := warmupRound(ctx, ing, store, warm, cfg, round, sz.N, progress)
		if err != nil {
			return err
		}
		sz.IngestWarmup = append(sz.IngestWarmup, batches, one)
	}
	n := min(ScaleIngestBatch, cfg.IngestTurns)
	first := ingestTurns(space, n, cfg.Seed+2+uint64(cfg.IngestWarmup), gen.Observations[len(gen.Observations)-1].ObservedAt)[:n]
	r, err := firstBatch(ctx, ing, store, space, first, fmt.Sprintf("scale %d", sz.N), progress)
	if err != nil {
		return err
	}
	sz.IngestFirst = &r
	obs := ingestTurns(space, cfg.IngestTurns, cfg.Seed+1, first[len(first)-1].ObservedAt)
	sz.Ingest, sz.IngestOne, err = ingestPhases(ctx, ing, store, space, obs, cfg.IngestCPUProfile, fmt.Sprintf("scale %d", sz.N), progress)
	if err != nil || cfg.IngestSpaces < 2 {
		return err
	}
	p, err := ingestParallel(ctx, ing, store, space, cfg, sz.N, progress)
	sz.IngestParallel = &p
	return err
}

// firstBatch ingests one batch into space before the measured ones and times it apart:
// the first batch this process writes into a space reads the space's vectors and words
// for the write path, and Neo4j answered its statements there many times slower than
// afterwards (integration_write 443 ms against 19 ms in the next batch), most likely
// planning them again for the longer lists of a larger space (Neo4j keys its cached
// plans on the parameters' list sizes by bucket). At 10,000 memories it took 2.1–3.5 s
// against about 1 s for each batch after it (docs/benchmarks/scale.md). The figures are
// meant to be a running server's, which pays this once a space. Above 5,000 memories
// the write path then reads the space's embeddings in the background (seconds at
// 100,000) and searches by statement meanwhile: the wait for that read is reported
// apart too.
func firstBatch(ctx context.Context, ing Ingester, store *cypher.Store, space string, obs []realm.Observation, label string, progress io.Writer) (IngestReport, error) {
	started := time.Now()
	if err := ingestBatches(ctx, ing, space, obs, ScaleIngestBatch, progress, label+" first batch"); err != nil {
		return IngestReport{}, err
	}
	secs := time.Since(started).Seconds()
	r := IngestReport{Observations: len(obs), Seconds: secs, PerSecond: float64(len(obs)) / secs}
	wait, err := awaitVectors(ctx, store, space)
	r.VectorsWait = wait.Seconds()
	fmt.Fprintf(progress, "  %s: ingest the first batch into the space: %d observations in %.1f s (%.1f/s), then %.1f s until the write path held the space's embeddings\n",
		label, len(obs), secs, r.PerSecond, r.VectorsWait)
	return r, err
}

// awaitVectors waits while the write path reads the embeddings of space in the
// background (a process's first writes into a large space: cypher.Store.VectorsHeld), at
// most vectorsWaitMax, and says how long it waited.
func awaitVectors(ctx context.Context, store *cypher.Store, space string) (time.Duration, error) {
	started := time.Now()
	for time.Since(started) < vectorsWaitMax {
		held, reading, err := store.VectorsHeld(ctx, space)
		if err != nil || held || !reading {
			return time.Since(started), err
		}
		select {
		case <-ctx.Done():
			return time.Since(started), ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return time.Since(started), nil
}

const vectorsWaitMax = 2 * time.Minute

// warmupRound ingests one round of the warm-up into the throwaway space warm, new for
// the round, so that no round writes a space grown past the size where the write path
// changes how it works (above 2,000 memories it reads its keyword postings from the
// full-text index). measureIngest deletes the rounds' spaces once the measured ingestion
// is done: deleted before it, they seemed to make Neo4j plan the write path's statements
// again during the measure (one client's batches 62–69 obs/s in two runs of six instead
// of 95–105, every statement of the write path slower; docs/benchmarks/scale.md).
func warmupRound(ctx context.Context, ing Ingester, store *cypher.Store, warm string, cfg ScaleConfig, round, size int, progress io.Writer) (batches, one IngestReport, err error) {
	if _, err := store.DeleteSpace(ctx, warm); err != nil { // left by an interrupted run
		return batches, one, err
	}
	obs := ingestTurns(warm, cfg.IngestTurns, cfg.Seed+2+uint64(round), time.Now().UTC())
	return ingestPhases(ctx, ing, store, warm, obs, "", fmt.Sprintf("scale %d warm-up %d", size, round+1), progress)
}

// ingestTurns generates 2×turns new observations of a conversation for space, the
// first a minute after the given time.
func ingestTurns(space string, turns int, seed uint64, after time.Time) []realm.Observation {
	more := GenerateScale(space+"-more", max(100, turns*4), seed)
	run := fmt.Sprintf("%d", time.Now().UnixNano())
	var obs []realm.Observation
	for i, o := range more.Observations {
		if len(obs) == 2*turns {
			break
		}
		o.ID = fmt.Sprintf("ingest-%s-%d", run, i)
		o.SessionID = "ingest-" + run
		o.ObservedAt = after.Add(time.Duration(i+1) * time.Minute)
		o.Seq = 0
		obs = append(obs, o)
	}
	return obs
}

// ingestPhases ingests the first half of obs into space in batches of ScaleIngestBatch,
// then the second half one a call, and reports each phase; profile, when set, is the
// prefix of their CPU profiles (ScaleConfig.IngestCPUProfile).
func ingestPhases(ctx context.Context, ing Ingester, store *cypher.Store, space string, obs []realm.Observation, profile, label string, progress io.Writer) (batches, one IngestReport, err error) {
	half := len(obs) / 2
	for _, m := range []struct {
		batch int
		obs   []realm.Observation
		out   *IngestReport
		name  string
		file  string // the CPU profile's suffix
	}{
		{ScaleIngestBatch, obs[:half], &batches, fmt.Sprintf("batches of %d", ScaleIngestBatch), ".batches.pprof"},
		{1, obs[half:], &one, "one a call", ".one.pprof"},
	} {
		load := loadAverage()
		server, _ := store.ServerCPU(ctx) // 0 where JMX is not readable: the figure is then left out
		cpu := processCPU()
		logCtx, stmts := cypher.WithStatementLog(ctx)
		stopProfile, err := startCPUProfile(profile, m.file)
		if err != nil {
			return batches, one, err
		}
		started := time.Now()
		err = ingestBatches(logCtx, ing, space, m.obs, m.batch, progress, label+" "+m.name)
		secs := time.Since(started).Seconds()
		stopProfile()
		if err != nil {
			return batches, one, err
		}
		n := float64(len(m.obs))
		r := IngestReport{Observations: len(m.obs), Seconds: secs, PerSecond: n / secs, Load: load,
			Statements: float64(len(stmts.Statements)) / n, Transactions: float64(stmts.Transactions) / n, CPUms: ms(processCPU()-cpu) / n}
		if after, err := store.ServerCPU(ctx); err == nil && server > 0 {
			r.ServerCPUms = ms(after-server) / n
		}
		r.StatementMS, r.CommitMS = statementTimes(stmts, n)
		*m.out = r
		fmt.Fprintf(progress, "  %s: ingest %s: %d observations in %.1f s (%.1f/s); per observation %.1f statements in %.1f transactions, CPU %.1f ms here and %.1f ms in Neo4j; load %v\n",
			label, m.name, len(m.obs), secs, r.PerSecond, r.Statements, r.Transactions, r.CPUms, r.ServerCPUms, load)
		fmt.Fprintf(progress, "    with Neo4j per observation: %s; transactions beyond their statements %.1f ms\n", slowest(r.StatementMS, 6), r.CommitMS)
	}
	return batches, one, nil
}

// warmupRates lists the warm-up rounds' rates, batches then one a call each.
func warmupRates(w []IngestReport) string {
	var rounds []string
	for i := 0; i+1 < len(w); i += 2 {
		rounds = append(rounds, fmt.Sprintf("%.1f, %.1f", w[i].PerSecond, w[i+1].PerSecond))
	}
	return strings.Join(rounds, "; ")
}

// measureInterleave times cfg.Interleave rounds of one new observation ingested, then one
// adaptive recall of a question (embedded by measureRecall before), and counts the recalls
// that found the graph snapshot current.
func measureInterleave(ctx context.Context, ing Ingester, store *cypher.Store, r *retrieval.Retriever, space string, gen ScaleSpace, qs []ScaleQuestion, cfg ScaleConfig, sz *ScaleSize, progress io.Writer) error {
	before, err := store.SpaceCounts(ctx, space)
	if err != nil {
		return err
	}
	rep := &InterleaveReport{Rounds: cfg.Interleave, Load: loadAverage()}
	stop, err := startCPUProfile(cfg.IngestCPUProfile, ".interleave.pprof")
	if err != nil {
		return err
	}
	defer stop()
	var recall, ingest, follow []float64
	for i, o := range ingestTurns(space, cfg.Interleave, cfg.Seed+uint64(cfg.Interleave), gen.Observations[len(gen.Observations)-1].ObservedAt)[:cfg.Interleave] {
		logged, ilog := cypher.WithStatementLog(ctx)
		started := time.Now()
		if _, err := ing.Ingest(logged, space, []realm.Observation{o}); err != nil {
			return err
		}
		ingest = append(ingest, ms(time.Since(started)))
		for _, st := range ilog.Statements {
			if st.Name == "graph_snapshot_memories" {
				follow = append(follow, ms(st.Duration))
			}
		}
		current, err := store.GraphCurrent(ctx, space)
		if err != nil {
			return err
		}
		logged, rlog := cypher.WithStatementLog(ctx)
		res, err := r.Recall(logged, space, realm.RecallRequest{Query: qs[i%len(qs)].Query, Strategy: realm.Adaptive})
		if err != nil {
			return err
		}
		recall = append(recall, res.Timings[retrieval.StageTotal])
		if current {
			rep.FromSnapshot++
		}
		rep.Each = append(rep.Each, InterleaveRound{IngestMS: ingest[i], RecallMS: recall[i], SnapshotCurrent: current,
			ExpandStatements: len(rlog.Statements) - fixedStatements(rlog), Stages: res.Timings})
		if byName, _ := statementTimes(rlog, 1); len(byName) > 0 {
			rep.Each[i].Statements = slowest(byName, 3)
		}
		fmt.Fprintf(progress, "\r  interleave %d/%d", i+1, cfg.Interleave)
	}
	after, err := store.SpaceCounts(ctx, space)
	if err != nil {
		return err
	}
	rep.Recall, rep.Ingest, rep.FollowRead, rep.MemoriesAdded = quantiles(recall), quantiles(ingest), quantiles(follow), after.InSpace-before.InSpace
	sz.Interleave = rep
	fmt.Fprintf(progress, "\r  interleave %d rounds: recall p50 %.1f ms, p95 %.1f ms, %d of %d from the snapshot; ingest p50 %.0f ms, follow read p50 %.1f ms (%d); %d memories added; load %v\n",
		rep.Rounds, rep.Recall.P50, rep.Recall.P95, rep.FromSnapshot, rep.Rounds, rep.Ingest.P50, rep.FollowRead.P50, rep.FollowRead.N, rep.MemoriesAdded, rep.Load)
	return nil
}

// startCPUProfile profiles this process's CPU into prefix+suffix until the returned
// function is called; with no prefix it does nothing.
func startCPUProfile(prefix, suffix string) (stop func(), err error) {
	if prefix == "" {
		return func() {}, nil
	}
	f, err := os.Create(prefix + suffix)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// statementTimes is the wall time of each statement of log per observation (n of them)
// and that of its transactions beyond their statements.
func statementTimes(log *cypher.StatementLog, n float64) (map[string]float64, float64) {
	byName := map[string]float64{}
	var all time.Duration
	for _, st := range log.Statements {
		byName[st.Name] += ms(st.Duration) / n
		all += st.Duration
	}
	return byName, max(0, ms(log.TxTime-all)/n)
}

// slowest names the k statements of byName that took longest, with their ms.
func slowest(byName map[string]float64, k int) string {
	names := slices.SortedFunc(maps.Keys(byName), func(a, b string) int { return cmp.Compare(byName[b], byName[a]) })
	var parts []string
	for _, name := range names[:min(k, len(names))] {
		parts = append(parts, fmt.Sprintf("%s %.1f ms", name, byName[name]))
	}
	return strings.Join(parts, ", ")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// processCPU is the CPU time this process has used so far (user and system).
func processCPU() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// memoEmbedder remembers every text it embedded, and the time it spent embedding.
type memoEmbedder struct {
	realm.Embedder
	mu    sync.Mutex
	vecs  map[string][]float32
	spend time.Duration
}

func newMemoEmbedder(e realm.Embedder) *memoEmbedder {
	return &memoEmbedder{Embedder: e, vecs: map[string][]float32{}}
}

func (m *memoEmbedder) spent() time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.spend
}

func (m *memoEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	m.mu.Lock()
	var missing []string
	for _, t := range texts {
		if _, ok := m.vecs[t]; !ok && !slices.Contains(missing, t) {
			missing = append(missing, t)
		}
	}
	m.mu.Unlock()
	if len(missing) > 0 {
		t := time.Now()
		vecs, err := m.Embedder.Embed(ctx, missing)
		if err != nil {
			return nil, err
		}
		m.mu.Lock()
		m.spend += time.Since(t)
		for i, s := range missing {
			m.vecs[s] = vecs[i]
		}
		m.mu.Unlock()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = m.vecs[t]
	}
	return out, nil
}

// storeWhen says when the store sizes were read: after a checkpoint, or without one, when
// the database files may not hold yet what was written (only the logs do).
func storeWhen(s ScaleSize) string {
	switch {
	case s.StoreBytes == 0 && s.TxLogBytes == 0:
		return ""
	case s.StoreCheckpointed:
		return ", after a checkpoint"
	}
	return ", read without a checkpoint (Community has no db.checkpoint(); the database files catch up at the periodic one, every 15 min or 100,000 transactions by default)"
}

func dirBytes(dir string) int64 {
	var total int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				total += info.Size()
			}
		}
		return nil
	})
	return total
}

func loadAverage() []float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return nil
	}
	var out []float64
	for _, f := range strings.Fields(string(b))[:3] {
		v, _ := strconv.ParseFloat(f, 64)
		out = append(out, v)
	}
	return out
}

func describeMachine(ctx context.Context, s *cypher.Store) Machine {
	m := Machine{Cores: runtime.NumCPU(), LoadStart: loadAverage(), GoVersion: runtime.Version(), StartedAtUTC: time.Now().UTC().Format(time.RFC3339)}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
				kb, _ := strconv.ParseFloat(f[1], 64)
				m.MemoryGiB = math.Round(kb/1024/1024*10) / 10
			}
		}
	}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	if v, ed, err := s.ServerInfo(ctx); err == nil {
		m.Neo4j = v + " " + ed
	}
	return m
}

// ScaleGoals checks issue #7's goals against the largest size (and the growth from the
// smallest to the largest); recall goals need adaptive recalls measured.
func ScaleGoals(sizes []ScaleSize) []Goal {
	if len(sizes) == 0 {
		return nil
	}
	small, big := sizes[0], sizes[len(sizes)-1]
	total := func(s ScaleSize) Quantiles { return s.Recall[string(realm.Adaptive)][retrieval.StageTotal] }
	var goals []Goal
	at := fmt.Sprintf(" on %d", big.N)
	upper := func(name, target string, v, limit float64, unit string) {
		g := Goal{Name: name + at, Target: target, Value: round2(v), Unit: unit, Met: v <= limit}
		if g.Met {
			g.By = fmt.Sprintf("%.1f %s under", limit-v, unit)
		} else {
			g.By = fmt.Sprintf("%.1f %s over (%.1f×)", v-limit, unit, v/limit)
		}
		goals = append(goals, g)
	}
	if total(big).N > 0 {
		upper("recall p50 (without query embedding)", "≤ 25 ms", total(big).P50, 25, "ms")
		upper("recall p95 (without query embedding)", "≤ 60 ms", total(big).P95, 60, "ms")
	}
	if len(sizes) > 1 && total(small).P50 > 0 && total(big).N > 0 {
		growth := total(big).P50 / total(small).P50
		g := Goal{Name: fmt.Sprintf("recall p50 growth %d → %d", small.N, big.N), Target: "< 2×", Value: round2(growth), Unit: "×", Met: growth < 2}
		g.By = fmt.Sprintf("%.2f× (limit 2×), but each size asks other generated questions", growth)
		goals = append(goals, g)
	}
	if big.Reconcile.N > 0 {
		upper("reconsolidation apply of 20 edits p50", "≤ 10 ms", big.Reconcile.P50, 10, "ms")
	}
	ingestGoal := func(name string, r IngestReport, target float64) {
		if r.Observations == 0 {
			return
		}
		v := r.PerSecond
		g := Goal{Name: name + at, Target: fmt.Sprintf("≥ %.0f observations/s", target), Value: round2(v), Unit: "obs/s", Met: v >= target}
		if g.Met {
			g.By = fmt.Sprintf("%.1f obs/s over", v-target)
		} else {
			g.By = fmt.Sprintf("%.1f obs/s short (%.1f%% of the goal)", target-v, 100*v/target)
		}
		goals = append(goals, g)
	}
	ingestGoal(fmt.Sprintf("offline ingest incl. embedding, batches of %d", ScaleIngestBatch), big.Ingest, 100)
	ingestGoal("offline ingest incl. embedding, one message a call", big.IngestOne, 20)
	return goals
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// Markdown renders the report: a table per size, how each figure grows, the machine, the
// goals.
func (r ScaleReport) Markdown() string {
	var b strings.Builder
	b.WriteString("# Scale benchmark (`realm bench scale`)\n\n")
	m := r.Machine
	fmt.Fprintf(&b, "Machine: %d cores (%s), %.1f GiB RAM, %s, Go %s; load average %v at the start, %v at the end (the cores are shared with other work). Started %s.\n\n",
		m.Cores, m.CPU, m.MemoryGiB, m.Neo4j, m.GoVersion, m.LoadStart, m.LoadEnd, m.StartedAtUTC)
	if len(r.Config) > 0 {
		var keys []string
		for k := range r.Config {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteString("Configuration:")
		for _, k := range keys {
			fmt.Fprintf(&b, " %s=`%s`", k, r.Config[k])
		}
		b.WriteString("\n\n")
	}
	if len(r.Goals) > 0 {
		b.WriteString("## Goals\n\n| goal | target | measured | met | by |\n|---|---|---|---|---|\n")
		for _, g := range r.Goals {
			met := "**missed**"
			if g.Met {
				met = "met"
			}
			fmt.Fprintf(&b, "| %s | %s | %.2f %s | %s | %s |\n", g.Name, g.Target, g.Value, g.Unit, met, g.By)
		}
		b.WriteString("\n")
	}
	for _, s := range r.Sizes {
		fmt.Fprintf(&b, "## %d memories (space `%s`)\n\n", s.N, s.Space)
		fmt.Fprintf(&b, "Graph: %d memories (event %d, fact %d, entity %d, episode %d), %d observations, %d directed memory edges (%.2f per memory; largest degree %d), %d provenance edges. By predicate:",
			s.Shape.Memories, s.ByType[realm.Event], s.ByType[realm.Fact], s.ByType[realm.Entity], s.ByType[realm.Episode],
			s.Observations, s.Shape.Edges, s.EdgesPerNode, s.Shape.MaxDegree, s.Shape.Derived)
		var preds []string
		for p := range s.ByPredicate {
			preds = append(preds, string(p))
		}
		slices.Sort(preds)
		for _, p := range preds {
			fmt.Fprintf(&b, " %s %d", p, s.ByPredicate[realm.Predicate(p)])
		}
		b.WriteString(".\n\n")
		if s.Build.Reused {
			b.WriteString("Build: the space of an earlier run was reused.\n\n")
		} else {
			fmt.Fprintf(&b, "Build: %d texts embedded by %s in %.1f s (%.0f/s)", s.Build.Embedded, s.Build.EmbedderID, s.Build.EmbedSeconds, s.Build.EmbedPerSecond)
			if s.Build.VectorsReused {
				fmt.Fprintf(&b, ", their vectors reused cyclically for the other memories")
			}
			fmt.Fprintf(&b, "; written in %.1f s (%.0f memories/s with their observations and edges).\n\n", s.Build.WriteSeconds, s.Build.MemoriesPerSec)
		}
		if g := s.GraphSnapshot; g != nil {
			fmt.Fprintf(&b, "Graph snapshot read before the recalls (`--warm-graph`): %d memories, %d edges in %.1f s; %.1f MiB of Go heap held, %.0f MiB allocated reading it.\n\n",
				g.Memories, g.Edges, g.Load.Seconds(), mib(int64(s.GraphSnapshotBytes)), mib(int64(s.GraphSnapshotAllocs)))
			if s.GraphSnapshotCurrent {
				fmt.Fprintf(&b, "After the reconsolidations and their reverts, recalls still expand from it (it follows this process's edits).\n\n")
			} else {
				fmt.Fprintf(&b, "After the reconsolidations and their reverts, it is stale: recalls expand by statements until it is read again.\n\n")
			}
		}
		fmt.Fprintf(&b, "| figure | p50 | p95 | p99 |\n|---|---|---|---|\n")
		for _, strategy := range []realm.Strategy{realm.Adaptive, realm.StrategyPath, realm.StrategyBeam} {
			st := s.Recall[string(strategy)]
			if st == nil {
				continue
			}
			for _, stage := range []string{retrieval.StagePlan, retrieval.StageSeed, retrieval.StageExpand, retrieval.StageAggregate, retrieval.StageRecord, StageFixed, retrieval.StageTotal} {
				if strategy != realm.Adaptive && stage != retrieval.StageExpand && stage != retrieval.StageTotal {
					continue
				}
				q, ok := st[stage]
				if !ok {
					continue
				}
				name := fmt.Sprintf("recall %s: %s", strategy, stage)
				switch stage {
				case StageFixed:
					name = fmt.Sprintf("recall %s: all stages but expand", strategy)
				case retrieval.StageTotal:
					name = fmt.Sprintf("**recall %s: total**", strategy)
				}
				fmt.Fprintf(&b, "| %s (ms) | %.1f | %.1f | %.1f |\n", name, q.P50, q.P95, q.P99)
			}
		}
		for _, strategy := range []realm.Strategy{realm.Adaptive, realm.StrategyPath, realm.StrategyBeam} {
			if c, ok := s.Statements[string(strategy)]; ok {
				t := s.Transactions[string(strategy)]
				fmt.Fprintf(&b, "| recall %s: statements (transactions) per recall | %.0f (%.0f) | %.0f (%.0f) | max %.0f (%.0f) |\n", strategy, c.P50, t.P50, c.P95, t.P95, c.Max, t.Max)
				if f, ok := s.FixedStatements[string(strategy)]; ok && strategy == realm.Adaptive {
					fmt.Fprintf(&b, "| recall %s: statements outside expansion per recall | %.0f | %.0f | max %.0f |\n", strategy, f.P50, f.P95, f.Max)
				}
			}
		}
		for _, k := range []string{"vector_index", "exact_scan", "fulltext"} {
			q, ok := s.Seeds[k]
			if !ok {
				fmt.Fprintf(&b, "| seed search %s (ms) | not measured | | |\n", strings.ReplaceAll(k, "_", " "))
				continue
			}
			fmt.Fprintf(&b, "| seed search %s (ms) | %.1f | %.1f | %.1f |\n", strings.ReplaceAll(k, "_", " "), q.P50, q.P95, q.P99)
		}
		fmt.Fprintf(&b, "| embedding a recall's texts, first time (ms, not in the above) | %.1f | %.1f | %.1f |\n", s.EmbedMS.P50, s.EmbedMS.P95, s.EmbedMS.P99)
		fmt.Fprintf(&b, "| reconsolidation apply, 20 edits (ms) | %.1f | %.1f | %.1f |\n", s.Reconcile.P50, s.Reconcile.P95, s.Reconcile.P99)
		if w := s.ReconcileWarmup; w.N > 0 {
			fmt.Fprintf(&b, "| the %d applies before them, untimed warm-up (ms) | %.1f | %.1f | %.1f |\n", w.N, w.P50, w.P95, w.P99)
		}
		if r := s.Revert; r.N > 0 {
			fmt.Fprintf(&b, "| reverting each of those reconsolidations (ms) | %.1f | %.1f | %.1f |\n", r.P50, r.P95, r.P99)
		}
		b.WriteString("\n")
		fmt.Fprintf(&b, "The read path seeds by **%s** at this size. Recalls per strategy: %d (each timed on its second run, after a first that embedded its texts). The generated answer was among the top K of %.0f%% of adaptive recalls. Edits applied per reconsolidation: %.1f (directed).",
			strings.ReplaceAll(s.SeedMethod, "_", " "), s.Recall[string(realm.Adaptive)][retrieval.StageTotal].N, 100*s.TargetHit, s.EditsDone)
		if s.Ingest.Observations > 0 {
			fmt.Fprintf(&b, " Ingestion through the write path (offline agent, embedding included): %d observations in batches of %d in %.1f s, **%.1f observations/s**; %d one a call in %.1f s, **%.1f observations/s**.",
				s.Ingest.Observations, ScaleIngestBatch, s.Ingest.Seconds, s.Ingest.PerSecond, s.IngestOne.Observations, s.IngestOne.Seconds, s.IngestOne.PerSecond)
			for _, r := range []struct {
				name string
				IngestReport
			}{{fmt.Sprintf("in batches of %d", ScaleIngestBatch), s.Ingest}, {"one a call", s.IngestOne}} {
				if r.Statements > 0 {
					fmt.Fprintf(&b, " Per observation %s: %.1f statements in %.1f transactions, CPU %.1f ms in this process (agent, embedder, pipeline) and %.1f ms in Neo4j.",
						r.name, r.Statements, r.Transactions, r.CPUms, r.ServerCPUms)
				}
			}
			if p := s.IngestParallel; p != nil {
				fmt.Fprintf(&b, " In batches of %d into %d new spaces at once (one client each): %d observations in %.1f s, **%.1f observations/s**; CPU %.1f ms per observation in this process and %.1f ms in Neo4j.",
					ScaleIngestBatch, p.Observations/max(1, s.Ingest.Observations), p.Observations, p.Seconds, p.PerSecond, p.CPUms, p.ServerCPUms)
			}
			if f := s.IngestFirst; f != nil {
				fmt.Fprintf(&b, " Before the measure, a first batch into the space, timed apart: %d observations in %.1f s, %.1f observations/s.", f.Observations, f.Seconds, f.PerSecond)
				if f.VectorsWait >= 0.05 {
					fmt.Fprintf(&b, " Then %.1f s until the write path held the space's embeddings (read in the background).", f.VectorsWait)
				}
			}
			if w := s.IngestWarmup; len(w) > 0 {
				fmt.Fprintf(&b, " Warm-up before it: the same ingestion, each round into a new throwaway space, deleted after the measure (observations/s in batches and one a call, per round: %s).", warmupRates(w))
			}
		}
		if v := s.Interleave; v != nil {
			fmt.Fprintf(&b, " Interleaved (`--interleave`): %d rounds of one observation ingested (p50 %.0f ms) then one adaptive recall: recall p50 **%.1f ms**, p95 **%.1f ms**, %d of %d from the graph snapshot; %d memories added; load %v.",
				v.Rounds, v.Ingest.P50, v.Recall.P50, v.Recall.P95, v.FromSnapshot, v.Rounds, v.MemoriesAdded, v.Load)
		}
		fmt.Fprintf(&b, " Store on disk: %.1f MiB (database) + %.1f MiB (transaction logs)%s; heap used %.0f MiB of %.0f MiB. Load average %v before, %v after.\n\n",
			mib(s.StoreBytes), mib(s.TxLogBytes), storeWhen(s), mib(s.Heap.Used), mib(s.Heap.Max), s.LoadBefore, s.LoadAfter)
	}
	if len(r.Sizes) > 1 {
		b.WriteString("## Growth\n\n| figure |")
		for _, s := range r.Sizes {
			fmt.Fprintf(&b, " %d |", s.N)
		}
		fmt.Fprintf(&b, " growth %d → %d |\n|---|", r.Sizes[0].N, r.Sizes[len(r.Sizes)-1].N)
		for range r.Sizes {
			b.WriteString("---|")
		}
		b.WriteString("---|\n")
		row := func(name string, f func(ScaleSize) float64) { // 0: not measured
			fmt.Fprintf(&b, "| %s |", name)
			for _, s := range r.Sizes {
				if v := f(s); v != 0 {
					fmt.Fprintf(&b, " %.1f |", v)
				} else {
					b.WriteString(" – |")
				}
			}
			first, last := f(r.Sizes[0]), f(r.Sizes[len(r.Sizes)-1])
			if first > 0 && last > 0 {
				fmt.Fprintf(&b, " %.2f× |\n", last/first)
			} else {
				b.WriteString(" – |\n")
			}
		}
		stage := func(strategy realm.Strategy, st string, p func(Quantiles) float64) func(ScaleSize) float64 {
			return func(s ScaleSize) float64 { return p(s.Recall[string(strategy)][st]) }
		}
		p50 := func(q Quantiles) float64 { return q.P50 }
		p95 := func(q Quantiles) float64 { return q.P95 }
		row("recall total p50 (ms)", stage(realm.Adaptive, retrieval.StageTotal, p50))
		row("recall total p95 (ms)", stage(realm.Adaptive, retrieval.StageTotal, p95))
		row("all stages but expand p50 (ms)", stage(realm.Adaptive, StageFixed, p50))
		row("seed stage p50 (ms)", stage(realm.Adaptive, retrieval.StageSeed, p50))
		row("expand stage p50 (ms)", stage(realm.Adaptive, retrieval.StageExpand, p50))
		row("expand path_search p50 (ms)", stage(realm.StrategyPath, retrieval.StageExpand, p50))
		row("expand subgraph_beam p50 (ms)", stage(realm.StrategyBeam, retrieval.StageExpand, p50))
		row("record stage p50 (ms)", stage(realm.Adaptive, retrieval.StageRecord, p50))
		row("vector index seed p50 (ms)", func(s ScaleSize) float64 { return s.Seeds["vector_index"].P50 })
		row("exact scan seed p50 (ms)", func(s ScaleSize) float64 { return s.Seeds["exact_scan"].P50 })
		row("full-text seed p50 (ms)", func(s ScaleSize) float64 { return s.Seeds["fulltext"].P50 })
		row("reconsolidation apply p50 (ms)", func(s ScaleSize) float64 { return s.Reconcile.P50 })
		row(fmt.Sprintf("ingest, batches of %d (observations/s)", ScaleIngestBatch), func(s ScaleSize) float64 { return s.Ingest.PerSecond })
		row("ingest, one a call (observations/s)", func(s ScaleSize) float64 { return s.IngestOne.PerSecond })
		row("store on disk (MiB)", func(s ScaleSize) float64 { return mib(s.StoreBytes) })
		row("transaction logs on disk (MiB)", func(s ScaleSize) float64 { return mib(s.TxLogBytes) })
		row("heap used (MiB)", func(s ScaleSize) float64 { return mib(s.Heap.Used) })
		row("largest degree", func(s ScaleSize) float64 { return float64(s.Shape.MaxDegree) })
		b.WriteString("\n")
	}
	if len(r.Notes) > 0 {
		b.WriteString("## Notes\n\n")
	}
	for _, n := range r.Notes {
		b.WriteString(n + "\n\n")
	}
	return b.String()
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }
