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
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/reconsolidation"
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
	ReconsolidateInput(ctx context.Context, space, traceID string, in reconsolidation.AuditInput, source string) (reconsolidation.Result, error)
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
	Embedder      realm.Embedder // the flat baseline's
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
	Runs            []RunReport       `json:"runs"`            // one per mode run: on first, then off
	Comparison      *Comparison       `json:"comparison,omitempty"`
	Flat            MethodReport      `json:"flat_baseline"`
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

// RunReport is REALM's evidence recall over all samples with reconsolidation on or off.
type RunReport struct {
	Reconsolidation string `json:"reconsolidation"` // on | off
	MethodReport
	FirstDepth map[string]int       `json:"evidence_first_depth"` // depth → questions whose evidence was first found there
	PerSample  map[string]CatRecall `json:"per_sample"`
	Seconds    float64              `json:"seconds"`         // asking the questions, reconsolidation included, its final revert not
	Edits      *EditReport          `json:"edits,omitempty"` // on only
	Feedback   *FeedbackReport      `json:"feedback,omitempty"`
}

// EditReport is what reconsolidation did in a run with it on, and what it cost. Edit
// counts are logged edits: one per directed edge, so a symmetric predicate counts twice.
type EditReport struct {
	Audits        int `json:"audits"` // one per question
	WithEdits     int `json:"audits_with_edits"`
	Added         int `json:"added"`
	Strengthened  int `json:"strengthened"`
	Weakened      int `json:"weakened"`
	Rejected      int `json:"rejected"`               // proposals failing validation or c_min
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
	ContextTokens float64   `json:"mean_context_tokens"`
	MedianMS      float64   `json:"median_recall_ms"`
}

// CatRecall maps a category name to its mean evidence recall.
type CatRecall map[string]float64

// IngestReport says what ingestion cost.
type IngestReport struct {
	Observations int     `json:"observations"`
	Seconds      float64 `json:"seconds"`
	PerSecond    float64 `json:"observations_per_second"`
}

// accumulator averages recalls per category.
type accumulator struct {
	sum, n  map[int]float64
	tokens  float64
	count   int
	latency []float64
}

func newAccumulator() *accumulator {
	return &accumulator{sum: map[int]float64{}, n: map[int]float64{}}
}

func (a *accumulator) add(cat int, recall float64, tokens int, ms float64) {
	a.sum[cat] += recall
	a.n[cat]++
	a.tokens += float64(tokens)
	a.count++
	a.latency = append(a.latency, ms)
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
	}
	r.MedianMS = median(a.latency)
	return r
}

// run accumulates one mode's results over the samples.
type run struct {
	mode       string
	acc        *accumulator
	firstDepth map[string]int
	perSample  map[string]CatRecall
	seconds    float64
	recalls    []float64  // per question, in the order asked, over all samples
	returned   [][]string // per question, the ids returned, best first
	edits      *EditReport
	feedback   *FeedbackReport // with --feedback
	auditMS    []float64
	touched    map[string]bool
}

func newRun(mode string) *run {
	r := &run{mode: mode, acc: newAccumulator(), firstDepth: map[string]int{}, perSample: map[string]CatRecall{}}
	if mode != ReconsolidationOff {
		r.edits, r.touched = &EditReport{Restored: true}, map[string]bool{}
	}
	return r
}

