package bench

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/answering"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/reconsolidation"
)

// ObservationIngester is the write path with its per-observation results, usage
// included (construction.Pipeline).
type ObservationIngester interface {
	Ingest(ctx context.Context, space string, obs []realm.Observation) ([]construction.Result, error)
}

// Grader grades an answer against the gold one (Judge).
type Grader interface {
	Grade(ctx context.Context, in JudgeInput) (Verdict, realm.Usage, error)
}

// TraceReconsolidator reconsolidates a recall's trace as /answer does, and reverts
// (reconsolidation.Reconsolidator).
type TraceReconsolidator interface {
	Reconsolidate(ctx context.Context, space, traceID string, req reconsolidation.Request) (reconsolidation.Result, error)
	Revert(ctx context.Context, space, id string) ([]realm.Edit, error)
}

// SpaceGraph is what a full run reads and erases of its spaces (cypher.Store).
type SpaceGraph interface {
	EdgeWeights(ctx context.Context, space string) (map[string]float64, error)
	EdgeWeightHistogram(ctx context.Context, space string, bins int) ([]int64, error)
	DeleteSpace(ctx context.Context, space string) (int64, error)
}

// LoCoMoDeps are the domain services a full LoCoMo run drives (never HTTP).
type LoCoMoDeps struct {
	Ingest        ObservationIngester
	Recall        Recaller
	Answer        answering.Answerer // *llm.Agent
	Reconsolidate TraceReconsolidator
	Graph         SpaceGraph
	Judge         Grader
}

// HistogramBins is the number of weight bins of the edge-weight histograms of a report.
const HistogramBins = 10

// maxFailuresInARow stops a run whose LLM looks unreachable rather than grading every
// remaining question WRONG.
const maxFailuresInARow = 5

// LoCoMoConfig configures a full LoCoMo run (REALM.md §6).
type LoCoMoConfig struct {
	K               int    // nodes recalled per question (default 10)
	SpacePrefix     string // each sample goes to space SpacePrefix+sample id, erased first
	Limit           int    // questions per sample, in order (0: all)
	Reconsolidation string // on (also when empty), off or both
	// Shuffle seeds: with reconsolidation on, the questions are also asked in the order
	// each seed shuffles them to (an ablation of the in-order protocol).
	Shuffle    []uint64
	Strategies []realm.Strategy // expansion strategies, one run each (default adaptive)
	// Checkpoint is a file, or a directory (existing, or named with a trailing /), where
	// each completed sample's results are stored; a rerun skips those samples.
	Checkpoint string
	// Settings are recorded in the report and must match the checkpoint's (models,
	// embedder, data file); Info is recorded only (version, commit, Go version).
	Settings map[string]string
	Info     map[string]string
}

// LoCoMoVariant is one way of asking a sample's questions.
type LoCoMoVariant struct {
	Name            string         `json:"name"`
	Strategy        realm.Strategy `json:"strategy"`
	Reconsolidation string         `json:"reconsolidation"` // on | off
	Seed            *uint64        `json:"shuffle_seed,omitempty"`
}

// Order is "in order" or "shuffled (seed N)".
func (v LoCoMoVariant) Order() string {
	if v.Seed == nil {
		return "in order"
	}
	return fmt.Sprintf("shuffled (seed %d)", *v.Seed)
}

