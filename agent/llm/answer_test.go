package llm

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/agent/agenttest"
)

func answerInput() agent.AnswerInput {
	day := time.Date(2023, 5, 7, 0, 0, 0, 0, time.UTC)
	return agent.AnswerInput{
		Question: "When did Caroline go to the LGBTQ support group?",
		Time:     time.Date(2023, 6, 1, 9, 0, 0, 0, time.UTC),
		Nodes: []realm.RecalledNode{
			{Node: realm.Node{ID: "n-group", Type: realm.Event, Content: "Caroline went to an LGBTQ support group.", TStart: &day, TEnd: &day}, Score: 0.9},
			{Node: realm.Node{ID: "n-caroline", Type: realm.Entity, Content: "Caroline is a person."}, Score: 0.5, Depth: 1},
		},
		Edges: []realm.Edge{{ID: "e1", From: "n-caroline", To: "n-group", Predicate: realm.Contextualizes, Description: "Caroline attended the group."}},
	}
}

func TestLLMAnswer(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		l := newTestLLM(t, func(c *Config) { c.Models.Answer = "answer-model" })
		l.fake.Enqueue(agenttest.JSON(t, map[string]any{"answer": "On 7 May 2023.", "cited": []string{"M1", "M1"}}, 300, 12))
		got, usage, err := l.Answer(context.Background(), answerInput())
		if err != nil {
			t.Fatal(err)
		}
		if got.Text != "On 7 May 2023." || !slices.Equal(got.Cited, []string{"n-group"}) {
			t.Errorf("answer %+v", got)
		}
		if u := usage[StageAnswer]; u.Calls != 1 || u.PromptTokens != 300 || u.CompletionTokens != 12 || u.Failures != 0 {
			t.Errorf("usage %+v", usage)
		}
		req := l.fake.Requests()[0]
		if req.Model != "answer-model" || req.SchemaName() != "realm_answer" {
			t.Errorf("model %q, schema %q", req.Model, req.SchemaName())
		}
		user := req.LastUser()
		for _, want := range []string{"Question: When did Caroline", "M1 [event] (time: 2023-05-07) Caroline went", "M2 [entity]", "M2 contextualizes M1: Caroline attended"} {
			if !strings.Contains(user, want) {
				t.Errorf("prompt lacks %q:\n%s", want, user)
			}
		}
		if strings.Contains(user, "n-group") {
			t.Errorf("prompt shows node ids instead of refs:\n%s", user)
		}
		// The bench measures the evidence with the prompt's own template.
		in := answerInput()
		evidence, err := AnswerEvidence(in.Nodes, in.Edges)
		if err != nil || !strings.HasPrefix(evidence, "Memories:\n- M1 [event]") || !strings.HasSuffix(strings.TrimSpace(user), evidence) {
			t.Errorf("evidence %q (%v) is not the end of the prompt:\n%s", evidence, err, user)
		}
	})
	t.Run("Repaired", func(t *testing.T) {
		l := newTestLLM(t, nil)
		l.fake.Enqueue(
			agenttest.Content(`{"answer": "On 7 May 2023.", "cited": ["M9"]}`, 100, 5),
			agenttest.JSON(t, map[string]any{"answer": "On 7 May 2023.", "cited": []string{"M1"}}, 120, 6))
		got, usage, err := l.Answer(context.Background(), answerInput())
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Cited, []string{"n-group"}) {
			t.Errorf("cited %v", got.Cited)
		}
		if u := usage[StageAnswer]; u.Calls != 2 || u.Failures != 1 || u.PromptTokens != 220 {
			t.Errorf("usage %+v", u)
		}
		if repair := l.fake.Requests()[1].LastUser(); !strings.Contains(repair, `"M9" is not a ref`) {
			t.Errorf("repair prompt %q", repair)
		}
	})
	t.Run("ErrInvalidTwice", func(t *testing.T) {
		l := newTestLLM(t, nil)
		l.fake.Enqueue(agenttest.Content("not json", 10, 1), agenttest.Content(`{"answer": "", "cited": []}`, 10, 1))
		_, usage, err := l.Answer(context.Background(), answerInput())
		if realm.ErrorCode(err) != realm.EUnavailable {
			t.Fatalf("err %v, want %s", err, realm.EUnavailable)
		}
		if u := usage[StageAnswer]; u.Calls != 2 || u.Failures != 2 || u.Fallbacks != 0 {
			t.Errorf("usage %+v", u)
		}
	})
	t.Run("ErrUnreachable", func(t *testing.T) {
		l := newTestLLM(t, func(c *Config) { c.MaxRetries = -1 })
		l.fake.Enqueue(agenttest.Status(http.StatusBadGateway))
		if _, _, err := l.Answer(context.Background(), answerInput()); realm.ErrorCode(err) != realm.EUnavailable {
			t.Fatalf("err %v, want %s", err, realm.EUnavailable)
		}
	})
}

