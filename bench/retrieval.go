package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/agent/llm"
	"github.com/realm-memory/realm/reconsolidation"
	"github.com/realm-memory/realm/retrieval"
)

// Ingester is the write path as the bench drives it (construction.Pipeline).
type Ingester interface {
	Ingest(ctx context.Context, space string, obs []realm.Observation) (IngestResults, error)
}

// IngestResults is left abstract: the bench only needs how many observations went in.
type IngestResults = int

// Recaller is the read path as the bench drives it (retrieval.Retriever).
type Recaller interface {
	Recall(ctx context.Context, space string, req realm.RecallRequest) (realm.RecallResult, error)
}

// Reconsolidation modes of a retrieval run (realm bench locomo --reconsolidation).
const (
	ReconsolidationOn   = "on"   // after each question its trace is audited and the edits applied
	ReconsolidationOff  = "off"  // the graph stays as ingested
	ReconsolidationBoth = "both" // off, then on, over the same ingested graph
)

// Reconsolidator is the reconsolidation pipeline as the bench drives it
// (reconsolidation.Reconsolidator).
type Reconsolidator interface {
	Reconsolidate(ctx context.Context, space, traceID string, req reconsolidation.Request) (reconsolidation.Result, error)
	ReconsolidateInput(ctx context.Context, space, traceID string, in agent.AuditInput, source string) (reconsolidation.Result, error)
	Revert(ctx context.Context, space, id string) ([]realm.Edit, error)
}

// GraphReader reads what the bench checks of a space's graph (cypher.Store).
type GraphReader interface {
	EdgeWeights(ctx context.Context, space string) (map[string]float64, error)
	EditStats(ctx context.Context, space string) (realm.EditStats, error)
}

// RetrievalDeps are the pipelines a retrieval run drives. Reconsolidate and Graph are
// needed only when reconsolidation is on.
type RetrievalDeps struct {
	Ingest        Ingester
	Recall        Recaller
	Reconsolidate Reconsolidator
	Graph         GraphReader
	Embedder      realm.Embedder // the flat baselines'
	// Traces, when set, gives the flat baselines REALM's query focus as the read path's
	// trace records it (cypher.Store); without it the focus baseline takes the question.
	Traces TraceReader
}

// TraceReader reads the trace of a recall (cypher.Store).
type TraceReader interface {
	Trace(ctx context.Context, space, id string) (realm.Trace, error)
}

// RetrievalConfig configures an offline retrieval run on LoCoMo.
type RetrievalConfig struct {
	K               int    // evidence recall@K
	SpacePrefix     string // each sample goes to space SpacePrefix+sample id
	Limit           int    // questions per sample (0: all)
	Reconsolidation string // on (also when empty), off or both
	// Feedback, when set, replaces Reconsolidation: one run per mode (FeedbackModes), in
	// this order, over one ingestion, each reverted before the next.
	Feedback []string
	// CurveK are the k REALM is also asked at, with reconsolidation off, for the
	// recall-vs-context curve (K itself is the off run's); none without an off run.
	CurveK []int
	// WholeQuery is the weight the read path gives the question's vector beside its
	// focus's, for the focus baseline (0: retrieval.DefaultOptions's).
	WholeQuery float64
	// Questions, when set, gets one JSON line per question asked (RetrievedQuestion).
	Questions io.Writer
}

// RetrievedQuestion is what one question of a retrieval run returned, for reading misses.
type RetrievedQuestion struct {
	Sample          string          `json:"sample"`
	Index           int             `json:"index"` // in the sample's qa list
	Category        int             `json:"category"`
	Question        string          `json:"question"`
	Evidence        []string        `json:"evidence"`
	Reconsolidation string          `json:"reconsolidation"`
	Recall          float64         `json:"recall"`
	Nodes           []RetrievedNode `json:"nodes"`
}

// RetrievedNode is one returned node of a RetrievedQuestion, best first.
type RetrievedNode struct {
	ID      string   `json:"id"`
	Type    string   `json:"type"`
	Content string   `json:"content"`
	Sources []string `json:"sources"`
	Score   float64  `json:"score"`
	Depth   int      `json:"depth"`
}

