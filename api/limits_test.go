package api

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

func TestBucket(t *testing.T) {
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	b := newBucket(2, 3, t0) // 2 tokens a second, bursts of 3
	steps := []struct {
		at   time.Duration
		ok   bool
		wait time.Duration
	}{
		{0, true, 0}, {0, true, 0}, {0, true, 0}, // the burst
		{0, false, 500 * time.Millisecond}, // empty: one token in half a second
		{250 * time.Millisecond, false, 250 * time.Millisecond},
		{500 * time.Millisecond, true, 0},
		{10 * time.Second, true, 0}, {10 * time.Second, true, 0}, {10 * time.Second, true, 0}, // refilled, capped at the burst
		{10 * time.Second, false, 500 * time.Millisecond},
		{9 * time.Second, false, 500 * time.Millisecond}, // a clock going back gives nothing
	}
	for i, s := range steps {
		ok, wait := b.take(t0.Add(s.at))
		if ok != s.ok || wait != s.wait {
			t.Errorf("step %d at %v: got %v %v, want %v %v", i, s.at, ok, wait, s.ok, s.wait)
		}
	}
}

// TestRateLimit: each key has its own bucket; an empty one answers 429 with Retry-After;
// probes and the spec are not limited.
func TestRateLimit(t *testing.T) {
	check := apitest.New(t)
	space := cyphertest.NewSpace(t)
	keys, err := ParseKeys("test", "a sk-a-0123456789abcdef read "+space+"; b sk-b-0123456789abcdef read "+space)
	if err != nil {
		t.Fatal(err)
	}
	// One token every 1000 s: the third request of a burst of 2 is refused, however slow the machine.
	srv := newTestServer(t, check, Config{Keys: keys, RateLimit: 0.001, RateBurst: 2})
	a := client{t: t, base: srv.URL, key: "sk-a-0123456789abcdef"}
	b := client{t: t, base: srv.URL, key: "sk-b-0123456789abcdef"}
	for i := 0; i < 2; i++ {
		if code := a.status("GET", "/v1/spaces", nil); code != http.StatusOK {
			t.Fatalf("request %d: %d", i, code)
		}
	}
	var p problemDoc
	resp := a.do("GET", "/v1/spaces", nil, &p)
	retry, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	if resp.StatusCode != http.StatusTooManyRequests || p.Code != "rate_limited" || retry < 900 {
		t.Errorf("third request: %d %+v, Retry-After %q", resp.StatusCode, p, resp.Header.Get("Retry-After"))
	}
	if code := b.status("GET", "/v1/spaces", nil); code != http.StatusOK {
		t.Errorf("another key is limited too: %d", code)
	}
	if code := a.status("GET", "/healthz", nil); code != http.StatusOK {
		t.Errorf("healthz is limited: %d", code)
	}
}

// TestLimits: what a client may send is bounded, and each refusal is a problem naming
// the limit.
func TestLimits(t *testing.T) {
	check := apitest.New(t)
	srv := newTestServer(t, check, Config{MaxBodyBytes: 128 << 10})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	msg := func(content string) map[string]string {
		return map[string]string{"speaker": "Ana", "content": content, "timestamp": "2023-05-08T13:56:00Z"}
	}
	long := strings.Repeat("x", 300)
	tests := []struct {
		name   string
		method string
		path   string
		body   any
		status int
		field  string
	}{
		{"Body", "POST", sp + "/observations", map[string]any{"messages": []any{msg(strings.Repeat("y", 140<<10))}}, 413, ""},
		{"Batch", "POST", sp + "/observations", map[string]any{"messages": repeat(msg("hi"), 1001)}, 400, "messages"},
		{"Content", "POST", sp + "/observations", map[string]any{"messages": []any{msg(strings.Repeat("z", 20001))}}, 400, "messages[0].content"},
		{"Speaker", "POST", sp + "/observations", map[string]any{"messages": []any{map[string]string{"speaker": long, "content": "hi", "timestamp": "2023-05-08T13:56:00Z"}}}, 400, "messages[0].speaker"},
		{"SessionID", "POST", sp + "/observations", map[string]any{"messages": []any{map[string]string{"speaker": "A", "session_id": long, "content": "hi", "timestamp": "2023-05-08T13:56:00Z"}}}, 400, "messages[0].session_id"},
		{"MessageID", "POST", sp + "/observations", map[string]any{"messages": []any{map[string]string{"id": long, "speaker": "A", "content": "hi", "timestamp": "2023-05-08T13:56:00Z"}}}, 400, "messages[0].id"},
		{"Query", "POST", sp + "/recall", map[string]any{"query": strings.Repeat("q", 4001)}, 400, "query"},
		{"K", "POST", sp + "/recall", map[string]any{"query": "q", "k": 101}, 400, "k"},
		{"Depth", "POST", sp + "/recall", map[string]any{"query": "q", "max_depth": 7}, 400, "max_depth"},
		{"Beam", "POST", sp + "/recall", map[string]any{"query": "q", "beam_width": 65}, 400, "beam_width"},
		{"FeedbackIDs", "POST", sp + "/traces/t/feedback", map[string]any{"useful_node_ids": repeat("n", 101)}, 400, "useful_node_ids"},
		{"ListLimit", "GET", sp + "/memories?limit=501", nil, 400, "limit"},
		{"GraphDepth", "GET", sp + "/graph?depth=3", nil, 400, "depth"},
		{"EditsLimit", "GET", sp + "/edits?limit=1001", nil, 400, "limit"},
		{"SpaceSyntax", "GET", "/v1/spaces/" + strings.Repeat("s", 65) + "/stats", nil, 400, "space"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p problemDoc
			resp := c.do(tt.method, tt.path, tt.body, &p)
			if resp.StatusCode != tt.status || resp.Header.Get("Content-Type") != "application/problem+json" {
				t.Fatalf("status %d (%s), want %d: %+v", resp.StatusCode, resp.Header.Get("Content-Type"), tt.status, p)
			}
			if tt.field != "" && p.Fields[tt.field] == "" {
				t.Errorf("fields %v lack %s", p.Fields, tt.field)
			}
		})
	}
}

func repeat[T any](v T, n int) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = v
	}
	return out
}
