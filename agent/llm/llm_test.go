package llm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	openai "github.com/sashabaranov/go-openai"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/agent/agenttest"
	"github.com/realm-memory/realm/agent/offline"
)

// stubAgent is the fallback of these tests: its decisions are recognisable and it
// counts how often it was asked.
type stubAgent struct {
	agent.Agent              // the offline agent, for the decisions the tests do not count
	mu                       sync.Mutex
	extractCalls, integCalls int
}

func newStub() *stubAgent { return &stubAgent{Agent: offline.New(offline.Options{})} }

const fallbackMark = "FALLBACK"

func (s *stubAgent) Extract(ctx context.Context, in agent.ExtractInput) (agent.Extraction, realm.Usage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.extractCalls++
	return agent.Extraction{Summary: fallbackMark, Candidates: []agent.Candidate{{Type: realm.Fact, Name: fallbackMark, Content: fallbackMark}}}, realm.Usage{}, nil
}

func (s *stubAgent) Integrate(ctx context.Context, in agent.IntegrateInput) ([]agent.Integration, realm.Usage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.integCalls++
	out := make([]agent.Integration, len(in.Candidates))
	for i := range out {
		out[i] = agent.Integration{Action: agent.ActionAdd, Merged: fallbackMark}
	}
	return out, realm.Usage{}, nil
}

type testLLM struct {
	*Agent
	fake     *agenttest.FakeOpenAI
	fallback *stubAgent
	waits    []time.Duration
}

// newTestLLM returns an LLM agent talking to a fresh fake; edit adjusts the config.
func newTestLLM(tb testing.TB, edit func(*Config)) *testLLM {
	tb.Helper()
	fake := agenttest.NewFakeOpenAI(tb)
	cfg := Config{BaseURL: fake.BaseURL(), APIKey: "test", Models: Models{Extraction: "test-model"}, Timeout: 5 * time.Second}
	if edit != nil {
		edit(&cfg)
	}
	fb := newStub()
	l, err := New(cfg, fb, zerolog.New(io.Discard))
	if err != nil {
		tb.Fatal(err)
	}
	tl := &testLLM{Agent: l, fake: fake, fallback: fb}
	// Record retry waits instead of sleeping: no timing in tests.
	l.sleep = func(ctx context.Context, d time.Duration) error { tl.waits = append(tl.waits, d); return ctx.Err() }
	return tl
}

var obsTime = time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)

func testObservation() realm.Observation {
	return realm.Observation{ID: "D1:3", Space: "demo", Speaker: "Caroline", ObservedAt: obsTime,
		Content: "I went to a LGBTQ support group yesterday and it was so powerful."}
}

func validExtraction() map[string]any {
	return map[string]any{
		"summary": "Caroline attended an LGBTQ support group on 2023-05-07.",
		"candidates": []map[string]any{
			{"type": "event", "name": "Caroline attends LGBTQ support group", "content": "Caroline attended an LGBTQ support group on 2023-05-07 and found the LGBTQ support group powerful.",
				"description": "a formative event", "keywords": []string{"LGBTQ", "support group", "Caroline"},
				"t_start": "2023-05-07", "t_end": "", "aliases": []string{}, "category": "", "role": "",
				"participants": []string{"Caroline"}, "subject": "", "attribute": ""},
			{"type": "entity", "name": "Caroline", "content": "Caroline is a person who attends an LGBTQ support group.",
				"description": "", "keywords": []string{}, "t_start": "", "t_end": "", "aliases": []string{"Caro"},
				"category": "person", "role": "", "participants": []string{}, "subject": "", "attribute": ""},
		},
	}
}

func TestLLMExtract(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		l := newTestLLM(t, nil)
		l.fake.Enqueue(agenttest.JSON(t, validExtraction(), 120, 45))
		out, usage, err := l.Extract(context.Background(), agent.ExtractInput{Observation: testObservation(), Summary: "old"})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Candidates) != 2 || out.Summary != "Caroline attended an LGBTQ support group on 2023-05-07." {
			t.Fatalf("extraction = %+v", out)
		}
		ev, ent := out.Candidates[0], out.Candidates[1]
		want := time.Date(2023, 5, 7, 0, 0, 0, 0, time.UTC)
		if ev.Type != realm.Event || ev.TStart == nil || !ev.TStart.Equal(want) || ev.TEnd == nil || !ev.TEnd.Equal(want) {
			t.Errorf("event = %+v, want a point in time on 2023-05-07", ev)
		}
		if ent.Type != realm.Entity || ent.Category != "person" || ent.TStart != nil || len(ent.Aliases) != 1 {
			t.Errorf("entity = %+v", ent)
		}
		want2 := realm.StageUsage{Calls: 1, PromptTokens: 120, CompletionTokens: 45}
		if got := usage[StageExtract]; got.Calls != want2.Calls || got.PromptTokens != 120 || got.CompletionTokens != 45 || got.Failures != 0 || got.Fallbacks != 0 {
			t.Errorf("usage = %+v, want %+v", got, want2)
		}

		reqs := l.fake.Requests()
		if len(reqs) != 1 {
			t.Fatalf("%d requests, want 1", len(reqs))
		}
		r := reqs[0]
		if r.Model != "test-model" {
			t.Errorf("model = %q", r.Model)
		}
		if r.ResponseFormat == nil || r.ResponseFormat.Type != openai.ChatCompletionResponseFormatTypeJSONSchema ||
			r.ResponseFormat.JSONSchema == nil || !r.ResponseFormat.JSONSchema.Strict || r.SchemaName() != "realm_extraction" {
			t.Errorf("response_format = %+v", r.ResponseFormat)
		}
		if !strings.Contains(string(r.Body), `"temperature":`) {
			t.Error("temperature not sent: the API default of 1 would apply")
		}
		if !strings.Contains(r.LastUser(), "2023-05-08T13:56:00Z (Monday)") || !strings.Contains(r.LastUser(), "Caroline: I went") {
			t.Errorf("user prompt lacks timestamp or observation:\n%s", r.LastUser())
		}
		if !strings.Contains(r.System(), "No pronouns") || !strings.Contains(r.System(), "Absolute dates") {
			t.Errorf("system prompt lacks the rules:\n%s", r.System())
		}
	})

	t.Run("ErrInvalidType", func(t *testing.T) {
		bad := validExtraction()
		bad["candidates"].([]map[string]any)[0]["type"] = "memory"
		bad["candidates"].([]map[string]any)[1]["t_start"] = "last Saturday"
		l := newTestLLM(t, nil)
		l.fake.Enqueue(agenttest.JSON(t, bad, 10, 10), agenttest.JSON(t, validExtraction(), 10, 10))
		out, usage, err := l.Extract(context.Background(), agent.ExtractInput{Observation: testObservation()})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Candidates) != 2 || out.Candidates[0].Type != realm.Event {
			t.Errorf("repaired extraction not applied: %+v", out)
		}
		repair := l.fake.Requests()[1].LastUser()
		for _, want := range []string{`candidates[0].type "memory"`, `candidates[1].t_start`} {
			if !strings.Contains(repair, want) {
				t.Errorf("repair message lacks %q:\n%s", want, repair)
			}
		}
		if got := usage[StageExtract]; got.Calls != 2 || got.Failures != 1 || got.Fallbacks != 0 {
			t.Errorf("usage = %+v", got)
		}
	})
}