// Variants lists the runs of c: per strategy, reconsolidation off then on; with it on,
// in order and then shuffled by each seed. Shuffling without reconsolidation is left out:
// the graph does not change between questions, so their order cannot matter.
func (c LoCoMoConfig) Variants() ([]LoCoMoVariant, error) {
	var modes []string
	switch c.Reconsolidation {
	case ReconsolidationOn, "":
		modes = []string{ReconsolidationOn}
	case ReconsolidationOff:
		modes = []string{ReconsolidationOff}
	case ReconsolidationBoth:
		modes = []string{ReconsolidationOff, ReconsolidationOn}
	default:
		return nil, realm.Errorf(realm.EInvalid, "reconsolidation must be on, off or both, not %q", c.Reconsolidation)
	}
	strategies := c.Strategies
	if len(strategies) == 0 {
		strategies = []realm.Strategy{realm.Adaptive}
	}
	seen := map[string]bool{}
	var out []LoCoMoVariant
	for _, st := range strategies {
		switch st {
		case realm.Adaptive, realm.StrategyPath, realm.StrategyBeam:
		default:
			return nil, realm.Errorf(realm.EInvalid, "strategy must be adaptive, path_search or subgraph_beam, not %q", st)
		}
		for _, m := range modes {
			add := func(seed *uint64) {
				v := LoCoMoVariant{Strategy: st, Reconsolidation: m, Seed: seed}
				v.Name = string(st) + ", reconsolidation " + m
				if seed != nil {
					v.Name += ", shuffle " + strconv.FormatUint(*seed, 10)
				}
				if !seen[v.Name] {
					seen[v.Name] = true
					out = append(out, v)
				}
			}
			add(nil)
			if m == ReconsolidationOn {
				for _, s := range c.Shuffle {
					add(&s)
				}
			}
		}
	}
	return out, nil
}

// QuestionResult is one question asked in one variant.
type QuestionResult struct {
	Index       int      `json:"index"` // in the sample's qa list
	Category    int      `json:"category"`
	Question    string   `json:"question"`
	Gold        string   `json:"gold"`
	Answer      string   `json:"answer"`
	AnswerError string   `json:"answer_error,omitempty"`
	Score       float64  `json:"score"` // the judge's: share of runs CORRECT; 0 when unanswered or ungraded
	Labels      []string `json:"labels,omitempty"`
	Reasoning   string   `json:"judge_reasoning,omitempty"` // the judge's first run's
	JudgeError  string   `json:"judge_error,omitempty"`
	// Evidence: recall@K of the gold turns (when the question has any), the depth at
	// which a gold turn was first reached ("none"), how many nodes the answer cites and
	// whether one of them covers a gold turn.
	HasEvidence bool        `json:"has_evidence"`
	Recall      float64     `json:"evidence_recall"`
	FirstDepth  string      `json:"evidence_first_depth"`
	Cited       int         `json:"cited"`
	CitedGold   bool        `json:"cited_gold"`
	Edits       int         `json:"edits"` // applied by the reconsolidation after it
	Usage       realm.Usage `json:"usage"` // recall, answer, audit and judge stages
	AnswerMS    float64     `json:"answer_ms"`
}

// EditTally counts what reconsolidations did (logged edits: one per directed edge, so a
// symmetric predicate counts twice).
type EditTally struct {
	Audits       int `json:"audits"` // one per question
	WithEdits    int `json:"audits_with_edits"`
	Added        int `json:"added"`
	Strengthened int `json:"strengthened"`
	Weakened     int `json:"weakened"`
	Rejected     int `json:"rejected"` // proposals failing validation or c_min
}

// count adds one reconsolidation.
func (t *EditTally) count(rc reconsolidation.Result) {
	t.Audits++
	if len(rc.Edits) > 0 {
		t.WithEdits++
	}
	t.Rejected += len(rc.Rejected)
	for _, e := range rc.Edits {
		switch e.Action {
		case realm.EditAdd:
			t.Added++
		case realm.EditStrengthen:
			t.Strengthened++
		case realm.EditWeaken:
			t.Weakened++
		}
	}
}

func (t *EditTally) add(o EditTally) {
	t.Audits += o.Audits
	t.WithEdits += o.WithEdits
	t.Added += o.Added
	t.Strengthened += o.Strengthened
	t.Weakened += o.Weakened
	t.Rejected += o.Rejected
}

// EditCounts is what the reconsolidations of a run did.
type EditCounts struct {
	EditTally
	Restored   bool `json:"restored_exactly"` // reverting them all gave every edge its weight back to the bit
	Mismatches int  `json:"restore_mismatches"`
}

func (e *EditCounts) add(o EditCounts) {
	e.EditTally.add(o.EditTally)
	e.Mismatches += o.Mismatches
	e.Restored = e.Mismatches == 0
}

// VariantResult is one variant's run over one sample.
type VariantResult struct {
	Variant   string           `json:"variant"`
	Questions []QuestionResult `json:"questions"` // in the order asked
	Edits     *EditCounts      `json:"edits,omitempty"`
	// HistogramAfter counts edge weights after the last question, before the revert
	// (reconsolidation on only).
	HistogramAfter []int64 `json:"edge_weight_histogram_after,omitempty"`
	Seconds        float64 `json:"seconds"`
}

