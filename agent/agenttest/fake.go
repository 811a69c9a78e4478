package agenttest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// ChatRequest is one recorded request to /chat/completions.
type ChatRequest struct {
	openai.ChatCompletionRequest
	// Body is the raw JSON body, for assertions on fields the typed request drops
	// (e.g. a temperature of exactly 0, which go-openai omits).
	Body []byte
}

// System is the content of the first system message, "" if none.
func (r ChatRequest) System() string {
	for _, m := range r.Messages {
		if m.Role == openai.ChatMessageRoleSystem {
			return m.Content
		}
	}
	return ""
}

// LastUser is the content of the last user message, "" if none.
func (r ChatRequest) LastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == openai.ChatMessageRoleUser {
			return r.Messages[i].Content
		}
	}
	return ""
}

// Contains reports whether any message contains s; handlers use it to route by marker.
func (r ChatRequest) Contains(s string) bool {
	for _, m := range r.Messages {
		if strings.Contains(m.Content, s) {
			return true
		}
	}
	return false
}

// SchemaName is the name of the json_schema response format, "" if none.
func (r ChatRequest) SchemaName() string {
	if r.ResponseFormat == nil || r.ResponseFormat.JSONSchema == nil {
		return ""
	}
	return r.ResponseFormat.JSONSchema.Name
}

// Response is what the fake answers to one request.
type Response struct {
	// Status is the HTTP status; 0 means 200. A non-200 status answers with an
	// OpenAI-style error body.
	Status int
	// RetryAfter, when set, is sent as the Retry-After header (whole seconds).
	RetryAfter time.Duration
	// Content is the assistant message content of a 200 answer.
	Content string
	// PromptTokens and CompletionTokens fill the usage of a 200 answer.
	PromptTokens, CompletionTokens int
	// NoUsage leaves the usage out of a 200 answer, as some servers do.
	NoUsage bool
	// FinishReason is the choice's finish_reason; "" means stop.
	FinishReason openai.FinishReason
	// Delay holds the answer back; it ends early when the client gives up or the
	// server shuts down, so timeout tests stay fast.
	Delay time.Duration
}

// JSON is a 200 answer whose content is v marshalled, with the given usage.
func JSON(tb testing.TB, v any, promptTokens, completionTokens int) Response {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatalf("agenttest.JSON: %v", err)
	}
	return Response{Content: string(b), PromptTokens: promptTokens, CompletionTokens: completionTokens}
}

// Content is a 200 answer with raw content, e.g. malformed JSON.
func Content(content string, promptTokens, completionTokens int) Response {
	return Response{Content: content, PromptTokens: promptTokens, CompletionTokens: completionTokens}
}

// Status is an error answer with the given HTTP status.
func Status(code int) Response { return Response{Status: code} }

// RateLimited is a 429 answer with a Retry-After header.
func RateLimited(retryAfter time.Duration) Response {
	return Response{Status: http.StatusTooManyRequests, RetryAfter: retryAfter}
}

// FakeOpenAI is an httptest server speaking the chat completions API. Requests are
// answered from the scripted queue first, then by the handler; with neither, the
// request fails the test and gets a 500.
type FakeOpenAI struct {
	tb      testing.TB
	srv     *httptest.Server
	closing chan struct{}

	mu       sync.Mutex
	queue    []Response
	handler  func(ChatRequest) Response
	requests []ChatRequest
}

// NewFakeOpenAI starts a fake server, closed when the test ends.
func NewFakeOpenAI(tb testing.TB) *FakeOpenAI {
	tb.Helper()
	f := &FakeOpenAI{tb: tb, closing: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", f.serveChat)
	f.srv = httptest.NewServer(mux)
	tb.Cleanup(func() {
		// Release delayed answers first: Close waits for in-flight requests.
		close(f.closing)
		f.srv.Close()
	})
	return f
}

// BaseURL is the value for an OpenAI client's base URL (ends in /v1).
func (f *FakeOpenAI) BaseURL() string { return f.srv.URL + "/v1" }

// Enqueue appends scripted answers, used in order, one per request.
func (f *FakeOpenAI) Enqueue(rs ...Response) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queue = append(f.queue, rs...)
}

