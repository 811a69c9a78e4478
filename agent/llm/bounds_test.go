package llm

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/agent/agenttest"
)

// TestLLMMaxTokens: every stage's request bounds the reply (Chat's too), max_tokens for a chat model,
// max_completion_tokens (with room to reason) for a reasoning model, which rejects max_tokens.
func TestLLMMaxTokens(t *testing.T) {
	stageOf := map[string]string{"realm_extraction": StageExtract, "realm_integration": StageIntegrate, "realm_plans": StagePlan,
		"realm_sufficiency": StageSufficiency, "realm_policy": StageExpand, "realm_audit": StageAudit, "realm_answer": StageAnswer,
		"": "judge"}
	for _, tt := range []struct {
		name, model string
		reasoning   bool
	}{{"Chat", "test-model", false}, {"Reasoning", "o3-mini", true}} {
		t.Run(tt.name, func(t *testing.T) {
			l := newTestLLM(t, func(c *Config) { c.Models.Extraction = tt.model })
			l.fake.Handle(agenttest.Reply(agenttest.Content("not JSON", 10, 2))) // every stage repaired, then the fallback
			ctx := context.Background()
			nodes := recallNodesFixture()
			l.Extract(ctx, agent.ExtractInput{Observation: testObservation()})
			l.Integrate(ctx, agent.IntegrateInput{Observation: testObservation(), Candidates: []agent.CandidateContext{{Candidate: agent.Candidate{Type: realm.Fact, Name: "a", Content: "a"}}}})
			l.PlanSeeds(ctx, agent.PlanInput{Query: "q", Time: askedAt})
			l.Sufficiency(ctx, agent.SufficiencyInput{Query: "q", Depth: 1, MaxDepth: 2, Nodes: nodes})
			l.ExpansionPolicy(ctx, agent.PolicyInput{Query: "q", Time: askedAt, Node: nodes[0]})
			l.Audit(ctx, agent.AuditInput{Query: "q", Answer: "a", Nodes: []realm.RecalledNode{{Node: nodes[0].Node}}})
			l.Answer(ctx, answerInput())
			l.Chat(ctx, ChatRequest{Stage: "judge", System: "s", User: "u"}) // free text: one call
			seen := map[string]bool{}
			for _, r := range l.fake.Requests() {
				stage := stageOf[r.SchemaName()]
				seen[stage] = true
				got, want := r.MaxTokens, stageMaxTokens(stage)
				if tt.reasoning {
					got, want = r.MaxCompletionTokens, stageMaxTokens(stage)+reasoningTokens
					if strings.Contains(string(r.Body), `"max_tokens"`) {
						t.Errorf("%s: max_tokens sent to a reasoning model", stage)
					}
				}
				if got != want {
					t.Errorf("%s: bound %d, want %d", stage, got, want)
				}
			}
			if len(seen) != len(maxTokens)+1 {
				t.Errorf("stages asked: %v, want all of %v and a judge", seen, maxTokens)
			}
		})
	}
}

// TestLLMExtractCapped: an extraction of more than maxCandidates candidates keeps the
// first maxCandidates; the excess is dropped and reported, the answer is not a failure.
func TestLLMExtractCapped(t *testing.T) {
	var log eventLog
	l := newTestLLM(t, func(c *Config) { c.Observe = log.observe })
	reply := validExtraction()
	one := reply["candidates"].([]map[string]any)[0]
	many := make([]map[string]any, 300)
	for i := range many {
		many[i] = one
	}
	reply["candidates"] = many
	l.fake.Enqueue(agenttest.JSON(t, reply, 100, 40000))
	out, usage, err := l.Extract(context.Background(), agent.ExtractInput{Observation: testObservation()})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Candidates) != maxCandidates || out.Candidates[0].Content != one["content"] {
		t.Errorf("%d candidates, want the first %d", len(out.Candidates), maxCandidates)
	}
	if u := usage[StageExtract]; u.Calls != 1 || u.Failures != 0 || u.Fallbacks != 0 {
		t.Errorf("usage %+v", u)
	}
	var dropped int
	for _, ev := range log.events {
		if ev.Kind == LLMDropped && ev.Stage == StageExtract {
			dropped += ev.Decisions
		}
	}
	if dropped != 300-maxCandidates {
		t.Errorf("%d candidates reported dropped, want %d (events %v)", dropped, 300-maxCandidates, log.kinds())
	}
	if sys := l.fake.Requests()[0].System(); !strings.Contains(sys, "At most 20 units") {
		t.Errorf("the prompt does not ask for at most %d units:\n%s", maxCandidates, sys)
	}
}

// TestLLMNoUsage: a reply without usage counts 0 tokens, is reported (NoUsage, for the
// metric) and warned about once, not silently; one whose usage says 0 tokens reported it.
func TestLLMNoUsage(t *testing.T) {
	var log eventLog
	l := newTestLLM(t, func(c *Config) { c.Observe = log.observe })
	var logged bytes.Buffer
	l.log = zerolog.New(&logged)
	valid := agenttest.JSON(t, validExtraction(), 0, 0)
	valid.NoUsage = true
	l.fake.Enqueue(valid, valid, agenttest.JSON(t, validExtraction(), 120, 45), agenttest.JSON(t, validExtraction(), 0, 0))
	for range 4 {
		if _, _, err := l.Extract(context.Background(), agent.ExtractInput{Observation: testObservation()}); err != nil {
			t.Fatal(err)
		}
	}
	var noUsage []bool
	for _, ev := range log.events {
		if ev.Kind == LLMCall {
			noUsage = append(noUsage, ev.NoUsage)
		}
	}
	if !slices.Equal(noUsage, []bool{true, true, false, false}) {
		t.Errorf("calls reported without usage: %v, want [true true false false]", noUsage)
	}
	if n := strings.Count(logged.String(), "without usage"); n != 1 {
		t.Errorf("%d warnings about missing usage, want 1:\n%s", n, logged.String())
	}
}
