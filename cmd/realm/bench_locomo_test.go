package main

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/realm-memory/realm/agent/agenttest"
	"github.com/realm-memory/realm/bench"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// locomoScript is what the scripted chat API answers to each question of
// bench/testdata/locomo-mini.json, and the judge's label of that answer.
var locomoScript = map[string]struct{ answer, label string }{
	// mini-1
	"When did Ana go to a pottery class?": {"On 6 May 2023.", "CORRECT"}, // 2 temporal
	"What does Ben love?":                 {"Hiking.", "CORRECT"},        // 4 single-hop
	"Which year?":                         {"2022.", "WRONG"},            // 1 multi-hop
	"What did Ben's cat do?":              {"Not in memory.", "CORRECT"}, // 5 adversarial
	// mini-2
	"What instrument does Cleo play?":       {"The violin.", "CORRECT"},                     // 4
	"Where did Dan run his first marathon?": {"In Paris.", "WRONG"},                         // 4
	"When did Dan run a marathon?":          {"In May 2023.", "WRONG"},                      // 2
	"What sports does Dan do?":              {"Marathons and a triathlon.", "CORRECT"},      // 1
	"Would Cleo enjoy a classical concert?": {"Probably: she plays the violin.", "CORRECT"}, // 3
	"Where does Dan's sister live?":         {"In Lisbon.", "WRONG"},                        // 5
}

// Accuracies the script implies: per category, the mean of the labels.
var locomoWant = map[string]float64{"multi-hop": 0.5, "temporal": 0.5, "open-domain": 1, "single-hop": 2.0 / 3}

const (
	locomoOverallWant     = 5.0 / 8
	locomoAdversarialWant = 0.5
	// Tokens the fake reports per call, by schema.
	answerPrompt, answerCompletion = 100, 10
	judgePrompt, judgeCompletion   = 40, 4
	agentPrompt, agentCompletion   = 7, 1
)

var scriptQuestion = regexp.MustCompile(`(?m)^Question: (.+)$`)

// locomoFake is the scripted chat API of a full LoCoMo run: extraction and integration
// get output that is not JSON (ingestion falls back to the offline agent, every call
// still counted), answers and labels come from locomoScript by the question's text.
// onRequest, when set, sees every request first.
func locomoFake(t *testing.T, onRequest func(agenttest.ChatRequest)) *agenttest.FakeOpenAI {
	fake := agenttest.NewFakeOpenAI(t)
	lookup := func(req agenttest.ChatRequest) (string, string) {
		m := scriptQuestion.FindStringSubmatch(req.LastUser())
		if m == nil {
			t.Errorf("no question in %q", req.LastUser())
			return "", ""
		}
		s, ok := locomoScript[strings.TrimSpace(m[1])]
		if !ok {
			t.Errorf("unscripted question %q", m[1])
		}
		return s.answer, s.label
	}
	route := func(r agenttest.Route) agenttest.Route {
		respond := r.Respond
		r.Respond = func(req agenttest.ChatRequest) agenttest.Response {
			if onRequest != nil {
				onRequest(req)
			}
			return respond(req)
		}
		return r
	}
	fake.Handle(agenttest.Router(t,
		route(agenttest.Route{Schema: "realm_answer", Respond: func(req agenttest.ChatRequest) agenttest.Response {
			answer, _ := lookup(req)
			return agenttest.JSON(t, map[string]any{"answer": answer, "cited": []string{"M1"}}, answerPrompt, answerCompletion)
		}}),
		route(agenttest.Route{Schema: bench.JudgeSchemaName, Respond: func(req agenttest.ChatRequest) agenttest.Response {
			_, label := lookup(req)
			return agenttest.JSON(t, map[string]string{"reasoning": "scripted", "label": label}, judgePrompt, judgeCompletion)
		}}),
		route(agenttest.Route{Respond: agenttest.Reply(agenttest.Content("not JSON", agentPrompt, agentCompletion))}),
	))
	return fake
}

// stripTimings removes every measured duration from a decoded JSON report, recursively.
func stripTimings(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if k == "latency_ms" || strings.HasSuffix(k, "seconds") || strings.HasSuffix(k, "_ms") || k == "observations_per_second" {
				delete(x, k)
				continue
			}
			x[k] = stripTimings(val)
		}
	case []any:
		for i := range x {
			x[i] = stripTimings(x[i])
		}
	}
	return v
}