// TestLLMAnswerUnavailable: the error of a failed answer says what happened, and to
// retry later only when a later attempt may succeed.
func TestLLMAnswerUnavailable(t *testing.T) {
	truncated := agenttest.Content(`{"answer": "On 7 May`, 100, 2048)
	truncated.FinishReason = openai.FinishReasonLength
	for _, tt := range []struct {
		name    string
		replies []agenttest.Response
		says    string
		retry   bool
	}{
		{"BadKey", []agenttest.Response{agenttest.Status(http.StatusUnauthorized)}, "refused the API key (HTTP 401)", false},
		{"NotFound", []agenttest.Response{agenttest.Status(http.StatusNotFound)}, "refused the request (HTTP 404)", false},
		{"Truncated", []agenttest.Response{truncated}, "cut off at max_tokens (2048 tokens)", false},
		{"InvalidTwice", []agenttest.Response{agenttest.Content("not json", 10, 1), agenttest.Content("not json", 10, 1)}, "no valid answer, even after one repair", false},
		{"ServerError", []agenttest.Response{agenttest.Status(http.StatusBadGateway), agenttest.Status(http.StatusBadGateway)}, "failed (HTTP 502, 2 attempts)", true},
		{"RateLimited", []agenttest.Response{agenttest.Status(http.StatusTooManyRequests), agenttest.Status(http.StatusTooManyRequests)}, "rate limiting", true},
		{"Timeout", []agenttest.Response{{Delay: time.Minute}, {Delay: time.Minute}}, "did not answer within REALM_LLM_TIMEOUT", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := newTestLLM(t, func(c *Config) { c.MaxRetries, c.Timeout = 1, 100*time.Millisecond })
			l.fake.Enqueue(tt.replies...)
			_, _, err := l.Answer(context.Background(), answerInput())
			if realm.ErrorCode(err) != realm.EUnavailable {
				t.Fatalf("err %v, want %s", err, realm.EUnavailable)
			}
			msg := realm.ErrorMessage(err)
			if !strings.Contains(msg, tt.says) || strings.Contains(msg, "retry later") != tt.retry {
				t.Errorf("message %q; want it to say %q, retry later %v", msg, tt.says, tt.retry)
			}
			if l.fake.Pending() != 0 {
				t.Errorf("%d scripted replies unused", l.fake.Pending())
			}
		})
	}
}

// TestNodeTimeLastSaid: a memory said again within the day it tells of shows the model
// when it was last said ("Front door opened" at 08:00 and again at 18:00), one said once
// its day alone.
func TestNodeTimeLastSaid(t *testing.T) {
	at := func(h int) *time.Time { t := time.Date(2026, 12, 7, h, 0, 0, 0, time.UTC); return &t }
	from, to := at(0), time.Date(2026, 12, 7, 23, 59, 59, 0, time.UTC)
	n := realm.Node{TStart: from, TEnd: &to, LearnedAt: at(8), LastSaidAt: at(18)}
	if got, want := NodeTime(n), "2026-12-07 to 2026-12-07T23:59:59Z, last said 2026-12-07T18:00:00Z"; got != want {
		t.Errorf("said again: %q, want %q", got, want)
	}
	n.LastSaidAt = n.LearnedAt
	if got, want := NodeTime(n), "2026-12-07 to 2026-12-07T23:59:59Z"; got != want {
		t.Errorf("said once: %q, want %q", got, want)
	}
}
