package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/bench"
	"github.com/realm-memory/realm/construction"
)

// locomoFullFlags are the flags of `realm bench locomo` that only the full protocol reads.
type locomoFullFlags struct {
	judgeModel string
	judgeRuns  int
	shuffle    []uint64
	strategies []realm.Strategy
	checkpoint string
}

func addLoCoMoFullFlags(fs *flag.FlagSet) *locomoFullFlags {
	f := &locomoFullFlags{}
	fs.StringVar(&f.judgeModel, "judge-model", "", "the judge's model (default REALM_MODEL_JUDGE, else REALM_LLM_MODEL, else "+bench.DefaultJudgeModel+")")
	fs.IntVar(&f.judgeRuns, "judge-runs", 1, "judge calls per answer, their labels averaged")
	fs.Func("shuffle", "also ask the questions in the order this seed shuffles them to, with reconsolidation on (repeatable)", func(s string) error {
		seed, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return fmt.Errorf("seed %q is not a non-negative integer", s)
		}
		f.shuffle = append(f.shuffle, seed)
		return nil
	})
	fs.Func("strategy", "expansion strategy: adaptive, path_search or subgraph_beam (repeatable or comma-separated: one run each; default adaptive)", func(s string) error {
		for _, name := range strings.Split(s, ",") {
			f.strategies = append(f.strategies, realm.Strategy(strings.TrimSpace(name)))
		}
		return nil
	})
	fs.StringVar(&f.checkpoint, "checkpoint", "", "file or directory (trailing /) where each finished sample's results are stored; a rerun skips them")
	return f
}

// locomoCommon are the flags both protocols read.
type locomoCommon struct {
	data, recon, out, prefix, speakers, sessions string
	k, limit                                     int
}

// runLoCoMoFull runs `realm bench locomo` without --retrieval-only: the full protocol with
// the LLM answerer and judge (bench.RunLoCoMo).
func runLoCoMoFull(ctx context.Context, cfg config, c locomoCommon, f *locomoFullFlags, samples []bench.Sample, stdout, progress io.Writer) error {
	if cfg.LLM != "openai" {
		return realm.Errorf(realm.EInvalid, "the full LoCoMo protocol answers and judges with an LLM: set REALM_LLM=openai with OPENAI_BASE_URL or OPENAI_API_KEY (or run with --retrieval-only)")
	}
	judgeModel := f.judgeModel
	if judgeModel == "" {
		judgeModel = cfg.OpenAI.Models["judge"]
	}
	judge, err := bench.NewJudge(bench.JudgeConfig{BaseURL: cfg.OpenAI.BaseURL, APIKey: cfg.OpenAI.APIKey, Model: judgeModel, Runs: f.judgeRuns})
	if err != nil {
		return err
	}
	prefix := c.prefix
	if prefix == "" {
		// Not the retrieval-only runs' spaces: a full run erases its spaces first.
		prefix = "locomo-full-"
	}
	lc := bench.LoCoMoConfig{K: c.k, SpacePrefix: prefix, Limit: c.limit, Reconsolidation: c.recon, Shuffle: f.shuffle,
		Strategies: f.strategies, Checkpoint: f.checkpoint, Info: bench.BuildInfo()}
	if _, err := lc.Variants(); err != nil {
		return err
	}
	d, p, err := openCommand(ctx, cfg)
	if err != nil {
		return err
	}
	defer d.close()
	if p.answer == nil {
		return realm.Errorf(realm.EInvalid, "the full LoCoMo protocol needs the LLM agent (REALM_LLM=openai)")
	}
	m := cfg.OpenAI.Models
	lc.Settings = map[string]string{
		"data_sha256": fileSHA256(c.data), "embedder": d.embedder.ID(), "llm": cfg.LLM,
		"extraction_model": m["extraction"], "answer_model": m["answer"], "judge_model": judge.Model(),
		"judge_runs": strconv.Itoa(judge.Runs()), "retrieval_decider": "offline", "auditor": "offline",
	}
	if c.speakers != "names" {
		lc.Settings["speakers"] = c.speakers // a checkpoint of named speakers stays valid
	}
	if c.sessions != "ids" {
		lc.Settings["sessions"] = c.sessions
	}
	lc.Info["version"] = fullVersion()
	lc.Info["space_prefix"] = prefix
	lc.Info["data"] = c.data // the content is a setting (data_sha256), not where it lies
	rep, err := bench.RunLoCoMo(ctx, samples, bench.LoCoMoDeps{Ingest: p.ingest, Recall: p.recall, Answer: p.answer,
		Reconsolidate: p.recon, Graph: d.store, Judge: judge}, lc, progress)
	if err != nil {
		return err
	}
	return writeBenchReport(c.out, rep, rep.Markdown(), rep.Charts(), stdout, progress)
}

// writeBenchReport prints the Markdown to stdout and, with out set, writes the JSON report,
// the Markdown with its charts and the SVG charts beside it, naming them on progress.
func writeBenchReport(out string, rep any, md string, charts []bench.Chart, stdout, progress io.Writer) error {
	fmt.Fprintln(stdout, md)
	if out == "" {
		return nil
	}
	files, err := bench.WriteReport(out, rep, md+"\n"+bench.ChartsMarkdown(out, charts), charts)
	if err != nil {
		return err
	}
	fmt.Fprintf(progress, "report: %s\n", strings.Join(files, " "))
	return nil
}

// fileSHA256 is the hex SHA-256 of a file's content, "" when unreadable.
func fileSHA256(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// usageIngester is the write path for the retrieval-only run, adding up its LLM usage.
type usageIngester struct {
	p     *construction.Pipeline
	usage realm.Usage
}

func (u *usageIngester) Ingest(ctx context.Context, space string, obs []realm.Observation) (int, error) {
	res, err := u.p.Ingest(ctx, space, obs)
	for _, r := range res {
		u.usage.Add(r.Usage)
	}
	return len(res), err
}

// usageRecaller is the read path for the retrieval-only run, adding up the LLM usage of
// its recalls at k and counting them: the recalls at the curve's other k are not what a
// question costs.
type usageRecaller struct {
	r       bench.Recaller
	k       int
	usage   realm.Usage
	recalls int
}

func (u *usageRecaller) Recall(ctx context.Context, space string, req realm.RecallRequest) (realm.RecallResult, error) {
	res, err := u.r.Recall(ctx, space, req)
	if req.K == u.k {
		u.usage.Add(res.Usage)
		u.recalls++
	}
	return res, err
}

// retrievalReport is the retrieval-only report with its LLM cost.
type retrievalReport struct {
	bench.RetrievalReport
	Cost bench.Cost `json:"cost"`
}

// retrievalMarkdown is the retrieval report's tables, the edge-weight histogram and the cost.
func retrievalMarkdown(r retrievalReport) string {
	md := r.Markdown()
	if f := r.FeedbackMarkdown(); f != "" {
		md += "\n" + f
	}
	if h := r.HistogramMarkdown(); h != "" {
		md += "\n" + h
	}
	return md + "\nLLM usage per stage: the write path per observation sent (a re-send into an ingested space costs nothing), the read path per recall (the offline decider and auditor cost nothing):\n\n" +
		r.Cost.Markdown()
}
