package bench

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/realm-memory/realm"
)

// PaperLoCoMo is the paper's LoCoMo accuracy with gpt-4o-mini as backbone and judge
// (REALM.md §6), reconsolidation on, by category name and "overall"; PaperLoCoMoOff is
// its overall accuracy without reconsolidation.
var (
	PaperLoCoMo    = map[string]float64{"multi-hop": 0.6454, "temporal": 0.7664, "open-domain": 0.5833, "single-hop": 0.8157, "overall": 0.7597}
	PaperLoCoMoOff = 0.7396
)

// LoCoMoReport holds every number of a full LoCoMo run; it is computed from the
// samples' results alone (NewLoCoMoReport), so a resumed run reports the same.
type LoCoMoReport struct {
	Protocol  string                `json:"protocol"` // locomo-full
	Samples   []string              `json:"samples"`
	K         int                   `json:"k"`
	Limit     int                   `json:"limit"`
	Settings  map[string]string     `json:"settings"` // models, embedder, data, flags
	Info      map[string]string     `json:"info"`     // version, commit, Go
	Runs      []LoCoMoVariantReport `json:"runs"`
	Ingest    LoCoMoIngest          `json:"ingest"`
	Cost      Cost                  `json:"cost"` // write path per observation, read path per question over all runs
	PerSample []SampleResult        `json:"per_sample"`
}

// LoCoMoIngest is what ingesting the samples did and cost.
type LoCoMoIngest struct {
	Observations  int     `json:"observations"`
	NotIntegrated int     `json:"not_integrated"`
	Memories      int     `json:"memories"`
	Seconds       float64 `json:"seconds"`
	PerSecond     float64 `json:"observations_per_second"`
	Histogram     []int64 `json:"edge_weight_histogram"` // as ingested, all samples
}

// LoCoMoVariantReport is one run (variant) over all samples.
type LoCoMoVariantReport struct {
	LoCoMoVariant
	Order          string             `json:"order"`
	Questions      int                `json:"questions"`
	Accuracy       Accuracy           `json:"accuracy"`
	Recall         CatRecall          `json:"evidence_recall"` // recall@K by category (1–4, with evidence)
	RecallOverall  float64            `json:"evidence_recall_overall"`
	FirstDepth     map[string]int     `json:"evidence_first_depth"` // questions with evidence, all categories
	CitedGold      int                `json:"answers_citing_gold"`  // answers citing a node that covers a gold turn
	AnswerFailures int                `json:"answer_failures"`
	JudgeFailures  int                `json:"judge_failures"`
	PerSample      map[string]float64 `json:"per_sample_accuracy"` // overall (1–4) per sample
	Edits          *EditCounts        `json:"edits,omitempty"`
	HistogramAfter []int64            `json:"edge_weight_histogram_after,omitempty"`
	Cost           Cost               `json:"cost"` // this run's questions
	MedianAnswerMS float64            `json:"median_answer_ms"`
	Seconds        float64            `json:"seconds"`
}

// Accuracy is the judge's mean score by category; Overall covers categories 1–4 (each
// question weighs the same), the adversarial category 5 is reported apart.
type Accuracy struct {
	ByCategory  map[string]float64 `json:"by_category"`
	Counts      map[string]int     `json:"counts"` // questions per category, adversarial included
	Overall     float64            `json:"overall"`
	Adversarial float64            `json:"adversarial"`
}

// Run returns the run named name, or nil.
func (r LoCoMoReport) Run(name string) *LoCoMoVariantReport {
	for i := range r.Runs {
		if r.Runs[i].Name == name {
			return &r.Runs[i]
		}
	}
	return nil
}