// SampleResult is everything a full run measured on one sample; it is what a
// checkpoint stores, and a report is computed from these alone.
type SampleResult struct {
	Sample          string          `json:"sample"`
	Observations    int             `json:"observations"`
	NotIntegrated   int             `json:"observations_not_integrated"` // left pending or failed by the write path
	IngestUsage     realm.Usage     `json:"ingest_usage"`
	IngestSeconds   float64         `json:"ingest_seconds"`
	Memories        int             `json:"memories"` // added by the ingestion
	HistogramBefore []int64         `json:"edge_weight_histogram"`
	Variants        []VariantResult `json:"variants"`
}

// RunLoCoMo runs the full LoCoMo protocol (REALM.md §6) over samples: per sample, its
// space is erased and the conversation ingested; then, for each variant, its questions
// are asked (in order, or shuffled), each recalled, answered from the evidence alone and
// graded by the judge, and, with reconsolidation on, the trace is reconsolidated with the
// answer and its citations as the system's own signal, as /answer does, before the next
// question. After a variant with reconsolidation on, every reconsolidation it made is
// reverted so that the next variant starts from the graph as ingested. Each finished
// sample is stored in the checkpoint, and samples found there are not run again.
// Progress goes to progress (may be nil).
func RunLoCoMo(ctx context.Context, samples []Sample, deps LoCoMoDeps, cfg LoCoMoConfig, progress io.Writer) (LoCoMoReport, error) {
	variants, err := cfg.Variants()
	if err != nil {
		return LoCoMoReport{}, err
	}
	if cfg.K <= 0 {
		cfg.K = 10
	}
	ck, done, err := openCheckpoint(cfg.Checkpoint, cfg.fingerprint(variants))
	if err != nil {
		return LoCoMoReport{}, err
	}
	var results []SampleResult
	for _, s := range samples {
		if r, ok := done[s.ID]; ok {
			results = append(results, r)
			if progress != nil {
				fmt.Fprintf(progress, "%s: done in the checkpoint, skipped\n", s.ID)
			}
			continue
		}
		r, err := runLoCoMoSample(ctx, s, deps, cfg, variants, progress)
		if err != nil {
			if ctx.Err() != nil {
				// Interrupted: whatever failed on the way, say so plainly.
				return LoCoMoReport{}, fmt.Errorf("%s: %w (finished samples are in the checkpoint)", s.ID, ctx.Err())
			}
			return LoCoMoReport{}, err
		}
		if err := ck.save(r); err != nil {
			return LoCoMoReport{}, err
		}
		results = append(results, r)
	}
	return NewLoCoMoReport(cfg, variants, results), nil
}

// locomoQuestions are the questions of s a run asks, in the file's order.
func locomoQuestions(s Sample, limit int) []question {
	var out []question
	for i, q := range s.Questions {
		if q.Category < 1 || q.Category > 5 {
			continue
		}
		if limit > 0 && len(out) >= limit {
			break
		}
		out = append(out, question{i, q})
	}
	return out
}

