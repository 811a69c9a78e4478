package api

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// syncBuffer is a log sink the server's goroutines may write to while the test reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestAccessLog: one JSON line per request with its request id, route, space, key name,
// status and trace id; never a memory's content, a query, a path, or a key's secret.
func TestAccessLog(t *testing.T) {
	var logs syncBuffer
	space := cyphertest.NewSpace(t)
	keys, err := ParseKeys("test", "ana sk-ana-0123456789abcdef read,write "+space)
	if err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, apitest.New(t), Config{Keys: keys}, func(d *Deps) {
		d.Logger = zerolog.New(&logs).Level(zerolog.InfoLevel)
	})
	c := client{t: t, base: srv.URL, key: "sk-ana-0123456789abcdef"}
	const secretContent = "my bank PIN is 4711 and my diagnosis is private"
	msgs := map[string]any{"messages": []map[string]string{{"id": "p1", "speaker": "Ana", "content": secretContent, "timestamp": "2023-05-08T13:56:00Z"}}}
	if code := c.status("POST", "/v1/spaces/"+space+"/observations", msgs); code != http.StatusOK {
		t.Fatalf("ingest: %d", code)
	}
	var rec struct {
		TraceID string `json:"trace_id"`
	}
	req, _ := http.NewRequest("POST", srv.URL+"/v1/spaces/"+space+"/recall", strings.NewReader(`{"query":"what is the bank PIN of Ana"}`))
	req.Header.Set("Authorization", "Bearer sk-ana-0123456789abcdef")
	req.Header.Set("X-Request-Id", "client-req-42")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(resp.Body).Decode(&rec)
	resp.Body.Close()
	if resp.Header.Get("X-Request-Id") != "client-req-42" {
		t.Errorf("the client's request id came back as %q", resp.Header.Get("X-Request-Id"))
	}
	c.do("GET", "/v1/spaces/"+space+"/memories?q=diagnosis", nil, nil)
	c.do("GET", "/healthz", nil, nil)
	req, _ = http.NewRequest("GET", srv.URL+"/healthz", nil)
	req.Header.Set("X-Request-Id", "evil\"id with spaces")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if id := resp.Header.Get("X-Request-Id"); id == "" || strings.Contains(id, "evil") {
		t.Errorf("a malformed client request id was kept: %q", id)
	}
	srv.Close() // every access line is written

	out := logs.String()
	for _, leak := range []string{"4711", "diagnosis", "bank PIN", "sk-ana-", "evil"} {
		if strings.Contains(out, leak) {
			t.Errorf("the log holds %q:\n%s", leak, out)
		}
	}
	var recallLine map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	lines := 0
	for sc.Scan() {
		var line map[string]any
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("not a JSON log line: %s", sc.Text())
		}
		if line["message"] != "request" {
			continue
		}
		lines++
		if line["request_id"] == "" || line["route"] == "" || line["status"] == nil {
			t.Errorf("access line lacks request_id, route or status: %v", line)
		}
		if line["route"] == "/v1/spaces/{space}/recall" {
			recallLine = line
		}
	}
	if lines != 5 {
		t.Errorf("%d access lines for 5 requests:\n%s", lines, out)
	}
	if recallLine["request_id"] != "client-req-42" || recallLine["key"] != "ana" || recallLine["space"] != space ||
		recallLine["trace_id"] != rec.TraceID || rec.TraceID == "" {
		t.Errorf("recall's access line %v, want request id, key name, space and trace id %s", recallLine, rec.TraceID)
	}
}

