package main

import (
	"net/http"
	"regexp"
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

// TestServeLLMDecisions: with REALM_LLM=openai every decision of the read path and the
// audit are the model's: a recall's trace holds the model's plans, sufficiency answers
// and expansion atoms with their reasoning, and /answer's reconsolidation the model's
// labels; the usage of each stage is reported.
func TestServeLLMDecisions(t *testing.T) {
	fake := fakeDecider(t)
	base := startServe(t, testEnv(map[string]string{"REALM_LLM": "openai", "OPENAI_BASE_URL": fake.BaseURL(),
		"REALM_MODEL_RETRIEVAL": "retrieval-model", "REALM_MODEL_AUDIT": "audit-model"}))
	sp := base + "/v1/spaces/" + cyphertest.NewSpace(t)
	messages := []map[string]string{
		{"id": "m1", "speaker": "Melanie", "content": "I love hiking in the mountains with my kids.", "timestamp": "2023-05-08T13:57:00Z"},
		{"id": "m2", "speaker": "Melanie", "content": "Last weekend my kids and I hiked to a lake in the mountains.", "timestamp": "2023-05-08T13:58:00Z"},
		{"id": "m3", "speaker": "Caroline", "content": "I painted a sunrise over the lake last year.", "timestamp": "2023-05-08T13:59:00Z"},
	}
	if code := send(t, "POST", sp+"/observations", map[string]any{"messages": messages}, nil); code != http.StatusOK {
		t.Fatalf("ingest: %d", code)
	}

	var rec struct {
		TraceID string `json:"trace_id"`
		Usage   realm.Usage
	}
	if code := send(t, "POST", sp+"/recall", map[string]any{"query": "Where does Melanie hike?"}, &rec); code != http.StatusOK {
		t.Fatalf("recall: %d", code)
	}
	var trace realm.Trace
	if code := send(t, "GET", sp+"/traces/"+rec.TraceID, nil, &trace); code != http.StatusOK {
		t.Fatalf("trace: %d", code)
	}
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
		if u := rec.Usage[stage]; u.Calls == 0 || u.PromptTokens == 0 || u.Fallbacks != 0 {
			t.Errorf("recall usage of %s: %+v, want the model's calls and no fallback", stage, u)
		}
	}

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
	keys := 0
	for _, l := range ans.Reconsolidation.Labels {
		if l == realm.KeyEvidence {
			keys++
		}
	}
	if keys != 1 || ans.Reconsolidation.Usage["audit"].Calls != 1 {
		t.Errorf("labels %v usage %+v, want the model's: one key evidence, the others unrelated", ans.Reconsolidation.Labels, ans.Reconsolidation.Usage)
	}
	models := map[string]string{}
	for _, r := range fake.Requests() {
		models[r.SchemaName()] = r.Model
	}
	if models["realm_plans"] != "retrieval-model" || models["realm_policy"] != "retrieval-model" || models["realm_audit"] != "audit-model" {
		t.Errorf("models by schema %v, want each role's", models)
	}
}
