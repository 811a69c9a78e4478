package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/agent/agenttest"
)

var askedAt = time.Date(2023, 6, 1, 12, 0, 0, 0, time.UTC)

func recallNodesFixture() []agent.Gathered {
	return []agent.Gathered{
		{Node: realm.Node{ID: "id-berlin", Type: realm.Fact, Name: "Caroline lives in Berlin", Content: "Caroline moved from Lisbon to Berlin in May 2023."}, Score: 0.8},
		{Node: realm.Node{ID: "id-job", Type: realm.Event, Name: "Caroline's new job", Content: "Caroline started a job at a bakery in Kreuzberg."}, Score: 0.5, Depth: 1},
	}
}

// TestLLMReadDecisions: the plan, sufficiency, expansion policy and audit decisions ask
// their own role's model for a JSON-schema answer, validated and turned into domain
// values; refs M<k> become node ids.
func TestLLMReadDecisions(t *testing.T) {
	ctx := context.Background()
	l := newTestLLM(t, func(c *Config) { c.Models.Retrieval, c.Models.Audit = "retrieval-model", "audit-model" })
	l.fake.Enqueue(
		agenttest.JSON(t, map[string]any{"plans": []map[string]any{
			{"query": "Where does Caroline live?", "keywords": []string{"Caroline", "Berlin"}, "types": []string{"fact"}, "from": "", "to": "", "mode": "hybrid_match"},
			{"query": "Caroline moved", "keywords": []string{}, "types": []string{}, "from": "2023-05-01", "to": "2023-05-31", "mode": "query_match"},
		}}, 40, 30),
		agenttest.JSON(t, map[string]any{"is_enough": false, "nodes_to_expand": []string{"M2", "M1", "M2"}, "reason": "the job's place is missing"}, 50, 10),
		agenttest.JSON(t, map[string]any{"mode": "path_search", "predicates": []string{"results_in", "supersedes"}, "decay_time": "2023-05-15",
			"decay_days": 30, "decay_mode": "soft", "missing_time": "keep", "conflict_inhibit": true, "reasoning": "where Caroline lived before Berlin"}, 30, 20),
		agenttest.JSON(t, map[string]any{"labels": []map[string]string{{"node": "M1", "label": "key_evidence"}, {"node": "M2", "label": "supporting_context"}},
			"edits": []map[string]any{{"from": "M1", "to": "M2", "action": "add", "predicate": "contextualizes", "confidence": 0.7, "reason": "the move led to the job"}}}, 60, 25),
	)

	plans, u, err := l.PlanSeeds(ctx, agent.PlanInput{Query: "Where does Caroline live now?", Time: askedAt})
	if err != nil || len(plans) != 2 || plans[0].Mode != realm.HybridMatch || plans[0].Types[0] != realm.Fact ||
		plans[1].TimeRange == nil || plans[1].TimeRange.From.Format(time.DateOnly) != "2023-05-01" || plans[1].TimeRange.To.Format(time.DateOnly) != "2023-05-31" {
		t.Errorf("plans %+v, %v", plans, err)
	}
	if s := u[StagePlan]; s.Calls != 1 || s.PromptTokens != 40 || s.CompletionTokens != 30 {
		t.Errorf("plan usage %+v", s)
	}

	suff, u, err := l.Sufficiency(ctx, agent.SufficiencyInput{Query: "Where does Caroline work?", Depth: 1, MaxDepth: 3, Nodes: recallNodesFixture()})
	if err != nil || suff.IsEnough || strings.Join(suff.NodesToExpand, ",") != "id-job,id-berlin" || suff.Reason == "" || u[StageSufficiency].Calls != 1 {
		t.Errorf("sufficiency %+v, %v", suff, err)
	}

	pol, u, err := l.ExpansionPolicy(ctx, agent.PolicyInput{Query: "Where did Caroline live before?", Time: askedAt, Node: recallNodesFixture()[0]})
	a := pol.Atom
	if err != nil || a.Mode != realm.PathSearch || len(a.Predicates) != 2 || !a.ConflictInhibit || a.Decay == nil ||
		a.Decay.DeltaT != 30*24*time.Hour || a.Decay.Mode != realm.DecaySoft || pol.Reasoning != "where Caroline lived before Berlin" || u[StageExpand].Calls != 1 {
		t.Errorf("policy %+v (decay %+v), %v", pol, a.Decay, err)
	}

	nodes := recallNodesFixture()
	audit, u, err := l.Audit(ctx, agent.AuditInput{Query: "Where does Caroline work?", Answer: "At a bakery.", Cited: []string{"id-job"},
		Nodes: []realm.RecalledNode{{Node: nodes[0].Node, Score: 0.8}, {Node: nodes[1].Node, Score: 0.5, Depth: 1}}})
	if err != nil || audit.Labels["id-berlin"] != realm.KeyEvidence || audit.Labels["id-job"] != realm.SupportingContext ||
		len(audit.Edits) != 1 || audit.Edits[0].From != "id-berlin" || audit.Edits[0].To != "id-job" || u[StageAudit].Calls != 1 {
		t.Errorf("audit %+v, %v", audit, err)
	}

	for _, stage := range []string{StagePlan, StageSufficiency, StageExpand, StageAudit} {
		if f := u[stage].Fallbacks; f != 0 {
			t.Errorf("%s: %d fallbacks", stage, f)
		}
	}
	reqs := l.fake.Requests()
	for i, want := range []string{"retrieval-model", "retrieval-model", "retrieval-model", "audit-model"} {
		if reqs[i].Model != want {
			t.Errorf("request %d (%s) to model %q, want %q", i, reqs[i].SchemaName(), reqs[i].Model, want)
		}
	}
	if !strings.Contains(reqs[3].LastUser(), "The answer cites: M2") || !strings.Contains(reqs[1].LastUser(), "- M2 [event]") {
		t.Errorf("prompts do not show the nodes under their refs:\n%s\n%s", reqs[1].LastUser(), reqs[3].LastUser())
	}
}

