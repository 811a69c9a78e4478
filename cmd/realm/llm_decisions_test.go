package main

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/agenttest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// fakeDecider scripts every decision of the read path and the auditor with answers the
// test recognises; extraction and integration get output that is not JSON (the offline
// agent decides).
func fakeDecider(t *testing.T) *agenttest.FakeOpenAI {
	fake := agenttest.NewFakeOpenAI(t)
	refs := regexp.MustCompile(`(?m)^- (M\d+) \[`)
	sufficiencyAsked := 0
	fake.Handle(agenttest.Router(t,
		agenttest.Route{Schema: "realm_plans", Respond: agenttest.Reply(agenttest.JSON(t, map[string]any{"plans": []map[string]any{
			{"query": "Melanie hikes in the mountains", "keywords": []string{"hiking", "mountains"}, "types": []string{}, "from": "", "to": "", "mode": "hybrid_match"},
			{"query": "Melanie's kids", "keywords": []string{}, "types": []string{"event"}, "from": "", "to": "", "mode": "query_match"},
		}}, 30, 20))},
		agenttest.Route{Schema: "realm_sufficiency", Respond: func(req agenttest.ChatRequest) agenttest.Response {
			sufficiencyAsked++
			if sufficiencyAsked > 1 {
				return agenttest.JSON(t, map[string]any{"is_enough": true, "nodes_to_expand": []string{}, "reason": "llm: enough now"}, 20, 5)
			}
			return agenttest.JSON(t, map[string]any{"is_enough": false, "nodes_to_expand": []string{"M1"}, "reason": "llm: expand the best"}, 20, 5)
		}},
		agenttest.Route{Schema: "realm_policy", Respond: agenttest.Reply(agenttest.JSON(t, map[string]any{
			"mode": "subgraph_beam", "predicates": []string{}, "decay_time": "", "decay_days": 0, "decay_mode": "", "missing_time": "",
			"conflict_inhibit": true, "reasoning": "llm: places Melanie hikes with her kids"}, 25, 10))},
		agenttest.Route{Schema: "realm_audit", Respond: func(req agenttest.ChatRequest) agenttest.Response {
			var labels []map[string]string
			for i, m := range refs.FindAllStringSubmatch(req.LastUser(), -1) {
				label := "unrelated"
				if i == 0 {
					label = "key_evidence"
				}
				labels = append(labels, map[string]string{"node": m[1], "label": label})
			}
			return agenttest.JSON(t, map[string]any{"labels": labels, "edits": []any{}}, 40, 15)
		}},
		agenttest.Route{Schema: "realm_answer", Respond: func(req agenttest.ChatRequest) agenttest.Response {
			return agenttest.JSON(t, map[string]any{"answer": "In the mountains.", "cited": []string{"M1"}}, 50, 5)
		}},
		agenttest.Route{Respond: agenttest.Reply(agenttest.Content("not JSON", 1, 1))},
	))
	return fake
}

// hikingMessages are three turns about hiking and a lake.
var hikingMessages = []map[string]string{
	{"id": "m1", "speaker": "Melanie", "content": "I love hiking in the mountains with my kids.", "timestamp": "2023-05-08T13:57:00Z"},
	{"id": "m2", "speaker": "Melanie", "content": "Last weekend my kids and I hiked to a lake in the mountains.", "timestamp": "2023-05-08T13:58:00Z"},
	{"id": "m3", "speaker": "Caroline", "content": "I painted a sunrise over the lake last year.", "timestamp": "2023-05-08T13:59:00Z"},
}

// ingestHiking ingests hikingMessages into the space at URL sp.
func ingestHiking(t *testing.T, sp string) {
	t.Helper()
	if code := send(t, "POST", sp+"/observations", map[string]any{"messages": hikingMessages}, nil); code != http.StatusOK {
		t.Fatalf("ingest: %d", code)
	}
}

// recallTrace recalls where Melanie hikes and returns the recall's usage and its trace.
func recallTrace(t *testing.T, sp string) (realm.Usage, realm.Trace) {
	t.Helper()
	var rec struct {
		TraceID string `json:"trace_id"`
		Nodes   []any
		Usage   realm.Usage
	}
	if code := send(t, "POST", sp+"/recall", map[string]any{"query": "Where does Melanie hike?"}, &rec); code != http.StatusOK || len(rec.Nodes) == 0 {
		t.Fatalf("recall: %d, %d nodes", code, len(rec.Nodes))
	}
	var trace realm.Trace
	if code := send(t, "GET", sp+"/traces/"+rec.TraceID, nil, &trace); code != http.StatusOK {
		t.Fatalf("trace: %d", code)
	}
	return rec.Usage, trace
}

