package bench

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Markdown renders the report: per split (validate first, then tune, then all), REALM
// against every flat baseline at K and at REALM's own mean context size, with the
// margin over the strongest flat baseline at that budget; then what REALM's runs did
// over all samples (the depth evidence was found at, on against off, what reconsolidation
// did and cost) and what ingestion cost.
func (r RetrievalReport) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Evidence recall@%d on %d questions (categories 1–4) of %s.\n\n", r.K, r.Questions, strings.Join(r.Samples, ", "))
	splits := slices.Clone(r.Splits)
	slices.Reverse(splits)
	for _, s := range splits {
		b.WriteString(s.Markdown(r.K))
	}
	on, off := r.Run(ReconsolidationOn), r.Run(ReconsolidationOff)
	for _, c := range []*RunReport{on, off} {
		if c != nil {
			fmt.Fprintf(&b, "Depth at which evidence was first found, reconsolidation %s: %s\n\n", c.Reconsolidation, depthLine(c.FirstDepth))
		}
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

// Margin is the headline of a split: REALM's overall recall (the Headline run) minus the
// strongest flat baseline's at the same budget; false without both.
func (s SplitReport) Margin() (float64, bool) {
	h, f := s.Headline(), s.Strongest()
	if h == nil || f == nil {
		return 0, false
	}
	return h.Overall - f.Overall, true
}

// Markdown renders one split: its headline sentence and the table of REALM and the flat
// baselines.
func (s SplitReport) Markdown(k int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### Split %s (%s): %d questions\n\n", s.Split, strings.Join(s.Samples, ", "), s.Questions)
	if m, ok := s.Margin(); ok {
		h, f := s.Headline(), s.Strongest()
		fmt.Fprintf(&b, "REALM (reconsolidation %s) %.3f at %.0f tokens of context; the strongest flat baseline at the same budget, %s, %.3f at %.0f tokens: REALM **%+.3f**.\n\n",
			h.Reconsolidation, h.Overall, h.ContextTokens, f.Baseline, f.Overall, f.ContextTokens, m)
	}
	b.WriteString("| retriever | units | selection | 1 multi-hop | 2 temporal | 3 open-domain | 4 single-hop | overall | context (tokens) | answer prompt (tokens) | median latency (ms) |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|\n")
	row := func(name, units, selection string, m MethodReport, prompt string) {
		fmt.Fprintf(&b, "| %s | %s | %s |", name, units, selection)
		for cat := 1; cat <= 4; cat++ {
			fmt.Fprintf(&b, " %.3f |", m.ByCategory[CategoryNames[cat]])
		}
		fmt.Fprintf(&b, " **%.3f** | %.0f | %s | %.1f |\n", m.Overall, m.ContextTokens, prompt, m.MedianMS)
	}
	for _, rr := range s.Realm {
		row("REALM, reconsolidation "+rr.Reconsolidation, "nodes", fmt.Sprintf("k=%d", k), rr.MethodReport, fmt.Sprintf("%.0f", rr.PromptTokens))
	}
	for _, f := range s.Baselines {
		sel := fmt.Sprintf("k=%d", k)
		if f.Selection == SelectionBudget {
			sel = fmt.Sprintf("≤ %.0f tokens", f.Budget)
		}
		row(f.Method, f.Units, sel, f.MethodReport, "—")
	}
	b.WriteString("\n")
	if len(s.Curves) > 0 {
		b.WriteString("Recall against mean context (tokens):\n\n| retriever | points (recall at tokens) |\n|---|---|\n")
		for _, c := range s.Curves {
			var pts []string
			for _, p := range c.Points {
				at := fmt.Sprintf("k=%d", p.K)
				if p.K == 0 {
					at = fmt.Sprintf("≤ %.0f", p.Budget)
				}
				pts = append(pts, fmt.Sprintf("%s: %.3f at %.0f", at, p.Recall, p.Tokens))
			}
			fmt.Fprintf(&b, "| %s | %s |\n", c.Name, strings.Join(pts, "; "))
		}
		b.WriteString("\n")
	}
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

// Charts are the retrieval report's charts: evidence recall per category for REALM
// (reconsolidation on and off) and the strongest flat baseline at equal budget over all
// samples, the depth at which evidence was first found, with reconsolidation on the
// edge-weight histogram before and after, and per split the recall-vs-context curves.
func (r RetrievalReport) Charts() []Chart {
	groups := []string{"1 multi-hop", "2 temporal", "3 open-domain", "4 single-hop", "overall"}
	keys := []string{"multi-hop", "temporal", "open-domain", "single-hop", "overall"}
	series := func(name string, m MethodReport) BarSeries {
		s := BarSeries{Name: name}
		for _, k := range keys {
			if k == "overall" {
				s.Values = append(s.Values, m.Overall)
			} else {
				s.Values = append(s.Values, m.ByCategory[k])
			}
		}
		return s
	}
	recall := Chart{Name: "recall", BarChart: BarChart{Title: fmt.Sprintf("Evidence recall@%d by category", r.K), YLabel: "recall", Groups: groups, YMax: 1}}
	for _, run := range r.Runs {
		recall.Series = append(recall.Series, series("REALM, reconsolidation "+run.Reconsolidation, run.MethodReport))
	}
	if len(r.Splits) > 0 {
		if f := r.Splits[0].Strongest(); f != nil {
			recall.Series = append(recall.Series, series(fmt.Sprintf("%s, ≤ %.0f tokens", f.Baseline, f.Budget), f.MethodReport))
		}
	}
	depth := Chart{Name: "evidence-depth", BarChart: BarChart{Title: "Depth at which evidence was first found", YLabel: "questions", Format: "%.0f"}}
	depth.Groups = depthOrder(func(yield func(map[string]int)) {
		for _, run := range r.Runs {
			yield(run.FirstDepth)
		}
	})
	for _, run := range r.Runs {
		s := BarSeries{Name: "reconsolidation " + run.Reconsolidation}
		for _, d := range depth.Groups {
			s.Values = append(s.Values, float64(run.FirstDepth[d]))
		}
		depth.Series = append(depth.Series, s)
	}
	charts := []Chart{recall, depth}
	if on := r.Run(ReconsolidationOn); on != nil && on.Edits != nil && on.Edits.HistogramBefore != nil {
		charts = append(charts, histogramChart(on.Edits.HistogramBefore, func(yield func(string, []int64)) {
			yield("after the questions, reconsolidation on", on.Edits.HistogramAfter)
		}))
	}
	for _, s := range r.Splits {
		if c := s.CurveChart(); c.Line != nil {
			charts = append(charts, c)
		}
	}
	return charts
}

// methodColors colour the flat baselines' lines by method (turns solid, windows dashed);
// REALM's line is the palette's first colour, drawn bold.
var methodColors = map[string]string{MethodDense: "#7570b3", MethodBM25: "#d95f02", MethodHybrid: "#e7298a", MethodHybridFocus: "#a6761d"}

// CurveChart is the split's recall-vs-context chart ("recall-vs-context-<split>"):
// REALM at each k it was asked at and each flat baseline at each budget, against the
// mean context they returned. Its Line is nil without curves.
func (s SplitReport) CurveChart() Chart {
	c := Chart{Name: "recall-vs-context-" + s.Split}
	if len(s.Curves) == 0 {
		return c
	}
	lc := &LineChart{Title: fmt.Sprintf("Evidence recall against context size, %s (%s)", s.Split, strings.Join(s.Samples, ", ")),
		XLabel: "mean context (tokens)", YLabel: "evidence recall", YMax: 1}
	for _, curve := range s.Curves {
		l := Line{Name: curve.Name, Bold: true, Color: seriesColors[0]}
		for _, b := range Baselines {
			if b.String() == curve.Name {
				l = Line{Name: curve.Name, Dashed: b.Units == UnitWindows, Color: methodColors[b.Method]}
			}
		}
		for _, p := range curve.Points {
			label := fmt.Sprintf("k=%d", p.K)
			if p.K == 0 {
				label = fmt.Sprintf("budget %.0f", p.Budget)
			}
			l.Points = append(l.Points, LinePoint{X: p.Tokens, Y: p.Recall, Label: label})
		}
		lc.Lines = append(lc.Lines, l)
	}
	c.Line = lc
	return c
}

// HistogramMarkdown is a table of the edge weights before and after the run with
// reconsolidation on; "" without one.
func (r RetrievalReport) HistogramMarkdown() string {
	on := r.Run(ReconsolidationOn)
	if on == nil || on.Edits == nil || on.Edits.HistogramBefore == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("Edge weights of all samples' graphs before the questions and after the last one with reconsolidation on (before the revert):\n\n| weight | before | after |\n|---|---|---|\n")
	for i, label := range histogramLabels() {
		fmt.Fprintf(&b, "| %s | %d | %d |\n", label, at(on.Edits.HistogramBefore, i), at(on.Edits.HistogramAfter, i))
	}
	return b.String()
}