// TestLLMPlanSaid: a plan marked said looks among what was said from–to (SaidIn, whole
// days); said without from and to is sent back for repair.
func TestLLMPlanSaid(t *testing.T) {
	ctx := context.Background()
	l := newTestLLM(t, nil)
	plan := func(from, to string) map[string]any {
		return map[string]any{"plans": []map[string]any{{"query": "what we talked about", "keywords": []string{}, "types": []string{},
			"from": from, "to": to, "mode": "query_match", "said": true}}}
	}
	l.fake.Enqueue(agenttest.JSON(t, plan("", ""), 10, 5), agenttest.JSON(t, plan("2023-05-31", "2023-05-31"), 10, 5))
	plans, u, err := l.PlanSeeds(ctx, agent.PlanInput{Query: "What did we talk about yesterday?", Time: askedAt})
	if err != nil || len(plans) != 1 || plans[0].SaidIn == nil || u[StagePlan].Failures != 1 {
		t.Fatalf("plans %+v usage %+v, %v: want one said plan, after one repair", plans, u[StagePlan], err)
	}
	if in := plans[0].SaidIn; in.From.Format(time.RFC3339) != "2023-05-31T00:00:00Z" || in.To.Format(time.DateOnly) != "2023-05-31" || !in.To.After(in.From.Add(23*time.Hour)) {
		t.Errorf("said in %v – %v, want the whole of 31 May 2023", in.From, in.To)
	}
	if reqs := l.fake.Requests(); !strings.Contains(reqs[1].LastUser(), "said needs from and to") {
		t.Errorf("the repair does not say why:\n%s", reqs[1].LastUser())
	}
}

