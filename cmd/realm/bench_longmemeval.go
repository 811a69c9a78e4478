package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/bench"
	"github.com/realm-memory/realm/construction"
)

const benchLMEUsage = "usage: realm bench longmemeval FILE [--retrieval-only] [--k 10] [--limit N] [--prime N] [--out report.json] [--checkpoint FILE] [--space-prefix lme-] [--keep-spaces]"

// runBenchLongMemEval runs `realm bench longmemeval`: each question of a LongMemEval file
// in a fresh space, its haystack ingested in date order, then asked at its date; scored
// for retrieval (session and turn recall@k and NDCG@k) and, unless --retrieval-only,
// answered by the LLM from the recalled nodes and graded by the LLM judge.
func runBenchLongMemEval(ctx context.Context, args []string, getenv func(string) string, stdout, progress io.Writer) error {
	fs := flag.NewFlagSet("bench longmemeval", flag.ContinueOnError)
	retrievalOnly := fs.Bool("retrieval-only", false, "score retrieval only (no LLM needed)")
	k := fs.Int("k", 10, "recall@k and NDCG@k; the nodes recalled for the answer")
	limit := fs.Int("limit", 0, "the first N questions (0: all)")
	prime := fs.Int("prime", 0, "warm-up questions templated from the haystack, each reconsolidated, before the question (0: off)")
	out := fs.String("out", "", "write the JSON report here, and the Markdown beside it (x.json → x.md)")
	checkpoint := fs.String("checkpoint", "", "one line per question done; a rerun resumes from it (default with --out: x.checkpoint.jsonl beside it)")
	prefix := fs.String("space-prefix", "lme-", "each question's space is prefix + question id")
	keep := fs.Bool("keep-spaces", false, "leave each question's space in Neo4j (default: deleted once scored)")
	cfg, err := loadConfig(fs, args, getenv)
	if err != nil {
		return err
	}
	if len(cfg.Args) != 1 {
		return realm.Errorf(realm.EInvalid, "one LongMemEval file, not %d; %s", len(cfg.Args), benchLMEUsage)
	}
	switch {
	case *k < 1 || *k > realm.MaxRecallK:
		return realm.Errorf(realm.EInvalid, "--k must be between 1 and %d, not %d", realm.MaxRecallK, *k)
	case *limit < 0:
		return realm.Errorf(realm.EInvalid, "--limit must be 0 (all) or more, not %d", *limit)
	case *prime < 0:
		return realm.Errorf(realm.EInvalid, "--prime must be 0 (off) or more, not %d", *prime)
	case !realm.ValidSpace(*prefix + "x"):
		return realm.Errorf(realm.EInvalid, "--space-prefix %q: a space id is [A-Za-z0-9_-]{1,64}", *prefix)
	}
	if !*retrievalOnly && cfg.LLM != "openai" {
		return realm.Errorf(realm.ENotSupported, "the full LongMemEval run answers and judges with an LLM: set REALM_LLM=openai with OPENAI_BASE_URL or OPENAI_API_KEY, or run with --retrieval-only")
	}
	if *checkpoint == "" && *out != "" {
		*checkpoint = strings.TrimSuffix(*out, ".json") + ".checkpoint.jsonl"
	}
	for _, f := range []string{*out, *checkpoint} {
		if f != "" {
			if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
				return err
			}
		}
	}
	items, err := bench.LoadLongMemEval(cfg.Args[0])
	if err != nil {
		return err
	}
	d, p, err := openCommand(ctx, cfg)
	if err != nil {
		return err
	}
	defer d.close()
	deps := bench.LongMemEvalDeps{Ingest: lmeIngester{p.ingest}, Recall: p.recall, Reconsolidate: p.recon, Spaces: d.store, Embedder: d.embedder}
	dataSHA256 := fileSHA256(cfg.Args[0])
	report := map[string]string{"embedder": d.embedder.ID(), "llm": cfg.LLM, "data": cfg.Args[0], "data_sha256": dataSHA256,
		"version": fullVersion(), "space_prefix": *prefix, "auditor": "offline"}
	if !*retrievalOnly {
		judge, err := bench.NewJudge(bench.JudgeConfig{BaseURL: cfg.OpenAI.BaseURL, APIKey: cfg.OpenAI.APIKey, Model: cfg.OpenAI.Models["judge"]})
		if err != nil {
			return err
		}
		deps.Answer, deps.Judge = p.answer, bench.LLMJudge{Chat: judge}
		report["answer_model"], report["judge_model"] = cfg.OpenAI.Models["answer"], judge.Model()
	}
	rep, err := bench.RunLongMemEval(ctx, items, deps,
		bench.LongMemEvalConfig{K: *k, SpacePrefix: *prefix, Limit: *limit, Prime: *prime, KeepSpaces: *keep, Checkpoint: *checkpoint,
			Data: cfg.Args[0], DataSHA256: dataSHA256}, progress)
	if err != nil {
		return err
	}
	rep.Config = report
	md := rep.Markdown()
	fmt.Fprintln(stdout, md)
	if *out != "" {
		return writeLMEReport(*out, rep, md)
	}
	return nil
}

// writeLMEReport writes the report to out (x.json), its Markdown beside it (x.md) with
// links to its charts, each written as x-name.svg.
func writeLMEReport(out string, rep bench.LongMemEvalReport, md string) error {
	b, _ := json.MarshalIndent(rep, "", "  ")
	if err := os.WriteFile(out, append(b, '\n'), 0o644); err != nil {
		return err
	}
	base := strings.TrimSuffix(out, filepath.Ext(out))
	charts := rep.Charts()
	names := slices.Sorted(maps.Keys(charts))
	if len(names) > 0 {
		md += "\n## Charts\n\n"
	}
	for _, name := range names {
		path := base + "-" + name + ".svg"
		if err := os.WriteFile(path, []byte(bench.BarChartSVG(charts[name])), 0o644); err != nil {
			return err
		}
		md += fmt.Sprintf("![%s](%s)\n\n", charts[name].Title, filepath.Base(path))
	}
	return os.WriteFile(base+".md", []byte(md), 0o644)
}

// lmeIngester adapts the pipeline to bench.LMEIngester: what one batch cost.
type lmeIngester struct{ p *construction.Pipeline }

func (l lmeIngester) IngestUsage(ctx context.Context, space string, obs []realm.Observation) (realm.Usage, error) {
	res, err := l.p.Ingest(ctx, space, obs)
	u := realm.Usage{}
	for _, r := range res {
		u.Add(r.Usage)
	}
	return u, err
}