// RetrievalReport holds every number of a retrieval run.
type RetrievalReport struct {
	K               int               `json:"k"`
	Samples         []string          `json:"samples"`
	Questions       int               `json:"questions"` // categories 1–4 with evidence
	Skipped         int               `json:"skipped_evidence"`
	Reconsolidation string            `json:"reconsolidation"` // on | off | both
	Runs            []RunReport       `json:"runs"`            // one per mode run over all samples: on first, then off
	Comparison      *Comparison       `json:"comparison,omitempty"`
	Feedback        []FeedbackReport  `json:"feedback,omitempty"` // with RetrievalConfig.Feedback, in its order
	Splits          []SplitReport     `json:"splits"`             // REALM and the flat baselines per split (SplitReports)
	Ingest          IngestReport      `json:"ingest"`
	Config          map[string]string `json:"config"`
	Elapsed         float64           `json:"elapsed_seconds"`
}

// Run returns the run with reconsolidation mode ("on" or "off"), or nil.
func (r RetrievalReport) Run(mode string) *RunReport {
	for i := range r.Runs {
		if r.Runs[i].Reconsolidation == mode {
			return &r.Runs[i]
		}
	}
	return nil
}

// Split returns the report of split name ("all", "tune" or "validate"), or nil.
func (r RetrievalReport) Split(name string) *SplitReport {
	for i := range r.Splits {
		if r.Splits[i].Split == name {
			return &r.Splits[i]
		}
	}
	return nil
}

// RunReport is REALM's evidence recall over all samples with reconsolidation on or off.
type RunReport struct {
	Reconsolidation string `json:"reconsolidation"` // on | off
	MethodReport
	FirstDepth map[string]int       `json:"evidence_first_depth"` // depth → questions whose evidence was first found there
	PerSample  map[string]CatRecall `json:"per_sample"`
	Seconds    float64              `json:"seconds"`         // asking the questions, reconsolidation included, its final revert not
	Edits      *EditReport          `json:"edits,omitempty"` // on only
}

// EditReport is what reconsolidation did in a run with it on, and what it cost. Edit
// counts are logged edits: one per directed edge, so a symmetric predicate counts twice.
type EditReport struct {
	EditTally
	DistinctEdges int `json:"distinct_edges_touched"` // directed edges edited at least once
	EdgesBefore   int `json:"edges_before"`
	EdgesAfter    int `json:"edges_after"` // after the last question, before the revert
	// Edge weights of all samples in HistogramBins bins over [0, 1], before the questions
	// and after the last one, before the revert (WeightHistogram).
	HistogramBefore []int64 `json:"edge_weight_histogram_before"`
	HistogramAfter  []int64 `json:"edge_weight_histogram_after"`

	// The self-audits' labels scored against the gold evidence, for this report only (the
	// auditor never sees the gold): nodes labelled key evidence or misleading, and how
	// many of them cover a gold turn of their question.
	KeyLabels        int `json:"key_labels"`
	KeyGold          int `json:"key_labels_gold"`
	MisleadingLabels int `json:"misleading_labels"`
	MisleadingGold   int `json:"misleading_labels_gold"`

	MedianMS      float64 `json:"median_audit_apply_ms"` // audit, validation and the one write transaction
	TotalSeconds  float64 `json:"audit_apply_seconds"`
	RevertSeconds float64 `json:"revert_seconds"`   // undoing every reconsolidation of the run, newest first
	Restored      bool    `json:"restored_exactly"` // after the revert every edge weight has its bits of before, added edges are gone
	Mismatches    int     `json:"restore_mismatches"`
}

// Comparison compares the two runs question by question (mode both).
type Comparison struct {
	Better int `json:"better"` // questions whose recall is higher with reconsolidation on
	Worse  int `json:"worse"`
	Same   int `json:"same"`
	// What the edits changed in the returned nodes, whatever the recall: questions whose
	// top K holds other memories, and questions with the same memories in another order.
	OtherNodes int `json:"other_nodes"`
	Reordered  int `json:"reordered"`
	// FirstSame of FirstAsked samples returned the same nodes in the same order both ways
	// on their first question, asked before any edit: the read path is deterministic.
	FirstSame  int `json:"first_question_same"`
	FirstAsked int `json:"first_questions"`
}