func runLoCoMoSample(ctx context.Context, s Sample, deps LoCoMoDeps, cfg LoCoMoConfig, variants []LoCoMoVariant, progress io.Writer) (SampleResult, error) {
	space := cfg.SpacePrefix + s.ID
	res := SampleResult{Sample: s.ID, IngestUsage: realm.Usage{}}
	// A fresh space: the ingestion is measured whole, and nothing an earlier or
	// interrupted run left (memories, edits) can leak into this one.
	if _, err := deps.Graph.DeleteSpace(ctx, space); err != nil {
		return res, fmt.Errorf("%s: erase space %s: %w", s.ID, space, err)
	}
	obs := s.Observations()
	res.Observations = len(obs)
	start := time.Now()
	const batch = 25
	for i := 0; i < len(obs); i += batch {
		end := min(i+batch, len(obs))
		out, err := deps.Ingest.Ingest(ctx, space, obs[i:end])
		if err == nil && ctx.Err() != nil {
			err = ctx.Err()
		}
		if err != nil {
			return res, fmt.Errorf("%s: ingest: %w", s.ID, err)
		}
		for _, r := range out {
			res.IngestUsage.Add(r.Usage)
			res.Memories += len(r.Added)
			if r.Status != construction.StatusIntegrated && r.Status != construction.StatusAlreadyIntegrated {
				res.NotIntegrated++
			}
		}
		if progress != nil {
			fmt.Fprintf(progress, "\r%s", ProgressLine(s.ID+" ingest", end, len(obs), time.Since(start)))
		}
	}
	if progress != nil {
		fmt.Fprintln(progress)
	}
	res.IngestSeconds = time.Since(start).Seconds()
	hist, err := deps.Graph.EdgeWeightHistogram(ctx, space, HistogramBins)
	if err != nil {
		return res, err
	}
	res.HistogramBefore = hist

	questions := locomoQuestions(s, cfg.Limit)
	askAt := time.Now().UTC()
	if len(s.Sessions) > 0 {
		askAt = s.Sessions[len(s.Sessions)-1].Date.Add(24 * time.Hour)
	}
	for _, v := range variants {
		vr, err := askLoCoMoVariant(ctx, s.ID, space, askAt, questions, v, deps, cfg, progress)
		if err != nil {
			return res, err
		}
		res.Variants = append(res.Variants, vr)
	}
	return res, nil
}

