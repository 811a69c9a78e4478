package bench

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/realm-memory/realm"
)

// WriteStages are the usage stages of the write path, accounted per observation; every
// other stage is accounted per question.
var WriteStages = []string{"extract", "integrate", "relate"}

// CostStages are the stages every cost table lists, even at zero, in this order
// (REALM.md §4: cost is a first-class output); other stages found follow.
var CostStages = []string{"extract", "integrate", "plan", "sufficiency", "expand", "answer", "audit", "judge"}

// Cost is the LLM usage of a run per stage: in total and per unit of work, the
// observation for the write path (WriteStages) and the question for the others.
type Cost struct {
	Observations int         `json:"observations"`
	Questions    int         `json:"questions"`
	Stages       []StageCost `json:"stages"`
	// Total sums every stage; PerObservation and PerQuestion sum the write and read stages.
	Total          realm.StageUsage `json:"total"`
	PerObservation PerUnit          `json:"per_observation"`
	PerQuestion    PerUnit          `json:"per_question"`
}

// StageCost is one stage's usage in total and per unit.
type StageCost struct {
	Stage string `json:"stage"`
	Per   string `json:"per"` // observation | question
	realm.StageUsage
	PerUnit PerUnit `json:"per_unit"`
}

// PerUnit is a usage divided by a number of observations or questions.
type PerUnit struct {
	Calls            float64 `json:"calls"`
	PromptTokens     float64 `json:"prompt_tokens"`
	CompletionTokens float64 `json:"completion_tokens"`
	LatencyMS        float64 `json:"latency_ms"`
}

func perUnit(u realm.StageUsage, n int) PerUnit {
	if n == 0 {
		return PerUnit{}
	}
	d := float64(n)
	return PerUnit{float64(u.Calls) / d, float64(u.PromptTokens) / d, float64(u.CompletionTokens) / d, u.LatencyMS / d}
}

func addStage(a, b realm.StageUsage) realm.StageUsage {
	u := realm.Usage{"x": a}
	u.Add(realm.Usage{"x": b})
	return u["x"]
}

// NewCost accounts usage, spent on observations observations and questions questions.
func NewCost(usage realm.Usage, observations, questions int) Cost {
	c := Cost{Observations: observations, Questions: questions, Stages: []StageCost{}}
	stages := slices.Clone(CostStages)
	var extra []string
	for s := range usage {
		if !slices.Contains(stages, s) {
			extra = append(extra, s)
		}
	}
	sort.Strings(extra)
	var write, read realm.StageUsage
	for _, s := range append(stages, extra...) {
		u := usage[s]
		sc := StageCost{Stage: s, Per: "question", StageUsage: u}
		n := questions
		if slices.Contains(WriteStages, s) {
			sc.Per, n = "observation", observations
			write = addStage(write, u)
		} else {
			read = addStage(read, u)
		}
		sc.PerUnit = perUnit(u, n)
		c.Stages = append(c.Stages, sc)
		c.Total = addStage(c.Total, u)
	}
	c.PerObservation = perUnit(write, observations)
	c.PerQuestion = perUnit(read, questions)
	return c
}

// Markdown renders the cost as a table: one row per stage, totals and per unit.
func (c Cost) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "| stage | per | calls | prompt tokens | completion tokens | latency (ms) | failures | fallbacks | calls per | prompt tokens per | completion tokens per | latency per (ms) |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	row := func(name, per string, u realm.StageUsage, p PerUnit) {
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %.0f | %d | %d | %.2f | %.1f | %.1f | %.1f |\n",
			name, per, u.Calls, u.PromptTokens, u.CompletionTokens, u.LatencyMS, u.Failures, u.Fallbacks,
			p.Calls, p.PromptTokens, p.CompletionTokens, p.LatencyMS)
	}
	var write, read realm.StageUsage
	for _, s := range c.Stages {
		row(s.Stage, s.Per, s.StageUsage, s.PerUnit)
		if s.Per == "observation" {
			write = addStage(write, s.StageUsage)
		} else {
			read = addStage(read, s.StageUsage)
		}
	}
	row(fmt.Sprintf("**write path** (%d observations)", c.Observations), "observation", write, c.PerObservation)
	row(fmt.Sprintf("**read path** (%d questions)", c.Questions), "question", read, c.PerQuestion)
	return b.String()
}