// MethodReport is one retrieval method's evidence recall per category and overall.
type MethodReport struct {
	ByCategory    CatRecall `json:"by_category"`
	Overall       float64   `json:"overall"`
	ContextTokens float64   `json:"mean_context_tokens"` // the returned texts, one per line (Tokens)
	// PromptTokens is, for REALM, the evidence as /answer puts it in the prompt: each
	// node's type, time and content, and the returned edges with their descriptions
	// (llm.AnswerEvidence).
	PromptTokens float64 `json:"mean_prompt_tokens,omitempty"`
	MedianMS     float64 `json:"median_recall_ms"`
}

// CatRecall maps a category name to its mean evidence recall.
type CatRecall map[string]float64

// IngestReport says what ingestion cost.
type IngestReport struct {
	Observations int     `json:"observations"`
	Seconds      float64 `json:"seconds"`
	PerSecond    float64 `json:"observations_per_second"`
	// What an observation cost, which load changes less than the time (the scale
	// benchmark's): statements and transactions sent, CPU of this process (agent,
	// embedder, pipeline) and of the Neo4j server, in ms.
	Statements   float64   `json:"statements_per_observation,omitempty"`
	Transactions float64   `json:"transactions_per_observation,omitempty"`
	CPUms        float64   `json:"cpu_ms_per_observation,omitempty"`
	ServerCPUms  float64   `json:"server_cpu_ms_per_observation,omitempty"`
	Load         []float64 `json:"load_before,omitempty"`
	// Where the time with Neo4j went, per observation: each statement's wall time from
	// sending it to its last record (Neo4j's work and the round trip), and the
	// transactions' wall time beyond their statements (sessions, commits).
	StatementMS map[string]float64 `json:"statement_ms_per_observation,omitempty"`
	CommitMS    float64            `json:"transaction_overhead_ms_per_observation,omitempty"`
	// VectorsWait: after the scale benchmark's first batch into a space, how long the
	// write path's read of the space's embeddings ran on (firstBatch).
	VectorsWait float64 `json:"vectors_wait_seconds,omitempty"`
}

// measure is what one retrieval returned for one question.
type measure struct {
	recall       float64
	tokens       int // Tokens of the returned texts, one per line
	promptTokens int // REALM only: Tokens of llm.AnswerEvidence
	ms           float64
}

// accumulator averages measures per category.
type accumulator struct {
	sum, n         map[int]float64
	tokens, prompt float64
	count          int
	latency        []float64
}

func newAccumulator() *accumulator {
	return &accumulator{sum: map[int]float64{}, n: map[int]float64{}}
}

func (a *accumulator) add(cat int, m measure) {
	a.sum[cat] += m.recall
	a.n[cat]++
	a.tokens += float64(m.tokens)
	a.prompt += float64(m.promptTokens)
	a.count++
	a.latency = append(a.latency, m.ms)
}

func (a *accumulator) report() MethodReport {
	r := MethodReport{ByCategory: CatRecall{}}
	var sum, n float64
	for cat := 1; cat <= 4; cat++ {
		if a.n[cat] > 0 {
			r.ByCategory[CategoryNames[cat]] = a.sum[cat] / a.n[cat]
			sum += a.sum[cat]
			n += a.n[cat]
		}
	}
	if n > 0 {
		r.Overall = sum / n
	}
	if a.count > 0 {
		r.ContextTokens = a.tokens / float64(a.count)
		r.PromptTokens = a.prompt / float64(a.count)
	}
	r.MedianMS = median(a.latency)
	return r
}

// run is what one mode's pass over the samples measured beyond each question's results.
type run struct {
	mode       string
	firstDepth map[string]int
	seconds    float64
	edits      *EditReport
	auditMS    []float64
	touched    map[string]bool
	// cited feedback: the calls made and the nodes they marked useful
	feedbacks, usefulMarked int
}

func newRun(mode string) *run {
	r := &run{mode: mode, firstDepth: map[string]int{}}
	if mode != ReconsolidationOff {
		r.edits, r.touched = &EditReport{Restored: true}, map[string]bool{}
	}
	return r
}

