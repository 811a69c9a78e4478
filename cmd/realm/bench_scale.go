package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/bench"
	"github.com/realm-memory/realm/retrieval"
)

// defaultNeo4jVersion is the version deploy/neo4j/neo4j.sh starts when NEO4J_VERSION is unset.
const defaultNeo4jVersion = "2026.08.1"

const benchScaleUsage = "usage: realm bench scale [--sizes 10000,100000] [--out docs/benchmarks/scale.json] [--queries 100] [--keep] [--build-only] [--strategies adaptive,path_search,subgraph_beam] [--embed-pool 0] [--store-dir DIR] [--no-exact-scan] [--warm-graph] [--profile FILE] [--recon-runs 30] [--recon-warmup 500] [--ingest 200] [--ingest-warmup 12] [--ingest-spaces 1] [--ingest-cpuprofile PREFIX] [--interleave 0]"

// runBenchScale runs `realm bench scale`: synthetic spaces of each size, written in bulk,
// then recall latency per stage, seed searches, reconsolidation apply, ingestion, store
// size and heap, as JSON and Markdown.
func runBenchScale(ctx context.Context, args []string, getenv func(string) string, stdout, progress io.Writer) error {
	fs := flag.NewFlagSet("bench scale", flag.ContinueOnError)
	sizes := fs.String("sizes", "10000,100000", "memories per space, comma-separated")
	out := fs.String("out", "", "write the JSON report here, and the Markdown beside it (x.json → x.md)")
	prefix := fs.String("space-prefix", "scale-", "spaces are named prefix+size")
	keep := fs.Bool("keep", false, "keep the spaces (a later run with the same prefix reuses them)")
	buildOnly := fs.Bool("build-only", false, "build the spaces (kept) and measure nothing")
	notes := fs.String("notes", "", "a Markdown file whose paragraphs are added to the report's notes (what the figures mean)")
	merge := fs.String("merge", "", "instead of measuring, combine these JSON reports of earlier runs (comma-separated, smallest size first) into one")
	strategies := fs.String("strategies", "adaptive,path_search,subgraph_beam", "recall strategies timed, comma-separated")
	queries := fs.Int("queries", 100, "recalls timed per size and strategy")
	recon := fs.Int("recon-runs", 30, "reconsolidations of 20 edits timed per size")
	ingest := fs.Int("ingest", 200, "observations sent through the write path per size in batches of 100, and as many again one a call, after one first batch into the space timed apart (0: skip)")
	reconWarmup := fs.Int("recon-warmup", 500, "reconsolidations applied and reverted before the timed ones, so that the figures are a warmed-up Neo4j's (0: none)")
	warmup := fs.Int("ingest-warmup", 12, "rounds of the same ingestion sent first, each into a new throwaway space deleted after the measure, so that the figures are a warmed-up Neo4j's (0: none)")
	spaces := fs.Int("ingest-spaces", 1, "above 1, also time batches of 100 sent to this many new spaces at once, one client each (deleted after)")
	noExact := fs.Bool("no-exact-scan", false, "do not time the exact-scan seed search (seconds a question at 100k, and not what the read path uses there)")
	warmGraph := fs.Bool("warm-graph", false, "read the space's graph snapshot before timing the recalls, when REALM_GRAPH_CACHE admits the space (its read time and heap are reported)")
	profile := fs.String("profile", "", "write one JSON line per timed recall here: stage timings, expansion steps, every statement with its duration, database hits and rows (the recall run once more under PROFILE)")
	ingestProfile := fs.String("ingest-cpuprofile", "", "write this process's CPU profiles during the ingestion to PREFIX.batches.pprof and PREFIX.one.pprof, and during --interleave to PREFIX.interleave.pprof (go tool pprof)")
	interleave := fs.Int("interleave", 0, "rounds of one observation ingested then one recall, timed last (0: none); each adds memories to the space")
	pool := fs.Int("embed-pool", 0, "embed only this many distinct memory texts and reuse their vectors (0: embed every memory)")
	home := getenv("REALM_HOME")
	if home == "" {
		home = ".realm"
	}
	// The local Neo4j's home as deploy/neo4j/neo4j.sh names it: neo4j for 5.x, else neo4j-<version>.
	neo4jHome := "neo4j"
	if v := cmp.Or(getenv("NEO4J_VERSION"), defaultNeo4jVersion); !strings.HasPrefix(v, "5.") {
		neo4jHome += "-" + v
	}
	storeDir := fs.String("store-dir", filepath.Join(home, neo4jHome, "data"), "the Neo4j data directory, whose databases/neo4j is measured on disk (empty: not measured)")
	cfg, err := loadConfig(fs, args, getenv)
	if err != nil {
		return err
	}
	if len(cfg.Args) > 0 {
		return realm.Errorf(realm.EInvalid, "unexpected argument %q; %s", cfg.Args[0], benchScaleUsage)
	}
	var strats []realm.Strategy
	for _, f := range strings.Split(*strategies, ",") {
		st := realm.Strategy(strings.TrimSpace(f))
		if st != realm.Adaptive && st != realm.StrategyPath && st != realm.StrategyBeam {
			return realm.Errorf(realm.EInvalid, "--strategies: %q is not adaptive, path_search or subgraph_beam; %s", f, benchScaleUsage)
		}
		strats = append(strats, st)
	}
	var ns []int
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 100 || n > 10_000_000 {
			return realm.Errorf(realm.EInvalid, "--sizes: %q is not a size from 100 to 10000000; %s", f, benchScaleUsage)
		}
		ns = append(ns, n)
	}
	if *queries < 1 || *recon < 0 || *reconWarmup < 0 || *ingest < 0 || *warmup < 0 || *spaces < 1 || *pool < 0 || *interleave < 0 {
		return realm.Errorf(realm.EInvalid, "--queries must be positive, --recon-runs, --recon-warmup, --ingest, --ingest-warmup, --interleave and --embed-pool not negative, --ingest-spaces at least 1; %s", benchScaleUsage)
	}
	if *merge != "" {
		rep, err := mergeScaleReports(strings.Split(*merge, ","))
		if err != nil {
			return err
		}
		if err := addNotes(&rep, *notes); err != nil {
			return err
		}
		return writeScaleReport(rep, *out, stdout)
	}
	var profileTo io.Writer
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			return realm.Errorf(realm.EInvalid, "--profile: %v", err)
		}
		defer f.Close()
		profileTo = f
	}
	d, p, err := openCommand(ctx, cfg)
	if err != nil {
		return err
	}
	defer d.close()
	logger := newLogger(os.Stderr, "warn")
	rep, err := bench.RunScale(ctx, bench.ScaleDeps{
		Store: d.store, Embedder: d.embedder, Ingest: benchIngester{p.ingest},
		Retriever: func(emb realm.Embedder) *retrieval.Retriever {
			return retrieval.New(d.store, emb, offline.New(offline.Options{}), retrieval.Options{}, logger)
		},
	}, bench.ScaleConfig{
		Sizes: ns, SpacePrefix: *prefix, Keep: *keep, BuildOnly: *buildOnly, Strategies: strats, Queries: *queries, ReconRuns: *recon, ReconWarmup: *reconWarmup,
		IngestTurns: *ingest, EmbedPool: *pool, StoreDir: *storeDir, NoExactScan: *noExact, WarmGraph: *warmGraph, Profile: profileTo,
		IngestCPUProfile: *ingestProfile, IngestWarmup: *warmup, IngestSpaces: *spaces, Interleave: *interleave,
	}, progress)
	if err != nil {
		return err
	}
	rep.Config = map[string]string{"embedder": d.embedder.ID(), "llm": cfg.LLM, "version": fullVersion(), "neo4j_uri": cfg.Neo4j.URI,
		"sizes": *sizes, "queries": strconv.Itoa(*queries), "embed_pool": strconv.Itoa(*pool), "decider": "offline",
		"graph_cache": strconv.Itoa(cfg.Neo4j.GraphCacheMax), "warm_graph": strconv.FormatBool(*warmGraph)}
	if err := addNotes(&rep, *notes); err != nil {
		return err
	}
	return writeScaleReport(rep, *out, stdout)
}

