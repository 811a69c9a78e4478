package api

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

func TestBucket(t *testing.T) {
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	b := newBucket(2, 3, t0) // 2 tokens a second, bursts of 3
	steps := []struct {
		at        time.Duration
		ok        bool
		wait      time.Duration
		remaining int
		reset     time.Duration // until full again
	}{
		{0, true, 0, 2, 500 * time.Millisecond}, {0, true, 0, 1, time.Second}, {0, true, 0, 0, 1500 * time.Millisecond}, // the burst
		{0, false, 500 * time.Millisecond, 0, 1500 * time.Millisecond}, // empty: one token in half a second
		{250 * time.Millisecond, false, 250 * time.Millisecond, 0, 1250 * time.Millisecond},
		{500 * time.Millisecond, true, 0, 0, 1500 * time.Millisecond},
		{10 * time.Second, true, 0, 2, 500 * time.Millisecond}, {10 * time.Second, true, 0, 1, time.Second}, {10 * time.Second, true, 0, 0, 1500 * time.Millisecond}, // refilled, capped at the burst
		{10 * time.Second, false, 500 * time.Millisecond, 0, 1500 * time.Millisecond},
		{9 * time.Second, false, 500 * time.Millisecond, 0, 1500 * time.Millisecond}, // a clock going back gives nothing
	}
	for i, s := range steps {
		q := b.take(t0.Add(s.at))
		if q.ok != s.ok || q.wait != s.wait || q.remaining != s.remaining || q.reset != s.reset {
			t.Errorf("step %d at %v: got %+v, want %+v", i, s.at, q, s)
		}
	}
	if q := b.peek(t0.Add(11 * time.Second)); !q.ok || q.remaining != 2 {
		t.Errorf("peek after 1 s: %+v, want 2 tokens", q)
	}
	if q := b.take(t0.Add(11 * time.Second)); !q.ok || q.remaining != 1 {
		t.Errorf("take after peek: %+v, want peek to have spent nothing", q)
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
	// Each response says the quota: the burst, what is left of it, and the seconds until
	// it is whole again (1000 s a token spent).
	quota := func(resp *http.Response, remaining, reset int) {
		t.Helper()
		h := resp.Header
		got, _ := strconv.Atoi(h.Get("RateLimit-Reset"))
		if h.Get("RateLimit-Limit") != "2" || h.Get("RateLimit-Remaining") != strconv.Itoa(remaining) || got < reset-100 || got > reset {
			t.Errorf("status %d: RateLimit-Limit %q, -Remaining %q, -Reset %q; want 2, %d, about %d",
				resp.StatusCode, h.Get("RateLimit-Limit"), h.Get("RateLimit-Remaining"), h.Get("RateLimit-Reset"), remaining, reset)
		}
	}
	for i := 0; i < 2; i++ {
		resp := a.do("GET", "/v1/spaces", nil, nil)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("request %d: %d", i, resp.StatusCode)
		}
		quota(resp, 1-i, 1000*(i+1))
	}
	var p problemDoc
	resp := a.do("GET", "/v1/spaces", nil, &p)
	retry, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	if resp.StatusCode != http.StatusTooManyRequests || p.Code != "rate_limited" || retry < 900 {
		t.Errorf("third request: %d %+v, Retry-After %q", resp.StatusCode, p, resp.Header.Get("Retry-After"))
	}
	quota(resp, 0, 2000)
	if code := b.status("GET", "/v1/spaces", nil); code != http.StatusOK {
		t.Errorf("another key is limited too: %d", code)
	}
	if resp := a.do("GET", "/healthz", nil, nil); resp.StatusCode != http.StatusOK || resp.Header.Get("RateLimit-Limit") != "" {
		t.Errorf("healthz is limited: %d, RateLimit-Limit %q", resp.StatusCode, resp.Header.Get("RateLimit-Limit"))
	}
}