// report is the run's report over all results.
func (r *run) report(results []*questionResult) RunReport {
	acc, perSample := newAccumulator(), map[string]*accumulator{}
	for _, q := range results {
		m, ok := q.realm[r.mode]
		if !ok {
			continue
		}
		acc.add(q.Category, m.measure)
		if perSample[q.sample] == nil {
			perSample[q.sample] = newAccumulator()
		}
		perSample[q.sample].add(q.Category, m.measure)
	}
	out := RunReport{Reconsolidation: r.mode, MethodReport: acc.report(), FirstDepth: r.firstDepth, PerSample: map[string]CatRecall{}, Seconds: r.seconds, Edits: r.edits}
	for s, a := range perSample {
		out.PerSample[s] = a.report().ByCategory
	}
	if r.edits != nil {
		r.edits.MedianMS = median(r.auditMS)
		r.edits.DistinctEdges = len(r.touched)
	}
	return out
}

// question is one scored LoCoMo question.
type question struct {
	index int
	Question
}

// questionResult is everything measured on one question, by REALM in each run and by
// every flat baseline: every figure of a report's tables and curves is computed from these.
type questionResult struct {
	sample string
	question
	realm map[string]realmResult // by reconsolidation mode
	curve map[int]measure        // REALM with reconsolidation off at CurveK
	focus string                 // the read path's focus of the question ("": kept whole or unknown)
	flat  map[string]FlatRanking // by Baseline.String()
}

// realmResult is what REALM returned for one question in one run.
type realmResult struct {
	measure
	ids   []string // the nodes returned, best first
	found []string // the gold turns its top K covers
}