// TestLLMPlanLatest: a plan marked latest asks for the most recent of what it matches
// (realm.Plan.Latest, which the scorer's recency reads); a reply without the field is a
// plan without it, and the prompt asks for it.
func TestLLMPlanLatest(t *testing.T) {
	ctx := context.Background()
	l := newTestLLM(t, nil)
	plan := map[string]any{"query": "Ana's quiz score", "keywords": []string{"Ana", "quiz"}, "types": []string{},
		"from": "", "to": "", "mode": "hybrid_match", "said": false, "latest": true}
	without := map[string]any{"query": "Ana's quiz score", "keywords": []string{}, "types": []string{}, "from": "", "to": "", "mode": "query_match"}
	l.fake.Enqueue(agenttest.JSON(t, map[string]any{"plans": []map[string]any{plan, without}}, 10, 5))
	plans, _, err := l.PlanSeeds(ctx, agent.PlanInput{Query: "What was Ana's last quiz score?", Time: askedAt})
	if err != nil || len(plans) != 2 || !plans[0].Latest || plans[1].Latest {
		t.Fatalf("plans %+v, %v: want the first latest, the second not", plans, err)
	}
	if sys := l.fake.Requests()[0].Messages[0].Content; !strings.Contains(sys, "latest: true when the question asks for the most recent") {
		t.Errorf("the plan prompt does not ask for latest:\n%s", sys)
	}
}

// TestLLMReadDecisionsRepairThenFallback: an invalid answer is sent back once with its
// error; a second invalid one gives the fallback's decision, counted.
func TestLLMReadDecisionsRepairThenFallback(t *testing.T) {
	ctx := context.Background()
	var fallbacks []Event
	l := newTestLLM(t, func(c *Config) {
		c.Observe = func(e Event) {
			if e.Kind == LLMFallback {
				fallbacks = append(fallbacks, e)
			}
		}
	})
	// Repaired: six plans, then one.
	six := make([]map[string]any, 6)
	for i := range six {
		six[i] = map[string]any{"query": "q", "keywords": []string{}, "types": []string{}, "from": "", "to": "", "mode": "query_match"}
	}
	l.fake.Enqueue(agenttest.JSON(t, map[string]any{"plans": six}, 10, 5), agenttest.JSON(t, map[string]any{"plans": six[:1]}, 10, 5))
	plans, u, err := l.PlanSeeds(ctx, agent.PlanInput{Query: "q", Time: askedAt})
	if err != nil || len(plans) != 1 || plans[0].Query != "q" || u[StagePlan].Calls != 2 || u[StagePlan].Failures != 1 || u[StagePlan].Fallbacks != 0 {
		t.Errorf("plans %+v usage %+v, want the repaired one", plans, u[StagePlan])
	}
	if reqs := l.fake.Requests(); !strings.Contains(reqs[1].LastUser(), "at most 5") {
		t.Errorf("the repair does not say why:\n%s", reqs[1].LastUser())
	}

	// Fallback after two invalid answers: an unknown node, then six nodes to expand.
	l.fake.Enqueue(
		agenttest.JSON(t, map[string]any{"is_enough": false, "nodes_to_expand": []string{"M9"}, "reason": ""}, 10, 5),
		agenttest.JSON(t, map[string]any{"is_enough": false, "nodes_to_expand": []string{"M1", "M1", "M1", "M1", "M1", "M1"}, "reason": ""}, 10, 5),
	)
	in := agent.SufficiencyInput{Query: "q", Depth: 1, MaxDepth: 3, K: 10, Nodes: recallNodesFixture()}
	want, _, _ := l.fallback.Sufficiency(ctx, in)
	suff, u, err := l.Sufficiency(ctx, in)
	if err != nil || suff.Reason != want.Reason || suff.IsEnough != want.IsEnough || u[StageSufficiency].Fallbacks != 1 || u[StageSufficiency].Failures != 2 {
		t.Errorf("sufficiency %+v usage %+v, want the fallback's, counted", suff, u[StageSufficiency])
	}

	// An audit that leaves a node unlabelled, twice.
	half := map[string]any{"labels": []map[string]string{{"node": "M1", "label": "key_evidence"}}, "edits": []any{}}
	l.fake.Enqueue(agenttest.JSON(t, half, 10, 5), agenttest.JSON(t, half, 10, 5))
	nodes := recallNodesFixture()
	_, u, err = l.Audit(ctx, agent.AuditInput{Query: "q", Nodes: []realm.RecalledNode{{Node: nodes[0].Node}, {Node: nodes[1].Node}}})
	if err != nil || u[StageAudit].Fallbacks != 1 {
		t.Errorf("audit usage %+v, %v; want a counted fallback", u[StageAudit], err)
	}
	if len(fallbacks) != 2 || fallbacks[0].Stage != StageSufficiency || fallbacks[1].Stage != StageAudit {
		t.Errorf("fallback events %+v", fallbacks)
	}

	// A cancelled context is the caller's error, not a fallback.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, u, err := l.ExpansionPolicy(cctx, agent.PolicyInput{Query: "q", Node: nodes[0]}); !errors.Is(err, context.Canceled) || u[StageExpand].Fallbacks != 0 {
		t.Errorf("got %v, usage %+v; want the context's error, no fallback", err, u[StageExpand])
	}
}