// exchangeInput is an answer whose question was the last recent observation: the
// prompt shows the recent observations as O1 (a greeting) and O2 (the question).
func exchangeInput() agent.ExtractInput {
	at := func(m int) time.Time { return obsTime.Add(time.Duration(m) * time.Minute) }
	return agent.ExtractInput{
		Observation: realm.Observation{ID: "D1:3", Space: "demo", SessionID: "D1", Speaker: "Caroline", ObservedAt: at(2), Content: "Yes, last year!"},
		Recent: []realm.Observation{
			{ID: "D1:1", Space: "demo", SessionID: "D1", Speaker: "Melanie", ObservedAt: at(0), Content: "Hi Caroline!"},
			{ID: "D1:2", Space: "demo", SessionID: "D1", Speaker: "Melanie", ObservedAt: at(1), Content: "Did you paint that sunrise?"},
		},
	}
}

// exchangeExtraction is the model's reply for exchangeInput: the exchange, naming
// alsoFrom (a JSON value: normally a list of refs), and the painter.
func exchangeExtraction(alsoFrom any) map[string]any {
	return map[string]any{
		"summary": "Caroline painted a sunrise in 2022.",
		"candidates": []map[string]any{
			{"type": "event", "name": "Caroline painted the sunrise", "content": `Melanie asked: "Did Caroline paint that sunrise?" Caroline painted the sunrise in 2022.`,
				"description": "", "keywords": []string{"painting", "sunrise"}, "t_start": "2022-01-01", "t_end": "2022-12-31",
				"aliases": []string{}, "category": "", "role": "", "participants": []string{"Caroline"}, "subject": "", "attribute": "",
				"also_from": alsoFrom},
			{"type": "entity", "name": "Caroline", "content": "Caroline is a person who paints.", "description": "", "keywords": []string{},
				"t_start": "", "t_end": "", "aliases": []string{}, "category": "person", "role": "", "participants": []string{},
				"subject": "", "attribute": "", "also_from": []string{}},
		},
	}
}