// RunRetrieval ingests every sample into its own space and asks its questions of
// categories 1–4 in order, scoring evidence recall@K for REALM and, in the same run, for
// the flat baselines (Baselines): raw turns or two-turn windows ranked by the same
// embedder, BM25 or both, with no graph, taken at K and at REALM's own mean context size.
//
// With reconsolidation on, each question's trace is audited right after its recall by
// the offline auditor on the system's own signals (the query, the recalled nodes, their
// scores, depths and edges; no answer, no feedback, never the gold evidence), as an
// unconfirmed self-audit (η/2), and its edits are applied before the next question.
// With both, the questions of a sample are asked twice over one ingestion: first with
// reconsolidation off, then on. After an "on" pass every reconsolidation it made is
// reverted, newest first, and the edge weights are compared to the bit with a snapshot
// taken before it, so that the space is left as ingested for the next run.
func RunRetrieval(ctx context.Context, samples []Sample, deps RetrievalDeps, cfg RetrievalConfig, progress io.Writer) (RetrievalReport, error) {
	start := time.Now()
	mode := cfg.Reconsolidation
	if mode == "" {
		mode = ReconsolidationOn
	}
	if cfg.WholeQuery == 0 {
		cfg.WholeQuery = retrieval.DefaultOptions().WholeQuery
	}
	var runs []*run // in the order they are asked
	switch mode {
	case ReconsolidationOn:
		runs = []*run{newRun(ReconsolidationOn)}
	case ReconsolidationOff:
		runs = []*run{newRun(ReconsolidationOff)}
	case ReconsolidationBoth:
		runs = []*run{newRun(ReconsolidationOff), newRun(ReconsolidationOn)}
	default:
		return RetrievalReport{}, realm.Errorf(realm.EInvalid, "reconsolidation must be on, off or both, not %q", cfg.Reconsolidation)
	}
	if len(cfg.Feedback) > 0 {
		runs, mode = nil, ReconsolidationOff
		for _, f := range cfg.Feedback {
			if !slices.Contains(FeedbackModes, f) {
				return RetrievalReport{}, realm.Errorf(realm.EInvalid, "feedback must be none, self, cited or answer, not %q", f)
			}
			runs = append(runs, newRun(feedbackRunMode(f)))
			if f != FeedbackNone {
				mode = ReconsolidationOn
			}
		}
	}
	if mode != ReconsolidationOff && (deps.Reconsolidate == nil || deps.Graph == nil) {
		return RetrievalReport{}, fmt.Errorf("reconsolidation %s needs a reconsolidator and a graph reader", mode)
	}
	rep := RetrievalReport{K: cfg.K, Reconsolidation: mode}
	var results []*questionResult // every question of every sample, in the order asked
	// Every sample is ingested before any question, so that every question meets the same
	// database: a space's recall should not depend on what other spaces hold (its full-text
	// fetch holds its own hits only since the space key, cypher.spaceKey), and this keeps
	// the figures independent of the order should anything still make it so.
	t0 := time.Now()
	if err := ingestSamples(ctx, deps.Ingest, samples, cfg.SpacePrefix, progress); err != nil {
		return rep, err
	}
	for _, s := range samples {
		space := cfg.SpacePrefix + s.ID
		rep.Ingest.Observations += len(s.Observations())
		if mode != ReconsolidationOff {
			// A space left with live edits (an interrupted run) is no longer "as
			// ingested": its off pass would not be the baseline it claims to be.
			st, err := deps.Graph.EditStats(ctx, space)
			if err != nil {
				return rep, err
			}
			if live := st.Added + st.Strengthened + st.Weakened; live > 0 {
				return rep, realm.Errorf(realm.EConflict, "space %s holds %d unreverted reconsolidation edits (an interrupted run?): delete the space or pick another --space-prefix", space, live)
			}
		}
	}
	rep.Ingest.Seconds = time.Since(t0).Seconds()
	for _, s := range samples {
		rep.Samples = append(rep.Samples, s.ID)
		space := cfg.SpacePrefix + s.ID
		obs := s.Observations()
		var sampleResults []*questionResult
		for qi, q := range s.Questions {
			rep.Skipped += len(q.Skipped)
			if q.Category < 1 || q.Category > 4 || len(q.Evidence) == 0 {
				continue
			}
			if cfg.Limit > 0 && len(sampleResults) >= cfg.Limit {
				break
			}
			sampleResults = append(sampleResults, &questionResult{sample: s.ID, question: question{qi, q}, realm: map[string]realmResult{}, curve: map[int]measure{}})
		}
		rep.Questions += len(sampleResults)
		results = append(results, sampleResults...)

		askAt := s.Sessions[len(s.Sessions)-1].Date.Add(24 * time.Hour)
		for _, r := range runs {
			if err := askSample(ctx, deps, cfg, s.ID, space, askAt, sampleResults, r, progress); err != nil {
				return rep, err
			}
		}
		if err := rankFlat(ctx, deps.Embedder, obs, cfg, sampleResults); err != nil {
			return rep, fmt.Errorf("%s: flat baselines: %w", s.ID, err)
		}
	}
	for _, mode := range []string{ReconsolidationOn, ReconsolidationOff, FeedbackCited, FeedbackAnswer} {
		for _, r := range runs {
			if r.mode == mode {
				rep.Runs = append(rep.Runs, r.report(results))
			}
		}
	}
	if mode == ReconsolidationBoth {
		rep.Comparison = compare(results)
	}
	for i, f := range cfg.Feedback {
		rep.Feedback = append(rep.Feedback, feedbackReport(f, runs[i], results))
	}
	rep.Splits = SplitReports(results, cfg.K, cfg.CurveK)
	if rep.Ingest.Seconds > 0 {
		rep.Ingest.PerSecond = float64(rep.Ingest.Observations) / rep.Ingest.Seconds
	}
	rep.Elapsed = time.Since(start).Seconds()
	return rep, nil
}

// rankFlat ranks the units of one sample for each of its questions, for every baseline.
func rankFlat(ctx context.Context, emb realm.Embedder, obs []realm.Observation, cfg RetrievalConfig, results []*questionResult) error {
	if len(results) == 0 {
		return nil
	}
	idx, err := NewFlatIndex(ctx, emb, obs)
	if err != nil {
		return err
	}
	for _, q := range results {
		if q.flat, err = idx.Rank(ctx, emb, FlatQuery{Question: q.Question.Question, Focus: q.focus, WholeQuery: cfg.WholeQuery}, cfg.K); err != nil {
			return err
		}
	}
	return nil
}