func readReport(t *testing.T, path string) (bench.LoCoMoReport, any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep bench.LoCoMoReport
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	var raw any
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	return rep, stripTimings(raw)
}

// TestBenchLoCoMoFull runs `realm bench locomo` (the full protocol) through run() on
// bench/testdata/locomo-mini.json against a scripted chat API and a real Neo4j: the
// accuracies per category and the adversarial one apart are the script's, the cost per
// stage is what the fake billed, the Markdown and SVG charts are written beside the
// report, and a run interrupted after its first sample then resumed from its checkpoint
// gives the same report as an uninterrupted one, timings aside.
func TestBenchLoCoMoFull(t *testing.T) {
	store := cyphertest.MustOpen(t)
	prefix := cyphertest.NewSpace(t) + "-"
	t.Cleanup(func() {
		for _, s := range []string{"mini-1", "mini-2"} {
			_, _ = store.DeleteSpace(context.Background(), prefix+s)
		}
	})
	dir := t.TempDir()
	data := "../../bench/testdata/locomo-mini.json"
	args := func(out, checkpoint string) []string {
		return []string{"realm", "bench", "locomo", data, "--reconsolidation", "both", "--shuffle", "7", "--strategy", "adaptive,subgraph_beam",
			"--judge-runs", "2", "--judge-model", "judge-mini", "--space-prefix", prefix, "--out", out, "--checkpoint", checkpoint}
	}
	env := func(fake *agenttest.FakeOpenAI) func(string) string {
		return testEnv(map[string]string{"REALM_LLM": "openai", "OPENAI_BASE_URL": fake.BaseURL()})
	}

	// One uninterrupted run.
	fake := locomoFake(t, nil)
	out := filepath.Join(dir, "full", "report.json")
	var stdout, progress strings.Builder
	if err := runBenchCmd(context.Background(), args(out, filepath.Join(dir, "full.ckpt")), env(fake), &stdout, &progress); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	checkCleanReport(t, stdout.String(), progress.String(), strings.TrimSuffix(out, ".json")+".md",
		"mini-1 ingest", "mini-2 adaptive, reconsolidation on, shuffle 7", "report: "+out)
	rep, want := readReport(t, out)
	names := []string{"adaptive, reconsolidation off", "adaptive, reconsolidation on", "adaptive, reconsolidation on, shuffle 7",
		"subgraph_beam, reconsolidation off", "subgraph_beam, reconsolidation on", "subgraph_beam, reconsolidation on, shuffle 7"}
	if len(rep.Runs) != len(names) || strings.Join(rep.Samples, ",") != "mini-1,mini-2" {
		t.Fatalf("runs %d, samples %v", len(rep.Runs), rep.Samples)
	}
	for i, v := range rep.Runs {
		if v.Name != names[i] {
			t.Errorf("run %d is %q, want %q", i, v.Name, names[i])
		}
		a := v.Accuracy
		for cat, w := range locomoWant {
			if got := a.ByCategory[cat]; math.Abs(got-w) > 1e-9 {
				t.Errorf("%s: %s accuracy %.3f, want %.3f", v.Name, cat, got, w)
			}
		}
		if math.Abs(a.Overall-locomoOverallWant) > 1e-9 || math.Abs(a.Adversarial-locomoAdversarialWant) > 1e-9 ||
			a.Counts["adversarial"] != 2 || a.Counts["single-hop"] != 3 || v.Questions != 10 {
			t.Errorf("%s: overall %.3f (want %.3f), adversarial %.3f (want %.3f), counts %v, %d questions",
				v.Name, a.Overall, locomoOverallWant, a.Adversarial, locomoAdversarialWant, a.Counts, v.Questions)
		}
		if _, ok := a.ByCategory["adversarial"]; ok {
			t.Errorf("%s: adversarial counted among the categories of the overall accuracy", v.Name)
		}
		if v.AnswerFailures != 0 || v.JudgeFailures != 0 {
			t.Errorf("%s: %d answer and %d judge failures", v.Name, v.AnswerFailures, v.JudgeFailures)
		}
		if on := v.Reconsolidation == bench.ReconsolidationOn; on != (v.Edits != nil) || on && (v.Edits.Audits != 10 || !v.Edits.Restored) {
			t.Errorf("%s: edits %+v", v.Name, v.Edits)
		}
		// Per question: one answer call and two judge calls, at the fake's prices, and
		// the read path's decisions (and the audit's) at the agent's.
		p := v.Cost.PerQuestion
		decisions := p.Calls - 3
		if decisions <= 0 || math.Abs(p.PromptTokens-(answerPrompt+2*judgePrompt+decisions*agentPrompt)) > 1e-9 ||
			math.Abs(p.CompletionTokens-(answerCompletion+2*judgeCompletion+decisions*agentCompletion)) > 1e-9 {
			t.Errorf("%s: per question %+v", v.Name, p)
		}
	}

	// The report's cost is what the fake billed, stage by stage.
	billed := map[string][3]int{} // stage → calls, prompt, completion
	for _, req := range fake.Requests() {
		stage := map[string]string{"realm_answer": "answer", bench.JudgeSchemaName: "judge", "realm_extraction": "extract", "realm_integration": "integrate",
			"realm_plans": "plan", "realm_sufficiency": "sufficiency", "realm_policy": "expand", "realm_audit": "audit"}[req.SchemaName()]
		if stage == "" {
			t.Fatalf("request with schema %q", req.SchemaName())
		}
		c := billed[stage]
		c[0]++
		billed[stage] = c
	}
	for stage, c := range billed {
		p, q := agentPrompt, agentCompletion
		switch stage {
		case "answer":
			p, q = answerPrompt, answerCompletion
		case "judge":
			p, q = judgePrompt, judgeCompletion
		}
		billed[stage] = [3]int{c[0], c[0] * p, c[0] * q}
	}
	if billed["extract"][0] == 0 || billed["answer"][0] != 60 || billed["judge"][0] != 120 {
		t.Errorf("requests by stage %v; want extraction calls, 60 answers and 120 judge calls", billed)
	}
	if len(rep.Cost.Stages) != len(bench.CostStages) {
		t.Errorf("cost of %d stages, want the eight decisions'", len(rep.Cost.Stages))
	}
	for _, s := range rep.Cost.Stages {
		if got := [3]int{s.Calls, s.PromptTokens, s.CompletionTokens}; got != billed[s.Stage] || s.Calls == 0 || s.PromptTokens == 0 {
			t.Errorf("cost of %s: %v, billed %v; want every stage's calls and tokens", s.Stage, got, billed[s.Stage])
		}
		switch s.Stage {
		case "extract":
			if s.Per != "observation" || s.PerUnit.Calls != float64(s.Calls)/8 {
				t.Errorf("extract cost %+v, want per observation over 8", s)
			}
		case "judge":
			if s.Per != "question" || s.PerUnit.Calls != 2 || s.PerUnit.PromptTokens != 2*judgePrompt {
				t.Errorf("judge cost %+v, want 2 calls per question", s)
			}
		}
	}
	if rep.Cost.Observations != 8 || rep.Cost.Questions != 60 || rep.Settings["judge_model"] != "judge-mini" || rep.Info["commit"] == "" {
		t.Errorf("cost over %d observations and %d questions; settings %v; info %v", rep.Cost.Observations, rep.Cost.Questions, rep.Settings, rep.Info)
	}
	for _, req := range fake.Requests() {
		if req.SchemaName() == bench.JudgeSchemaName && req.Model != "judge-mini" {
			t.Fatalf("judge request to model %q", req.Model)
		}
	}

	// The Markdown and its charts, beside the report.
	md, err := os.ReadFile(filepath.Join(dir, "full", "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Accuracy (LLM judge)", "| **overall** (1–4) | 8 | 0.625 |", "| 5 adversarial (apart) | 2 | 0.500 |",
		"Reconsolidation on − off", "## Cost", "| judge | question | 120 | 4800 | 480 |", "![LoCoMo accuracy by category (LLM judge)](report-accuracy.svg)"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	for _, name := range []string{"accuracy", "reconsolidation", "evidence-depth", "edge-weights", "cost"} {
		svg, err := os.ReadFile(filepath.Join(dir, "full", "report-"+name+".svg"))
		if err != nil {
			t.Fatal(err)
		}
		if bars := countBars(t, svg); bars == 0 || !strings.Contains(string(md), "(report-"+name+".svg)") {
			t.Errorf("%s.svg: %d bars; linked from the markdown: %t", name, bars, strings.Contains(string(md), "report-"+name+".svg"))
		}
	}

	// Interrupted after the first sample: the context ends as the second sample's first
	// turn reaches the LLM. Then resumed from the checkpoint.
	checkpoint := filepath.Join(dir, "ckpt") + string(os.PathSeparator)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	interrupted := locomoFake(t, func(req agenttest.ChatRequest) {
		if req.Contains("I started learning the violin in March.") {
			cancel()
		}
	})
	out2 := filepath.Join(dir, "resumed", "report.json")
	err = runBenchCmd(ctx, args(out2, checkpoint), env(interrupted), io.Discard, io.Discard)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v, want context.Canceled", err)
	}
	if files, _ := filepath.Glob(filepath.Join(checkpoint, "*.json")); len(files) != 1 || filepath.Base(files[0]) != "mini-1.json" {
		t.Fatalf("checkpoint after the interruption: %v, want mini-1.json only", files)
	}
	if _, err := os.Stat(out2); err == nil {
		t.Fatal("the interrupted run wrote a report")
	}
	resumed := locomoFake(t, nil)
	stdout.Reset()
	progress.Reset()
	if err := runBenchCmd(context.Background(), args(out2, checkpoint), env(resumed), &stdout, &progress); err != nil {
		t.Fatalf("resume: %v", err)
	}
	checkCleanReport(t, stdout.String(), progress.String(), strings.TrimSuffix(out2, ".json")+".md", "mini-1: done in the checkpoint, skipped")
	for _, req := range resumed.Requests() {
		if req.Contains("pottery") {
			t.Fatal("the resumed run asked about the first sample again")
		}
	}
	_, got := readReport(t, out2)
	// The build may differ too: others commit to the repository between the runs.
	delete(want.(map[string]any), "info")
	delete(got.(map[string]any), "info")
	if a, b := mustJSON(t, want), mustJSON(t, got); a != b {
		t.Errorf("resumed report differs from the uninterrupted one (timings aside): %s", firstDifference(a, b))
	}

	t.Run("ErrCheckpointOfAnotherRun", func(t *testing.T) {
		a := args(filepath.Join(dir, "other.json"), checkpoint)
		a = append(a, "--limit", "2")
		if err := run(context.Background(), a, env(locomoFake(t, nil)), io.Discard); err == nil || !strings.Contains(err.Error(), "other settings") {
			t.Errorf("got %v, want a conflict naming other settings", err)
		}
	})
}

// firstDifference shows the lines around the first line where a and b differ.
func firstDifference(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < max(len(la), len(lb)); i++ {
		if i >= len(la) || i >= len(lb) || la[i] != lb[i] {
			from := max(0, i-30)
			return fmt.Sprintf("at line %d:\n%s\n--- want above, got below ---\n%s", i+1,
				strings.Join(la[from:min(len(la), i+5)], "\n"), strings.Join(lb[from:min(len(lb), i+5)], "\n"))
		}
	}
	return ""
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// countBars checks that svg is well-formed XML and counts its bars.
func countBars(t *testing.T, svg []byte) int {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(string(svg)))
	n := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return n
		}
		if err != nil {
			t.Fatalf("SVG not well-formed: %v", err)
		}
		if el, ok := tok.(xml.StartElement); ok && (el.Name.Local == "rect" || el.Name.Local == "circle") {
			for _, a := range el.Attr {
				if a.Name.Local == "class" && (a.Value == "bar" || a.Value == "point") {
					n++
				}
			}
		}
	}
}