// NewLoCoMoReport computes the report of samples run with cfg and variants.
func NewLoCoMoReport(cfg LoCoMoConfig, variants []LoCoMoVariant, samples []SampleResult) LoCoMoReport {
	k := cfg.K
	if k <= 0 {
		k = 10
	}
	rep := LoCoMoReport{Protocol: locomoProtocol, K: k, Limit: cfg.Limit, Settings: map[string]string{}, Info: map[string]string{},
		Samples: []string{}, PerSample: samples}
	maps.Copy(rep.Settings, cfg.Settings)
	maps.Copy(rep.Info, cfg.Info)
	write := realm.Usage{}
	read := realm.Usage{}
	questions := 0
	rep.Ingest.Histogram = make([]int64, HistogramBins)
	for _, s := range samples {
		rep.Samples = append(rep.Samples, s.Sample)
		rep.Ingest.Observations += s.Observations
		rep.Ingest.NotIntegrated += s.NotIntegrated
		rep.Ingest.Memories += s.Memories
		rep.Ingest.Seconds += s.IngestSeconds
		addHistogram(rep.Ingest.Histogram, s.HistogramBefore)
		write.Add(s.IngestUsage)
	}
	if rep.Ingest.Seconds > 0 {
		rep.Ingest.PerSecond = float64(rep.Ingest.Observations) / rep.Ingest.Seconds
	}
	for _, v := range variants {
		vr := newVariantReport(v, samples, k)
		for _, s := range samples {
			for _, r := range s.Variants {
				if r.Variant == v.Name {
					for _, q := range r.Questions {
						read.Add(q.Usage)
					}
				}
			}
		}
		questions += vr.Questions
		rep.Runs = append(rep.Runs, vr)
	}
	all := realm.Usage{}
	all.Add(write)
	all.Add(read)
	rep.Cost = NewCost(all, rep.Ingest.Observations, questions)
	return rep
}

func addHistogram(dst, src []int64) {
	for i := range min(len(dst), len(src)) {
		dst[i] += src[i]
	}
}

// newVariantReport aggregates one variant's questions over the samples.
func newVariantReport(v LoCoMoVariant, samples []SampleResult, k int) LoCoMoVariantReport {
	vr := LoCoMoVariantReport{LoCoMoVariant: v, Order: v.Order(), FirstDepth: map[string]int{}, PerSample: map[string]float64{},
		Accuracy: Accuracy{ByCategory: map[string]float64{}, Counts: map[string]int{}}, Recall: CatRecall{}}
	score, n := map[int]float64{}, map[int]int{}
	recall, recallN := map[int]float64{}, map[int]int{}
	usage := realm.Usage{}
	var ms []float64
	if v.Reconsolidation == ReconsolidationOn {
		vr.Edits = &EditCounts{Restored: true}
		vr.HistogramAfter = make([]int64, HistogramBins)
	}
	for _, s := range samples {
		var r *VariantResult
		for i := range s.Variants {
			if s.Variants[i].Variant == v.Name {
				r = &s.Variants[i]
			}
		}
		if r == nil {
			continue
		}
		vr.Seconds += r.Seconds
		if r.Edits != nil && vr.Edits != nil {
			vr.Edits.add(*r.Edits)
			addHistogram(vr.HistogramAfter, r.HistogramAfter)
		}
		var sampleSum float64
		var sampleN int
		for _, q := range r.Questions {
			vr.Questions++
			usage.Add(q.Usage)
			ms = append(ms, q.AnswerMS)
			score[q.Category] += q.Score
			n[q.Category]++
			if q.Category <= 4 {
				sampleSum += q.Score
				sampleN++
			}
			if q.AnswerError != "" {
				vr.AnswerFailures++
			}
			if q.JudgeError != "" {
				vr.JudgeFailures++
			}
			if q.CitedGold {
				vr.CitedGold++
			}
			if q.HasEvidence {
				vr.FirstDepth[q.FirstDepth]++
				if q.Category <= 4 {
					recall[q.Category] += q.Recall
					recallN[q.Category]++
				}
			}
		}
		if sampleN > 0 {
			vr.PerSample[s.Sample] = sampleSum / float64(sampleN)
		}
	}
	var sum, cnt, rsum float64
	var rcnt int
	for cat := 1; cat <= 5; cat++ {
		name := CategoryNames[cat]
		if n[cat] == 0 {
			continue
		}
		vr.Accuracy.Counts[name] = n[cat]
		if cat == 5 {
			vr.Accuracy.Adversarial = score[cat] / float64(n[cat])
			continue
		}
		vr.Accuracy.ByCategory[name] = score[cat] / float64(n[cat])
		sum += score[cat]
		cnt += float64(n[cat])
		if recallN[cat] > 0 {
			vr.Recall[name] = recall[cat] / float64(recallN[cat])
			rsum += recall[cat]
			rcnt += recallN[cat]
		}
	}
	if cnt > 0 {
		vr.Accuracy.Overall = sum / cnt
	}
	if rcnt > 0 {
		vr.RecallOverall = rsum / float64(rcnt)
	}
	vr.Cost = NewCost(usage, 0, vr.Questions)
	vr.MedianAnswerMS = median(ms)
	return vr
}

