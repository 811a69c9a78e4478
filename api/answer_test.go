package api

import (
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/agenttest"
	"github.com/realm-memory/realm/agent/llm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// answerDoc is the part of an /answer response the tests read.
type answerDoc struct {
	Answer          string   `json:"answer"`
	CitedNodeIDs    []string `json:"cited_node_ids"`
	TraceID         string   `json:"trace_id"`
	Nodes           []struct{ Node struct{ ID, Content string } }
	Usage           realm.Usage        `json:"usage"`
	Timings         map[string]float64 `json:"timings"`
	Reconsolidation *struct {
		TraceID   string `json:"trace_id"`
		Confirmed bool
		Edits     []struct {
			ID, Source string
			TraceID    string `json:"trace_id"`
		}
	} `json:"reconsolidation"`
}

var memoryLine = regexp.MustCompile(`(?m)^- (M\d+) \[`)

// citeFirstTwo answers every request with the refs of the first two memories of the
// prompt, and counts tokens so that usage can be checked.
func citeFirstTwo(t *testing.T) func(agenttest.ChatRequest) agenttest.Response {
	return func(req agenttest.ChatRequest) agenttest.Response {
		var refs []string
		for _, m := range memoryLine.FindAllStringSubmatch(req.LastUser(), 2) {
			refs = append(refs, m[1])
		}
		return agenttest.JSON(t, map[string]any{"answer": "Melanie hikes in the mountains with her kids.", "cited": refs}, 400, 20)
	}
}

// newAnswerServer serves the API with the LLM agent talking to fake as the answerer.
func newAnswerServer(t *testing.T, check *apitest.Checker, cfg Config, fake *agenttest.FakeOpenAI) client {
	t.Helper()
	lm, err := llm.New(llm.Config{BaseURL: fake.BaseURL(), APIKey: "test", Models: llm.Models{Extraction: "test-model"},
		Timeout: 5 * time.Second, MaxRetries: -1}, offline.New(offline.Options{}), zerolog.New(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, check, cfg, func(d *Deps) { d.Answer = lm })
	return client{t: t, base: srv.URL}
}

func ingestHiking(t *testing.T, c client, sp string) {
	t.Helper()
	messages := []map[string]string{
		{"id": "a1", "speaker": "Caroline", "content": "I went to a pottery class yesterday.", "timestamp": "2023-05-08T13:56:00Z"},
		{"id": "a2", "speaker": "Melanie", "content": "I love hiking in the mountains with my kids.", "timestamp": "2023-05-08T13:57:00Z"},
		{"id": "a3", "speaker": "Melanie", "content": "Last weekend my kids and I hiked to a lake in the mountains.", "timestamp": "2023-05-08T13:58:00Z"},
		{"id": "a4", "speaker": "Caroline", "content": "The pottery teacher is called Ana.", "timestamp": "2023-05-08T13:59:00Z"},
	}
	if code := c.status("POST", sp+"/observations", map[string]any{"messages": messages}); code != http.StatusOK {
		t.Fatalf("ingest: %d", code)
	}
}

// editsOf lists the logged edits of a trace.
func editsOf(c client, sp, traceID string) []realm.Edit {
	c.t.Helper()
	var list struct{ Edits []realm.Edit }
	if code := c.do("GET", sp+"/edits?trace="+traceID, nil, &list).StatusCode; code != http.StatusOK {
		c.t.Fatalf("edits: %d", code)
	}
	return list.Edits
}

func TestAnswer(t *testing.T) {
	check := apitest.New(t)
	fake := agenttest.NewFakeOpenAI(t)
	fake.Handle(citeFirstTwo(t))
	c := newAnswerServer(t, check, Config{}, fake)
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	ingestHiking(t, c, sp)
	question := map[string]any{"query": "Where does Melanie go hiking with her kids?", "k": 5, "time": "2023-06-01T10:00:00Z"}

	t.Run("OK", func(t *testing.T) { // cites recalled nodes; auto reconsolidation applies edits under the trace id
		var res answerDoc
		if code := c.do("POST", sp+"/answer", question, &res).StatusCode; code != http.StatusOK {
			t.Fatalf("status %d", code)
		}
		if res.Answer == "" || res.TraceID == "" || len(res.Nodes) < 2 || len(res.CitedNodeIDs) != 2 {
			t.Fatalf("answer %+v", res)
		}
		recalled := []string{res.Nodes[0].Node.ID, res.Nodes[1].Node.ID}
		if !slices.Equal(res.CitedNodeIDs, recalled) {
			t.Errorf("cited %v, want the first two recalled %v", res.CitedNodeIDs, recalled)
		}
		if u := res.Usage[llm.StageAnswer]; u.Calls != 1 || u.PromptTokens != 400 || u.CompletionTokens != 20 {
			t.Errorf("answer usage %+v", res.Usage)
		}
		if _, ok := res.Timings["answer"]; !ok {
			t.Errorf("timings %v lack answer", res.Timings)
		}
		prompt := fake.Requests()[len(fake.Requests())-1].LastUser()
		if !strings.Contains(prompt, "Where does Melanie go hiking") || !strings.Contains(prompt, res.Nodes[0].Node.Content) {
			t.Errorf("prompt lacks the question or the best node:\n%s", prompt)
		}
		rc := res.Reconsolidation
		if rc == nil || rc.TraceID != res.TraceID || rc.Confirmed || len(rc.Edits) == 0 {
			t.Fatalf("reconsolidation %+v: want edits on the trace, unconfirmed", rc)
		}
		logged := editsOf(c, sp, res.TraceID)
		if len(logged) != len(rc.Edits) {
			t.Fatalf("%d edits logged under the trace, %d returned", len(logged), len(rc.Edits))
		}
		for _, e := range logged {
			if e.Source != realm.EditSourceAuto {
				t.Errorf("edit %s: source %q, want %q", e.ID, e.Source, realm.EditSourceAuto)
			}
		}
	})
	t.Run("ReconsolidateFalse", func(t *testing.T) {
		q := map[string]any{"query": question["query"], "k": 5, "reconsolidate": false}
		var res answerDoc
		if code := c.do("POST", sp+"/answer", q, &res).StatusCode; code != http.StatusOK {
			t.Fatalf("status %d", code)
		}
		if res.Reconsolidation != nil {
			t.Errorf("reconsolidated although the request said not to: %+v", res.Reconsolidation)
		}
		if edits := editsOf(c, sp, res.TraceID); len(edits) != 0 {
			t.Errorf("%d edits logged under the trace", len(edits))
		}
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		for name, body := range map[string]any{
			"NoQuery":      map[string]any{"k": 5},
			"KOutOfBounds": map[string]any{"query": "x", "k": 1000},
			"UnknownField": map[string]any{"query": "x", "feedback": true},
			"BadFlag":      map[string]any{"query": "x", "reconsolidate": "yes"},
		} {
			if code := c.status("POST", sp+"/answer", body); code != http.StatusBadRequest {
				t.Errorf("%s: %d", name, code)
			}
		}
	})
}

// TestAnswerAutoReconsolidationOff: with the server's setting off, an answer applies no
// edit unless the request asks for it.
func TestAnswerAutoReconsolidationOff(t *testing.T) {
	fake := agenttest.NewFakeOpenAI(t)
	fake.Handle(citeFirstTwo(t))
	c := newAnswerServer(t, apitest.New(t), Config{NoAutoReconsolidation: true}, fake)
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	ingestHiking(t, c, sp)

	var res answerDoc
	if code := c.do("POST", sp+"/answer", map[string]any{"query": "Where does Melanie go hiking?"}, &res).StatusCode; code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	if res.Reconsolidation != nil || len(editsOf(c, sp, res.TraceID)) != 0 {
		t.Errorf("reconsolidated with the setting off: %+v", res.Reconsolidation)
	}
	if code := c.do("POST", sp+"/answer", map[string]any{"query": "Where does Melanie go hiking?", "reconsolidate": true}, &res).StatusCode; code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	if res.Reconsolidation == nil || len(editsOf(c, sp, res.TraceID)) == 0 {
		t.Errorf("the request's reconsolidate: true applied nothing: %+v", res.Reconsolidation)
	}
}

// TestAnswerErrLLM: an answer still malformed after the repair is a 503 unavailable
// problem (nothing reconsolidated), with Retry-After only when a retry can succeed;
// without an LLM, 501 naming the setting.
func TestAnswerErrLLM(t *testing.T) {
	t.Run("Malformed", func(t *testing.T) {
		fake := agenttest.NewFakeOpenAI(t)
		fake.Enqueue(agenttest.Content("Melanie hikes.", 100, 5), agenttest.Content(`{"answer": "Melanie hikes.", "cited": ["M99"]}`, 120, 6))
		c := newAnswerServer(t, apitest.New(t), Config{}, fake)
		sp := "/v1/spaces/" + cyphertest.NewSpace(t)
		ingestHiking(t, c, sp)
		var p struct {
			problemDoc
			TraceID string `json:"trace_id"`
			Usage   realm.Usage
		}
		resp := c.do("POST", sp+"/answer", map[string]any{"query": "Where does Melanie go hiking?"}, &p)
		if resp.StatusCode != http.StatusServiceUnavailable || p.Code != realm.EUnavailable || resp.Header.Get("Retry-After") != "" {
			t.Fatalf("status %d, problem %+v, Retry-After %q; want 503 without Retry-After", resp.StatusCode, p, resp.Header.Get("Retry-After"))
		}
		if !strings.Contains(p.Detail, "no valid answer") {
			t.Errorf("detail %q", p.Detail)
		}
		// What was done and paid for before the failure: the recall's trace, the calls.
		if u := p.Usage[llm.StageAnswer]; p.TraceID == "" || u.Calls != 2 || u.PromptTokens != 220 || u.Failures != 2 {
			t.Errorf("trace %q, answer usage %+v; want the recall's trace, 2 calls of 220 prompt tokens, 2 failures", p.TraceID, u)
		}
		if code := c.status("GET", sp+"/traces/"+p.TraceID, nil); code != http.StatusOK {
			t.Errorf("the 503's trace: %d", code)
		}
		if n := len(fake.Requests()); n != 2 {
			t.Errorf("%d LLM calls, want the answer and one repair", n)
		}
		var list struct{ Edits []realm.Edit }
		c.do("GET", sp+"/edits", nil, &list)
		if len(list.Edits) != 0 {
			t.Errorf("%d edits after a failed answer", len(list.Edits))
		}
	})
	t.Run("RetryAfter", func(t *testing.T) { // only where a retry can succeed
		for _, tc := range []struct {
			name       string
			llm        agenttest.Response
			detail     string
			retryAfter bool
		}{
			{"KeyRefused", agenttest.Status(http.StatusUnauthorized), "refused the API key", false},
			{"ModelUnknown", agenttest.Status(http.StatusNotFound), "refused the request", false},
			{"RateLimited", agenttest.Status(http.StatusTooManyRequests), "retry later", true},
			{"ServerError", agenttest.Status(http.StatusBadGateway), "retry later", true},
		} {
			t.Run(tc.name, func(t *testing.T) {
				fake := agenttest.NewFakeOpenAI(t)
				fake.Enqueue(tc.llm)
				c := newAnswerServer(t, apitest.New(t), Config{}, fake)
				sp := "/v1/spaces/" + cyphertest.NewSpace(t)
				ingestHiking(t, c, sp)
				var p problemDoc
				resp := c.do("POST", sp+"/answer", map[string]any{"query": "Where does Melanie go hiking?"}, &p)
				if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(p.Detail, tc.detail) {
					t.Fatalf("status %d, problem %+v; want 503 saying %q", resp.StatusCode, p, tc.detail)
				}
				if got := resp.Header.Get("Retry-After") != ""; got != tc.retryAfter {
					t.Errorf("Retry-After %q, want one: %v", resp.Header.Get("Retry-After"), tc.retryAfter)
				}
			})
		}
	})
	t.Run("Repaired", func(t *testing.T) {
		fake := agenttest.NewFakeOpenAI(t)
		fake.Enqueue(agenttest.Content(`{"answer": "Melanie hikes.", "cited": ["M99"]}`, 100, 5),
			agenttest.Content(`{"answer": "Melanie hikes.", "cited": ["M1"]}`, 120, 6))
		c := newAnswerServer(t, apitest.New(t), Config{}, fake)
		sp := "/v1/spaces/" + cyphertest.NewSpace(t)
		ingestHiking(t, c, sp)
		var res answerDoc
		if code := c.do("POST", sp+"/answer", map[string]any{"query": "Where does Melanie go hiking?", "reconsolidate": false}, &res).StatusCode; code != http.StatusOK {
			t.Fatalf("status %d", code)
		}
		if len(res.CitedNodeIDs) != 1 || res.CitedNodeIDs[0] != res.Nodes[0].Node.ID {
			t.Errorf("cited %v", res.CitedNodeIDs)
		}
		if u := res.Usage[llm.StageAnswer]; u.Calls != 2 || u.Failures != 1 {
			t.Errorf("usage %+v", u)
		}
	})
	t.Run("NoLLM", func(t *testing.T) {
		srv := newTestServer(t, apitest.New(t), Config{})
		c := client{t: t, base: srv.URL}
		var p problemDoc
		resp := c.do("POST", "/v1/spaces/"+cyphertest.NewSpace(t)+"/answer", map[string]any{"query": "Who hikes?"}, &p)
		if resp.StatusCode != http.StatusNotImplemented || p.Code != realm.ENotSupported || !strings.Contains(p.Detail, "REALM_LLM=openai") {
			t.Errorf("status %d, problem %+v", resp.StatusCode, p)
		}
		// A request that could never be answered says why first, LLM or not.
		for _, body := range []map[string]any{{"query": ""}, {"query": "Who hikes?", "k": 500}, {"query": "Who hikes?", "colour": "red"}} {
			var p problemDoc
			if resp := c.do("POST", "/v1/spaces/"+cyphertest.NewSpace(t)+"/answer", body, &p); resp.StatusCode != http.StatusBadRequest || len(p.Fields) == 0 {
				t.Errorf("%v without an LLM: %d %+v, want 400 naming the field", body, resp.StatusCode, p)
			}
		}
	})
}
