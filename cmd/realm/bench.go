package main

import (
	"context"
	"flag"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/bench"
)

const benchUsage = "usage: realm bench locomo [--retrieval-only] [FILE | --data FILE] [--split tune|validate|all] [--reconsolidation on|off|both] [--feedback none,self,cited,answer] [--k 10] [--curve 5,10,15,20] [--limit N] [--speakers names|roles] [--sessions ids|none] [--out report.json] [--questions results.jsonl]" +
	" [--judge-model M] [--judge-runs N] [--shuffle SEED]... [--strategy adaptive|path_search|subgraph_beam]... [--checkpoint FILE|DIR/]"

// runBench dispatches `realm bench <benchmark>`. The report (Markdown) goes to stdout and
// nothing else, so that `realm bench … > report.md` keeps it; progress lines (\r-redrawn
// bars, skipped samples, the files written) go to progress.
func runBench(ctx context.Context, args []string, getenv func(string) string, stdout, progress io.Writer) error {
	if len(args) == 0 {
		return realm.Errorf(realm.EInvalid, benchUsage)
	}
	switch args[0] {
	case "-h", "--help":
		return &helpError{flag.NewFlagSet("bench", flag.ContinueOnError)}
	case "locomo":
		return runBenchLoCoMo(ctx, args[1:], getenv, stdout, progress)
	case "scale":
		return runBenchScale(ctx, args[1:], getenv, stdout, progress)
	case "longmemeval":
		return runBenchLongMemEval(ctx, args[1:], getenv, stdout, progress)
	case "updates":
		return runBenchUpdates(ctx, args[1:], getenv, stdout, progress)
	}
	return realm.Errorf(realm.EInvalid, "unknown benchmark %q; %s", args[0], benchUsage)
}

