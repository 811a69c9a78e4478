package bench

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/answering"
	"github.com/realm-memory/realm/reconsolidation"
)

// LMEIngester is the write path with what it cost (construction.Pipeline, summing the
// usage of its results).
type LMEIngester interface {
	IngestUsage(ctx context.Context, space string, obs []realm.Observation) (realm.Usage, error)
}

// LMESpaceDeleter erases a space (cypher.Store).
type LMESpaceDeleter interface {
	DeleteSpace(ctx context.Context, space string) (int64, error)
}

// Bench stages of the LongMemEval cost accounting.
const (
	LMEStageIngest = "ingest" // construction: extraction and integration
	LMEStagePrime  = "prime"  // the warm-up questions: recall, answer (full), reconsolidation
	LMEStageRecall = "recall" // the question's recall
	LMEStageAnswer = "answer"
	LMEStageJudge  = StageJudge
)

// LMEStages lists the stages in pipeline order, for reports.
var LMEStages = []string{LMEStageIngest, LMEStagePrime, LMEStageRecall, LMEStageAnswer, LMEStageJudge}

// Modes of a LongMemEval run.
const (
	LMEModeRetrieval = "retrieval-only"
	LMEModeFull      = "full"
)

// LongMemEvalDeps are the pipelines a LongMemEval run drives. Answer and Judge are nil
// for a retrieval-only run; Reconsolidate is needed when priming.
type LongMemEvalDeps struct {
	Ingest        LMEIngester
	Recall        Recaller
	Reconsolidate answering.Reconsolidator
	Spaces        LMESpaceDeleter
	Answer        answering.Answerer // *llm.Agent
	Judge         LMEJudge
	// Embedder, when set, scores a flat baseline beside REALM: the top-k raw turns by
	// cosine with the question, no graph, ranked into sessions and turns the same way.
	Embedder realm.Embedder
}

// LongMemEvalConfig configures a run.
type LongMemEvalConfig struct {
	K           int    // recall@K, NDCG@K, and the nodes recalled for the answer
	SpacePrefix string // item i goes to space LMESpace(SpacePrefix, its question id)
	Limit       int    // the first Limit items (0: all)
	// Prime asks this many questions templated from the haystack before the real one,
	// reconsolidating after each, to warm the graph (0: off). See PrimeQuestions.
	Prime      int
	KeepSpaces bool   // leave each item's space in Neo4j (default: deleted once scored)
	Checkpoint string // JSON lines file: one line per item done; a rerun skips them
	// Data names the file the items were read from, DataSHA256 its content: both are
	// recorded in the checkpoint, which a run on other data refuses to resume.
	Data, DataSHA256 string
}

// LMEStageCost is what one stage cost: its LLM usage and its wall time.
type LMEStageCost struct {
	realm.StageUsage
	Seconds float64 `json:"seconds"`
}

// LMEItemResult is everything measured on one item; the report is computed from these
// alone, so that a resumed run reports the same as an uninterrupted one.
type LMEItemResult struct {
	QuestionID   string        `json:"question_id"`
	Type         string        `json:"question_type"`
	Abstention   bool          `json:"abstention"`
	Observations int           `json:"observations"`
	Truncated    int           `json:"truncated_turns"`
	Empty        int           `json:"empty_turns"`
	Primed       int           `json:"primed"`
	Retrieval    LMERetrieval  `json:"retrieval"`
	Flat         *LMERetrieval `json:"flat_baseline,omitempty"`
	// Baselines are the hybrid flat baselines (LMEBaselines), keyed by LMEBaselineName,
	// when an embedder ran them.
	Baselines   map[string]LMERetrieval `json:"baselines,omitempty"`
	Response    string                  `json:"response,omitempty"`
	AnswerError string                  `json:"answer_error,omitempty"` // the LLM gave no valid answer: scored wrong
	Correct     *bool                   `json:"correct,omitempty"`      // full mode
	RecallMS    float64                 `json:"recall_ms"`
	Cost        map[string]LMEStageCost `json:"cost"`  // per bench stage (LMEStages)
	Usage       realm.Usage             `json:"usage"` // per LLM stage, every bench stage together
}

