package bench_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/agenttest"
	"github.com/realm-memory/realm/bench"
)

func verdictJSON(t *testing.T, label string) agenttest.Response {
	return agenttest.JSON(t, map[string]string{"reasoning": "compared with the gold answer", "label": label}, 40, 6)
}

func TestJudgeGrade(t *testing.T) {
	in := bench.JudgeInput{Question: "When did Ana go to a pottery class?", Gold: "6 May 2023", Answer: "On Saturday, 6 May 2023.",
		Guidance: "dates matter"}
	for _, tt := range []struct {
		name      string
		runs      int
		replies   []agenttest.Response
		score     float64
		labels    []string
		calls     int
		failures  int
		prompt    int
		errorCode string
	}{
		{"OK", 1, []agenttest.Response{verdictJSON(t, "CORRECT")}, 1, []string{"CORRECT"}, 1, 0, 40, ""},
		{"Wrong", 1, []agenttest.Response{verdictJSON(t, "WRONG")}, 0, []string{"WRONG"}, 1, 0, 40, ""},
		{"RunsAveraged", 3, []agenttest.Response{verdictJSON(t, "CORRECT"), verdictJSON(t, "WRONG"), verdictJSON(t, "CORRECT")},
			2.0 / 3, []string{"CORRECT", "WRONG", "CORRECT"}, 3, 0, 120, ""},
		{"LowerCaseLabel", 1, []agenttest.Response{verdictJSON(t, "correct")}, 1, []string{"CORRECT"}, 1, 0, 40, ""},
		{"PlainText", 1, []agenttest.Response{agenttest.Content("WRONG. The date is a day off.", 30, 5)}, 0, []string{"WRONG"}, 1, 0, 30, ""},
		{"Repaired", 1, []agenttest.Response{agenttest.Content("It is CORRECT or maybe WRONG", 30, 5), verdictJSON(t, "CORRECT")},
			1, []string{"CORRECT"}, 2, 1, 70, ""},
		{"RetriedAfter429", 1, []agenttest.Response{agenttest.RateLimited(0), verdictJSON(t, "CORRECT")}, 1, []string{"CORRECT"}, 2, 1, 40, ""},
		{"ErrUnusableTwice", 1, []agenttest.Response{agenttest.Content("no idea", 30, 5), agenttest.Content("still no idea", 30, 5)},
			0, nil, 2, 2, 60, realm.EUnavailable},
		{"ErrServerDown", 1, []agenttest.Response{agenttest.Status(500), agenttest.Status(500)}, 0, nil, 2, 2, 0, realm.EUnavailable},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fake := agenttest.NewFakeOpenAI(t)
			fake.Enqueue(tt.replies...)
			j, err := bench.NewJudge(bench.JudgeConfig{BaseURL: fake.BaseURL(), Model: "judge-model", Runs: tt.runs,
				MaxRetries: 1, Backoff: time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			v, usage, err := j.Grade(context.Background(), in)
			if realm.ErrorCode(err) != tt.errorCode && !(tt.errorCode == "" && err == nil) {
				t.Fatalf("error %v, want code %q", err, tt.errorCode)
			}
			if err == nil && (v.Score != tt.score || strings.Join(v.Labels, ",") != strings.Join(tt.labels, ",")) {
				t.Errorf("verdict %+v, want score %v labels %v", v, tt.score, tt.labels)
			}
			u := usage["judge"]
			if u.Calls != tt.calls || u.Failures != tt.failures || u.PromptTokens != tt.prompt || len(usage) != 1 {
				t.Errorf("usage %+v, want %d calls, %d failures, %d prompt tokens under %q only", usage, tt.calls, tt.failures, tt.prompt, "judge")
			}
			if fake.Pending() != 0 {
				t.Errorf("%d scripted replies unused", fake.Pending())
			}
			req := fake.Requests()[0]
			var body map[string]any
			if err := json.Unmarshal(req.Body, &body); err != nil {
				t.Fatal(err)
			}
			if temp, ok := body["temperature"].(float64); !ok || temp > 1e-6 || req.Model != "judge-model" || req.SchemaName() != bench.JudgeSchemaName {
				t.Errorf("request: temperature %v, model %q, schema %q; want ~0, judge-model, %s", body["temperature"], req.Model, req.SchemaName(), bench.JudgeSchemaName)
			}
			for _, want := range []string{in.Question, "Gold answer: " + in.Gold, "Response to grade: " + in.Answer, "Instructions for this case: dates matter"} {
				if !strings.Contains(req.LastUser(), want) {
					t.Errorf("prompt lacks %q:\n%s", want, req.LastUser())
				}
			}
			if !strings.Contains(req.System(), "strict on facts and dates") {
				t.Errorf("system prompt:\n%s", req.System())
			}
		})
	}
}

