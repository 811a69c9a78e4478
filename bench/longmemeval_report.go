package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/realm-memory/realm"
)

// LongMemEvalReport holds every number of a LongMemEval run.
type LongMemEvalReport struct {
	Mode       string `json:"mode"` // retrieval-only | full
	K          int    `json:"k"`
	Prime      int    `json:"prime"`
	Items      int    `json:"items"`
	Abstention int    `json:"abstention_items"` // not scored for retrieval: they have no evidence
	// Retrieval per question type and overall, abstention items left out.
	Retrieval        map[string]LMERetrievalScores `json:"retrieval_by_type"`
	RetrievalOverall LMERetrievalScores            `json:"retrieval_overall"`
	// The flat baseline's, when it ran (every item scored it).
	Flat        map[string]LMERetrievalScores `json:"flat_baseline_by_type,omitempty"`
	FlatOverall *LMERetrievalScores           `json:"flat_baseline_overall,omitempty"`
	// Baselines are the hybrid flat baselines over every item, in LMEBaselines order, each
	// at k then at REALM's context size, when every item scored them.
	Baselines []LMEBaselineReport     `json:"baselines,omitempty"`
	Accuracy  *LMEAccuracy            `json:"accuracy,omitempty"` // full mode
	Cost      map[string]LMEStageCost `json:"cost"`               // per stage, over every item
	LLMCost   Cost                    `json:"llm_cost"`           // per LLM stage, per observation and per question
	Ingest    LMEIngestReport         `json:"ingest"`
	Resumed   int                     `json:"resumed_items"` // read back from the checkpoint
	Results   []LMEItemResult         `json:"results"`
	Config    map[string]string       `json:"config,omitempty"`
	Elapsed   float64                 `json:"elapsed_seconds"`
}

// LMEBaselineReport is one flat baseline at one selection over every item.
type LMEBaselineReport struct {
	Baseline
	Selection string `json:"selection"` // k, or budget: REALM's context size for each question
	LMERetrievalScores
}

// LMERetrievalScores are mean retrieval scores over the questions with evidence.
type LMERetrievalScores struct {
	ContextTokens float64 `json:"mean_context_tokens"` // over every question with evidence
	Questions     int     `json:"questions"`           // with answer sessions
	SessionRecall float64 `json:"session_recall"`
	SessionNDCG   float64 `json:"session_ndcg"`
	TurnQuestions int     `json:"turn_questions"` // with has_answer turns
	TurnRecall    float64 `json:"turn_recall"`
	TurnNDCG      float64 `json:"turn_ndcg"`
}

// LMEAccuracy is the judged accuracy: per question type without the abstention items,
// the abstention items apart, and overall over every item, as LongMemEval reports it.
type LMEAccuracy struct {
	ByType       map[string]LMECount `json:"by_type"`
	Abstention   LMECount            `json:"abstention"`
	Overall      LMECount            `json:"overall"`
	TaskAveraged float64             `json:"task_averaged"` // mean of the per-type accuracies
	AnswerErrors int                 `json:"answer_errors"` // no valid answer from the LLM: scored wrong
}

// LMECount is Correct of Total.
type LMECount struct {
	Correct  int     `json:"correct"`
	Total    int     `json:"total"`
	Accuracy float64 `json:"accuracy"`
}

func (a *LMECount) add(correct bool) {
	a.Total++
	if correct {
		a.Correct++
	}
	a.Accuracy = float64(a.Correct) / float64(a.Total)
}

// LMEIngestReport says what went in.
type LMEIngestReport struct {
	Observations int `json:"observations"`
	Truncated    int `json:"truncated_turns"`
	Empty        int `json:"empty_turns"`
}