func (r *LMEItemResult) addCost(stage string, u realm.Usage, seconds float64) {
	if r.Usage == nil {
		r.Usage = realm.Usage{}
	}
	r.Usage.Add(u)
	c := r.Cost[stage]
	c.StageUsage = c.StageUsage.Plus(lmeSumUsage(u))
	c.Seconds += seconds
	r.Cost[stage] = c
}

// lmeSumUsage folds the stages of a realm.Usage into one.
func lmeSumUsage(u realm.Usage) realm.StageUsage {
	var s realm.StageUsage
	for _, v := range u {
		s = s.Plus(v)
	}
	return s
}

// RunLongMemEval runs every item in a fresh space of its own: it ingests the haystack in
// date order, optionally primes the graph, recalls the question at its question_date and
// scores the recall against the evidence; with an answerer it answers from the recalled
// nodes (agent.Answer, as /answer does) and has the judge grade the answer. Items already
// in the checkpoint are not run again.
func RunLongMemEval(ctx context.Context, items []LMEItem, deps LongMemEvalDeps, cfg LongMemEvalConfig, progress io.Writer) (LongMemEvalReport, error) {
	start := time.Now()
	if cfg.K <= 0 {
		cfg.K = realm.DefaultRecallK
	}
	mode := LMEModeRetrieval
	if deps.Answer != nil {
		mode = LMEModeFull
		if deps.Judge == nil {
			return LongMemEvalReport{}, fmt.Errorf("bench.RunLongMemEval: answering needs a judge")
		}
	}
	if cfg.Prime > 0 && deps.Reconsolidate == nil {
		return LongMemEvalReport{}, fmt.Errorf("bench.RunLongMemEval: priming needs a reconsolidator")
	}
	if cfg.Limit > 0 && len(items) > cfg.Limit {
		items = items[:cfg.Limit]
	}
	var done map[string]LMEItemResult
	var cp *lmeCheckpoint
	if cfg.Checkpoint != "" {
		var err error
		cp, done, err = openLMECheckpoint(cfg.Checkpoint, lmeCheckpointHeader{Version: lmeCheckpointVersion, Mode: mode, K: cfg.K, Prime: cfg.Prime,
			SpacePrefix: cfg.SpacePrefix, Data: cfg.Data, DataSHA256: cfg.DataSHA256})
		if err != nil {
			return LongMemEvalReport{}, err
		}
		defer cp.close()
	}
	results := make([]LMEItemResult, 0, len(items))
	resumed := 0
	for i, it := range items {
		if r, ok := done[it.QuestionID]; ok {
			results = append(results, r)
			resumed++
			continue
		}
		r, err := runLMEItem(ctx, deps, cfg, it)
		if err != nil {
			return LongMemEvalReport{}, fmt.Errorf("item %d (%s): %w", i, it.QuestionID, err)
		}
		if cp != nil {
			if err := cp.write(r); err != nil {
				return LongMemEvalReport{}, err
			}
		}
		results = append(results, r)
		if progress != nil {
			fmt.Fprintf(progress, "\r%s", ProgressLine("longmemeval", i+1, len(items), time.Since(start)))
		}
	}
	if progress != nil && len(items) > resumed {
		fmt.Fprintln(progress)
	}
	rep := SummarizeLongMemEval(results, mode, cfg.K, cfg.Prime)
	rep.Resumed = resumed
	rep.Elapsed = time.Since(start).Seconds()
	return rep, nil
}

