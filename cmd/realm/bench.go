package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/bench"
)

const benchUsage = "usage: realm bench locomo --retrieval-only [FILE | --data FILE] [--reconsolidation on|off|both] [--k 10] [--out report.json]"

// runBench dispatches `realm bench <benchmark>`.
func runBench(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	if len(args) == 0 {
		return realm.Errorf(realm.EInvalid, benchUsage)
	}
	switch args[0] {
	case "locomo":
		return runBenchLoCoMo(ctx, args[1:], getenv, stdout)
	case "longmemeval":
		return runBenchLongMemEval(ctx, args[1:], getenv, stdout)
	}
	return realm.Errorf(realm.EInvalid, "unknown benchmark %q; %s", args[0], benchUsage)
}

// runBenchLoCoMo runs `realm bench locomo --retrieval-only`: evidence recall@k on LoCoMo
// with the offline agent, with reconsolidation on, off or both side by side, beside a flat
// baseline, printed as tables and optionally saved.
func runBenchLoCoMo(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("bench locomo", flag.ContinueOnError)
	data := fs.String("data", "../shared/data/locomo/locomo-dev.json", "LoCoMo JSON file (or give it as the argument)")
	retrievalOnly := fs.Bool("retrieval-only", false, "score evidence recall only (no LLM needed)")
	recon := fs.String("reconsolidation", bench.ReconsolidationOn, "on: audit each question's recall and apply the edits before the next; off; both: off then on over one ingestion, side by side")
	k := fs.Int("k", 10, "evidence recall@k")
	out := fs.String("out", "", "write the JSON report here, and the Markdown beside it (x.json → x.md)")
	prefix := fs.String("space-prefix", "locomo-", "spaces are named prefix+sample id")
	sample := fs.String("sample", "", "only this sample")
	limit := fs.Int("limit", 0, "questions per sample (0: all)")
	cfg, err := loadConfig(fs, args, getenv)
	if err != nil {
		return err
	}
	switch len(cfg.Args) {
	case 0:
	case 1:
		*data = cfg.Args[0]
	default:
		return realm.Errorf(realm.EInvalid, "one data file, not %d; %s", len(cfg.Args), benchUsage)
	}
	if !*retrievalOnly {
		return realm.Errorf(realm.ENotSupported, "the full LoCoMo protocol needs an LLM judge and is not implemented yet; run with --retrieval-only")
	}
	switch *recon {
	case bench.ReconsolidationOn, bench.ReconsolidationOff, bench.ReconsolidationBoth:
	default:
		return realm.Errorf(realm.EInvalid, "--reconsolidation must be on, off or both, not %q", *recon)
	}
	samples, err := bench.LoadLoCoMo(*data)
	if err != nil {
		return realm.Errorf(realm.EInvalid, "%v", err)
	}
	if *sample != "" {
		var picked []bench.Sample
		for _, s := range samples {
			if s.ID == *sample {
				picked = append(picked, s)
			}
		}
		samples = picked
	}
	d, p, err := openCommand(ctx, cfg)
	if err != nil {
		return err
	}
	defer d.close()
	rep, err := bench.RunRetrieval(ctx, samples,
		bench.RetrievalDeps{Ingest: benchIngester{p.ingest}, Recall: p.recall, Reconsolidate: p.recon, Graph: d.store, Embedder: d.embedder},
		bench.RetrievalConfig{K: *k, SpacePrefix: *prefix, Limit: *limit, Reconsolidation: *recon}, stdout)
	if err != nil {
		return err
	}
	rep.Config = map[string]string{"embedder": d.embedder.ID(), "llm": cfg.LLM, "data": *data, "version": fullVersion(),
		"auditor": "offline", "reconsolidation": *recon, "space_prefix": *prefix}
	md := rep.Markdown()
	fmt.Fprintln(stdout, md)
	if *out != "" {
		b, _ := json.MarshalIndent(rep, "", "  ")
		if err := os.WriteFile(*out, b, 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(strings.TrimSuffix(*out, ".json")+".md", []byte(md), 0o644); err != nil {
			return err
		}
	}
	return nil
}