// answerLabels asks /answer where Melanie hikes and returns the labels and the audit's
// usage of the reconsolidation after it.
func answerLabels(t *testing.T, sp string) (map[string]realm.NodeLabel, realm.StageUsage) {
	t.Helper()
	var ans struct {
		Reconsolidation *struct {
			Labels map[string]realm.NodeLabel
			Usage  realm.Usage
		}
	}
	if code := send(t, "POST", sp+"/answer", map[string]any{"query": "Where does Melanie hike?"}, &ans); code != http.StatusOK {
		t.Fatalf("answer: %d", code)
	}
	if ans.Reconsolidation == nil || len(ans.Reconsolidation.Labels) == 0 {
		t.Fatalf("answer's reconsolidation %+v, want the auditor's labels", ans.Reconsolidation)
	}
	return ans.Reconsolidation.Labels, ans.Reconsolidation.Usage["audit"]
}

// TestServeLLMDecisions: with REALM_LLM=openai every decision of the read path and the
// audit are the model's: a recall's trace holds the model's plans, sufficiency answers
// and expansion atoms with their reasoning, and /answer's reconsolidation the model's
// labels; the usage of each stage is reported.
func TestServeLLMDecisions(t *testing.T) {
	fake := fakeDecider(t)
	base := startServe(t, testEnv(map[string]string{"REALM_LLM": "openai", "OPENAI_BASE_URL": fake.BaseURL(),
		"REALM_MODEL_RETRIEVAL": "retrieval-model", "REALM_MODEL_AUDIT": "audit-model"}))
	sp := base + "/v1/spaces/" + cyphertest.NewSpace(t)
	ingestHiking(t, sp)

	usage, trace := recallTrace(t, sp)
	if len(trace.Plans) != 2 || trace.Plans[0].Query != "Melanie hikes in the mountains" || trace.Plans[0].Mode != realm.HybridMatch {
		t.Errorf("trace plans %+v, want the model's", trace.Plans)
	}
	if len(trace.Decisions) == 0 || trace.Decisions[0].Reason != "llm: expand the best" || trace.Decisions[0].IsEnough {
		t.Errorf("trace decisions %+v, want the model's sufficiency answers", trace.Decisions)
	}
	if len(trace.Steps) == 0 || trace.Steps[0].Reasoning != "llm: places Melanie hikes with her kids" || !trace.Steps[0].Atom.ConflictInhibit {
		t.Errorf("trace steps %+v, want the model's atoms and reasoning", trace.Steps)
	}
	for _, stage := range []string{"plan", "sufficiency", "expand"} {
		if u := usage[stage]; u.Calls == 0 || u.PromptTokens == 0 || u.Fallbacks != 0 {
			t.Errorf("recall usage of %s: %+v, want the model's calls and no fallback", stage, u)
		}
	}

	labels, auditUsage := answerLabels(t, sp)
	keys := 0
	for _, l := range labels {
		if l == realm.KeyEvidence {
			keys++
		}
	}
	if keys != 1 || auditUsage.Calls != 1 {
		t.Errorf("labels %v usage %+v, want the model's: one key evidence, the others unrelated", labels, auditUsage)
	}
	models := map[string]string{}
	for _, r := range fake.Requests() {
		models[r.SchemaName()] = r.Model
	}
	if models["realm_plans"] != "retrieval-model" || models["realm_policy"] != "retrieval-model" || models["realm_audit"] != "audit-model" {
		t.Errorf("models by schema %v, want each role's", models)
	}
}