// runLMEItem runs one item in its fresh space.
func runLMEItem(ctx context.Context, deps LongMemEvalDeps, cfg LongMemEvalConfig, it LMEItem) (LMEItemResult, error) {
	space := LMESpace(cfg.SpacePrefix, it.QuestionID)
	// Fresh: a space left by an interrupted run would hold its edits.
	if _, err := deps.Spaces.DeleteSpace(ctx, space); err != nil {
		return LMEItemResult{}, err
	}
	if !cfg.KeepSpaces {
		defer func() { _, _ = deps.Spaces.DeleteSpace(context.WithoutCancel(ctx), space) }()
	}
	obs := it.Observations()
	r := LMEItemResult{QuestionID: it.QuestionID, Type: it.Type, Abstention: it.Abstention(),
		Observations: len(obs.Observations), Truncated: obs.Truncated, Empty: obs.Empty, Cost: map[string]LMEStageCost{}}

	const batch = 25
	t := time.Now()
	for i := 0; i < len(obs.Observations); i += batch {
		u, err := deps.Ingest.IngestUsage(ctx, space, obs.Observations[i:min(i+batch, len(obs.Observations))])
		if err != nil {
			return r, fmt.Errorf("ingest: %w", err)
		}
		r.addCost(LMEStageIngest, u, 0)
	}
	r.addCost(LMEStageIngest, nil, time.Since(t).Seconds())

	at := it.QuestionDate
	t = time.Now()
	for _, q := range PrimeQuestions(it, cfg.Prime) {
		if err := primeOne(ctx, deps, cfg, space, q, at, &r); err != nil {
			return r, fmt.Errorf("prime %q: %w", q, err)
		}
		r.Primed++
	}
	if r.Primed > 0 {
		r.addCost(LMEStagePrime, nil, time.Since(t).Seconds())
	}

	// Recall, then answer from the recalled nodes as /answer does (answering.UseCase, no
	// reconsolidation: the question is asked once, at the end).
	uc := answering.UseCase{Recall: deps.Recall, Answer: deps.Answer}
	if len(obs.Observations) == 0 {
		uc.Recall = noEvidence{} // there is no space to recall from: nothing is found
	}
	t = time.Now()
	res, err := uc.Ask(ctx, space, realm.RecallRequest{Query: it.Question, Time: &at, K: cfg.K}, false)
	if !res.Recalled {
		return r, fmt.Errorf("recall: %w", err)
	}
	rec := res.Recall
	r.RecallMS = float64(time.Since(t).Microseconds())/1000 - res.Timings["answer"]
	r.addCost(LMEStageRecall, rec.Usage, r.RecallMS/1000)
	sources := make([][]string, len(rec.Nodes))
	for i, n := range rec.Nodes {
		sources[i] = n.Node.Sources
	}
	r.Retrieval = ScoreLMERetrieval(it, sources, obs.Sessions, cfg.K)
	r.Retrieval.ContextTokens = contextTokens(rec.Nodes)
	if deps.Embedder != nil && len(obs.Observations) > 0 {
		if err := rankLMEFlat(ctx, deps.Embedder, it, obs, cfg.K, &r); err != nil {
			return r, fmt.Errorf("flat baselines: %w", err)
		}
	}
	if deps.Answer == nil {
		return r, nil
	}

	r.addCost(LMEStageAnswer, res.AnswerUsage, res.Timings["answer"]/1000)
	wrong := false
	switch {
	case realm.ErrorCode(err) == realm.EUnavailable && ctx.Err() == nil:
		// No valid answer after the agent's retries and repair: the question is lost, the
		// run goes on (a rerun with the checkpoint removed retries it).
		r.AnswerError = realm.ErrorMessage(err)
		r.Correct = &wrong
		return r, nil
	case err != nil:
		return r, fmt.Errorf("answer: %w", err)
	}
	ans := res.Answer
	r.Response = ans.Text
	t = time.Now()
	verdict, u, err := deps.Judge.JudgeLongMemEval(ctx, LMEJudgeInput{Type: it.Type, Abstention: it.Abstention(),
		Question: it.Question, Answer: it.Answer, Response: ans.Text})
	r.addCost(LMEStageJudge, u, time.Since(t).Seconds())
	if err != nil {
		return r, fmt.Errorf("judge: %w", err)
	}
	r.Correct = &verdict
	return r, nil
}

// primeOne asks one warm-up question and reconsolidates its trace as /answer does
// (answering.UseCase): in a full run with the LLM's answer and citations as the system's
// own signal; in a retrieval-only run, or when the LLM gave no answer, on the recall
// alone. Edits are never confirmed feedback (η/2).
func primeOne(ctx context.Context, deps LongMemEvalDeps, cfg LongMemEvalConfig, space, q string, at time.Time, r *LMEItemResult) error {
	uc := answering.UseCase{Recall: deps.Recall, Answer: deps.Answer, Reconsolidate: deps.Reconsolidate}
	res, err := uc.Ask(ctx, space, realm.RecallRequest{Query: q, Time: &at, K: cfg.K}, true)
	r.addCost(LMEStagePrime, res.Usage, 0)
	if err != nil && (!res.Recalled || realm.ErrorCode(err) != realm.EUnavailable || ctx.Err() != nil) {
		return err
	}
	rc, err := res.Reconsolidation, res.ReconsolidationErr
	if rc == nil && err == nil { // no answer: the recall alone
		var out reconsolidation.Result
		out, err = deps.Reconsolidate.Reconsolidate(ctx, space, res.Recall.TraceID, reconsolidation.Request{Source: realm.EditSourceAuto})
		rc = &out
	}
	if rc != nil {
		r.addCost(LMEStagePrime, rc.Usage, 0)
	}
	return err
}