// TestBenchLoCoMoFullErrors: the full protocol refuses to run without an LLM, and bad
// ablation flags are invalid before anything is opened.
func TestBenchLoCoMoFullErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"ErrNoLLM", nil, nil, "REALM_LLM=openai"},
		{"ErrStrategy", map[string]string{"REALM_LLM": "openai", "OPENAI_BASE_URL": "http://127.0.0.1:1/v1"}, []string{"--strategy", "random"}, "strategy"},
		{"ErrShuffle", map[string]string{"REALM_LLM": "openai", "OPENAI_BASE_URL": "http://127.0.0.1:1/v1"}, []string{"--shuffle", "x"}, "seed"},
		{"ErrJudgeRuns", map[string]string{"REALM_LLM": "openai", "OPENAI_BASE_URL": "http://127.0.0.1:1/v1"}, []string{"--judge-runs", "-2"}, "judge runs"},
		{"ErrSpeakers", nil, []string{"--speakers", "bots"}, "--speakers"},
		{"ErrSessions", nil, []string{"--sessions", "days"}, "--sessions"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := append([]string{"realm", "bench", "locomo", "../../bench/testdata/locomo-mini.json"}, tt.args...)
			err := run(context.Background(), a, testEnv(tt.env), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error about %q", err, tt.want)
			}
		})
	}
}