func (r *run) report() RunReport {
	out := RunReport{Reconsolidation: r.mode, MethodReport: r.acc.report(), FirstDepth: r.firstDepth, PerSample: r.perSample, Seconds: r.seconds, Edits: r.edits, Feedback: r.feedback}
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

// RunRetrieval ingests every sample into its own space and asks its questions of
// categories 1–4 in order, scoring evidence recall@K for REALM and, in the same run, for
// a flat baseline: the top-K raw turns by cosine with the same embedder, no graph.
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
				return RetrievalReport{}, realm.Errorf(realm.EInvalid, "feedback must be none, self or cited, not %q", f)
			}
			r := newRun(runMode(f))
			r.feedback = &FeedbackReport{Feedback: f}
			runs = append(runs, r)
			if f != FeedbackNone {
				mode = ReconsolidationOn
			}
		}
	}
	if mode != ReconsolidationOff && (deps.Reconsolidate == nil || deps.Graph == nil) {
		return RetrievalReport{}, fmt.Errorf("reconsolidation %s needs a reconsolidator and a graph reader", mode)
	}
	rep := RetrievalReport{K: cfg.K, Reconsolidation: mode}
	flatAcc := newAccumulator()
	var ingestSeconds float64
	var cmp *Comparison
	if mode == ReconsolidationBoth {
		cmp = &Comparison{}
	}
	for _, s := range samples {
		rep.Samples = append(rep.Samples, s.ID)
		space := cfg.SpacePrefix + s.ID
		obs := s.Observations()
		t0 := time.Now()
		if err := ingestAll(ctx, deps.Ingest, space, obs, progress, s.ID); err != nil {
			return rep, err
		}
		ingestSeconds += time.Since(t0).Seconds()
		rep.Ingest.Observations += len(obs)
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

		var questions []question
		for qi, q := range s.Questions {
			rep.Skipped += len(q.Skipped)
			if q.Category < 1 || q.Category > 4 || len(q.Evidence) == 0 {
				continue
			}
			if cfg.Limit > 0 && len(questions) >= cfg.Limit {
				break
			}
			questions = append(questions, question{qi, q})
		}
		rep.Questions += len(questions)

		turns, err := embedTurns(ctx, deps.Embedder, obs)
		if err != nil {
			return rep, err
		}
		for _, q := range questions {
			t := time.Now()
			flatSources, flatText, err := flatTopK(ctx, deps.Embedder, turns, q.Question.Question, cfg.K)
			if err != nil {
				return rep, err
			}
			flatRecall, _ := EvidenceRecall(q.Evidence, flatSources, cfg.K)
			flatAcc.add(q.Category, flatRecall, Tokens(flatText), float64(time.Since(t).Microseconds())/1000)
		}

		askAt := s.Sessions[len(s.Sessions)-1].Date.Add(24 * time.Hour)
		for _, r := range runs {
			first := len(r.recalls)
			if err := askSample(ctx, deps, cfg, s.ID, space, askAt, questions, r, progress); err != nil {
				return rep, err
			}
			if cmp != nil && r.mode == ReconsolidationOn && len(questions) > 0 {
				cmp.add(runs[0], r, first)
			}
		}
	}
	for _, mode := range []string{ReconsolidationOn, ReconsolidationOff, FeedbackCited} {
		for _, r := range runs {
			if r.mode == mode {
				rep.Runs = append(rep.Runs, r.report())
			}
		}
	}
	rep.Comparison = cmp
	rep.Flat = flatAcc.report()
	rep.Ingest.Seconds = ingestSeconds
	if ingestSeconds > 0 {
		rep.Ingest.PerSecond = float64(rep.Ingest.Observations) / ingestSeconds
	}
	rep.Elapsed = time.Since(start).Seconds()
	return rep, nil
}

