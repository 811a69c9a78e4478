package bench

import (
	"fmt"
	"strings"
)

// Charts are the retrieval report's bar charts: evidence recall per category for REALM
// (reconsolidation on and off) and the flat baseline, the depth at which evidence was
// first found and, with reconsolidation on, the edge-weight histogram before and after.
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
	recall.Series = append(recall.Series, series("flat baseline", r.Flat))
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
	return charts
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
