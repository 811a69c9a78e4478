package bench_test

import (
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/bench"
)

func TestNewCost(t *testing.T) {
	usage := realm.Usage{
		"extract":   {Calls: 8, PromptTokens: 800, CompletionTokens: 80, LatencyMS: 40, Failures: 1, Fallbacks: 1},
		"integrate": {Calls: 4, PromptTokens: 400, CompletionTokens: 40},
		"answer":    {Calls: 2, PromptTokens: 300, CompletionTokens: 20, LatencyMS: 10},
		"judge":     {Calls: 6, PromptTokens: 120, CompletionTokens: 12},
		"rerank":    {Calls: 2, PromptTokens: 10},
	}
	c := bench.NewCost(usage, 4, 2)
	var names []string
	by := map[string]bench.StageCost{}
	for _, s := range c.Stages {
		names = append(names, s.Stage)
		by[s.Stage] = s
	}
	if got := strings.Join(names, ","); got != "extract,integrate,plan,sufficiency,expand,answer,audit,judge,rerank" {
		t.Errorf("stages %s", got)
	}
	for _, tt := range []struct {
		stage, per     string
		calls, prompt  float64
		completion, ms float64
	}{
		{"extract", "observation", 2, 200, 20, 10},
		{"integrate", "observation", 1, 100, 10, 0},
		{"plan", "question", 0, 0, 0, 0},
		{"answer", "question", 1, 150, 10, 5},
		{"judge", "question", 3, 60, 6, 0},
		{"rerank", "question", 1, 5, 0, 0},
	} {
		s := by[tt.stage]
		if s.Per != tt.per || s.PerUnit != (bench.PerUnit{Calls: tt.calls, PromptTokens: tt.prompt, CompletionTokens: tt.completion, LatencyMS: tt.ms}) {
			t.Errorf("%s: %+v, want per %s %v %v %v %v", tt.stage, s, tt.per, tt.calls, tt.prompt, tt.completion, tt.ms)
		}
	}
	if c.Total.Calls != 22 || c.Total.PromptTokens != 1630 || c.PerObservation.PromptTokens != 300 || c.PerQuestion.Calls != 5 {
		t.Errorf("totals %+v, per observation %+v, per question %+v", c.Total, c.PerObservation, c.PerQuestion)
	}
	md := c.Markdown()
	for _, want := range []string{"| extract | observation | 8 | 800 | 80 | 40 | 1 | 1 | 2.00 | 200.0 | 20.0 | 10.0 |",
		"| **read path** (2 questions) | question | 10 | 430 | 32 | 10 | 0 | 0 | 5.00 | 215.0 | 16.0 | 5.0 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if z := bench.NewCost(nil, 0, 0); len(z.Stages) != len(bench.CostStages) || z.PerQuestion != (bench.PerUnit{}) {
		t.Errorf("empty cost %+v", z)
	}
}
