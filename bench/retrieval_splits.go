package bench

import (
	"slices"

	"github.com/realm-memory/realm"
)

// LoCoMo splits of the dev conversations: retrieval is tuned on tune alone, and every
// report shows validate apart.
const (
	SplitAll      = "all"
	SplitTune     = "tune"
	SplitValidate = "validate"
)

// LoCoMoSplits are the conversations of each named split.
var LoCoMoSplits = map[string][]string{
	SplitTune:     {"conv-26", "conv-30", "conv-41"},
	SplitValidate: {"conv-42", "conv-43"},
}

// SelectSplit keeps the samples of split (tune, validate, or all: every sample).
func SelectSplit(samples []Sample, split string) ([]Sample, error) {
	if split == SplitAll {
		return samples, nil
	}
	ids, ok := LoCoMoSplits[split]
	if !ok {
		return nil, realm.Errorf(realm.EInvalid, "split must be tune, validate or all, not %q", split)
	}
	var out []Sample
	for _, s := range samples {
		if slices.Contains(ids, s.ID) {
			out = append(out, s)
		}
	}
	return out, nil
}

// Selections of a flat baseline: the first K units, or units in rank order until the next
// would bring the context past a budget.
const (
	SelectionK      = "k"
	SelectionBudget = "budget"
)

// CurveBudgets are the budgets (tokens) each flat baseline is drawn at on the
// recall-vs-context curve.
var CurveBudgets = []float64{300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300, 1400, 1500}

// SplitReport is REALM and the flat baselines on the questions of one split.
type SplitReport struct {
	Split     string      `json:"split"` // all, tune or validate
	Samples   []string    `json:"samples"`
	Questions int         `json:"questions"`
	Realm     []RealmRow  `json:"realm"` // one per run: reconsolidation on, then off
	Budget    float64     `json:"budget_tokens"`
	Baselines []FlatRow   `json:"baselines"` // each of Baselines at K, then each at Budget
	Curves    []CurveLine `json:"curves"`    // REALM (reconsolidation off) at CurveK, each baseline at CurveBudgets
}

// RealmRow is REALM's recall on a split in one run.
type RealmRow struct {
	Reconsolidation string `json:"reconsolidation"`
	MethodReport
}

// FlatRow is one flat baseline's recall on a split at one selection.
type FlatRow struct {
	Baseline
	Selection string  `json:"selection"`               // k or budget
	Budget    float64 `json:"budget_tokens,omitempty"` // budget only
	MethodReport
}

// CurveLine is recall against mean context size: REALM at several k, or a flat baseline
// at several budgets.
type CurveLine struct {
	Name   string       `json:"name"`
	Points []CurvePoint `json:"points"`
}

// CurvePoint is one point of a CurveLine.
type CurvePoint struct {
	K      int     `json:"k,omitempty"`
	Budget float64 `json:"budget_tokens,omitempty"`
	Tokens float64 `json:"mean_context_tokens"`
	Recall float64 `json:"recall"`
}

// Headline is the run the split's budget comes from: reconsolidation off when it ran,
// else on; nil without a run.
func (s SplitReport) Headline() *RealmRow {
	for _, mode := range []string{ReconsolidationOff, ReconsolidationOn} {
		for i := range s.Realm {
			if s.Realm[i].Reconsolidation == mode {
				return &s.Realm[i]
			}
		}
	}
	return nil
}

// Strongest is the flat baseline with the best overall recall at the equal budget
// (the first of Baselines on a tie); nil without one.
func (s SplitReport) Strongest() *FlatRow {
	var best *FlatRow
	for i, b := range s.Baselines {
		if b.Selection == SelectionBudget && (best == nil || b.Overall > best.Overall) {
			best = &s.Baselines[i]
		}
	}
	return best
}

// SplitReports reports every split the results cover: all of them, then tune and validate
// when they hold any question, but not a split that holds every question under another
// name (a run on --split validate reports validate once).
func SplitReports(results []*questionResult, k int, curveK []int) []SplitReport {
	var out []SplitReport
	all := splitReport(SplitAll, results, k, curveK)
	for _, name := range []string{SplitTune, SplitValidate} {
		var in []*questionResult
		for _, q := range results {
			if slices.Contains(LoCoMoSplits[name], q.sample) {
				in = append(in, q)
			}
		}
		if len(in) == 0 {
			continue
		}
		if len(in) == len(results) {
			all.Split = name
			continue
		}
		out = append(out, splitReport(name, in, k, curveK))
	}
	return append([]SplitReport{all}, out...)
}

// splitReport summarises the results of one split.
func splitReport(name string, results []*questionResult, k int, curveK []int) SplitReport {
	s := SplitReport{Split: name, Questions: len(results)}
	for _, q := range results {
		if !slices.Contains(s.Samples, q.sample) {
			s.Samples = append(s.Samples, q.sample)
		}
	}
	for _, mode := range []string{ReconsolidationOn, ReconsolidationOff} {
		acc := newAccumulator()
		for _, q := range results {
			if m, ok := q.realm[mode]; ok {
				acc.add(q.Category, m.measure)
			}
		}
		if acc.count > 0 {
			s.Realm = append(s.Realm, RealmRow{Reconsolidation: mode, MethodReport: acc.report()})
		}
	}
	if h := s.Headline(); h != nil {
		s.Budget = h.ContextTokens
	}
	flat := func(b Baseline, sel func([]FlatHit) ([][]string, int)) (MethodReport, bool) {
		acc := newAccumulator()
		for _, q := range results {
			r, ok := q.flat[b.String()]
			if !ok {
				continue
			}
			sources, tokens := sel(r.Hits)
			recall, _ := EvidenceRecall(q.Evidence, sources, len(sources))
			acc.add(q.Category, measure{recall: recall, tokens: tokens, ms: r.MS})
		}
		return acc.report(), acc.count > 0
	}
	for _, b := range Baselines {
		if m, ok := flat(b, func(h []FlatHit) ([][]string, int) { return SelectK(h, k) }); ok {
			s.Baselines = append(s.Baselines, FlatRow{Baseline: b, Selection: SelectionK, MethodReport: m})
		}
	}
	for _, b := range Baselines {
		if m, ok := flat(b, func(h []FlatHit) ([][]string, int) { return SelectBudget(h, s.Budget) }); ok && s.Budget > 0 {
			s.Baselines = append(s.Baselines, FlatRow{Baseline: b, Selection: SelectionBudget, Budget: s.Budget, MethodReport: m})
		}
	}

	realmCurve := CurveLine{Name: "REALM, reconsolidation off"}
	for _, ck := range curveK {
		acc := newAccumulator()
		for _, q := range results {
			if m, ok := q.curve[ck]; ok {
				acc.add(q.Category, m)
			}
		}
		if acc.count > 0 {
			m := acc.report()
			realmCurve.Points = append(realmCurve.Points, CurvePoint{K: ck, Tokens: m.ContextTokens, Recall: m.Overall})
		}
	}
	if len(realmCurve.Points) > 0 {
		s.Curves = append(s.Curves, realmCurve)
	}
	for _, b := range Baselines {
		line := CurveLine{Name: b.String()}
		for _, budget := range CurveBudgets {
			if m, ok := flat(b, func(h []FlatHit) ([][]string, int) { return SelectBudget(h, budget) }); ok {
				line.Points = append(line.Points, CurvePoint{Budget: budget, Tokens: m.ContextTokens, Recall: m.Overall})
			}
		}
		if len(line.Points) > 0 {
			s.Curves = append(s.Curves, line)
		}
	}
	return s
}