// TestLLMWrongShape: a reply of another shape than the stage's schema is invalid, not
// decoded into defaults: it is sent back once saying which fields are missing, then the
// offline decision (or, for the answer, EUnavailable) is taken, the failures counted.
func TestLLMWrongShape(t *testing.T) {
	wrong := `{"result":"ok","items":[1,2,3]}`
	nodes := recallNodesFixture()
	extraction := validExtraction()
	delete(extraction["candidates"].([]map[string]any)[1], "category") // a nested field
	for _, tt := range []struct {
		name, stage string
		reply       string
		missing     string // in the repair message
		decide      func(context.Context, *testLLM) (realm.Usage, error)
	}{
		{"Sufficiency", StageSufficiency, wrong, "is_enough is missing", func(ctx context.Context, l *testLLM) (realm.Usage, error) {
			_, u, err := l.Sufficiency(ctx, agent.SufficiencyInput{Query: "q", Depth: 1, MaxDepth: 3, Nodes: nodes})
			return u, err
		}},
		{"Plan", StagePlan, wrong, "plans is missing", func(ctx context.Context, l *testLLM) (realm.Usage, error) {
			_, u, err := l.PlanSeeds(ctx, agent.PlanInput{Query: "q", Time: askedAt})
			return u, err
		}},
		{"Policy", StageExpand, `{"mode": "path_search", "reasoning": "where Caroline lived"}`, "conflict_inhibit is missing", func(ctx context.Context, l *testLLM) (realm.Usage, error) {
			_, u, err := l.ExpansionPolicy(ctx, agent.PolicyInput{Query: "q", Time: askedAt, Node: nodes[0]})
			return u, err
		}},
		{"Audit", StageAudit, `{"labels": [{"node": "M1", "label": "key_evidence"}]}`, "edits is missing", func(ctx context.Context, l *testLLM) (realm.Usage, error) {
			_, u, err := l.Audit(ctx, agent.AuditInput{Query: "q", Nodes: []realm.RecalledNode{{Node: nodes[0].Node}}})
			return u, err
		}},
		{"Extract", StageExtract, agenttest.JSON(t, extraction, 1, 1).Content, "candidates[1].category is missing", func(ctx context.Context, l *testLLM) (realm.Usage, error) {
			_, u, err := l.Extract(ctx, agent.ExtractInput{Observation: testObservation()})
			return u, err
		}},
		{"Integrate", StageIntegrate, `{"decisions": [{"candidate": "C0", "action": "add"}]}`, "decisions[0].edges is missing", func(ctx context.Context, l *testLLM) (realm.Usage, error) {
			_, u, err := l.Integrate(ctx, agent.IntegrateInput{Observation: testObservation(),
				Candidates: []agent.CandidateContext{{Candidate: agent.Candidate{Type: realm.Fact, Name: "a", Content: "a"}}}})
			return u, err
		}},
		{"Answer", StageAnswer, `{"answer": "On 7 May 2023."}`, "cited is missing", func(ctx context.Context, l *testLLM) (realm.Usage, error) {
			_, u, err := l.Answer(ctx, answerInput())
			if realm.ErrorCode(err) != realm.EUnavailable {
				return u, fmt.Errorf("err %v, want %s", err, realm.EUnavailable)
			}
			return u, nil // there is no offline answer
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := newTestLLM(t, nil)
			l.fake.Enqueue(agenttest.Content(tt.reply, 10, 5), agenttest.Content(tt.reply, 10, 5))
			usage, err := tt.decide(context.Background(), l)
			if err != nil {
				t.Fatal(err)
			}
			reqs := l.fake.Requests()
			if len(reqs) != 2 || !strings.Contains(reqs[1].LastUser(), tt.missing) {
				t.Fatalf("%d requests; want 2, the repair saying %q:\n%s", len(reqs), tt.missing, reqs[len(reqs)-1].LastUser())
			}
			fallbacks := 1
			if tt.stage == StageAnswer {
				fallbacks = 0
			}
			if u := usage[tt.stage]; u.Calls != 2 || u.Failures != 2 || u.Fallbacks != fallbacks {
				t.Errorf("usage %+v; want 2 calls, 2 failures, %d fallbacks", u, fallbacks)
			}
		})
	}
}