// TestServeLLMDecisionsRepairThenFallback: with REALM_LLM=openai and a model that answers
// every read decision and the audit with output that breaks the rules, each decision is
// sent back once for repair with the reason, then taken by the offline agent: the
// responses' usage and /metrics count the failures and the fallbacks, and recall and
// /answer work on (the trace holds the offline plan, the reconsolidation the offline
// labels).
func TestServeLLMDecisionsRepairThenFallback(t *testing.T) {
	fake := agenttest.NewFakeOpenAI(t)
	var policyAsked atomic.Bool // the second recall: sufficiency valid, so that the expansion policy is asked
	sixPlans := make([]map[string]any, 6)
	for i := range sixPlans {
		sixPlans[i] = map[string]any{"query": "bad plan", "keywords": []string{}, "types": []string{}, "from": "", "to": "", "mode": "query_match"}
	}
	sufficiencyAsked := 0
	fake.Handle(agenttest.Router(t,
		agenttest.Route{Schema: "realm_plans", Respond: agenttest.Reply(agenttest.JSON(t, map[string]any{"plans": sixPlans}, 30, 20))},
		agenttest.Route{Schema: "realm_sufficiency", Respond: func(req agenttest.ChatRequest) agenttest.Response {
			if !policyAsked.Load() {
				return agenttest.JSON(t, map[string]any{"is_enough": false, "nodes_to_expand": []string{"M99"}, "reason": "bad"}, 20, 5)
			}
			if sufficiencyAsked++; sufficiencyAsked > 1 {
				return agenttest.JSON(t, map[string]any{"is_enough": true, "nodes_to_expand": []string{}, "reason": "llm: enough"}, 20, 5)
			}
			return agenttest.JSON(t, map[string]any{"is_enough": false, "nodes_to_expand": []string{"M1"}, "reason": "llm: expand"}, 20, 5)
		}},
		agenttest.Route{Schema: "realm_policy", Respond: agenttest.Reply(agenttest.JSON(t, map[string]any{
			"mode": "subgraph_beam", "predicates": []string{"likes"}, "decay_time": "", "decay_days": 0, "decay_mode": "", "missing_time": "",
			"conflict_inhibit": false, "reasoning": "bad"}, 25, 10))},
		agenttest.Route{Schema: "realm_audit", Respond: agenttest.Reply(agenttest.JSON(t, map[string]any{"labels": []any{}, "edits": []any{}}, 40, 15))},
		agenttest.Route{Schema: "realm_answer", Respond: agenttest.Reply(agenttest.JSON(t, map[string]any{"answer": "In the mountains.", "cited": []string{"M1"}}, 50, 5))},
		agenttest.Route{Respond: agenttest.Reply(agenttest.Content("not JSON", 1, 1))},
	))
	base := startServe(t, testEnv(map[string]string{"REALM_LLM": "openai", "OPENAI_BASE_URL": fake.BaseURL()}))
	sp := base + "/v1/spaces/" + cyphertest.NewSpace(t)
	ingestHiking(t, sp)
	// Repaired, then fallen back: every call failed, two per decision.
	fellBack := func(what, stage string, u realm.StageUsage) {
		t.Helper()
		if u.Fallbacks == 0 || u.Failures != 2*u.Fallbacks || u.Calls != u.Failures || u.PromptTokens == 0 {
			t.Errorf("%s: usage of %s %+v, want two failed calls (the answer and its repair) per fallback", what, stage, u)
		}
	}
	usage, trace := recallTrace(t, sp)
	fellBack("recall", "plan", usage["plan"])
	fellBack("recall", "sufficiency", usage["sufficiency"])
	if len(trace.Plans) == 0 || len(trace.Plans) > 5 || trace.Plans[0].Query == "bad plan" {
		t.Errorf("trace plans %+v, want the offline agent's", trace.Plans)
	}
	for _, d := range trace.Decisions {
		if d.Reason == "bad" {
			t.Errorf("trace decision %+v is the model's invalid one", d)
		}
	}

	policyAsked.Store(true)
	usage, trace = recallTrace(t, sp)
	fellBack("second recall", "expand", usage["expand"])
	if len(trace.Steps) == 0 || trace.Steps[0].Reasoning == "bad" {
		t.Errorf("trace steps %+v, want the offline agent's atoms", trace.Steps)
	}

	_, auditUsage := answerLabels(t, sp) // the offline auditor's labels
	fellBack("answer's reconsolidation", "audit", auditUsage)

	// Each decision's second request is the repair, saying what was wrong.
	reasons := map[string]string{"realm_plans": "at most 5", "realm_sufficiency": `"M99" is not a listed node`,
		"realm_policy": `"likes" is not one of the fifteen`, "realm_audit": "has no label"}
	seen := map[string]int{}
	for _, r := range fake.Requests() {
		want, ok := reasons[r.SchemaName()]
		if !ok {
			continue
		}
		if seen[r.SchemaName()]++; seen[r.SchemaName()] == 2 && (!strings.Contains(r.LastUser(), "could not be used") || !strings.Contains(r.LastUser(), want)) {
			t.Errorf("%s: the second request is not the repair saying %q:\n%s", r.SchemaName(), want, r.LastUser())
		}
	}
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, stage := range []string{"plan", "sufficiency", "expand", "audit"} {
		fallbacks, _ := metricSum(string(b), "realm_llm_fallbacks_total", `stage="`+stage+`"`)
		failures, _ := metricSum(string(b), "realm_llm_failures_total", `stage="`+stage+`"`, `reason="invalid_output"`)
		if fallbacks == 0 || failures != 2*fallbacks {
			t.Errorf("metrics of %s: %g fallbacks, %g invalid outputs; want fallbacks counted, two failures each", stage, fallbacks, failures)
		}
	}
}