// TestLLMExtractAlsoFrom: the extract prompt shows the recent observations under refs and
// asks for an answer's unit as its exchange; a candidate's also_from refs (or ids) become
// Candidate.AlsoFrom, keeping only recent observations; a malformed also_from goes the
// way of any malformed field (one repair, then the fallback).
func TestLLMExtractAlsoFrom(t *testing.T) {
	for _, tt := range []struct {
		name     string
		replies  []agenttest.Response
		want     []string // AlsoFrom of the exchange
		calls    int
		failures int
		fallback bool
		repair   string // part of the repair message
	}{
		{name: "Ref", replies: []agenttest.Response{agenttest.JSON(t, exchangeExtraction([]string{"O2"}), 10, 5)},
			want: []string{"D1:2"}, calls: 1},
		{name: "RefsAndIDsOnceEach", replies: []agenttest.Response{agenttest.JSON(t, exchangeExtraction([]string{" O2 ", "D1:1", "o2", "D1:2"}), 10, 5)},
			want: []string{"D1:2", "D1:1"}, calls: 1},
		{name: "UnknownDropped", replies: []agenttest.Response{agenttest.JSON(t, exchangeExtraction([]string{"O3", "D1:3", "D0:9", "", "O2"}), 10, 5)},
			want: []string{"D1:2"}, calls: 1},
		{name: "OnlyUnknown", replies: []agenttest.Response{agenttest.JSON(t, exchangeExtraction([]string{"O0", "question"}), 10, 5)},
			want: nil, calls: 1},
		{name: "Null", replies: []agenttest.Response{agenttest.JSON(t, exchangeExtraction(nil), 10, 5)},
			want: nil, calls: 1},
		{name: "ErrStringRepaired", replies: []agenttest.Response{
			agenttest.JSON(t, exchangeExtraction("O2"), 10, 5), agenttest.JSON(t, exchangeExtraction([]string{"O2"}), 10, 5)},
			want: []string{"D1:2"}, calls: 2, failures: 1, repair: "also_from"},
		{name: "ErrNumbersTwiceFallsBack", replies: []agenttest.Response{
			agenttest.JSON(t, exchangeExtraction([]int{2}), 10, 5), agenttest.JSON(t, exchangeExtraction([]any{"O2", 2}), 10, 5)},
			calls: 2, failures: 2, fallback: true, repair: "also_from"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := newTestLLM(t, nil)
			l.fake.Enqueue(tt.replies...)
			out, usage, err := l.Extract(context.Background(), exchangeInput())
			if err != nil {
				t.Fatal(err)
			}
			reqs := l.fake.Requests()
			if u := usage[StageExtract]; len(reqs) != tt.calls || u.Calls != tt.calls || u.Failures != tt.failures {
				t.Errorf("%d requests, usage %+v; want %d calls, %d failures", len(reqs), u, tt.calls, tt.failures)
			}
			if tt.repair != "" && !strings.Contains(reqs[len(reqs)-1].LastUser(), tt.repair) {
				t.Errorf("repair message lacks %q:\n%s", tt.repair, reqs[len(reqs)-1].LastUser())
			}
			if tt.fallback {
				if l.fallback.extractCalls != 1 || out.Summary != fallbackMark {
					t.Errorf("fallback not used: %+v", out)
				}
				return
			}
			if l.fallback.extractCalls != 0 || len(out.Candidates) != 2 {
				t.Fatalf("extraction %+v (fallback calls %d), want the model's 2 candidates", out, l.fallback.extractCalls)
			}
			if got := out.Candidates[0].AlsoFrom; !slices.Equal(got, tt.want) {
				t.Errorf("AlsoFrom = %q, want %q", got, tt.want)
			}
			if got := out.Candidates[1].AlsoFrom; len(got) != 0 {
				t.Errorf("the entity's AlsoFrom = %q, want none", got)
			}
		})
	}

	t.Run("Prompt", func(t *testing.T) {
		l := newTestLLM(t, nil)
		l.fake.Enqueue(agenttest.JSON(t, exchangeExtraction([]string{"O2"}), 10, 5))
		if _, _, err := l.Extract(context.Background(), exchangeInput()); err != nil {
			t.Fatal(err)
		}
		r := l.fake.Requests()[0]
		for _, want := range []string{
			"- O1 [2023-05-08T13:56:00Z] Melanie: Hi Caroline!",
			"- O2 [2023-05-08T13:57:00Z] Melanie: Did you paint that sunrise?",
			"Caroline: Yes, last year!",
		} {
			if !strings.Contains(r.LastUser(), want) {
				t.Errorf("user prompt lacks %q:\n%s", want, r.LastUser())
			}
		}
		for _, want := range []string{"Answers are exchanges", "the question first", "also_from", `["O6"]`} {
			if !strings.Contains(r.System(), want) {
				t.Errorf("system prompt lacks %q:\n%s", want, r.System())
			}
		}
		// The strict schema requires also_from of every candidate, as a list of strings.
		var body struct {
			ResponseFormat struct {
				JSONSchema struct {
					Schema struct {
						Properties struct {
							Candidates struct {
								Items struct {
									Required   []string `json:"required"`
									Properties map[string]struct {
										Type  string `json:"type"`
										Items struct {
											Type string `json:"type"`
										} `json:"items"`
									} `json:"properties"`
								} `json:"items"`
							} `json:"candidates"`
						} `json:"properties"`
					} `json:"schema"`
				} `json:"json_schema"`
			} `json:"response_format"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		items := body.ResponseFormat.JSONSchema.Schema.Properties.Candidates.Items
		if p := items.Properties["also_from"]; !slices.Contains(items.Required, "also_from") || p.Type != "array" || p.Items.Type != "string" {
			t.Errorf("candidate schema: required %v, also_from %+v; want a required array of strings", items.Required, p)
		}
	})

	t.Run("NoRecent", func(t *testing.T) {
		l := newTestLLM(t, nil)
		l.fake.Enqueue(agenttest.JSON(t, exchangeExtraction([]string{"O1"}), 10, 5))
		in := exchangeInput()
		in.Recent = nil
		out, _, err := l.Extract(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		if got := out.Candidates[0].AlsoFrom; len(got) != 0 {
			t.Errorf("AlsoFrom = %q with no recent observation, want none", got)
		}
		if !strings.Contains(l.fake.Requests()[0].LastUser(), "(none)") {
			t.Errorf("user prompt does not say there are no recent observations:\n%s", l.fake.Requests()[0].LastUser())
		}
	})
}

// TestLLMExtractSessionUser: the first messages of the session's user, shown beside the
// recent observations of an assistant's message that hold none, are in the prompt, under
// no ref: a unit does not derive from them.
func TestLLMExtractSessionUser(t *testing.T) {
	l := newTestLLM(t, nil)
	l.fake.Enqueue(agenttest.JSON(t, exchangeExtraction([]string{"O1", "P1"}), 10, 5))
	in := agent.ExtractInput{
		Observation: realm.Observation{ID: "P2", Space: "demo", SessionID: "trip", Speaker: "assistant", Role: "assistant", ObservedAt: obsTime.Add(time.Minute), Content: "Noted: Ana is travelling with you."},
		Session:     []realm.Observation{{ID: "P1", Space: "demo", SessionID: "trip", Speaker: "Priya", Role: "user", ObservedAt: obsTime, Content: "My sister Ana is coming."}},
	}
	out, _, err := l.Extract(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.fake.Requests()[0].LastUser(); !strings.Contains(got, "The user of this session") || !strings.Contains(got, "\n- [2023-05-08T13:56:00Z] Priya: My sister Ana is coming.") {
		t.Errorf("user prompt lacks the session's user's message:\n%s", got)
	}
	if got := out.Candidates[0].AlsoFrom; len(got) != 0 {
		t.Errorf("AlsoFrom = %q, want none: the session's user's messages are not recent ones", got)
	}
}

// integrateInput is two candidates; candidate 0 has neighbours a (similar) and b
// (recent), candidate 1 has b. The refs are therefore N1 = a, N2 = b.
func integrateInput() agent.IntegrateInput {
	a := realm.Node{ID: "node-a", Type: realm.Event, Name: "Caroline's support group visit", Content: "Caroline went to an LGBTQ support group."}
	b := realm.Node{ID: "node-b", Type: realm.Fact, Name: "Caroline lives in Boston", Content: "Caroline lives in Boston."}
	return agent.IntegrateInput{
		Observation: testObservation(),
		Candidates: []agent.CandidateContext{
			{Candidate: agent.Candidate{Type: realm.Event, Name: "support group", Content: "Caroline attended an LGBTQ support group on 2023-05-07."},
				Neighbours: []agent.Neighbour{{Node: a, Similar: true, Similarity: 0.91}, {Node: b, Recent: true}}},
			{Candidate: agent.Candidate{Type: realm.Fact, Name: "Caroline lives in Denver", Content: "Caroline lives in Denver since 2023-05."},
				Neighbours: []agent.Neighbour{{Node: b, Similar: true, Similarity: 0.8}}},
		},
	}
}

func edge(op, from, to, pred string, w float64) map[string]any {
	return map[string]any{"op": op, "from": from, "to": to, "predicate": pred, "weight": w, "description": "why"}
}

func decision(cand, action, into, merged string, edges ...map[string]any) map[string]any {
	if edges == nil {
		edges = []map[string]any{}
	}
	return map[string]any{"candidate": cand, "action": action, "merge_into": into, "merged_content": merged, "reason": reasonOf(action), "edges": edges}
}

// reasonOf is the scripted reason of a decision: merges and skips give one.
func reasonOf(action string) string {
	if action == agent.ActionMerge || action == agent.ActionSkip {
		return "the neighbour holds it"
	}
	return ""
}

func decisions(ds ...map[string]any) map[string]any { return map[string]any{"decisions": ds} }

func validDecisions() map[string]any {
	return decisions(
		decision("C0", "merge", "N1", "Caroline went to an LGBTQ support group on 2023-05-07.",
			edge("add", "self", "N2", "contextualizes", 0.6),
			edge("add", "self", "N1", "correlates", 0.9), // a self-loop once merged into N1: dropped
		),
		decision("C1", "add", "", "",
			edge("add", "self", "N2", "supersedes", 0.95),
			edge("add", "C0", "self", "precedes", 0.5),
			edge("add", "self", "N2", "correlates", 0.2), // below the floor: dropped
		),
	)
}

func wantIntegrations() []agent.Integration {
	return []agent.Integration{
		{Action: agent.ActionMerge, MergeInto: "node-a", Reason: "the neighbour holds it", Merged: "Caroline went to an LGBTQ support group on 2023-05-07.",
			Edges: []agent.EdgeOp{{Op: agent.EdgeAdd, From: agent.Self, To: "node-b", Predicate: realm.Contextualizes, Weight: 0.6, Description: "why"}}},
		{Action: agent.ActionAdd, Edges: []agent.EdgeOp{
			{Op: agent.EdgeAdd, From: agent.Self, To: "node-b", Predicate: realm.Supersedes, Weight: 0.95, Description: "why"},
			{Op: agent.EdgeAdd, From: agent.CandidateRef(0), To: agent.Self, Predicate: realm.Precedes, Weight: 0.5, Description: "why"},
		}},
	}
}

func assertIntegrations(t *testing.T, got, want []agent.Integration) {
	t.Helper()
	g, _ := json.MarshalIndent(got, "", " ")
	w, _ := json.MarshalIndent(want, "", " ")
	if string(g) != string(w) {
		t.Errorf("integrations =\n%s\nwant\n%s", g, w)
	}
}

func TestLLMIntegrate(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		l := newTestLLM(t, nil)
		l.fake.Enqueue(agenttest.JSON(t, validDecisions(), 300, 80))
		got, usage, err := l.Integrate(context.Background(), integrateInput())
		if err != nil {
			t.Fatal(err)
		}
		assertIntegrations(t, got, wantIntegrations())
		if u := usage[StageIntegrate]; u.Calls != 1 || u.PromptTokens != 300 || u.CompletionTokens != 80 || u.Fallbacks != 0 {
			t.Errorf("usage = %+v", u)
		}
		r := l.fake.Requests()[0]
		if r.SchemaName() != "realm_integration" {
			t.Errorf("schema name = %q", r.SchemaName())
		}
		user := r.LastUser()
		for _, want := range []string{"N1 [event] (similar, sim 0.91) Caroline's support group visit", "N2 [fact] (recent) Caroline lives in Boston", "Candidate C1 [fact]"} {
			if !strings.Contains(user, want) {
				t.Errorf("user prompt lacks %q:\n%s", want, user)
			}
		}
		for _, p := range realm.Predicates {
			if !strings.Contains(r.System(), `"`+string(p)+`"`) {
				t.Errorf("system prompt does not explain predicate %s", p)
			}
		}
	})

	t.Run("PerCandidate", func(t *testing.T) {
		l := newTestLLM(t, func(c *Config) { c.Mode = ModePerCandidate })
		d := validDecisions()["decisions"].([]map[string]any)
		// In per-candidate mode each call lists only its candidate's neighbours, so
		// candidate 1's single neighbour (node-b) is N1 in its call.
		d1 := decision("C1", "add", "", "", edge("add", "self", "N1", "supersedes", 0.95), edge("add", "C0", "self", "precedes", 0.5))
		l.fake.Enqueue(agenttest.JSON(t, decisions(d[0]), 200, 50), agenttest.JSON(t, decisions(d1), 150, 40))
		got, usage, err := l.Integrate(context.Background(), integrateInput())
		if err != nil {
			t.Fatal(err)
		}
		assertIntegrations(t, got, wantIntegrations())
		reqs := l.fake.Requests()
		if len(reqs) != 2 {
			t.Fatalf("%d requests, want one per candidate (2)", len(reqs))
		}
		if !strings.Contains(reqs[1].LastUser(), "Other candidates of the same observation") || !strings.Contains(reqs[1].LastUser(), "- C0 [event]") {
			t.Errorf("per-candidate prompt does not show the other candidates:\n%s", reqs[1].LastUser())
		}
		if u := usage[StageIntegrate]; u.Calls != 2 || u.PromptTokens != 350 || u.CompletionTokens != 90 {
			t.Errorf("usage = %+v", u)
		}
	})

	t.Run("NoCandidates", func(t *testing.T) {
		l := newTestLLM(t, nil)
		got, _, err := l.Integrate(context.Background(), agent.IntegrateInput{Observation: testObservation()})
		if err != nil || len(got) != 0 || len(l.fake.Requests()) != 0 {
			t.Errorf("got %v, %v after %d requests; want nothing and no call", got, err, len(l.fake.Requests()))
		}
	})
}

// TestLLMRepairAndFallback covers one repair retry and the fallback after it.
func TestLLMRepairAndFallback(t *testing.T) {
	valid := func(t *testing.T) agenttest.Response { return agenttest.JSON(t, validDecisions(), 10, 5) }
	badPredicate := func(t *testing.T) agenttest.Response {
		return agenttest.JSON(t, decisions(decision("C0", "add", "", "", edge("add", "self", "N1", "loves", 0.9)), decision("C1", "add", "", "")), 10, 5)
	}
	unknownID := func(t *testing.T) agenttest.Response {
		return agenttest.JSON(t, decisions(decision("C0", "add", "", "", edge("add", "self", "node-a", "correlates", 0.9)), decision("C1", "add", "", "")), 10, 5)
	}
	foreignMerge := func(t *testing.T) agenttest.Response {
		// N1 (node-a) is a neighbour of C0, not of C1.
		return agenttest.JSON(t, decisions(decision("C0", "add", "", ""), decision("C1", "merge", "N1", "x")), 10, 5)
	}
	missing := func(t *testing.T) agenttest.Response {
		return agenttest.JSON(t, decisions(decision("C0", "add", "", "")), 10, 5)
	}
	malformed := func(*testing.T) agenttest.Response {
		return agenttest.Content(`{"decisions": [{"candidate": "C0",`, 10, 5)
	}

	tests := []struct {
		name         string
		first, then  func(*testing.T) agenttest.Response
		repairSays   string
		wantFallback bool
	}{
		{"MalformedRepaired", malformed, valid, "invalid JSON", false},
		{"MalformedTwice", malformed, malformed, "invalid JSON", true},
		{"ErrPredicateRepaired", badPredicate, valid, `predicate "loves" is not an allowed predicate`, false},
		{"ErrPredicateThenUnknownID", badPredicate, unknownID, `predicate "loves"`, true},
		{"ErrUnknownID", unknownID, unknownID, `to "node-a" is not self, a listed neighbour or a candidate`, true},
		{"ErrMergeTargetNotOwnNeighbour", foreignMerge, foreignMerge, `merge_into "N1" is not a neighbour of candidate C1`, true},
		{"ErrCandidateMissing", missing, valid, "candidate C1 has no decision", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newTestLLM(t, nil)
			l.fake.Enqueue(tt.first(t), tt.then(t))
			got, usage, err := l.Integrate(context.Background(), integrateInput())
			if err != nil {
				t.Fatal(err)
			}
			reqs := l.fake.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want 2 (one repair, no more)", len(reqs))
			}
			// The repair shows the model its own reply and what was wrong with it.
			msgs := reqs[1].Messages
			if len(msgs) != 4 || msgs[2].Role != openai.ChatMessageRoleAssistant || !strings.Contains(msgs[3].Content, tt.repairSays) {
				t.Errorf("repair request = %+v, want the bad reply and an error containing %q", msgs[2:], tt.repairSays)
			}
			u := usage[StageIntegrate]
			if tt.wantFallback {
				if l.fallback.integCalls != 1 || got[0].Merged != fallbackMark || got[1].Merged != fallbackMark {
					t.Errorf("fallback not used: %+v (fallback called %d times)", got, l.fallback.integCalls)
				}
				if u.Calls != 2 || u.Failures != 2 || u.Fallbacks != 2 {
					t.Errorf("usage = %+v, want 2 calls, 2 failures, 2 fallback decisions", u)
				}
				return
			}
			if l.fallback.integCalls != 0 {
				t.Error("fallback used after a successful repair")
			}
			assertIntegrations(t, got, wantIntegrations())
			if u.Calls != 2 || u.Failures != 1 || u.Fallbacks != 0 || u.PromptTokens != 20 {
				t.Errorf("usage = %+v, want 2 calls, 1 failure, 20 prompt tokens", u)
			}
		})
	}

	t.Run("ExtractMalformedTwice", func(t *testing.T) {
		l := newTestLLM(t, nil)
		l.fake.Enqueue(agenttest.Content("not json", 7, 3), agenttest.Content("still not json", 7, 3))
		out, usage, err := l.Extract(context.Background(), agent.ExtractInput{Observation: testObservation()})
		if err != nil {
			t.Fatal(err)
		}
		if out.Summary != fallbackMark || l.fallback.extractCalls != 1 {
			t.Errorf("fallback not used: %+v", out)
		}
		if u := usage[StageExtract]; u.Calls != 2 || u.Failures != 2 || u.Fallbacks != 1 || u.PromptTokens != 14 {
			t.Errorf("usage = %+v", u)
		}
	})

	t.Run("PerCandidateFallbackForOneCandidate", func(t *testing.T) {
		l := newTestLLM(t, func(c *Config) { c.Mode = ModePerCandidate })
		d := validDecisions()["decisions"].([]map[string]any)
		l.fake.Enqueue(agenttest.JSON(t, decisions(d[0]), 10, 5), agenttest.Content("{", 1, 1), agenttest.Content("{", 1, 1))
		got, usage, err := l.Integrate(context.Background(), integrateInput())
		if err != nil {
			t.Fatal(err)
		}
		if got[0].Action != agent.ActionMerge || got[1].Merged != fallbackMark {
			t.Errorf("want the LLM's decision for C0 and the fallback's for C1, got %+v", got)
		}
		if u := usage[StageIntegrate]; u.Calls != 3 || u.Failures != 2 || u.Fallbacks != 1 {
			t.Errorf("usage = %+v", u)
		}
	})
}

func TestLLMTransport(t *testing.T) {
	t.Run("TimeoutRetriedOnceThenFallsBack", func(t *testing.T) {
		l := newTestLLM(t, func(c *Config) { c.Timeout = 50 * time.Millisecond })
		l.fake.Enqueue(agenttest.Response{Delay: time.Minute, Content: "{}"}, agenttest.Response{Delay: time.Minute, Content: "{}"})
		got, usage, err := l.Integrate(context.Background(), integrateInput())
		if err != nil {
			t.Fatal(err)
		}
		if got[0].Merged != fallbackMark {
			t.Errorf("fallback not used: %+v", got)
		}
		// A timeout is retried once (TimeoutRetries), within MaxRetries = 2.
		if n := len(l.fake.Requests()); n != 2 || len(l.waits) != 1 {
			t.Errorf("%d requests, waits %v; want 2 requests and 1 wait", n, l.waits)
		}
		if u := usage[StageIntegrate]; u.Calls != 2 || u.Failures != 2 || u.Fallbacks != 2 {
			t.Errorf("usage = %+v", u)
		}
	})

	t.Run("RateLimitedThenOK", func(t *testing.T) {
		l := newTestLLM(t, func(c *Config) { c.MaxBackoff = 5 * time.Second })
		l.fake.Enqueue(agenttest.RateLimited(2*time.Second), agenttest.JSON(t, validExtraction(), 50, 20))
		out, usage, err := l.Extract(context.Background(), agent.ExtractInput{Observation: testObservation()})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Candidates) != 2 || l.fallback.extractCalls != 0 {
			t.Errorf("extraction = %+v, fallback calls %d", out, l.fallback.extractCalls)
		}
		if len(l.waits) != 1 || l.waits[0] < 2*time.Second || l.waits[0] > 2200*time.Millisecond {
			t.Errorf("waits = %v, want the Retry-After of 2s plus at most 10%%", l.waits)
		}
		if u := usage[StageExtract]; u.Calls != 2 || u.Failures != 1 || u.PromptTokens != 50 || u.CompletionTokens != 20 {
			t.Errorf("usage = %+v", u)
		}
	})

	t.Run("RetryAfterBeyondMaxBackoffGivesUp", func(t *testing.T) {
		l := newTestLLM(t, func(c *Config) { c.MaxBackoff = time.Second })
		l.fake.Enqueue(agenttest.RateLimited(time.Hour))
		out, _, err := l.Extract(context.Background(), agent.ExtractInput{Observation: testObservation()})
		if err != nil {
			t.Fatal(err)
		}
		// Retrying sooner than the server asks would not respect it; waiting an hour
		// would hold the caller: the fallback decides now.
		if len(l.waits) != 0 || len(l.fake.Requests()) != 1 || out.Summary != fallbackMark {
			t.Errorf("waits %v, %d requests, summary %q; want no retry and the fallback", l.waits, len(l.fake.Requests()), out.Summary)
		}
	})

	t.Run("ServerErrorsExhaustRetries", func(t *testing.T) {
		l := newTestLLM(t, func(c *Config) { c.MaxRetries = 2; c.Backoff = 100 * time.Millisecond })
		l.fake.Enqueue(agenttest.Status(500), agenttest.Status(502), agenttest.Status(503))
		out, usage, err := l.Extract(context.Background(), agent.ExtractInput{Observation: testObservation()})
		if err != nil {
			t.Fatal(err)
		}
		if out.Summary != fallbackMark {
			t.Errorf("fallback not used: %+v", out)
		}
		// Exponential with jitter: the n-th wait is drawn from [b·2ⁿ/2, b·2ⁿ].
		if len(l.waits) != 2 || l.waits[0] < 50*time.Millisecond || l.waits[0] > 100*time.Millisecond ||
			l.waits[1] < 100*time.Millisecond || l.waits[1] > 200*time.Millisecond {
			t.Errorf("waits = %v, want one in [50ms, 100ms] and one in [100ms, 200ms]", l.waits)
		}
		if u := usage[StageExtract]; u.Calls != 3 || u.Failures != 3 || u.Fallbacks != 1 {
			t.Errorf("usage = %+v", u)
		}
	})

	t.Run("ErrBadRequestNotRetried", func(t *testing.T) {
		l := newTestLLM(t, nil)
		l.fake.Enqueue(agenttest.Status(400))
		if _, _, err := l.Extract(context.Background(), agent.ExtractInput{Observation: testObservation()}); err != nil {
			t.Fatal(err)
		}
		if n := len(l.fake.Requests()); n != 1 || l.fallback.extractCalls != 1 {
			t.Errorf("%d requests, %d fallbacks; want 1 and 1", n, l.fallback.extractCalls)
		}
	})

	t.Run("ConnectionRefused", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		url := srv.URL
		srv.Close()
		l := newTestLLM(t, func(c *Config) { c.BaseURL = url + "/v1"; c.MaxRetries = 1 })
		out, usage, err := l.Extract(context.Background(), agent.ExtractInput{Observation: testObservation()})
		if err != nil {
			t.Fatal(err)
		}
		if out.Summary != fallbackMark || len(l.waits) != 1 {
			t.Errorf("got %+v after waits %v; want the fallback after one retry", out, l.waits)
		}
		if u := usage[StageExtract]; u.Calls != 2 || u.Fallbacks != 1 {
			t.Errorf("usage = %+v", u)
		}
	})

	t.Run("ErrContextCancelled", func(t *testing.T) {
		l := newTestLLM(t, nil)
		l.fake.Enqueue(agenttest.Response{Delay: time.Minute})
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			// Cancel once the request is in flight.
			for len(l.fake.Requests()) == 0 {
				time.Sleep(time.Millisecond)
			}
			cancel()
		}()
		_, _, err := l.Extract(ctx, agent.ExtractInput{Observation: testObservation()})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
		if l.fallback.extractCalls != 0 {
			t.Error("fallback used for a cancelled context")
		}
	})
}

func TestNewLLM(t *testing.T) {
	if _, err := New(Config{}, nil, zerolog.Nop()); err == nil {
		t.Error("no error without a fallback")
	}
	if _, err := New(Config{Mode: "both"}, newStub(), zerolog.Nop()); err == nil {
		t.Error("no error for an unknown mode")
	}
	l, err := New(Config{}, newStub(), zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	if l.cfg.Mode != ModeBatch || l.cfg.Models.Extraction == "" || l.cfg.MaxRetries != 2 {
		t.Errorf("defaults not applied: %+v", l.cfg)
	}
}

// TestLLMChat: a free-form call on the LLM's transport goes to the model asked for (the
// stage's when none) at the configured temperature, with the transport's retries, events
// and usage under its stage; Accept gets one repair; the fallback agent is never asked.
func TestLLMChat(t *testing.T) {
	rejectUnlessYes := func(content string) error {
		if content != "yes" {
			return errors.New("reply yes or no")
		}
		return nil
	}
	for _, tt := range []struct {
		name      string
		req       ChatRequest
		replies   []agenttest.Response
		content   string
		errText   string
		calls     int
		failures  int
		prompt    int
		model     string   // of every request
		events    []string // kind:reason as Observe saw them, all under req.Stage
		waits     int
		lastUser  string // part of the last request's last user message
		messages  int    // of the last request
		noRequest bool
	}{
		{name: "FreeText", req: ChatRequest{Stage: "judge", Model: "judge-model", System: "grade", User: "is it so?"},
			replies: []agenttest.Response{agenttest.Content("yes", 30, 1)}, content: "yes",
			calls: 1, prompt: 30, model: "judge-model", events: []string{"call"}, lastUser: "is it so?", messages: 2},
		{name: "StageModel", req: ChatRequest{Stage: StageAnswer, System: "s", User: "u"},
			replies: []agenttest.Response{agenttest.Content("an answer", 10, 2)}, content: "an answer",
			calls: 1, prompt: 10, model: "answer-model", events: []string{"call"}, lastUser: "u", messages: 2},
		{name: "DefaultModel", req: ChatRequest{Stage: "judge", System: "s", User: "u"},
			replies: []agenttest.Response{agenttest.Content("x", 10, 2)}, content: "x",
			calls: 1, prompt: 10, model: "test-model", events: []string{"call"}, lastUser: "u", messages: 2},
		{name: "Repaired", req: ChatRequest{Stage: "judge", Model: "judge-model", System: "s", User: "u", Accept: rejectUnlessYes},
			replies: []agenttest.Response{agenttest.Content("maybe", 10, 2), agenttest.Content("yes", 20, 1)}, content: "yes",
			calls: 2, failures: 1, prompt: 30, model: "judge-model", events: []string{"call", "invalid:invalid_output", "call"},
			lastUser: "reply yes or no", messages: 4},
		{name: "RetriedAfter500", req: ChatRequest{Stage: "judge", Model: "judge-model", System: "s", User: "u"},
			replies: []agenttest.Response{agenttest.Status(500), agenttest.Content("no", 10, 1)}, content: "no",
			calls: 2, failures: 1, prompt: 10, model: "judge-model", events: []string{"call:server_error", "retry:server_error", "call"},
			waits: 1, lastUser: "u", messages: 2},
		{name: "ErrRejectedTwice", req: ChatRequest{Stage: "judge", Model: "judge-model", System: "s", User: "u", Accept: rejectUnlessYes},
			replies: []agenttest.Response{agenttest.Content("maybe", 10, 2), agenttest.Content("perhaps", 20, 1)}, errText: "reply yes or no",
			calls: 2, failures: 2, prompt: 30, model: "judge-model",
			events: []string{"call", "invalid:invalid_output", "call", "invalid:invalid_output"}, lastUser: "reply yes or no", messages: 4},
		{name: "ErrClientError", req: ChatRequest{Stage: "judge", Model: "judge-model", System: "s", User: "u"},
			replies: []agenttest.Response{agenttest.Status(400)}, errText: "1 attempts",
			calls: 1, failures: 1, model: "judge-model", events: []string{"call:client_error"}, lastUser: "u", messages: 2},
		{name: "ErrNoStage", req: ChatRequest{System: "s", User: "u"}, errText: "stage is required", noRequest: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var events eventLog
			l := newTestLLM(t, func(c *Config) {
				c.Models.Answer = "answer-model"
				c.Observe = events.observe
			})
			l.fake.Enqueue(tt.replies...)
			content, usage, err := l.Chat(context.Background(), tt.req)
			if tt.errText != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errText) {
					t.Fatalf("err = %v, want one containing %q", err, tt.errText)
				}
			} else if err != nil || content != tt.content {
				t.Fatalf("Chat = %q, %v; want %q", content, err, tt.content)
			}
			if l.fake.Pending() != 0 {
				t.Errorf("%d scripted replies unused", l.fake.Pending())
			}
			if l.fallback.extractCalls+l.fallback.integCalls != 0 {
				t.Error("the fallback agent was asked")
			}
			if tt.noRequest {
				if len(l.fake.Requests()) != 0 || len(usage) != 0 {
					t.Errorf("%d requests, usage %+v; want none", len(l.fake.Requests()), usage)
				}
				return
			}
			u := usage[tt.req.Stage]
			if len(usage) != 1 || u.Calls != tt.calls || u.Failures != tt.failures || u.PromptTokens != tt.prompt || u.Fallbacks != 0 {
				t.Errorf("usage = %+v, want %d calls, %d failures, %d prompt tokens under %q only", usage, tt.calls, tt.failures, tt.prompt, tt.req.Stage)
			}
			if got := events.kinds(); !slices.Equal(got, tt.events) {
				t.Errorf("events = %v, want %v", got, tt.events)
			}
			for _, ev := range events.events {
				if ev.Stage != tt.req.Stage {
					t.Errorf("event %+v not under stage %q", ev, tt.req.Stage)
				}
			}
			if len(l.waits) != tt.waits {
				t.Errorf("waits = %v, want %d", l.waits, tt.waits)
			}
			for _, w := range l.waits { // Backoff 500ms, jittered to [250ms, 500ms]
				if w < 250*time.Millisecond || w > 500*time.Millisecond {
					t.Errorf("wait %v outside [250ms, 500ms]", w)
				}
			}
			reqs := l.fake.Requests()
			for _, r := range reqs {
				var body map[string]any
				if err := json.Unmarshal(r.Body, &body); err != nil {
					t.Fatal(err)
				}
				if temp, ok := body["temperature"].(float64); !ok || temp > 1e-6 || r.Model != tt.model || r.System() != tt.req.System {
					t.Errorf("request: temperature %v, model %q, system %q; want ~0, %q, %q", body["temperature"], r.Model, r.System(), tt.model, tt.req.System)
				}
				if _, ok := body["response_format"]; ok {
					t.Errorf("response_format sent without a Format: %s", r.Body)
				}
			}
			last := reqs[len(reqs)-1]
			if !strings.Contains(last.LastUser(), tt.lastUser) || len(last.Messages) != tt.messages {
				t.Errorf("last request: %d messages, last user %q; want %d, containing %q", len(last.Messages), last.LastUser(), tt.messages, tt.lastUser)
			}
		})
	}
}

// TestLLMAway: after two calls in a row that got no reply (each timed out twice), the
// next call is not sent: it takes the offline decision at once, counted as a failure,
// and /answer says why.
func TestLLMAway(t *testing.T) {
	l := newTestLLM(t, func(c *Config) { c.Timeout = 50 * time.Millisecond })
	hang := agenttest.Response{Delay: time.Minute, Content: "{}"}
	l.fake.Enqueue(hang, hang, hang, hang)
	for range 2 {
		if _, _, err := l.Extract(context.Background(), agent.ExtractInput{Observation: testObservation()}); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(l.fake.Requests()); n != 4 {
		t.Fatalf("%d requests, want 4 (two calls, each retried once after its timeout)", n)
	}
	out, usage, err := l.Extract(context.Background(), agent.ExtractInput{Observation: testObservation()})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(l.fake.Requests()); n != 4 || out.Summary != fallbackMark {
		t.Errorf("%d requests, summary %q; want the call not sent and the fallback", n, out.Summary)
	}
	if u := usage[StageExtract]; u.Calls != 0 || u.Failures != 1 || u.Fallbacks != 1 {
		t.Errorf("usage = %+v, want no call, one failure, one fallback", u)
	}
	if _, _, err := l.Answer(context.Background(), answerInput()); err == nil || !strings.Contains(err.Error(), "gave no reply to the last calls") {
		t.Errorf("answer while away: %v", err)
	}
}

// TestAwayHolds: the server is taken for away after two calls in a row without a reply,
// for awayFor; a reply in between starts the count again.
func TestAwayHolds(t *testing.T) {
	var a away
	now := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	if a.record(false, now) || a.holds(now) {
		t.Fatal("away after one call without a reply")
	}
	a.record(true, now)
	if a.record(false, now) || a.holds(now) {
		t.Fatal("away after a reply and one call without one")
	}
	if !a.record(false, now) || !a.holds(now.Add(awayFor-time.Second)) {
		t.Fatal("not away after two calls in a row without a reply")
	}
	if a.holds(now.Add(awayFor)) {
		t.Error("still away after awayFor")
	}
}