// Handle sets the function answering requests once the queue is empty.
func (f *FakeOpenAI) Handle(h func(ChatRequest) Response) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.handler = h
}

// Requests returns a copy of every request received so far, in order.
func (f *FakeOpenAI) Requests() []ChatRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]ChatRequest(nil), f.requests...)
}

// Pending is the number of scripted answers not yet used.
func (f *FakeOpenAI) Pending() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.queue)
}

func (f *FakeOpenAI) serveChat(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var req ChatRequest
	if err := json.Unmarshal(body, &req.ChatCompletionRequest); err != nil {
		f.tb.Errorf("agenttest: undecodable chat request: %v", err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req.Body = body

	f.mu.Lock()
	f.requests = append(f.requests, req)
	var resp Response
	var ok bool
	switch {
	case len(f.queue) > 0:
		resp, f.queue, ok = f.queue[0], f.queue[1:], true
	case f.handler != nil:
		h := f.handler
		f.mu.Unlock()
		resp, ok = h(req), true
		f.mu.Lock()
	}
	f.mu.Unlock()
	if !ok {
		f.tb.Errorf("agenttest: unexpected chat request #%d (nothing scripted)", len(f.Requests()))
		resp = Status(http.StatusInternalServerError)
	}

	if resp.Delay > 0 {
		t := time.NewTimer(resp.Delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			return
		case <-f.closing:
			return
		}
	}

	w.Header().Set("Content-Type", "application/json")
	if resp.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int((resp.RetryAfter+time.Second-1)/time.Second)))
	}
	if resp.Status != 0 && resp.Status != http.StatusOK {
		w.WriteHeader(resp.Status)
		_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
			"message": http.StatusText(resp.Status), "type": "fake_error", "code": resp.Status,
		}})
		return
	}
	finish := resp.FinishReason
	if finish == "" {
		finish = openai.FinishReasonStop
	}
	answer := map[string]any{
		"id":     "chatcmpl-fake-" + strconv.Itoa(len(f.Requests())),
		"object": "chat.completion",
		"model":  req.Model,
		"choices": []openai.ChatCompletionChoice{{
			Message:      openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: resp.Content},
			FinishReason: finish,
		}},
	}
	if !resp.NoUsage {
		answer["usage"] = openai.Usage{
			PromptTokens:     resp.PromptTokens,
			CompletionTokens: resp.CompletionTokens,
			TotalTokens:      resp.PromptTokens + resp.CompletionTokens,
		}
	}
	_ = json.NewEncoder(w).Encode(answer)
}

// Route answers the requests that match it: those whose response format is the JSON
// schema named Schema (any when empty) and one of whose messages contains Contains (any
// when empty). Respond writes the answer.
type Route struct {
	Schema   string
	Contains string
	Respond  func(ChatRequest) Response
}

// Matches reports whether req is one of the route's requests.
func (r Route) Matches(req ChatRequest) bool {
	return (r.Schema == "" || req.SchemaName() == r.Schema) && (r.Contains == "" || req.Contains(r.Contains))
}

// Reply is a Respond function that always gives resp.
func Reply(resp Response) func(ChatRequest) Response {
	return func(ChatRequest) Response { return resp }
}

// Router returns a handler for Handle that answers each request by the first route
// matching it; a request no route matches fails the test and gets a 500. It scripts a
// whole run, e.g. the answers and the judge's labels of a benchmark by the question text.
func Router(tb testing.TB, routes ...Route) func(ChatRequest) Response {
	return func(req ChatRequest) Response {
		for _, r := range routes {
			if r.Matches(req) {
				return r.Respond(req)
			}
		}
		tb.Errorf("agenttest: no route for a chat request (schema %q): %.200s", req.SchemaName(), req.LastUser())
		return Status(http.StatusInternalServerError)
	}
}