// TestAuthFailures: a client address sending wrong or missing keys is refused with 429
// once its bucket of failures is spent; requests with a valid key spend nothing and still
// pass then, another address is not limited, nor is loopback.
func TestAuthFailures(t *testing.T) {
	check := apitest.New(t)
	space := cyphertest.NewSpace(t)
	keys, err := ParseKeys("test", "a sk-a-0123456789abcdef read "+space)
	if err != nil {
		t.Fatal(err)
	}
	// One failure back every 1000 s: the fourth of a burst of 3 is refused, however slow the machine.
	api := NewServer(Config{Keys: keys, AuthFailureRate: 0.001, AuthFailureBurst: 3}, testDeps(t))
	// The test's requests all come from loopback, which is not limited: each says the
	// address it stands for, as clients on other hosts would be seen.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if peer := r.Header.Get("X-Test-Peer"); peer != "" {
			r.RemoteAddr = peer
		}
		check.Handler(api).ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	status := func(peer, key string) (int, problemDoc, string) {
		t.Helper()
		var p problemDoc
		resp := client{t: t, base: srv.URL, key: key, header: http.Header{"X-Test-Peer": {peer}}}.do("GET", "/v1/spaces", nil, &p)
		return resp.StatusCode, p, resp.Header.Get("Retry-After")
	}
	const valid, host, other = "sk-a-0123456789abcdef", "192.0.2.1:4000", "192.0.2.2:4000"
	for i := 0; i < 5; i++ {
		if code, _, _ := status(host, valid); code != http.StatusOK {
			t.Fatalf("valid request %d: %d", i, code)
		}
	}
	for _, key := range []string{"sk-wrong-0123456789abcdef", "", "sk-a-0123456789abcdeX"} {
		if code, _, _ := status(host, key); code != http.StatusUnauthorized {
			t.Fatalf("key %q: %d, want 401: the valid requests before spent the failures' bucket", key, code)
		}
	}
	code, p, retryAfter := status(host, "sk-guess-0123456789abcdef")
	if retry, _ := strconv.Atoi(retryAfter); code != http.StatusTooManyRequests || p.Code != "rate_limited" || retry < 900 {
		t.Errorf("a wrong key after 3 failures: %d %+v, Retry-After %q", code, p, retryAfter)
	}
	// A valid key from the same address (another client behind one proxy) still passes.
	if code, _, _ := status(host, valid); code != http.StatusOK {
		t.Errorf("a valid key after the address's failures: %d, want 200", code)
	}
	// Another address has a bucket of its own; loopback none.
	for peer, fourth := range map[string]int{other: http.StatusTooManyRequests, "127.0.0.1:4000": http.StatusUnauthorized, "[::1]:4000": http.StatusUnauthorized} {
		for i, want := range []int{401, 401, 401, fourth} {
			if code, _, _ := status(peer, "sk-wrong-0123456789abcdef"); code != want {
				t.Errorf("from %s, wrong key %d: %d, want %d", peer, i+1, code, want)
			}
		}
	}
	if code, _, _ := status("[::1]:4000", valid); code != http.StatusOK {
		t.Errorf("a valid key from loopback after its failures: %d", code)
	}
}