// categoryRows are the accuracy rows of a report: categories 1–4, overall, adversarial.
var categoryRows = []struct{ label, key string }{
	{"1 multi-hop", "multi-hop"}, {"2 temporal", "temporal"}, {"3 open-domain", "open-domain"}, {"4 single-hop", "single-hop"},
	{"**overall** (1–4)", "overall"}, {"5 adversarial (apart)", "adversarial"},
}

func (a Accuracy) value(key string) (float64, bool) {
	switch key {
	case "overall":
		return a.Overall, len(a.ByCategory) > 0
	case "adversarial":
		return a.Adversarial, a.Counts["adversarial"] > 0
	}
	v, ok := a.ByCategory[key]
	return v, ok
}

func (a Accuracy) count(key string) int {
	switch key {
	case "overall":
		n := 0
		for k, c := range a.Counts {
			if k != "adversarial" {
				n += c
			}
		}
		return n
	}
	return a.Counts[key]
}

// onOffPairs are the runs with reconsolidation on and off that differ in nothing else.
func (r LoCoMoReport) onOffPairs() [][2]*LoCoMoVariantReport {
	var out [][2]*LoCoMoVariantReport
	for i := range r.Runs {
		on := &r.Runs[i]
		if on.Reconsolidation != ReconsolidationOn || on.Seed != nil {
			continue
		}
		for j := range r.Runs {
			off := &r.Runs[j]
			if off.Reconsolidation == ReconsolidationOff && off.Strategy == on.Strategy {
				out = append(out, [2]*LoCoMoVariantReport{on, off})
			}
		}
	}
	return out
}

func cell(v float64, ok bool, format string) string {
	if !ok {
		return "–"
	}
	return fmt.Sprintf(format, v)
}