func TestNewJudge(t *testing.T) {
	j, err := bench.NewJudge(bench.JudgeConfig{})
	if err != nil || j.Model() != bench.DefaultJudgeModel || j.Runs() != 1 {
		t.Errorf("defaults: %v, %v", j, err)
	}
	t.Run("ErrRuns", func(t *testing.T) {
		if _, err := bench.NewJudge(bench.JudgeConfig{Runs: -1}); realm.ErrorCode(err) != realm.EInvalid {
			t.Errorf("got %v, want invalid", err)
		}
	})
}

// TestJudgeChat: the free-form call of judges with their own prompt (LongMemEval's) goes
// to the judge's model at temperature 0 without a schema, on the agent's transport:
// retried on 5xx, its usage under the caller's stage, EUnavailable once the retries are spent.
func TestJudgeChat(t *testing.T) {
	for _, tt := range []struct {
		name      string
		replies   []agenttest.Response
		reply     string
		calls     int
		failures  int
		errorCode string
	}{
		{"OK", []agenttest.Response{agenttest.Content("yes", 25, 1)}, "yes", 1, 0, ""},
		{"RetriedAfter500", []agenttest.Response{agenttest.Status(503), agenttest.Content("no", 25, 1)}, "no", 2, 1, ""},
		{"ErrServerDown", []agenttest.Response{agenttest.Status(500), agenttest.Status(500)}, "", 2, 2, realm.EUnavailable},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fake := agenttest.NewFakeOpenAI(t)
			fake.Enqueue(tt.replies...)
			j, err := bench.NewJudge(bench.JudgeConfig{BaseURL: fake.BaseURL(), Model: "judge-model", MaxRetries: 1, Backoff: time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			reply, usage, err := j.Chat(context.Background(), "lme_judge", "grade it", "Is 17 days right for 18 days?")
			if realm.ErrorCode(err) != tt.errorCode && !(tt.errorCode == "" && err == nil) {
				t.Fatalf("error %v, want code %q", err, tt.errorCode)
			}
			if reply != tt.reply {
				t.Errorf("reply %q, want %q", reply, tt.reply)
			}
			if u := usage["lme_judge"]; u.Calls != tt.calls || u.Failures != tt.failures || len(usage) != 1 {
				t.Errorf("usage %+v, want %d calls and %d failures under lme_judge only", usage, tt.calls, tt.failures)
			}
			if fake.Pending() != 0 {
				t.Errorf("%d scripted replies unused", fake.Pending())
			}
			for _, req := range fake.Requests() {
				var body map[string]any
				if err := json.Unmarshal(req.Body, &body); err != nil {
					t.Fatal(err)
				}
				if temp, ok := body["temperature"].(float64); !ok || temp > 1e-6 || req.Model != "judge-model" || req.SchemaName() != "" ||
					req.System() != "grade it" || req.LastUser() != "Is 17 days right for 18 days?" {
					t.Errorf("request: temperature %v, model %q, schema %q, system %q, user %q", body["temperature"], req.Model, req.SchemaName(), req.System(), req.LastUser())
				}
			}
		})
	}
}