// TestClientAddr: failures count by IP, IPv6 by its /64, whatever the port.
func TestClientAddr(t *testing.T) {
	addr := func(remote string) netip.Prefix {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = remote
		p, ok := clientAddr(r)
		if !ok {
			t.Errorf("%s is not limited", remote)
		}
		return p
	}
	same := [][2]string{
		{"192.0.2.7:1000", "192.0.2.7:2000"},
		{"[::ffff:192.0.2.7]:1", "192.0.2.7:2"},
		{"[2001:db8::1]:1", "[2001:db8::ffff:2]:2"},
	}
	for _, p := range same {
		if addr(p[0]) != addr(p[1]) {
			t.Errorf("%s and %s count apart: %v, %v", p[0], p[1], addr(p[0]), addr(p[1]))
		}
	}
	apart := [][2]string{
		{"192.0.2.7:1", "192.0.2.8:1"},
		{"[2001:db8::1]:1", "[2001:db8:0:1::1]:1"},
	}
	for _, p := range apart {
		if addr(p[0]) == addr(p[1]) {
			t.Errorf("%s and %s count together: %v", p[0], p[1], addr(p[0]))
		}
	}
	for _, remote := range []string{"127.0.0.1:1", "127.8.0.2:1", "[::1]:1", "[::ffff:127.0.0.1]:1", "@", ""} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = remote
		if p, ok := clientAddr(r); ok {
			t.Errorf("%q is limited, as %v: loopback and peers that are no IP address are not", remote, p)
		}
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

// TestNesting: a body nested deeper than maxDepth is refused before it is read further: a
// 40 KB body nested 20,000 deep cost the server 700 MB, one of 200 KB its memory.
func TestNesting(t *testing.T) {
	check := apitest.New(t)
	srv := newTestServer(t, check, Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	nested := func(depth int) any {
		var v any = map[string]any{}
		for range depth - 1 {
			v = []any{v}
		}
		return v
	}
	for _, depth := range []int{maxDepth + 1, 20000} {
		var p problemDoc
		resp := c.do("POST", sp+"/recall", map[string]any{"query": "q", "filters": nested(depth)}, &p)
		if resp.StatusCode != 400 || !strings.Contains(p.Detail, "more than 64 deep") {
			t.Errorf("filters nested %d deep: status %d, %+v; want 400 naming the depth", depth, resp.StatusCode, p)
		}
	}
	var p problemDoc // as deep as allowed: the body is read, the filters' shape refused
	if resp := c.do("POST", sp+"/recall", map[string]any{"query": "q", "filters": nested(maxDepth - 1)}, &p); resp.StatusCode != 400 || p.Fields["filters"] == "" {
		t.Errorf("filters nested %d deep: status %d, %+v; want 400 on the field filters", maxDepth-1, resp.StatusCode, p)
	}
}

func repeat[T any](v T, n int) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// TestByteLimitsDeclared: a limit the server counts in bytes of UTF-8 is declared as
// x-max-bytes beside the schema's maxLength (which counts characters) and said in its
// description: maxLength characters of "é", which the schema lets through, are refused
// naming the field. A limit counted in characters (a speaker's name) has no x-max-bytes,
// and as many "é" pass.
func TestByteLimitsDeclared(t *testing.T) {
	doc := apitest.Spec(t)
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	schemas := doc.Components.Schemas
	message := func(field string) func(v string) any {
		return func(v string) any {
			m := map[string]string{"speaker": "Ana", "content": "I moved to Lisbon.", "timestamp": "2023-01-10T09:00:00Z"}
			m[field] = v
			return map[string]any{"messages": []any{m}}
		}
	}
	field := func(name string) func(v string) any {
		return func(v string) any { return map[string]any{name: v} }
	}
	feedback := schemas["Feedback"].Value.AllOf[0].Value.Properties
	tests := []struct {
		name, method, path string
		body               func(v string) any // nil: the value goes in the path
		schema             *openapi3.Schema
		field              string
	}{
		{"MessageContent", "POST", sp + "/observations", message("content"), schemas["Message"].Value.AllOf[0].Value.Properties["content"].Value, "messages[0].content"},
		{"MessageID", "POST", sp + "/observations", message("id"), schemas["Message"].Value.AllOf[0].Value.Properties["id"].Value, "messages[0].id"},
		{"RecallQuery", "POST", sp + "/recall", field("query"), schemas["RecallRequest"].Value.Properties["query"].Value, "query"},
		{"AnswerQuery", "POST", sp + "/answer", field("query"), schemas["AnswerRequest"].Value.Properties["query"].Value, "query"},
		{"Correction", "PATCH", sp + "/memories/m1", field("content"), schemas["CorrectionRequest"].Value.Properties["content"].Value, "content"},
		{"FeedbackAnswer", "POST", sp + "/traces/t1/feedback", field("answer"), feedback["answer"].Value, "answer"},
		{"FeedbackNodeID", "POST", sp + "/traces/t1/feedback", func(v string) any { return map[string]any{"useful_node_ids": []string{v}} },
			feedback["useful_node_ids"].Value.Items.Value, "useful_node_ids[0]"},
		{"PathID", "GET", sp + "/memories/", nil, doc.Components.Parameters["ID"].Value.Schema.Value, "id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := int(*tt.schema.MaxLength)
			if got := fmt.Sprint(tt.schema.Extensions["x-max-bytes"]); got != strconv.Itoa(n) {
				t.Errorf("x-max-bytes %s, want %d (maxLength)", got, n)
			}
			v, path, body := strings.Repeat("é", n), tt.path, any(nil)
			if tt.body == nil {
				path += url.PathEscape(v)
			} else {
				body = tt.body(v)
			}
			var p problemDoc
			if code := c.do(tt.method, path, body, &p).StatusCode; code != http.StatusBadRequest || p.Fields[tt.field] == "" {
				t.Errorf("%d \"é\": %d %+v, want 400 naming %s", n, code, p, tt.field)
			}
		})
	}
	t.Run("CharactersSpeaker", func(t *testing.T) {
		name := schemas["Name"].Value
		if _, ok := name.Extensions["x-max-bytes"]; ok {
			t.Errorf("a name, counted in characters, has x-max-bytes")
		}
		if code := c.status("POST", sp+"/observations", message("speaker")(strings.Repeat("é", int(*name.MaxLength)))); code != http.StatusOK {
			t.Errorf("%d \"é\" as a speaker: %d, want 200", *name.MaxLength, code)
		}
	})
}