// Markdown renders the report as tables (the charts are added by ChartsMarkdown).
func (r LoCoMoReport) Markdown() string {
	var b strings.Builder
	b.WriteString("# LoCoMo, full protocol\n\n")
	questions := 0
	if len(r.Runs) > 0 {
		questions = r.Runs[0].Questions
	}
	fmt.Fprintf(&b, "%d samples (%s), %d questions per run, asked in order unless shuffled; each recalled (K = %d), answered from the recalled memories only by the answer model, graded CORRECT/WRONG by the judge",
		len(r.Samples), strings.Join(r.Samples, ", "), questions, r.K)
	if r.Settings["judge_model"] != "" {
		fmt.Fprintf(&b, " (%s, temperature 0, %s run(s) averaged)", r.Settings["judge_model"], r.Settings["judge_runs"])
	}
	b.WriteString("; with reconsolidation on, each answer's trace is reconsolidated with the answer and its citations as the system's own signal before the next question, and all of a run's edits are reverted after it.\n\n")
	var settings []string
	for _, k := range slices.Sorted(maps.Keys(r.Settings)) {
		settings = append(settings, fmt.Sprintf("%s `%s`", k, r.Settings[k]))
	}
	if len(settings) > 0 {
		fmt.Fprintf(&b, "Settings: %s.", strings.Join(settings, ", "))
	}
	if d := r.Info["data"]; d != "" {
		fmt.Fprintf(&b, " Data `%s`.", d)
	}
	if c := r.Info["commit"]; c != "" {
		dirty := ""
		if r.Info["dirty"] == "true" {
			dirty = " with uncommitted changes"
		}
		fmt.Fprintf(&b, " Built from commit `%s`%s", c, dirty)
		if g := r.Info["go"]; g != "" {
			fmt.Fprintf(&b, " with %s", g)
		}
		b.WriteString(".")
	}
	b.WriteString("\n\n## Accuracy (LLM judge)\n\n")
	header, rule := "| category | questions |", "|---|---|"
	for _, v := range r.Runs {
		header += " " + v.Name + " |"
		rule += "---|"
	}
	fmt.Fprintf(&b, "%s paper (gpt-4o-mini, reconsolidation on) |\n%s---|\n", header, rule)
	for _, row := range categoryRows {
		count := 0
		if len(r.Runs) > 0 {
			count = r.Runs[0].Accuracy.count(row.key)
		}
		fmt.Fprintf(&b, "| %s | %d |", row.label, count)
		for _, v := range r.Runs {
			val, ok := v.Accuracy.value(row.key)
			fmt.Fprintf(&b, " %s |", cell(val, ok, "%.3f"))
		}
		p, ok := PaperLoCoMo[row.key]
		fmt.Fprintf(&b, " %s |\n", cell(p, ok, "%.3f"))
	}
	fmt.Fprintf(&b, "| evidence recall@%d (1–4) | |", r.K)
	for _, v := range r.Runs {
		fmt.Fprintf(&b, " %.3f |", v.RecallOverall)
	}
	b.WriteString(" – |\n| answers citing a gold turn | |")
	for _, v := range r.Runs {
		fmt.Fprintf(&b, " %d |", v.CitedGold)
	}
	b.WriteString(" – |\n| no answer / no grade (scored 0) | |")
	for _, v := range r.Runs {
		fmt.Fprintf(&b, " %d / %d |", v.AnswerFailures, v.JudgeFailures)
	}
	b.WriteString(" – |\n\n")
	if pairs := r.onOffPairs(); len(pairs) > 0 {
		b.WriteString("Reconsolidation on − off (same strategy, in order):")
		for _, p := range pairs {
			fmt.Fprintf(&b, " %s: %+.3f overall (%.3f vs %.3f)", p[0].Strategy, p[0].Accuracy.Overall-p[1].Accuracy.Overall, p[0].Accuracy.Overall, p[1].Accuracy.Overall)
			var cats []string
			for _, row := range categoryRows[:4] {
				a, ok1 := p[0].Accuracy.value(row.key)
				c, ok2 := p[1].Accuracy.value(row.key)
				if ok1 && ok2 {
					cats = append(cats, fmt.Sprintf("%s %+.3f", row.key, a-c))
				}
			}
			fmt.Fprintf(&b, " [%s];", strings.Join(cats, ", "))
		}
		fmt.Fprintf(&b, " the paper: %+.3f (%.3f vs %.3f).\n\n", PaperLoCoMo["overall"]-PaperLoCoMoOff, PaperLoCoMo["overall"], PaperLoCoMoOff)
	}
	if len(r.Samples) > 1 {
		b.WriteString("Accuracy (1–4) per sample:\n\n| sample |")
		for _, v := range r.Runs {
			b.WriteString(" " + v.Name + " |")
		}
		b.WriteString("\n|---|" + strings.Repeat("---|", len(r.Runs)) + "\n")
		for _, s := range r.Samples {
			fmt.Fprintf(&b, "| %s |", s)
			for _, v := range r.Runs {
				val, ok := v.PerSample[s]
				fmt.Fprintf(&b, " %s |", cell(val, ok, "%.3f"))
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}

	b.WriteString("## Depth at which evidence was first found\n\nQuestions with gold evidence, by the depth of the first returned node covering a gold turn (0: a seed):\n\n| depth |")
	for _, v := range r.Runs {
		b.WriteString(" " + v.Name + " |")
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(r.Runs)) + "\n")
	for _, d := range r.depthKeys() {
		fmt.Fprintf(&b, "| %s |", d)
		for _, v := range r.Runs {
			fmt.Fprintf(&b, " %d |", v.FirstDepth[d])
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")

	b.WriteString("## Reconsolidation and edge weights\n\n")
	for _, v := range r.Runs {
		if v.Edits == nil {
			continue
		}
		e := v.Edits
		restored := "reverting them all restored every edge weight to the bit"
		if !e.Restored {
			restored = fmt.Sprintf("reverting them all left %d edges different", e.Mismatches)
		}
		fmt.Fprintf(&b, "- %s: %d audits, %d with edits; edges added %d, strengthened %d, weakened %d (logged edits, a symmetric edge counts twice), %d proposals rejected; %s.\n",
			v.Name, e.Audits, e.WithEdits, e.Added, e.Strengthened, e.Weakened, e.Rejected, restored)
	}
	b.WriteString("\nEdge weights of all samples' graphs, as ingested and after each run with reconsolidation on (before its revert):\n\n| weight | as ingested |")
	var after []LoCoMoVariantReport
	for _, v := range r.Runs {
		if v.HistogramAfter != nil {
			after = append(after, v)
			b.WriteString(" after " + v.Name + " |")
		}
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---|", len(after)) + "\n")
	for i, label := range histogramLabels() {
		fmt.Fprintf(&b, "| %s | %d |", label, at(r.Ingest.Histogram, i))
		for _, v := range after {
			fmt.Fprintf(&b, " %d |", at(v.HistogramAfter, i))
		}
		b.WriteString("\n")
	}

	b.WriteString("\n## Cost\n\nLLM usage per stage: the write path per observation (ingestion, once per sample), the read path per question over all runs (recall stages, answer, audit, judge). Latency is the time the stage spent waiting on the LLM.\n\n")
	b.WriteString(r.Cost.Markdown())
	b.WriteString("\nPer question, by run:\n\n| run | calls | prompt tokens | completion tokens | LLM latency (ms) | median recall + answer (ms) | seconds |\n|---|---|---|---|---|---|---|\n")
	for _, v := range r.Runs {
		p := v.Cost.PerQuestion
		fmt.Fprintf(&b, "| %s | %.2f | %.1f | %.1f | %.1f | %.1f | %.1f |\n", v.Name, p.Calls, p.PromptTokens, p.CompletionTokens, p.LatencyMS, v.MedianAnswerMS, v.Seconds)
	}
	fmt.Fprintf(&b, "\nIngestion: %d observations → %d memories in %.1f s (%.2f observations/s); %d observations not integrated (pending or failed).\n",
		r.Ingest.Observations, r.Ingest.Memories, r.Ingest.Seconds, r.Ingest.PerSecond, r.Ingest.NotIntegrated)
	return b.String()
}

func at(xs []int64, i int) int64 {
	if i < len(xs) {
		return xs[i]
	}
	return 0
}

func histogramLabels() []string {
	out := make([]string, HistogramBins)
	for i := range out {
		out[i] = fmt.Sprintf("%.1f–%.1f", float64(i)/HistogramBins, float64(i+1)/HistogramBins)
	}
	return out
}

// depthKeys are the depths found in any run, numerically, "none" last.
func (r LoCoMoReport) depthKeys() []string {
	return depthOrder(func(yield func(map[string]int)) {
		for _, v := range r.Runs {
			yield(v.FirstDepth)
		}
	})
}

func depthOrder(each func(yield func(map[string]int))) []string {
	set := map[string]bool{}
	each(func(m map[string]int) {
		for k := range m {
			set[k] = true
		}
	})
	keys := slices.Collect(maps.Keys(set))
	sort.Slice(keys, func(i, j int) bool {
		a, errA := strconv.Atoi(keys[i])
		c, errC := strconv.Atoi(keys[j])
		switch {
		case errA == nil && errC == nil:
			return a < c
		case errA == nil:
			return true
		case errC == nil:
			return false
		}
		return keys[i] < keys[j]
	})
	return keys
}

// Charts are the report's bar charts: accuracy per category by run, reconsolidation on
// against off, the depth at which evidence was first found, the edge-weight histogram
// before and after, and tokens per unit by stage.
func (r LoCoMoReport) Charts() []Chart {
	groups := make([]string, len(categoryRows))
	for i, row := range categoryRows {
		groups[i] = strings.ReplaceAll(strings.ReplaceAll(row.label, "**", ""), " (apart)", "")
	}
	accuracySeries := func(v LoCoMoVariantReport, name string) BarSeries {
		s := BarSeries{Name: name}
		for _, row := range categoryRows {
			val, _ := v.Accuracy.value(row.key)
			s.Values = append(s.Values, val)
		}
		return s
	}
	acc := Chart{Name: "accuracy", BarChart: BarChart{Title: "LoCoMo accuracy by category (LLM judge)", YLabel: "accuracy", Groups: groups, YMax: 1, Format: "%.2f"}}
	for _, v := range r.Runs {
		acc.Series = append(acc.Series, accuracySeries(v, v.Name))
	}
	paper := BarSeries{Name: "paper (gpt-4o-mini)"}
	for _, row := range categoryRows {
		paper.Values = append(paper.Values, PaperLoCoMo[row.key])
	}
	acc.Series = append(acc.Series, paper)
	charts := []Chart{acc}
	if pairs := r.onOffPairs(); len(pairs) > 0 {
		c := Chart{Name: "reconsolidation", BarChart: BarChart{Title: "Reconsolidation on and off (in order)", YLabel: "accuracy", Groups: groups, YMax: 1}}
		for _, p := range pairs {
			c.Series = append(c.Series, accuracySeries(*p[0], string(p[0].Strategy)+" on"), accuracySeries(*p[1], string(p[1].Strategy)+" off"))
		}
		charts = append(charts, c)
	}
	depth := Chart{Name: "evidence-depth", BarChart: BarChart{Title: "Depth at which evidence was first found", YLabel: "questions", Groups: r.depthKeys(), Format: "%.0f"}}
	for _, v := range r.Runs {
		s := BarSeries{Name: v.Name}
		for _, d := range depth.Groups {
			s.Values = append(s.Values, float64(v.FirstDepth[d]))
		}
		depth.Series = append(depth.Series, s)
	}
	charts = append(charts, depth)
	charts = append(charts, histogramChart(r.Ingest.Histogram, func(yield func(string, []int64)) {
		for _, v := range r.Runs {
			if v.HistogramAfter != nil {
				yield("after "+v.Name, v.HistogramAfter)
			}
		}
	}))
	charts = append(charts, costChart(r.Cost))
	return charts
}

// histogramChart charts the edge-weight histogram as ingested and after each run.
func histogramChart(before []int64, after func(yield func(string, []int64))) Chart {
	c := Chart{Name: "edge-weights", BarChart: BarChart{Title: "Edge weights before and after reconsolidation", YLabel: "edges", Groups: histogramLabels(), Format: "%.0f"}}
	series := func(name string, h []int64) {
		s := BarSeries{Name: name}
		for i := range HistogramBins {
			s.Values = append(s.Values, float64(at(h, i)))
		}
		c.Series = append(c.Series, s)
	}
	series("as ingested", before)
	after(series)
	return c
}

// costChart charts prompt and completion tokens per unit of work by stage.
func costChart(c Cost) Chart {
	ch := Chart{Name: "cost", BarChart: BarChart{Title: "LLM tokens per observation (write) or question (read), by stage", YLabel: "tokens", Format: "%.0f"}}
	prompt, completion := BarSeries{Name: "prompt tokens"}, BarSeries{Name: "completion tokens"}
	for _, s := range c.Stages {
		ch.Groups = append(ch.Groups, s.Stage+" / "+s.Per)
		prompt.Values = append(prompt.Values, s.PerUnit.PromptTokens)
		completion.Values = append(completion.Values, s.PerUnit.CompletionTokens)
	}
	ch.Series = []BarSeries{prompt, completion}
	return ch
}