// TestLLMRecallScope: in one recall, a stage whose answer and repair failed is not asked
// again: the rest of its decisions are the fallback's, counted; other stages still ask,
// and the next recall asks the stage again.
func TestLLMRecallScope(t *testing.T) {
	var log eventLog
	l := newTestLLM(t, func(c *Config) { c.Observe = log.observe })
	nodes := recallNodesFixture()
	policy := agent.PolicyInput{Query: "q", Time: askedAt, Node: nodes[0]}
	invalid := agenttest.Content(`{"mode": "", "predicates": [], "decay_time": "", "decay_days": 0, "decay_mode": "", "missing_time": "", "conflict_inhibit": false, "reasoning": ""}`, 10, 5)
	l.fake.Enqueue(invalid, invalid,
		agenttest.JSON(t, map[string]any{"is_enough": true, "nodes_to_expand": []string{}, "reason": "enough"}, 10, 5))

	ctx := agent.WithRecallScope(context.Background())
	var fallbacks int
	for range 5 {
		_, u, err := l.ExpansionPolicy(ctx, policy)
		if err != nil {
			t.Fatal(err)
		}
		fallbacks += u[StageExpand].Fallbacks
	}
	if n := len(l.fake.Requests()); n != 2 || fallbacks != 5 {
		t.Errorf("%d requests, %d fallbacks; want 2 (the answer and its repair), 5", n, fallbacks)
	}
	if suff, _, err := l.Sufficiency(ctx, agent.SufficiencyInput{Query: "q", Depth: 1, MaxDepth: 3, Nodes: nodes}); err != nil || !suff.IsEnough {
		t.Errorf("sufficiency %+v, %v: another stage asks the model", suff, err)
	}
	var events int
	for _, ev := range log.events {
		if ev.Kind == LLMFallback && ev.Stage == StageExpand {
			events += ev.Decisions
		}
	}
	if events != 5 {
		t.Errorf("%d expand fallbacks reported, want 5", events)
	}

	l.fake.Enqueue(invalid, invalid)
	l.ExpansionPolicy(agent.WithRecallScope(context.Background()), policy)
	if n := len(l.fake.Requests()); n != 5 {
		t.Errorf("%d requests, want 5: the next recall asks again", n)
	}
}