// add compares the questions of one sample, from index first on, of the off and on runs.
func (c *Comparison) add(off, on *run, first int) {
	c.FirstAsked++
	if slices.Equal(off.returned[first], on.returned[first]) {
		c.FirstSame++
	}
	for i := first; i < len(on.recalls); i++ {
		switch {
		case on.recalls[i] > off.recalls[i]:
			c.Better++
		case on.recalls[i] < off.recalls[i]:
			c.Worse++
		default:
			c.Same++
		}
		a, b := slices.Clone(off.returned[i]), slices.Clone(on.returned[i])
		switch {
		case slices.Equal(a, b):
		case sameSet(a, b):
			c.Reordered++
		default:
			c.OtherNodes++
		}
	}
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

// askSample asks the questions of one sample in order, in r's mode; with reconsolidation
// on it audits each recall and applies the edits before the next question, then reverts
// them all and checks the graph is back to the bit.
func askSample(ctx context.Context, deps RetrievalDeps, cfg RetrievalConfig, sample, space string, askAt time.Time, questions []question, r *run, progress io.Writer) error {
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
	follow := newSampleFeedback(questions)
	started := time.Now()
	for n, q := range questions {
		t := time.Now()
		res, err := deps.Recall.Recall(ctx, space, realm.RecallRequest{Query: q.Question.Question, Time: &askAt, K: cfg.K})
		if err != nil {
			return fmt.Errorf("%s question %d: %w", sample, q.index, err)
		}
		ms := float64(time.Since(t).Microseconds()) / 1000
		sources := make([][]string, len(res.Nodes))
		var text strings.Builder
		for i, n := range res.Nodes {
			sources[i] = n.Node.Sources
			text.WriteString(n.Node.Content)
			text.WriteByte('\n')
		}
		recall, _ := EvidenceRecall(q.Evidence, sources, cfg.K)
		r.acc.add(q.Category, recall, Tokens(text.String()), ms)
		if r.feedback != nil {
			follow.observe(r.feedback, n, len(questions), q, recall, res.Nodes, cfg.K, Tokens(text.String()))
		}
		r.recalls = append(r.recalls, recall)
		ids := make([]string, len(res.Nodes))
		for i, n := range res.Nodes {
			ids[i] = n.Node.ID
		}
		r.returned = append(r.returned, ids)
		sampleAcc.add(q.Category, recall, 0, 0)
		r.firstDepth[firstEvidenceDepth(q.Evidence, res.Nodes)]++
		if cfg.Questions != nil {
			if err := writeQuestion(cfg.Questions, sample, r.mode, q, recall, res.Nodes); err != nil {
				return err
			}
		}

		if on {
			t := time.Now()
			var out reconsolidation.Result
			var err error
			if r.mode == FeedbackCited {
				var useful []string
				out, useful, err = citedFeedback(ctx, deps.Reconsolidate, space, res.TraceID, q.Evidence, res.Nodes, cfg.K)
				if len(useful) > 0 {
					r.feedback.Feedbacks++
					r.feedback.UsefulMarked += len(useful)
				}
			} else {
				out, err = deps.Reconsolidate.ReconsolidateInput(ctx, space, res.TraceID,
					reconsolidation.AuditInput{Query: q.Question.Question, Nodes: res.Nodes, Edges: res.Edges}, realm.EditSourceAuto)
			}
			if err != nil {
				return fmt.Errorf("%s question %d: reconsolidate: %w", sample, q.index, err)
			}
			ms := float64(time.Since(t).Microseconds()) / 1000
			r.auditMS = append(r.auditMS, ms)
			r.edits.TotalSeconds += ms / 1000
			r.countEdits(out, q.Evidence, res.Nodes)
			if len(out.Edits) > 0 {
				reconsolidations = append(reconsolidations, out.ReconsolidationID)
			}
		}
		if progress != nil {
			fmt.Fprintf(progress, "\r%s, reconsolidation %s: question %d/%d, recall@%d so far %.3f   ", sample, r.mode, n+1, len(questions), cfg.K, r.acc.report().Overall)
		}
	}
	r.seconds += time.Since(started).Seconds()
	r.perSample[sample] = sampleAcc.report().ByCategory
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
	e.Audits++
	if len(out.Edits) > 0 {
		e.WithEdits++
	}
	e.Rejected += len(out.Rejected)
	for _, ed := range out.Edits {
		switch ed.Action {
		case realm.EditAdd:
			e.Added++
		case realm.EditStrengthen:
			e.Strengthened++
		case realm.EditWeaken:
			e.Weakened++
		}
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

// ingestAll sends a sample's observations in batches, showing progress.
func ingestAll(ctx context.Context, ing Ingester, space string, obs []realm.Observation, progress io.Writer, label string) error {
	const batch = 25
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

type embeddedTurn struct {
	id, text string
	vec      []float32
}

func embedTurns(ctx context.Context, emb realm.Embedder, obs []realm.Observation) ([]embeddedTurn, error) {
	texts := make([]string, len(obs))
	for i, o := range obs {
		texts[i] = o.Speaker + ": " + o.Content
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	out := make([]embeddedTurn, len(obs))
	for i, o := range obs {
		out[i] = embeddedTurn{id: o.ID, text: texts[i], vec: vecs[i]}
	}
	return out, nil
}

// flatTopK is the baseline: the k raw turns most similar to the question.
func flatTopK(ctx context.Context, emb realm.Embedder, turns []embeddedTurn, question string, k int) ([][]string, string, error) {
	qv, err := emb.Embed(ctx, []string{question})
	if err != nil {
		return nil, "", err
	}
	type scored struct {
		i     int
		score float64
	}
	all := make([]scored, len(turns))
	for i, t := range turns {
		var dot float64
		for j := range t.vec {
			dot += float64(t.vec[j]) * float64(qv[0][j])
		}
		all[i] = scored{i, dot}
	}
	sort.SliceStable(all, func(a, b int) bool { return all[a].score > all[b].score })
	var sources [][]string
	var text strings.Builder
	for _, s := range all[:min(k, len(all))] {
		sources = append(sources, []string{turns[s.i].id})
		text.WriteString(turns[s.i].text)
		text.WriteByte('\n')
	}
	return sources, text.String(), nil
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

// Markdown renders the report as tables: REALM with reconsolidation on and off side by
// side when both ran, the flat baseline, and what reconsolidation did and cost.
func (r RetrievalReport) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Evidence recall@%d on %d questions (categories 1–4) of %s.\n\n", r.K, r.Questions, strings.Join(r.Samples, ", "))
	on, off := r.Run(ReconsolidationOn), r.Run(ReconsolidationOff)
	var cols []*RunReport
	header, rule := "| category |", "|---|"
	for _, run := range []*RunReport{on, off} {
		if run != nil {
			cols = append(cols, run)
			header += " REALM, reconsolidation " + run.Reconsolidation + " |"
			rule += "---|"
		}
	}
	both := on != nil && off != nil
	if both {
		header += " on − off |"
		rule += "---|"
	}
	fmt.Fprintf(&b, "%s flat baseline |\n%s---|\n", header, rule)
	row := func(label string, bold bool, value func(MethodReport) float64, format string) {
		cell := func(format string, v float64) string {
			if bold {
				return "**" + fmt.Sprintf(format, v) + "**"
			}
			return fmt.Sprintf(format, v)
		}
		fmt.Fprintf(&b, "| %s |", label)
		for _, c := range cols {
			fmt.Fprintf(&b, " %s |", cell(format, value(c.MethodReport)))
		}
		if both {
			delta := strings.Replace(format, "%", "%+", 1)
			fmt.Fprintf(&b, " %s |", cell(delta, value(on.MethodReport)-value(off.MethodReport)))
		}
		fmt.Fprintf(&b, " %s |\n", cell(format, value(r.Flat)))
	}
	for cat := 1; cat <= 4; cat++ {
		name := CategoryNames[cat]
		row(fmt.Sprintf("%d %s", cat, name), false, func(m MethodReport) float64 { return m.ByCategory[name] }, "%.3f")
	}
	row("**overall**", true, func(m MethodReport) float64 { return m.Overall }, "%.3f")
	row("mean context (tokens)", false, func(m MethodReport) float64 { return m.ContextTokens }, "%.0f")
	row("median recall latency (ms)", false, func(m MethodReport) float64 { return m.MedianMS }, "%.1f")
	b.WriteString("\n")
	for _, c := range cols {
		fmt.Fprintf(&b, "Depth at which evidence was first found, reconsolidation %s: %s\n\n", c.Reconsolidation, depthLine(c.FirstDepth))
	}
	if r.Comparison != nil {
		c := r.Comparison
		fmt.Fprintf(&b, "Per question, on against off: recall better for %d, worse for %d, the same for %d; the top %d held other memories for %d questions and the same in another order for %d. "+
			"The first question of each sample, asked before any edit, returned the same nodes in the same order both ways in %d of %d samples.\n\n",
			c.Better, c.Worse, c.Same, r.K, c.OtherNodes, c.Reordered, c.FirstSame, c.FirstAsked)
	}
	if on != nil && on.Edits != nil {
		e := on.Edits
		fmt.Fprintf(&b, "Reconsolidation on (offline auditor, the system's own signals, η/2): %d audits, %d with edits; "+
			"edges added %d, strengthened %d, weakened %d (logged edits, a symmetric edge counts twice; %d distinct edges), %d proposals rejected; "+
			"memory edges %d before the questions, %d after. ",
			e.Audits, e.WithEdits, e.Added, e.Strengthened, e.Weakened, e.DistinctEdges, e.Rejected, e.EdgesBefore, e.EdgesAfter)
		fmt.Fprintf(&b, "Against the gold evidence (for this report only): %d of %d nodes labelled key evidence cover a gold turn, %d of %d labelled misleading do. ",
			e.KeyGold, e.KeyLabels, e.MisleadingGold, e.MisleadingLabels)
		restored := "restored every edge weight to the bit"
		if !e.Restored {
			restored = fmt.Sprintf("left %d edges different from before", e.Mismatches)
		}
		against := ""
		if off != nil {
			against = fmt.Sprintf(" against %.1f s with it off", off.Seconds)
		}
		fmt.Fprintf(&b, "Cost: audit and apply %.1f ms median per question (%.1f s in all); the questions took %.1f s%s; reverting every reconsolidation afterwards took %.1f s and %s.\n\n",
			e.MedianMS, e.TotalSeconds, on.Seconds, against, e.RevertSeconds, restored)
	}
	fmt.Fprintf(&b, "Ingestion: %d observations in %.1f s (%.1f observations/s), once per sample for all runs. Malformed evidence strings skipped: %d.\n",
		r.Ingest.Observations, r.Ingest.Seconds, r.Ingest.PerSecond, r.Skipped)
	return b.String()
}

// depthLine renders "0: 503  1: 15  none: 232".
func depthLine(d map[string]int) string {
	var keys []string
	for k := range d {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s: %d", k, d[k]))
	}
	return strings.Join(parts, "  ")
}