// SummarizeLongMemEval computes the report from the per-item results.
func SummarizeLongMemEval(results []LMEItemResult, mode string, k, prime int) LongMemEvalReport {
	rep := LongMemEvalReport{Mode: mode, K: k, Prime: prime, Items: len(results),
		Retrieval: map[string]LMERetrievalScores{}, Cost: map[string]LMEStageCost{}, Results: results}
	type sums struct{ n, tn, sr, sn, tr, tnd, tokens, scored float64 }
	byType, flatByType := map[string]*sums{}, map[string]*sums{}
	all, flatAll := &sums{}, &sums{}
	baselines := map[string]*sums{}
	add := func(s *sums, r LMERetrieval) {
		if r.SessionScored || r.TurnScored {
			s.scored++
			s.tokens += float64(r.ContextTokens)
		}
		if r.SessionScored {
			s.n++
			s.sr += r.SessionRecall
			s.sn += r.SessionNDCG
		}
		if r.TurnScored {
			s.tn++
			s.tr += r.TurnRecall
			s.tnd += r.TurnNDCG
		}
	}
	flat := len(results) > 0
	usage := realm.Usage{}
	var acc *LMEAccuracy
	if mode == LMEModeFull {
		acc = &LMEAccuracy{ByType: map[string]LMECount{}}
	}
	for _, r := range results {
		rep.Ingest.Observations += r.Observations
		rep.Ingest.Truncated += r.Truncated
		rep.Ingest.Empty += r.Empty
		usage.Add(r.Usage)
		for stage, c := range r.Cost {
			t := rep.Cost[stage]
			t.StageUsage = t.StageUsage.Plus(c.StageUsage)
			t.Seconds += c.Seconds
			rep.Cost[stage] = t
		}
		if r.Abstention {
			rep.Abstention++
		}
		if acc != nil && r.Correct != nil {
			if r.AnswerError != "" {
				acc.AnswerErrors++
			}
			acc.Overall.add(*r.Correct)
			if r.Abstention {
				acc.Abstention.add(*r.Correct)
			} else {
				a := acc.ByType[r.Type]
				a.add(*r.Correct)
				acc.ByType[r.Type] = a
			}
		}
		if byType[r.Type] == nil {
			byType[r.Type], flatByType[r.Type] = &sums{}, &sums{}
		}
		add(byType[r.Type], r.Retrieval)
		add(all, r.Retrieval)
		if r.Flat == nil {
			flat = false
		} else {
			add(flatByType[r.Type], *r.Flat)
			add(flatAll, *r.Flat)
		}
		for name, b := range r.Baselines {
			if baselines[name] == nil {
				baselines[name] = &sums{}
			}
			add(baselines[name], b)
		}
	}
	mean := func(s *sums) LMERetrievalScores {
		out := LMERetrievalScores{Questions: int(s.n), TurnQuestions: int(s.tn)}
		if s.scored > 0 {
			out.ContextTokens = s.tokens / s.scored
		}
		if s.n > 0 {
			out.SessionRecall, out.SessionNDCG = s.sr/s.n, s.sn/s.n
		}
		if s.tn > 0 {
			out.TurnRecall, out.TurnNDCG = s.tr/s.tn, s.tnd/s.tn
		}
		return out
	}
	for typ, s := range byType {
		if s.n > 0 || s.tn > 0 {
			rep.Retrieval[typ] = mean(s)
		}
	}
	rep.RetrievalOverall = mean(all)
	if flat {
		rep.Flat = map[string]LMERetrievalScores{}
		for typ, s := range flatByType {
			if s.n > 0 || s.tn > 0 {
				rep.Flat[typ] = mean(s)
			}
		}
		o := mean(flatAll)
		rep.FlatOverall = &o
		for _, sel := range []string{SelectionK, SelectionBudget} {
			for _, b := range LMEBaselines {
				if s := baselines[LMEBaselineName(b, sel)]; s != nil {
					rep.Baselines = append(rep.Baselines, LMEBaselineReport{Baseline: b, Selection: sel, LMERetrievalScores: mean(s)})
				}
			}
		}
	}
	rep.LLMCost = NewCost(usage, rep.Ingest.Observations, rep.Items)
	if acc != nil {
		var sum float64
		for _, a := range acc.ByType {
			sum += a.Accuracy
		}
		if len(acc.ByType) > 0 {
			acc.TaskAveraged = sum / float64(len(acc.ByType))
		}
		rep.Accuracy = acc
	}
	return rep
}