// PrimeQuestions are n warm-up questions templated from the haystack, without an LLM:
// user turns spread evenly over the sessions in date order, each asked about by its
// first words ("What do you remember about: ...?", "When did I say: ...?"). They never
// look at the question, its answer or the has_answer marks.
func PrimeQuestions(it LMEItem, n int) []string {
	if n <= 0 {
		return nil
	}
	obs := it.Observations().Observations
	var topics []string
	for _, o := range obs {
		if o.Speaker != "user" {
			continue
		}
		if t := primeTopic(o.Content); t != "" {
			topics = append(topics, t)
		}
	}
	if len(topics) == 0 {
		return nil
	}
	n = min(n, len(topics))
	out := make([]string, n)
	for j := range n {
		topic := topics[j*len(topics)/n]
		if j%2 == 0 {
			out[j] = "What do you remember about: " + topic + "?"
		} else {
			out[j] = "When did I say: " + topic + "?"
		}
	}
	return out
}

// primeTopic is the first eight words of a turn's first line, without end punctuation.
func primeTopic(content string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(content), "\n")
	words := strings.Fields(line)
	if len(words) > 8 {
		words = words[:8]
	}
	return strings.TrimRight(strings.Join(words, " "), ".,;:!?")
}

// LMEBaselines are the flat baselines a LongMemEval run scores beside REALM: dense on
// turns (the plain baseline, as Flat), and the hybrid on turns and on two-turn windows,
// each at k and at the context REALM returned for the same question.
var LMEBaselines = []Baseline{{MethodHybrid, UnitTurns}, {MethodHybrid, UnitWindows}}

// LMEBaselineName names a baseline at a selection: "hybrid, windows, k" or "hybrid,
// windows, budget".
func LMEBaselineName(b Baseline, selection string) string { return b.String() + ", " + selection }

// rankLMEFlat scores the flat baselines on one item: Flat (dense on turns at k) and each
// of LMEBaselines at k and at REALM's context size for the item (r.Retrieval's), all
// scored as REALM is (ScoreLMERetrieval: the first k sessions and turns of what it returns).
func rankLMEFlat(ctx context.Context, emb realm.Embedder, it LMEItem, obs LMEObservations, k int, r *LMEItemResult) error {
	idx, err := NewFlatIndex(ctx, emb, obs.Observations)
	if err != nil {
		return err
	}
	ranked, err := idx.Rank(ctx, emb, FlatQuery{Question: it.Question}, k)
	if err != nil {
		return err
	}
	score := func(sources [][]string, tokens int) LMERetrieval {
		s := ScoreLMERetrieval(it, sources, obs.Sessions, k)
		s.ContextTokens = tokens
		return s
	}
	flat := score(SelectK(ranked[Baseline{MethodDense, UnitTurns}.String()].Hits, k))
	r.Flat = &flat
	r.Baselines = map[string]LMERetrieval{}
	for _, b := range LMEBaselines {
		hits := ranked[b.String()].Hits
		r.Baselines[LMEBaselineName(b, SelectionK)] = score(SelectK(hits, k))
		r.Baselines[LMEBaselineName(b, SelectionBudget)] = score(SelectBudget(hits, float64(r.Retrieval.ContextTokens)))
	}
	return nil
}

// contextTokens is Tokens of the nodes' contents, one per line, as the LoCoMo bench counts them.
func contextTokens(nodes []realm.RecalledNode) int {
	var text strings.Builder
	for _, n := range nodes {
		text.WriteString(n.Node.Content)
		text.WriteByte('\n')
	}
	return Tokens(text.String())
}

// noEvidence is the recall of an item without a haystack: nothing is found.
type noEvidence struct{}

func (noEvidence) Recall(context.Context, string, realm.RecallRequest) (realm.RecallResult, error) {
	return realm.RecallResult{}, nil
}
