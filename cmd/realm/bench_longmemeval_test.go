package main

import (
	"context"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/agenttest"
	"github.com/realm-memory/realm/bench"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

const lmeFixture = "../../bench/testdata/longmemeval-mini.json"

// lmeScript is the scripted answer and judge label of each fixture question.
var lmeScript = map[string]struct {
	answer  string
	correct bool
}{
	"What degree did I graduate with?":                                             {"You graduated in Business Administration.", true},
	"Which hiking trail near Sintra did you recommend to me?":                      {"I recommended the Pena Trail.", true},
	"Can you suggest a dinner recipe for tonight?":                                 {"How about a steak with fries?", false},
	"How many bikes do I own?":                                                     {"You own three bikes.", true},
	"How many days passed between my dentist appointment and my sister's wedding?": {"About a month.", false},
	"Which city do I live in now?":                                                 {"You lived in Madrid and now live in Berlin.", true},
	"What is the name of my dog?":                                                  {"Not in memory.", true},
	"Which instrument am I learning?":                                              {"The violin.", false},
}

// TestBenchLongMemEvalFull runs `realm bench longmemeval FILE` with REALM_LLM=openai
// against a scripted fake chat API: extraction gets output that is not JSON (the offline
// agent takes over), the answers and the judge's yes or no are scripted per question, and
// the per-type accuracies of the report are the hand-computed ones.
func TestBenchLongMemEvalFull(t *testing.T) {
	store := cyphertest.MustOpen(t)
	prefix := cyphertest.NewSpace(t) + "-"
	items, err := bench.LoadLongMemEval(lmeFixture)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, it := range items {
			_, _ = store.DeleteSpace(context.Background(), bench.LMESpace(prefix, it.QuestionID))
		}
	})
	fake := agenttest.NewFakeOpenAI(t)
	question := regexp.MustCompile(`(?m)^Question: (.*)$`)
	response := regexp.MustCompile(`(?m)^Response: (.*)$`)
	fake.Handle(agenttest.Router(t,
		agenttest.Route{Schema: "realm_answer", Respond: func(req agenttest.ChatRequest) agenttest.Response {
			for q, s := range lmeScript {
				if strings.Contains(req.LastUser(), q) {
					return agenttest.JSON(t, map[string]any{"answer": s.answer, "cited": []string{}}, 100, 10)
				}
			}
			// A warm-up question.
			return agenttest.JSON(t, map[string]any{"answer": "Not in memory.", "cited": []string{}}, 100, 10)
		}},
		agenttest.Route{Contains: "Answer yes or no only.", Respond: func(req agenttest.ChatRequest) agenttest.Response {
			q, r := question.FindStringSubmatch(req.LastUser()), response.FindStringSubmatch(req.LastUser())
			s, ok := lmeScript[q[1]]
			if !ok || r[1] != s.answer {
				t.Errorf("judge asked about %q with response %q", q[1], r[1])
			}
			if s.correct {
				return agenttest.Content("Yes.", 200, 1)
			}
			return agenttest.Content("no", 200, 1)
		}},
		agenttest.Route{Respond: agenttest.Reply(agenttest.Content("not JSON", 1, 1))},
	))
	out := filepath.Join(t.TempDir(), "lme.json")
	var stdout, progress strings.Builder
	err = runBenchCmd(context.Background(), []string{"realm", "bench", "longmemeval", lmeFixture, "--prime", "1", "--space-prefix", prefix, "--out", out},
		testEnv(map[string]string{"REALM_LLM": "openai", "OPENAI_BASE_URL": fake.BaseURL()}), &stdout, &progress)
	if err != nil {
		t.Fatal(err)
	}
	checkCleanReport(t, stdout.String(), progress.String(), strings.TrimSuffix(out, ".json")+".md", "longmemeval [")
	rep, b := readJSON[bench.LongMemEvalReport](t, out)
	a := rep.Accuracy
	if rep.Mode != bench.LMEModeFull || a == nil || rep.Items != 8 {
		t.Fatalf("report: %s", b)
	}
	want := map[string][2]int{ // correct, total
		"single-session-user":       {1, 2},
		"single-session-assistant":  {1, 1},
		"single-session-preference": {0, 1},
		"multi-session":             {1, 1},
		"temporal-reasoning":        {0, 1},
		"knowledge-update":          {1, 1},
	}
	for typ, w := range want {
		got := a.ByType[typ]
		if got.Correct != w[0] || got.Total != w[1] || got.Accuracy != float64(w[0])/float64(w[1]) {
			t.Errorf("%s: %+v, want %d of %d", typ, got, w[0], w[1])
		}
	}
	if a.Abstention != (bench.LMECount{Correct: 1, Total: 1, Accuracy: 1}) {
		t.Errorf("abstention %+v, want 1 of 1", a.Abstention)
	}
	if a.Overall != (bench.LMECount{Correct: 5, Total: 8, Accuracy: 0.625}) {
		t.Errorf("overall %+v, want 5 of 8", a.Overall)
	}
	if want := 3.5 / 6; math.Abs(a.TaskAveraged-want) > 1e-9 {
		t.Errorf("task-averaged %v, want %v", a.TaskAveraged, want)
	}
	if j := rep.Cost[bench.LMEStageJudge]; j.Calls != 8 || j.PromptTokens != 1600 || j.CompletionTokens != 8 {
		t.Errorf("judge cost %+v, want 8 calls, 1600 prompt and 8 completion tokens", j)
	}
	if an := rep.Cost[bench.LMEStageAnswer]; an.Calls != 8 || an.PromptTokens != 800 {
		t.Errorf("answer cost %+v, want 8 calls of 100 prompt tokens", an)
	}
	// Priming answers each item once; the read path's decisions and the audit around each
	// answer go to the fake too, which answers them with no JSON: two calls (the answer and
	// its repair), both failed, then the offline decision; a stage that failed so in a
	// recall is not asked again in it (its later decisions fall back without a call).
	if p := rep.Cost[bench.LMEStagePrime]; p.Calls-p.Failures != 8 || p.Failures > 2*p.Fallbacks || p.Failures%2 != 0 || p.Fallbacks == 0 {
		t.Errorf("prime cost %+v, want one answer per item and the other decisions fallen back", p)
	}
	if in := rep.Cost[bench.LMEStageIngest]; in.Calls == 0 || in.Fallbacks == 0 {
		t.Errorf("ingest cost %+v: the extractions went to the fake and fell back", in)
	}
	if rep.Config["judge_model"] == "" || rep.RetrievalOverall.Questions != 7 || rep.FlatOverall == nil {
		t.Errorf("config %v, %d questions scored for retrieval", rep.Config, rep.RetrievalOverall.Questions)
	}
	md, err := os.ReadFile(strings.TrimSuffix(out, ".json") + ".md")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"| single-session-user | 2 |", "0.500 (1/2) |", "| abstention | 1 | – | – | – | – | 1.000 (1/1) |", "| **overall** | 8 |", "**0.625** (5/8)", "task-averaged accuracy 0.583", "| judge | 8 | 1600 | 8 |"} {
		if !strings.Contains(string(md), w) || !strings.Contains(stdout.String(), w) {
			t.Errorf("markdown lacks %q:\n%s", w, md)
		}
	}
	for _, name := range []string{"retrieval", "accuracy"} {
		svg, err := os.ReadFile(strings.TrimSuffix(out, ".json") + "-" + name + ".svg")
		if err != nil || !strings.Contains(string(svg), "<svg") || !strings.Contains(string(md), "lme-"+name+".svg") {
			t.Errorf("chart %s: %v", name, err)
		}
	}
	if _, err := os.Stat(strings.TrimSuffix(out, ".json") + ".checkpoint.jsonl"); err != nil {
		t.Errorf("no checkpoint beside the report: %v", err)
	}

	// The same command on another data file finds that checkpoint beside the report and
	// refuses it instead of reporting the first file's results.
	t.Run("ErrCheckpointOfOtherData", func(t *testing.T) {
		b, err := os.ReadFile(lmeFixture)
		if err != nil {
			t.Fatal(err)
		}
		other := filepath.Join(t.TempDir(), "other.json")
		if err := os.WriteFile(other, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		err = runBenchCmd(context.Background(), []string{"realm", "bench", "longmemeval", other, "--prime", "1", "--space-prefix", prefix, "--out", out},
			testEnv(map[string]string{"REALM_LLM": "openai", "OPENAI_BASE_URL": fake.BaseURL()}), io.Discard, io.Discard)
		if realm.ErrorCode(err) != realm.EConflict || !strings.Contains(err.Error(), other) || !strings.Contains(err.Error(), "remove it") {
			t.Errorf("got %v, want a conflict naming the data file", err)
		}
	})
}

func TestBenchLongMemEvalErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		env  map[string]string
		code string
	}{
		{"ErrNoFile", []string{"--retrieval-only"}, nil, realm.EInvalid},
		{"ErrK", []string{lmeFixture, "--retrieval-only", "--k", "0"}, nil, realm.EInvalid},
		{"ErrPrime", []string{lmeFixture, "--retrieval-only", "--prime", "-1"}, nil, realm.EInvalid},
		{"ErrPrefix", []string{lmeFixture, "--retrieval-only", "--space-prefix", "a b"}, nil, realm.EInvalid},
		{"ErrBadFile", []string{"../../bench/testdata/locomo-mini.json", "--retrieval-only"}, nil, realm.EInvalid},
		{"ErrFullWithoutLLM", []string{lmeFixture}, nil, realm.ENotSupported},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := run(context.Background(), append([]string{"realm", "bench", "longmemeval"}, tt.args...), testEnv(tt.env), io.Discard)
			if realm.ErrorCode(err) != tt.code {
				t.Errorf("got %v, want %s", err, tt.code)
			}
		})
	}
}