// Markdown renders the report as tables: retrieval (and accuracy) per question type,
// then the cost per stage.
func (r LongMemEvalReport) Markdown() string {
	var b strings.Builder
	full := r.Accuracy != nil
	fmt.Fprintf(&b, "LongMemEval, %s, k = %d: %d questions, %d of them abstention questions (no evidence: left out of retrieval",
		r.Mode, r.K, r.Items, r.Abstention)
	if full {
		b.WriteString(", judged apart")
	}
	b.WriteString(")")
	if r.Prime > 0 {
		fmt.Fprintf(&b, "; each item primed with %d templated questions, reconsolidated after each", r.Prime)
	}
	if r.Resumed > 0 {
		fmt.Fprintf(&b, "; %d items read back from the checkpoint", r.Resumed)
	}
	b.WriteString(".\n\n")
	header := fmt.Sprintf("| question type | questions | session recall@%d | session NDCG@%d | turn recall@%d | turn NDCG@%d |", r.K, r.K, r.K, r.K)
	rule := "|---|---|---|---|---|---|"
	if full {
		header += " accuracy |"
		rule += "---|"
	}
	fmt.Fprintf(&b, "%s\n%s\n", header, rule)
	row := func(label string, n int, s LMERetrievalScores, acc *LMECount, bold bool) {
		cell := func(v string) string {
			if bold {
				return "**" + v + "**"
			}
			return v
		}
		scores := func(n int, a, c float64) string {
			if n == 0 {
				return "– | –"
			}
			return cell(fmt.Sprintf("%.3f", a)) + " | " + cell(fmt.Sprintf("%.3f", c))
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s |", label, n, scores(s.Questions, s.SessionRecall, s.SessionNDCG), scores(s.TurnQuestions, s.TurnRecall, s.TurnNDCG))
		if full {
			if acc == nil || acc.Total == 0 {
				b.WriteString(" – |")
			} else {
				fmt.Fprintf(&b, " %s (%d/%d) |", cell(fmt.Sprintf("%.3f", acc.Accuracy)), acc.Correct, acc.Total)
			}
		}
		b.WriteString("\n")
	}
	for _, typ := range LongMemEvalTypes {
		s, ok := r.Retrieval[typ]
		var acc *LMECount
		if full {
			if a, found := r.Accuracy.ByType[typ]; found {
				acc, ok = &a, true
			}
		}
		if ok {
			n := s.Questions
			if acc != nil {
				n = acc.Total
			}
			row(typ, n, s, acc, false)
		}
	}
	if full {
		row("abstention", r.Abstention, LMERetrievalScores{}, &r.Accuracy.Abstention, false)
		row("**overall**", r.Items, r.RetrievalOverall, &r.Accuracy.Overall, true)
	} else {
		row("**overall**", r.Items, r.RetrievalOverall, nil, true)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "Recall@%d is the share of the evidence among the first %d sessions (answer_session_ids) or turns (has_answer) that the recalled nodes derive from, best first; "+
		"a node derived from more than %d of them is context and counts for none. %d questions have evidence turns.", r.K, r.K, MaxEvidenceSources, r.RetrievalOverall.TurnQuestions)
	if full {
		a := r.Accuracy
		fmt.Fprintf(&b, " Accuracy by an LLM judge with LongMemEval's per-type rules; overall counts every question, abstention included; task-averaged accuracy %.3f.", a.TaskAveraged)
		if a.AnswerErrors > 0 {
			fmt.Fprintf(&b, " %d questions got no valid answer from the LLM and count as wrong.", a.AnswerErrors)
		}
	}
	if r.FlatOverall != nil {
		fmt.Fprintf(&b, "\n\nFlat baseline: the top %d raw turns by cosine with the question, same embedder, no graph, scored the same way.\n\n", r.K)
		fmt.Fprintf(&b, "| question type | session recall@%d | session NDCG@%d | turn recall@%d | turn NDCG@%d |\n|---|---|---|---|---|\n", r.K, r.K, r.K, r.K)
		flatRow := func(label string, s LMERetrievalScores) {
			fmt.Fprintf(&b, "| %s | %.3f | %.3f | %.3f | %.3f |\n", label, s.SessionRecall, s.SessionNDCG, s.TurnRecall, s.TurnNDCG)
		}
		for _, typ := range LongMemEvalTypes {
			if s, ok := r.Flat[typ]; ok {
				flatRow(typ, s)
			}
		}
		flatRow("**overall**", *r.FlatOverall)
		b.WriteString("\n")
		b.WriteString(r.baselinesMarkdown())
	}
	b.WriteString("\n\n| stage | LLM calls | prompt tokens | completion tokens | failures | fallbacks | seconds |\n|---|---|---|---|---|---|---|\n")
	for _, stage := range LMEStages {
		c, ok := r.Cost[stage]
		if !ok {
			continue
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %.1f |\n", stage, c.Calls, c.PromptTokens, c.CompletionTokens, c.Failures, c.Fallbacks, c.Seconds)
	}
	if r.LLMCost.Total.Calls > 0 {
		fmt.Fprintf(&b, "\nLLM usage per stage (the warm-up questions' recalls and answers are counted with the questions'):\n\n%s", r.LLMCost.Markdown())
	} else {
		b.WriteString("\nNo LLM calls: the offline agent built the graph.\n")
	}
	fmt.Fprintf(&b, "\nIngestion: %d observations (turns), %d cut to %d bytes, %d empty left out.\n",
		r.Ingest.Observations, r.Ingest.Truncated, LongMemEvalMaxContent, r.Ingest.Empty)
	return b.String()
}

// lmeCheckpointHeader is the first line of a checkpoint: a rerun must use the same
// settings and the same data, or its report would mix two runs.
type lmeCheckpointHeader struct {
	Version     int    `json:"longmemeval_checkpoint"`
	Mode        string `json:"mode"`
	K           int    `json:"k"`
	Prime       int    `json:"prime"`
	SpacePrefix string `json:"space_prefix"`
	Data        string `json:"data"`                  // the data file as given
	DataSHA256  string `json:"data_sha256,omitempty"` // its content, when the caller knows it
}

// lmeCheckpointVersion is written in the header. Version 1 recorded neither the data nor
// the space prefix, so a rerun on another file reused its results: it is refused.
const lmeCheckpointVersion = 2

// sameRun reports whether a checkpoint of header h may be resumed by a run of want: the
// same settings, and the same data, by content when both know it (a file moved or
// renamed still resumes), else by name.
func (h lmeCheckpointHeader) sameRun(want lmeCheckpointHeader) bool {
	sameData := h.Data == want.Data
	if h.DataSHA256 != "" && want.DataSHA256 != "" {
		sameData = h.DataSHA256 == want.DataSHA256
	}
	return sameData && h.Version == want.Version && h.Mode == want.Mode && h.K == want.K && h.Prime == want.Prime &&
		h.SpacePrefix == want.SpacePrefix
}

func (h lmeCheckpointHeader) String() string {
	s := fmt.Sprintf("mode %s, k %d, prime %d, space prefix %q, data %q", h.Mode, h.K, h.Prime, h.SpacePrefix, h.Data)
	if h.DataSHA256 != "" {
		s += fmt.Sprintf(" (sha256 %.12s)", h.DataSHA256)
	}
	return s
}

// lmeCheckpoint appends one JSON line per item done.
type lmeCheckpoint struct{ f *os.File }

// openLMECheckpoint reads the items done from path (none when it does not exist), checks
// its header, and opens it for appending. A last line cut by a crash is dropped: the
// file is rewritten with the complete lines first.
func openLMECheckpoint(path string, want lmeCheckpointHeader) (*lmeCheckpoint, map[string]LMEItemResult, error) {
	done := map[string]LMEItemResult{}
	var lines [][]byte
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, nil, err
	default:
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(make([]byte, 1<<20), 1<<28)
		for n := 0; sc.Scan(); n++ {
			line := slices.Clone(sc.Bytes())
			if n == 0 {
				var h lmeCheckpointHeader
				if json.Unmarshal(line, &h) != nil || h.Version == 0 {
					return nil, nil, realm.Errorf(realm.EInvalid, "%s is not a LongMemEval checkpoint", path)
				}
				if h.Version != want.Version {
					return nil, nil, realm.Errorf(realm.EConflict, "checkpoint %s is of version %d, which did not record its data file; this run writes version %d: remove it or use another --checkpoint",
						path, h.Version, want.Version)
				}
				if !h.sameRun(want) {
					return nil, nil, realm.Errorf(realm.EConflict, "checkpoint %s was written with %s; this run has %s: remove it or use another --checkpoint",
						path, h, want)
				}
				continue
			}
			var r LMEItemResult
			if json.Unmarshal(line, &r) != nil || r.QuestionID == "" {
				break // cut by a crash: everything after it is redone
			}
			done[r.QuestionID] = r
			lines = append(lines, line)
		}
	}
	head, _ := json.Marshal(want)
	var buf bytes.Buffer
	buf.Write(head)
	buf.WriteByte('\n')
	for _, l := range lines {
		buf.Write(l)
		buf.WriteByte('\n')
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return nil, nil, err
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(filepath.Clean(path), os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, nil, err
	}
	return &lmeCheckpoint{f: f}, done, nil
}

func (c *lmeCheckpoint) write(r LMEItemResult) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if _, err := c.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	return c.f.Sync()
}

func (c *lmeCheckpoint) close() { _ = c.f.Close() }

// Charts are the report's bar charts by name: retrieval per question type (session and
// turn recall@k and NDCG@k) and, in full mode, accuracy per type, abstention and overall.
func (r LongMemEvalReport) Charts() map[string]BarChart {
	var types []string
	for _, typ := range LongMemEvalTypes {
		if _, ok := r.Retrieval[typ]; ok {
			types = append(types, typ)
		}
	}
	groups := append(slices.Clone(types), "overall")
	score := func(get func(LMERetrievalScores) float64) []float64 {
		var v []float64
		for _, typ := range types {
			v = append(v, get(r.Retrieval[typ]))
		}
		return append(v, get(r.RetrievalOverall))
	}
	charts := map[string]BarChart{"retrieval": {
		Title: fmt.Sprintf("LongMemEval retrieval at k = %d (%s)", r.K, r.Mode), YLabel: "mean over questions", Groups: groups, YMax: 1,
		Series: []BarSeries{
			{Name: fmt.Sprintf("session recall@%d", r.K), Values: score(func(s LMERetrievalScores) float64 { return s.SessionRecall })},
			{Name: fmt.Sprintf("session NDCG@%d", r.K), Values: score(func(s LMERetrievalScores) float64 { return s.SessionNDCG })},
			{Name: fmt.Sprintf("turn recall@%d", r.K), Values: score(func(s LMERetrievalScores) float64 { return s.TurnRecall })},
			{Name: fmt.Sprintf("turn NDCG@%d", r.K), Values: score(func(s LMERetrievalScores) float64 { return s.TurnNDCG })},
		},
	}}
	if r.FlatOverall != nil {
		flat := func(get func(LMERetrievalScores) float64) []float64 {
			var v []float64
			for _, typ := range types {
				v = append(v, get(r.Flat[typ]))
			}
			return append(v, get(*r.FlatOverall))
		}
		c := charts["retrieval"]
		c.Series = append(c.Series,
			BarSeries{Name: fmt.Sprintf("flat session recall@%d", r.K), Values: flat(func(s LMERetrievalScores) float64 { return s.SessionRecall })},
			BarSeries{Name: fmt.Sprintf("flat turn recall@%d", r.K), Values: flat(func(s LMERetrievalScores) float64 { return s.TurnRecall })})
		charts["retrieval"] = c
	}
	if a := r.Accuracy; a != nil {
		var names []string
		var values []float64
		for _, typ := range LongMemEvalTypes {
			if c, ok := a.ByType[typ]; ok {
				names, values = append(names, typ), append(values, c.Accuracy)
			}
		}
		names = append(names, "abstention", "overall")
		values = append(values, a.Abstention.Accuracy, a.Overall.Accuracy)
		charts["accuracy"] = BarChart{Title: "LongMemEval accuracy (LLM judge)", YLabel: "accuracy", Groups: names, YMax: 1,
			Series: []BarSeries{{Name: "accuracy", Values: values}}}
	}
	return charts
}

// baselinesMarkdown is REALM against the hybrid flat baselines over every question, at k
// and at REALM's own context size for each question; "" without them.
func (r LongMemEvalReport) baselinesMarkdown() string {
	if len(r.Baselines) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nREALM against the flat baselines over every question with evidence: dense on turns and the hybrid (%.1f·dense + %.1f·BM25, min-max normalised per question) on turns and on two-turn windows, "+
		"at k=%d and at the context REALM returned for the same question (units in rank order until the next would exceed it), all scored as REALM is.\n\n", HybridDense, HybridBM25, r.K)
	fmt.Fprintf(&b, "| retriever | units | selection | session recall@%d | session NDCG@%d | turn recall@%d | turn NDCG@%d | mean context (tokens) |\n|---|---|---|---|---|---|---|---|\n", r.K, r.K, r.K, r.K)
	row := func(name, units, sel string, s LMERetrievalScores) {
		fmt.Fprintf(&b, "| %s | %s | %s | %.3f | %.3f | %.3f | %.3f | %.0f |\n", name, units, sel, s.SessionRecall, s.SessionNDCG, s.TurnRecall, s.TurnNDCG, s.ContextTokens)
	}
	row("REALM", "nodes", fmt.Sprintf("k=%d", r.K), r.RetrievalOverall)
	row(MethodDense, UnitTurns, fmt.Sprintf("k=%d", r.K), *r.FlatOverall)
	for _, f := range r.Baselines {
		sel := fmt.Sprintf("k=%d", r.K)
		if f.Selection == SelectionBudget {
			sel = "≤ REALM's context"
		}
		row(f.Method, f.Units, sel, f.LMERetrievalScores)
	}
	return b.String()
}
