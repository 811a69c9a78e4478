package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/bench"
)

// runBench runs `realm bench locomo --retrieval-only`: evidence recall@k on LoCoMo with
// the offline agent, beside a flat baseline, printed as tables and optionally saved.
func runBench(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	if len(args) == 0 || args[0] != "locomo" {
		return realm.Errorf(realm.EInvalid, "usage: realm bench locomo --data FILE --retrieval-only [--k 10] [--out report.json]")
	}
	fs := flag.NewFlagSet("bench locomo", flag.ContinueOnError)
	data := fs.String("data", "../shared/data/locomo/locomo-dev.json", "LoCoMo JSON file")
	retrievalOnly := fs.Bool("retrieval-only", false, "score evidence recall only (no LLM needed)")
	k := fs.Int("k", 10, "evidence recall@k")
	out := fs.String("out", "", "write the JSON report here (and the Markdown beside it)")
	prefix := fs.String("space-prefix", "locomo-", "spaces are named prefix+sample id")
	sample := fs.String("sample", "", "only this sample")
	limit := fs.Int("limit", 0, "questions per sample (0: all)")
	cfg, err := loadConfig(fs, args[1:], getenv)
	if err != nil {
		return err
	}
	if !*retrievalOnly {
		return realm.Errorf(realm.ENotSupported, "the full LoCoMo protocol needs an LLM judge and is not implemented yet; run with --retrieval-only")
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
	rep, err := bench.RunRetrieval(ctx, samples, benchIngester{p.ingest}, p.recall, d.embedder,
		bench.RetrievalConfig{K: *k, SpacePrefix: *prefix, Limit: *limit}, stdout)
	if err != nil {
		return err
	}
	rep.Config = map[string]string{"embedder": d.embedder.ID(), "llm": cfg.LLM, "data": *data, "version": fullVersion()}
	md := rep.Markdown()
	fmt.Fprintln(stdout, md)
	if *out != "" {
		b, _ := json.MarshalIndent(rep, "", "  ")
		if err := os.WriteFile(*out, b, 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(*out+".md", []byte(md), 0o644); err != nil {
			return err
		}
	}
	return nil
}