// compare compares the off and on runs question by question (mode both).
func compare(results []*questionResult) *Comparison {
	c := &Comparison{}
	for i, q := range results {
		off, on := q.realm[ReconsolidationOff], q.realm[ReconsolidationOn]
		if i == 0 || results[i-1].sample != q.sample {
			c.FirstAsked++
			if slices.Equal(off.ids, on.ids) {
				c.FirstSame++
			}
		}
		switch {
		case on.recall > off.recall:
			c.Better++
		case on.recall < off.recall:
			c.Worse++
		default:
			c.Same++
		}
		switch {
		case slices.Equal(off.ids, on.ids):
		case sameSet(off.ids, on.ids):
			c.Reordered++
		default:
			c.OtherNodes++
		}
	}
	return c
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func writeQuestion(w io.Writer, sample, mode string, q question, recall float64, nodes []realm.RecalledNode) error {
	out := RetrievedQuestion{Sample: sample, Index: q.index, Category: q.Category, Question: q.Question.Question,
		Evidence: q.Evidence, Reconsolidation: mode, Recall: recall, Nodes: make([]RetrievedNode, len(nodes))}
	for i, n := range nodes {
		out.Nodes[i] = RetrievedNode{ID: n.Node.ID, Type: string(n.Node.Type), Content: n.Node.Content, Sources: n.Node.Sources, Score: n.Score, Depth: n.Depth}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// recallOnce asks REALM one question at k and measures what it returned.
func recallOnce(ctx context.Context, rec Recaller, space string, q question, askAt time.Time, k int) (realm.RecallResult, measure, error) {
	t := time.Now()
	res, err := rec.Recall(ctx, space, realm.RecallRequest{Query: q.Question.Question, Time: &askAt, K: k})
	if err != nil {
		return res, measure{}, err
	}
	m := measure{ms: msSince(t)}
	sources := make([][]string, len(res.Nodes))
	for i, n := range res.Nodes {
		sources[i] = n.Node.Sources
	}
	m.recall, _ = EvidenceRecall(q.Evidence, sources, k)
	evidence, err := llm.AnswerEvidence(res.Nodes, res.Edges)
	if err != nil {
		return res, measure{}, err
	}
	m.tokens, m.promptTokens = contextTokens(res.Nodes), Tokens(evidence)
	return res, m, nil
}

// askSample asks the questions of one sample in order, in r's mode; with reconsolidation
// on it audits each recall and applies the edits before the next question (cited: marks
// useful the recalled nodes covering a gold turn, as a client's feedback), then reverts
// them all and checks the graph is back to the bit. With reconsolidation off it also asks
// each question at cfg.CurveK.
func askSample(ctx context.Context, deps RetrievalDeps, cfg RetrievalConfig, sample, space string, askAt time.Time, results []*questionResult, r *run, progress io.Writer) error {
	on := r.mode != ReconsolidationOff
	var snapshot map[string]float64
	var reconsolidations []string // with edits, in the order applied
	if on {
		var err error
		if snapshot, err = deps.Graph.EdgeWeights(ctx, space); err != nil {
			return err
		}
		r.edits.EdgesBefore += len(snapshot)
		r.edits.HistogramBefore = addWeightHistogram(r.edits.HistogramBefore, snapshot)
	}
	sampleAcc := newAccumulator()
	started := time.Now()
	for n, q := range results {
		res, m, err := recallOnce(ctx, deps.Recall, space, q.question, askAt, cfg.K)
		if err != nil {
			return fmt.Errorf("%s question %d: %w", sample, q.index, err)
		}
		ids := make([]string, len(res.Nodes))
		for i, n := range res.Nodes {
			ids[i] = n.Node.ID
		}
		q.realm[r.mode] = realmResult{measure: m, ids: ids, found: goldFound(q.Evidence, res.Nodes, cfg.K)}
		sampleAcc.add(q.Category, m)
		r.firstDepth[firstEvidenceDepth(q.Evidence, res.Nodes)]++
		if cfg.Questions != nil {
			if err := writeQuestion(cfg.Questions, sample, r.mode, q.question, m.recall, res.Nodes); err != nil {
				return err
			}
		}
		if deps.Traces != nil && len(q.realm) == 1 {
			// The focus depends on the space's common names, which no edit changes.
			tr, err := deps.Traces.Trace(ctx, space, res.TraceID)
			if err != nil {
				return fmt.Errorf("%s question %d: trace: %w", sample, q.index, err)
			}
			q.focus = tr.Focus
		}
		if !on {
			for _, k := range cfg.CurveK {
				if k == cfg.K {
					q.curve[k] = m
					continue
				}
				if _, q.curve[k], err = recallOnce(ctx, deps.Recall, space, q.question, askAt, k); err != nil {
					return fmt.Errorf("%s question %d at k=%d: %w", sample, q.index, k, err)
				}
			}
		}

		if on {
			t := time.Now()
			var out reconsolidation.Result
			switch r.mode {
			case FeedbackCited:
				var useful []string
				out, useful, err = citedFeedback(ctx, deps.Reconsolidate, space, res.TraceID, q.Evidence, res.Nodes, cfg.K)
				if len(useful) > 0 {
					r.feedbacks++
					r.usefulMarked += len(useful)
				}
			case FeedbackAnswer:
				out, err = answerFeedback(ctx, deps.Reconsolidate, space, res.TraceID, q.Answer)
				if q.Answer != "" {
					r.feedbacks++
				}
			default:
				out, err = deps.Reconsolidate.ReconsolidateInput(ctx, space, res.TraceID,
					agent.AuditInput{Query: q.Question.Question, Nodes: res.Nodes, Edges: res.Edges}, realm.EditSourceAuto)
			}
			if err != nil {
				return fmt.Errorf("%s question %d: reconsolidate: %w", sample, q.index, err)
			}
			ms := msSince(t)
			r.auditMS = append(r.auditMS, ms)
			r.edits.TotalSeconds += ms / 1000
			r.countEdits(out, q.Evidence, res.Nodes)
			if len(out.Edits) > 0 {
				reconsolidations = append(reconsolidations, out.ReconsolidationID)
			}
		}
		if progress != nil {
			fmt.Fprintf(progress, "\r%s, reconsolidation %s: question %d/%d, recall@%d so far %.3f   ", sample, r.mode, n+1, len(results), cfg.K, sampleAcc.report().Overall)
		}
	}
	r.seconds += time.Since(started).Seconds()
	if progress != nil {
		fmt.Fprintln(progress)
	}
	if !on {
		return nil
	}
	after, err := deps.Graph.EdgeWeights(ctx, space)
	if err != nil {
		return err
	}
	r.edits.EdgesAfter += len(after)
	r.edits.HistogramAfter = addWeightHistogram(r.edits.HistogramAfter, after)
	t := time.Now()
	for i := len(reconsolidations) - 1; i >= 0; i-- {
		if _, err := deps.Reconsolidate.Revert(ctx, space, reconsolidations[i]); err != nil {
			return fmt.Errorf("%s: revert: %w", sample, err)
		}
	}
	r.edits.RevertSeconds += time.Since(t).Seconds()
	restored, err := deps.Graph.EdgeWeights(ctx, space)
	if err != nil {
		return err
	}
	if m := weightMismatches(snapshot, restored); m > 0 {
		r.edits.Restored = false
		r.edits.Mismatches += m
	}
	return nil
}

// countEdits adds one reconsolidation's edits and labels to the run's report.
func (r *run) countEdits(out reconsolidation.Result, gold []string, nodes []realm.RecalledNode) {
	e := r.edits
	e.count(out)
	for _, ed := range out.Edits {
		r.touched[ed.From+">"+ed.To+">"+string(ed.Predicate)] = true
	}
	for _, n := range nodes {
		isGold := coversGold(gold, n.Node.Sources)
		switch out.Labels[n.Node.ID] {
		case realm.KeyEvidence:
			e.KeyLabels++
			if isGold {
				e.KeyGold++
			}
		case realm.Misleading:
			e.MisleadingLabels++
			if isGold {
				e.MisleadingGold++
			}
		}
	}
}

// coversGold reports whether a node derived from sources covers a gold turn (REALM.md §6:
// at most MaxEvidenceSources observations).
func coversGold(gold, sources []string) bool {
	if len(sources) > MaxEvidenceSources {
		return false
	}
	for _, s := range sources {
		if slices.Contains(gold, s) {
			return true
		}
	}
	return false
}

// weightMismatches counts the edges of a and b that differ: present in one only, or with
// weights of different bits.
func weightMismatches(a, b map[string]float64) int {
	n := 0
	for k, w := range a {
		if v, ok := b[k]; !ok || math.Float64bits(v) != math.Float64bits(w) {
			n++
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			n++
		}
	}
	return n
}

// ingestBatch is how many observations ingestAll sends per call, as `realm ingest` does.
const ingestBatch = 25

// parallelSpaces is how many samples ingestSamples ingests at once.
const parallelSpaces = 4

// ingestSamples ingests each sample into the space SpacePrefix+its id, parallelSpaces
// at a time: a space's write path waits on the agent, the embedder and the store in
// turn, and spaces ingested together fill those waits. Each space's graph is the one it
// gets alone (its neighbourhoods read only its own memories, construction's
// TestIngestIsolated). The first error stops the others.
func ingestSamples(ctx context.Context, ing Ingester, samples []Sample, prefix string, progress io.Writer) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	out := &lockedWriter{w: progress}
	var wg sync.WaitGroup
	slots := make(chan struct{}, parallelSpaces)
	for _, s := range samples {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			if ctx.Err() != nil {
				return
			}
			if err := ingestAll(ctx, ing, prefix+s.ID, s.Observations(), out, s.ID); err != nil {
				cancel(err)
			}
		}()
	}
	wg.Wait()
	return context.Cause(ctx)
}

// lockedWriter serializes the writes of concurrent ingestions' progress (nil: none).
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	if l.w == nil {
		return len(p), nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// ingestAll sends a sample's observations in batches of ingestBatch, showing progress.
func ingestAll(ctx context.Context, ing Ingester, space string, obs []realm.Observation, progress io.Writer, label string) error {
	return ingestBatches(ctx, ing, space, obs, ingestBatch, progress, label)
}

// ingestBatches sends observations batch at a time, showing progress.
func ingestBatches(ctx context.Context, ing Ingester, space string, obs []realm.Observation, batch int, progress io.Writer, label string) error {
	start := time.Now()
	for i := 0; i < len(obs); i += batch {
		end := min(i+batch, len(obs))
		if _, err := ing.Ingest(ctx, space, obs[i:end]); err != nil {
			return fmt.Errorf("%s: ingest: %w", label, err)
		}
		if progress != nil {
			fmt.Fprintf(progress, "\r%s", ProgressLine(label+" ingest", end, len(obs), time.Since(start)))
		}
	}
	if progress != nil {
		fmt.Fprintln(progress)
	}
	return nil
}

// ProgressLine renders "label [#####     ] 50/100  12.3/s  ETA 4s".
func ProgressLine(label string, done, total int, elapsed time.Duration) string {
	const width = 24
	filled := 0
	if total > 0 {
		filled = done * width / total
	}
	rate := float64(done) / math.Max(elapsed.Seconds(), 1e-9)
	eta := "?"
	if rate > 0 {
		eta = (time.Duration(float64(total-done)/rate) * time.Second).Round(time.Second).String()
	}
	return fmt.Sprintf("%s [%s%s] %d/%d  %.1f/s  ETA %s   ", label,
		strings.Repeat("#", filled), strings.Repeat(" ", width-filled), done, total, rate, eta)
}

// firstEvidenceDepth is the smallest depth at which a returned node covering a gold
// turn was reached, or "none".
func firstEvidenceDepth(gold []string, nodes []realm.RecalledNode) string {
	want := map[string]bool{}
	for _, g := range gold {
		want[g] = true
	}
	best := -1
	for _, n := range nodes {
		if len(n.Node.Sources) > MaxEvidenceSources {
			continue
		}
		for _, src := range n.Node.Sources {
			if want[src] && (best < 0 || n.Depth < best) {
				best = n.Depth
			}
		}
	}
	if best < 0 {
		return "none"
	}
	return fmt.Sprint(best)
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