// runBenchLoCoMo runs `realm bench locomo`: the full protocol with an LLM answerer and
// judge (runLoCoMoFull), or with --retrieval-only evidence recall@k with the offline
// agent, with reconsolidation on, off or both side by side, beside a flat baseline; both
// print tables and optionally save a report with charts.
func runBenchLoCoMo(ctx context.Context, args []string, getenv func(string) string, stdout, progress io.Writer) error {
	fs := flag.NewFlagSet("bench locomo", flag.ContinueOnError)
	data := fs.String("data", "../shared/data/locomo/locomo-dev.json", "LoCoMo JSON file (or give it as the argument)")
	retrievalOnly := fs.Bool("retrieval-only", false, "score evidence recall only (no LLM needed)")
	recon := fs.String("reconsolidation", bench.ReconsolidationOn, "on: audit each question's recall and apply the edits before the next; off; both: off then on over one ingestion, side by side")
	feedback := fs.String("feedback", "", "with --retrieval-only, instead of --reconsolidation: runs over one ingestion, each reverted before the next, "+
		"one per mode of this comma list: none, self (the offline auditor, η/2), cited (after each question, the recalled nodes covering its gold turns marked useful through the feedback path), "+
		"answer (after each question, its gold answer sent as a correct answer through the feedback path)")
	k := fs.Int("k", 10, "evidence recall@k")
	out := fs.String("out", "", "write the JSON report here, and the Markdown beside it (x.json → x.md)")
	prefix := fs.String("space-prefix", "", "spaces are named prefix+sample id (default locomo-, and locomo-full- for the full protocol, whose spaces are erased first)")
	sample := fs.String("sample", "", "only this sample")
	split := fs.String("split", bench.SplitAll, "only the samples of this split: tune (conv-26, conv-30, conv-41), validate (conv-42, conv-43) or all")
	curve := fs.String("curve", "5,10,15,20", "with --retrieval-only: also ask REALM at these k, reconsolidation off, for the recall-vs-context curve (\"\": none)")
	limit := fs.Int("limit", 0, "questions per sample (0: all)")
	questions := fs.String("questions", "", "with --retrieval-only: write what each question returned here, one JSON line per question")
	speakers := fs.String("speakers", "names", `names: as written; roles: speaker A as "user", B as "assistant", and so in the questions`)
	sessions := fs.String("sessions", "ids", "ids: each turn sent with its session's id; none: sent without session ids, as many chat clients do")
	full := addLoCoMoFullFlags(fs)
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
	switch *recon {
	case bench.ReconsolidationOn, bench.ReconsolidationOff, bench.ReconsolidationBoth:
	default:
		return realm.Errorf(realm.EInvalid, "--reconsolidation must be on, off or both, not %q", *recon)
	}
	var feedbackModes []string
	if *feedback != "" {
		for _, f := range strings.Split(*feedback, ",") {
			if !slices.Contains(bench.FeedbackModes, f) {
				return realm.Errorf(realm.EInvalid, "--feedback takes none, self, cited or answer (comma separated), not %q", f)
			}
			feedbackModes = append(feedbackModes, f)
		}
		if !*retrievalOnly {
			return realm.Errorf(realm.EInvalid, "--feedback needs --retrieval-only")
		}
	}
	samples, err := bench.LoadLoCoMo(*data)
	if err != nil {
		return realm.Errorf(realm.EInvalid, "%v", err)
	}
	roles, err := chatRoles(*speakers)
	if err != nil {
		return err
	}
	if roles {
		samples = bench.SamplesAsChatRoles(samples)
	}
	switch *sessions {
	case "ids":
	case "none":
		samples = bench.SamplesWithoutSessionIDs(samples)
	default:
		return realm.Errorf(realm.EInvalid, "--sessions takes ids or none, not %q", *sessions)
	}
	curveK, err := parseKs(*curve)
	if err != nil {
		return err
	}
	if samples, err = bench.SelectSplit(samples, *split); err != nil {
		return err
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
	if len(samples) == 0 {
		return realm.Errorf(realm.EInvalid, "%s holds no sample of split %s (with --sample %q)", *data, *split, *sample)
	}
	if !*retrievalOnly {
		return runLoCoMoFull(ctx, cfg, locomoCommon{data: *data, recon: *recon, out: *out, prefix: *prefix, speakers: *speakers, sessions: *sessions, k: *k, limit: *limit}, full, samples, stdout, progress)
	}
	if *prefix == "" {
		*prefix = "locomo-"
	}
	d, p, err := openCommand(ctx, cfg)
	if err != nil {
		return err
	}
	defer d.close()
	var questionsOut io.Writer
	if *questions != "" {
		f, err := os.Create(*questions)
		if err != nil {
			return err
		}
		defer f.Close()
		questionsOut = f
	}
	ingest, recall := &usageIngester{p: p.ingest, usage: realm.Usage{}}, &usageRecaller{r: p.recall, k: *k, usage: realm.Usage{}}
	rep, err := bench.RunRetrieval(ctx, samples,
		bench.RetrievalDeps{Ingest: ingest, Recall: recall, Reconsolidate: p.recon, Graph: d.store, Embedder: d.embedder, Traces: d.store},
		bench.RetrievalConfig{K: *k, SpacePrefix: *prefix, Limit: *limit, Reconsolidation: *recon, Feedback: feedbackModes, CurveK: curveK, Questions: questionsOut}, progress)
	if err != nil {
		return err
	}
	rep.Config = map[string]string{"embedder": d.embedder.ID(), "llm": cfg.LLM, "data": *data, "version": fullVersion(),
		"auditor": "offline", "reconsolidation": *recon, "feedback": *feedback, "score": cfg.Score, "split": *split, "speakers": *speakers, "sessions": *sessions, "curve_k": *curve, "space_prefix": *prefix, "commit": bench.BuildInfo()["commit"]}
	usage := realm.Usage{}
	usage.Add(ingest.usage)
	usage.Add(recall.usage)
	withCost := retrievalReport{RetrievalReport: rep, Cost: bench.NewCost(usage, rep.Ingest.Observations, recall.recalls)}
	return writeBenchReport(*out, withCost, retrievalMarkdown(withCost), rep.Charts(), stdout, progress)
}

// chatRoles reads --speakers: names (as written) or roles (bench.SamplesAsChatRoles,
// bench.UpdateSet.AsChatRoles).
func chatRoles(speakers string) (bool, error) {
	switch speakers {
	case "names":
		return false, nil
	case "roles":
		return true, nil
	}
	return false, realm.Errorf(realm.EInvalid, "--speakers takes names or roles, not %q", speakers)
}

// parseKs reads a comma-separated list of positive k ("" is none).
func parseKs(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		k, err := strconv.Atoi(f)
		if err != nil || k < 1 {
			return nil, realm.Errorf(realm.EInvalid, "--curve: %q is not a positive k", f)
		}
		out = append(out, k)
	}
	return out, nil
}