// addNotes appends the paragraphs of a Markdown file to the report's notes.
func addNotes(rep *bench.ScaleReport, file string) error {
	if file == "" {
		return nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return realm.Errorf(realm.EInvalid, "--notes: %v", err)
	}
	for _, p := range strings.Split(string(b), "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			rep.Notes = append(rep.Notes, p)
		}
	}
	return nil
}

// writeScaleReport prints the Markdown and, with out, writes the JSON there and the
// Markdown beside it.
func writeScaleReport(rep bench.ScaleReport, out string, stdout io.Writer) error {
	md := rep.Markdown()
	fmt.Fprintln(stdout, md)
	if out == "" {
		return nil
	}
	_, err := bench.WriteReport(out, rep, md, nil) // its directory made, as every report's
	return err
}

// mergeScaleReports combines reports of runs measured one size at a time: their sizes in
// order, the first run's machine and configuration (the load at the end from the last),
// the goals checked again over all sizes.
func mergeScaleReports(files []string) (bench.ScaleReport, error) {
	var rep bench.ScaleReport
	for i, f := range files {
		b, err := os.ReadFile(strings.TrimSpace(f))
		if err != nil {
			return rep, realm.Errorf(realm.EInvalid, "--merge: %v", err)
		}
		var r bench.ScaleReport
		if err := json.Unmarshal(b, &r); err != nil {
			return rep, realm.Errorf(realm.EInvalid, "--merge: %s: %v", f, err)
		}
		if i == 0 {
			rep.Machine, rep.Config = r.Machine, map[string]string{}
		}
		for k, v := range r.Config { // values that differ between runs are listed in run order
			if old, ok := rep.Config[k]; !ok {
				rep.Config[k] = v
			} else if !slices.Contains(strings.Split(old, " / "), v) {
				rep.Config[k] = old + " / " + v
			}
		}
		rep.Machine.LoadEnd = r.Machine.LoadEnd
		rep.Sizes = append(rep.Sizes, r.Sizes...)
		rep.Notes = append(rep.Notes, r.Notes...)
	}
	rep.Goals = bench.ScaleGoals(rep.Sizes)
	return rep, nil
}
