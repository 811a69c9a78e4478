package bench

import "fmt"

// Charts are the retrieval report's bar charts: evidence recall per category for REALM
// (reconsolidation on and off) and the flat baseline, and the depth at which evidence
// was first found.
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
	return []Chart{recall, depth}
}