// askLoCoMoVariant asks the questions in v's order and, with reconsolidation on, reverts
// every reconsolidation afterwards and checks the graph is back to the bit.
func askLoCoMoVariant(ctx context.Context, sample, space string, askAt time.Time, questions []question, v LoCoMoVariant,
	deps LoCoMoDeps, cfg LoCoMoConfig, progress io.Writer) (VariantResult, error) {
	vr := VariantResult{Variant: v.Name}
	on := v.Reconsolidation == ReconsolidationOn
	order := slices.Clone(questions)
	if v.Seed != nil {
		r := rand.New(rand.NewPCG(*v.Seed, 0x5eed))
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	var snapshot map[string]float64
	var applied []string // reconsolidations with edits, in the order applied
	if on {
		vr.Edits = &EditCounts{Restored: true}
		var err error
		if snapshot, err = deps.Graph.EdgeWeights(ctx, space); err != nil {
			return vr, err
		}
	}
	started := time.Now()
	failedInARow := 0
	var scoreSum float64
	for n, q := range order {
		qr, reconID, err := askLoCoMoQuestion(ctx, space, askAt, q, v, deps, cfg, vr.Edits)
		if err != nil {
			return vr, fmt.Errorf("%s, %s, question %d: %w", sample, v.Name, q.index, err)
		}
		if reconID != "" {
			applied = append(applied, reconID)
		}
		if qr.AnswerError != "" || qr.JudgeError != "" {
			failedInARow++
			if failedInARow >= maxFailuresInARow {
				return vr, realm.Errorf(realm.EUnavailable, "%s, %s: %d questions in a row got no answer or no grade (last: %s%s); stopping (finished samples are in the checkpoint)",
					sample, v.Name, failedInARow, qr.AnswerError, qr.JudgeError)
			}
		} else {
			failedInARow = 0
		}
		scoreSum += qr.Score
		vr.Questions = append(vr.Questions, qr)
		if progress != nil {
			fmt.Fprintf(progress, "\r%s accuracy so far %.3f", ProgressLine(sample+" "+v.Name, n+1, len(order), time.Since(started)),
				scoreSum/float64(n+1))
		}
	}
	if progress != nil {
		fmt.Fprintln(progress)
	}
	vr.Seconds = time.Since(started).Seconds()
	if !on {
		return vr, nil
	}
	hist, err := deps.Graph.EdgeWeightHistogram(ctx, space, HistogramBins)
	if err != nil {
		return vr, err
	}
	vr.HistogramAfter = hist
	for i := len(applied) - 1; i >= 0; i-- {
		if _, err := deps.Reconsolidate.Revert(ctx, space, applied[i]); err != nil {
			return vr, fmt.Errorf("%s, %s: revert: %w", sample, v.Name, err)
		}
	}
	restored, err := deps.Graph.EdgeWeights(ctx, space)
	if err != nil {
		return vr, err
	}
	vr.Edits.Mismatches = weightMismatches(snapshot, restored)
	vr.Edits.Restored = vr.Edits.Mismatches == 0
	return vr, nil
}

// askLoCoMoQuestion recalls, answers, grades and (with reconsolidation on) reconsolidates
// one question. An answer or grade the LLM could not give is recorded on the question
// (score 0); only a cancelled context or a failing store is an error. It returns the
// reconsolidation's id when it applied edits.
func askLoCoMoQuestion(ctx context.Context, space string, askAt time.Time, q question, v LoCoMoVariant,
	deps LoCoMoDeps, cfg LoCoMoConfig, edits *EditCounts) (QuestionResult, string, error) {
	qr := QuestionResult{Index: q.index, Category: q.Category, Question: q.Question.Question, Gold: q.Answer, Usage: realm.Usage{}}
	t := time.Now()
	uc := answering.UseCase{Recall: deps.Recall, Answer: deps.Answer, Reconsolidate: deps.Reconsolidate}
	res, err := uc.Ask(ctx, space, realm.RecallRequest{Query: q.Question.Question, Time: &askAt, K: cfg.K, Strategy: v.Strategy},
		v.Reconsolidation == ReconsolidationOn)
	if !res.Recalled || ctx.Err() != nil {
		return qr, "", err
	}
	rec := res.Recall
	qr.Usage.Add(res.Usage)
	sources := make([][]string, len(rec.Nodes))
	for i, n := range rec.Nodes {
		sources[i] = n.Node.Sources
	}
	qr.Recall, qr.HasEvidence = EvidenceRecall(q.Evidence, sources, cfg.K)
	qr.FirstDepth = firstEvidenceDepth(q.Evidence, rec.Nodes)
	qr.AnswerMS = float64(time.Since(t).Microseconds())/1000 - res.Timings["reconsolidate"] // recall and answer
	if err != nil {
		qr.AnswerError = realm.ErrorMessage(err)
		return qr, "", nil
	}
	ans := res.Answer
	qr.Answer, qr.Cited = ans.Text, len(ans.Cited)
	for _, n := range rec.Nodes {
		if slices.Contains(ans.Cited, n.Node.ID) && coversGold(q.Evidence, n.Node.Sources) {
			qr.CitedGold = true
		}
	}

	verdict, usage, err := deps.Judge.Grade(ctx, judgeCase(q.Question, ans.Text))
	qr.Usage.Add(usage)
	switch {
	case ctx.Err() != nil:
		return qr, "", ctx.Err()
	case err != nil:
		qr.JudgeError = realm.ErrorMessage(err)
	default:
		qr.Score, qr.Labels, qr.Reasoning = verdict.Score, verdict.Labels, verdict.Reasoning
	}

	if res.ReconsolidationErr != nil {
		return qr, "", fmt.Errorf("reconsolidate: %w", res.ReconsolidationErr)
	}
	if res.Reconsolidation == nil {
		return qr, "", nil
	}
	rc := res.Reconsolidation
	qr.Usage.Add(rc.Usage)
	qr.Edits = len(rc.Edits)
	edits.count(*rc)
	if len(rc.Edits) == 0 {
		return qr, "", nil
	}
	return qr, rc.ReconsolidationID, nil
}

// adversarialGuidance tells the judge how to grade a category 5 question: its premise is
// false, and the file's answer is the trap.
const adversarialGuidance = "This question is adversarial: it asks about something the conversation never says of this person. " +
	"The response is CORRECT only if it says that the information is not available or that the premise is wrong; " +
	"it is WRONG if it gives an answer, in particular the trap answer quoted in the gold answer."

// judgeCase is what the judge sees of a LoCoMo question and its answer.
func judgeCase(q Question, answer string) JudgeInput {
	in := JudgeInput{Question: q.Question, Gold: q.Answer, Answer: answer}
	if q.Category == 5 {
		in.Gold = "Not answerable: the conversation does not say this (a plausible but wrong answer would be: " + strings.TrimSpace(q.Answer) + ")."
		in.Guidance = adversarialGuidance
	}
	return in
}