// TestAccessLogErrors: the access line of an error answer carries its code, and a 5xx's
// its message, at warn (Neo4j away, a feature not configured, not ready); so does an MCP
// tool error's, at the level of the status its route would answer; never what the request sent.
// Every line names the TCP peer, not the X-Forwarded-For a client may forge.
func TestAccessLogErrors(t *testing.T) {
	var logs syncBuffer
	store, proxy := cyphertest.BehindProxy(t, cyphertest.Config())
	srv := newTestServer(t, apitest.New(t), Config{MaxBodyBytes: 1024}, func(d *Deps) {
		*d = testDepsOn(t, store)
		d.Logger = zerolog.New(&logs)
	})
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	const secret = "my-secret-timestamp-4711"
	toolCall := func(args string) []byte {
		return []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"recall","arguments":` + args + `}}`)
	}
	requests := []struct {
		id, method, path, contentType string
		body                          any
		wantStatus                    int
		wantLevel, wantCode           string
		wantError                     string // the error field begins with it; "": no error field
	}{
		{"ok", "GET", "/healthz", "", nil, http.StatusOK, "info", "", ""},
		{"invalid", "POST", sp + "/observations", "application/json",
			map[string]any{"messages": []map[string]string{{"id": "m1", "speaker": "Ana", "content": "I am Ana.", "timestamp": secret}}},
			http.StatusBadRequest, "info", "invalid", ""},
		{"media-type", "POST", sp + "/recall", "text/plain", []byte(`{"query":"` + secret + `"}`), http.StatusUnsupportedMediaType, "info", "unsupported_media_type", ""},
		{"too-large", "POST", sp + "/recall", "application/json", []byte(`{"query":"` + strings.Repeat(secret, 100) + `"}`), http.StatusRequestEntityTooLarge, "info", "too_large", ""},
		{"no-llm", "POST", sp + "/answer", "application/json", map[string]any{"query": secret}, http.StatusNotImplemented, "warn", "not_supported", errNoAnswerer.Message},
		{"mcp-invalid", "POST", "/mcp", "application/json", toolCall(`{"space":"` + secret + `!","query":"x"}`), http.StatusOK, "info", "invalid", ""},
		{"neo4j-away", "GET", sp + "/stats", "", nil, http.StatusServiceUnavailable, "warn", "unavailable", "neo4j is unavailable: "},
		{"not-ready", "GET", "/readyz", "", nil, http.StatusServiceUnavailable, "warn", "unavailable", "neo4j does not answer"},
		{"mcp-neo4j-away", "POST", "/mcp", "application/json", toolCall(`{"space":"` + cyphertest.NewSpace(t) + `","query":"x"}`), http.StatusOK, "warn", "unavailable", "neo4j is unavailable: "},
	}
	for _, req := range requests {
		if req.id == "neo4j-away" {
			proxy.Cut()
		}
		h := http.Header{"X-Request-Id": {req.id}, "X-Forwarded-For": {"203.0.113.9"}}
		if req.contentType != "" {
			h.Set("Content-Type", req.contentType)
		}
		if req.path == "/mcp" {
			h.Set("Accept", "application/json, text/event-stream")
		}
		c := client{t: t, base: srv.URL, header: h}
		if code := c.status(req.method, req.path, req.body); code != req.wantStatus {
			t.Fatalf("%s: %s %s answered %d, want %d", req.id, req.method, req.path, code, req.wantStatus)
		}
	}
	proxy.Restore()
	srv.Close() // every access line is written

	out := logs.String()
	if strings.Contains(out, "4711") || strings.Contains(out, "203.0.113.9") {
		t.Errorf("the log holds what a request sent:\n%s", out)
	}
	lines := map[string]map[string]any{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var line map[string]any
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("not a JSON log line: %s", sc.Text())
		}
		if line["message"] == "request" {
			lines[line["request_id"].(string)] = line
		}
	}
	for _, req := range requests {
		line := lines[req.id]
		code, _ := line["code"].(string)
		msg, _ := line["error"].(string)
		addr, _ := line["remote_addr"].(string)
		if line["level"] != req.wantLevel || code != req.wantCode || !strings.HasPrefix(msg, req.wantError) || req.wantError == "" && msg != "" ||
			!strings.HasPrefix(addr, "127.0.0.1:") {
			t.Errorf("%s: access line %v, want level %s, code %q, error %q and the peer 127.0.0.1:…",
				req.id, line, req.wantLevel, req.wantCode, req.wantError)
		}
	}
}

// TestUnavailableCauseLogged: a Neo4j that cannot serve answers 503 "neo4j is
// unavailable" over HTTP and MCP, and only the log says why: the driver's words can
// name the database's host and port, which are no client's business.
func TestUnavailableCauseLogged(t *testing.T) {
	var logs syncBuffer
	store, proxy := cyphertest.BehindProxy(t, cyphertest.Config())
	srv := newTestServer(t, apitest.New(t), Config{}, func(d *Deps) {
		*d = testDepsOn(t, store)
		d.Logger = zerolog.New(&logs)
	})
	sp := cyphertest.NewSpace(t)
	proxy.Cut()
	var p problem
	if resp := (client{t: t, base: srv.URL}).do("GET", "/v1/spaces/"+sp+"/stats", nil, &p); resp.StatusCode != http.StatusServiceUnavailable || p.Detail != "neo4j is unavailable" {
		t.Errorf("stats answered %d %q, want 503 \"neo4j is unavailable\"", resp.StatusCode, p.Detail)
	}
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"recall","arguments":{"space":"` + sp + `","query":"x"}}}`
	h := http.Header{"Accept": {"application/json, text/event-stream"}}
	var rpc struct {
		Result struct {
			StructuredContent struct{ Code, Detail string } `json:"structuredContent"`
		} `json:"result"`
	}
	(client{t: t, base: srv.URL, header: h}).do("POST", "/mcp", []byte(call), &rpc)
	if got := rpc.Result.StructuredContent; got.Code != realm.EUnavailable || got.Detail != "neo4j is unavailable" {
		t.Errorf("MCP recall's tool error %+v, want unavailable \"neo4j is unavailable\"", got)
	}
	proxy.Restore()
	srv.Close()
	if n := strings.Count(logs.String(), `"error":"neo4j is unavailable: `); n != 2 {
		t.Errorf("%d log lines give the cause, want 2:\n%s", n, logs.String())
	}
}

// TestMetrics: /metrics reports latency by route pattern and status, with no space id
// and with unknown paths folded into one label.
func TestMetrics(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	c.status("GET", "/v1/spaces/"+space+"/stats", nil)
	c.status("GET", "/v1/spaces/"+space+"/memories/nope", nil)
	c.status("GET", "/random/"+space, nil)
	resp := c.do("GET", "/metrics", nil, nil)
	body := metricsText(t, srv.URL)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	for _, want := range []string{
		`realm_http_request_duration_seconds_count{method="GET",route="/v1/spaces/{space}/stats",status="404"} 1`,
		`realm_http_request_duration_seconds_count{method="GET",route="/v1/spaces/{space}/memories/{id}",status="404"} 1`,
		`realm_http_request_duration_seconds_count{method="GET",route="unmatched",status="404"} 1`,
		`realm_http_requests_in_flight`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if strings.Contains(body, space) {
		t.Error("a space id is a metric label")
	}
}

func metricsText(t *testing.T, base string) string {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}
