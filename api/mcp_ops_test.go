package api

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestMCPNoStore: every /mcp answer says Cache-Control: no-store, as every /v1 answer
// does, a tool's result (which the SDK writes with headers of its own) included.
func TestMCPNoStore(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	space := cyphertest.NewSpace(t)
	for name, body := range map[string]string{
		"ToolCall":  `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"remember","arguments":{"space":"` + space + `","messages":[{"role":"user","content":"I keep bees."}]}}}`,
		"ToolError": `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"recall","arguments":{"space":"` + space + `","query":" "}}}`,
		"ToolsList": string(rawToolsList),
		"ErrParse":  `{"jsonrpc":`,
	} {
		resp, b := postMCP(t, srv.URL, "", []byte(body))
		if got := resp.Header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("%s: %d with Cache-Control %q, want no-store", name, resp.StatusCode, got)
		}
		if name == "ToolCall" && resp.StatusCode != http.StatusOK {
			t.Errorf("%s: %d %s", name, resp.StatusCode, b)
		}
	}
}

// TestMCPCapabilities: the server advertises only what it does: tools, whose list never
// changes; a stateless server sends no notification, so neither listChanged nor logging.
func TestMCPCapabilities(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	resp, b := postMCP(t, srv.URL, "", []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`))
	var init struct {
		Result struct{ Capabilities json.RawMessage }
	}
	if err := json.Unmarshal(b, &init); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("initialize: %d %v %s", resp.StatusCode, err, b)
	}
	if got := string(init.Result.Capabilities); got != `{"tools":{}}` {
		t.Errorf("capabilities %s, want {\"tools\":{}}", got)
	}
}

// mcpLogLines are the log lines of buf that name a tool call or a request to /mcp.
func mcpLogLines(t *testing.T, buf *syncBuffer) (calls, requests []map[string]any) {
	t.Helper()
	for line := range strings.Lines(buf.String()) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		switch {
		case m["message"] == "mcp tool call":
			calls = append(calls, m)
		case m["message"] == "request" && m["route"] == "/mcp":
			requests = append(requests, m)
		}
	}
	return calls, requests
}

// TestMCPOutageLogged: an outage seen through MCP (Neo4j away: the tool error
// unavailable, answered with HTTP 200) is logged at warn, on the tool call's line and on
// the request's, as HTTP logs a 503, so that an alert on warn sees it; and the tool error
// carries the retry hint HTTP's Retry-After gives.
func TestMCPOutageLogged(t *testing.T) {
	store, proxy := cyphertest.BehindProxy(t, cyphertest.Config())
	var buf syncBuffer
	srv := newTestServer(t, apitest.New(t), Config{}, func(d *Deps) {
		*d = testDepsOn(t, store)
		d.Logger = zerolog.New(&buf)
	})
	space := cyphertest.NewSpace(t)
	proxy.Cut()
	defer proxy.Restore()
	cs := mustConnectMCP(t, srv.URL, "")
	got := callTool(t, cs, "recall", map[string]any{"space": space, "query": "bees"})
	if !got.isError || got.code() != "unavailable" || got.out["retry_after"] != float64(5) {
		t.Errorf("recall with neo4j away: %+v, want the tool error unavailable with retry_after 5", got)
	}
	calls, requests := mcpLogLines(t, &buf)
	var call, request map[string]any
	for _, c := range calls {
		if c["tool"] == "recall" {
			call = c
		}
	}
	for _, r := range requests {
		if r["code"] == "unavailable" {
			request = r
		}
	}
	if call == nil || call["level"] != "warn" || call["outcome"] != "unavailable" {
		t.Errorf("the tool call's line: %v, want outcome unavailable at warn", call)
	}
	if request == nil || request["level"] != "warn" || request["status"] != float64(http.StatusOK) {
		t.Errorf("the request's line: %v, want status 200 and code unavailable at warn (lines %v)", request, requests)
	}
	// A client's mistake stays at info, and promises no retry.
	bad := callTool(t, cs, "recall", map[string]any{"space": space, "query": " "})
	if bad.code() != "invalid" || bad.out["retry_after"] != nil {
		t.Errorf("a blank query: %+v, want the tool error invalid without retry_after", bad)
	}
	calls, _ = mcpLogLines(t, &buf)
	if last := calls[len(calls)-1]; last["outcome"] != "invalid" || last["level"] != "info" {
		t.Errorf("the line of an invalid call: %v, want info", last)
	}
}

// TestMCPSchemaErrorsCounted: arguments the SDK refuses against the inputSchema are
// counted and logged as every other invalid call.
func TestMCPSchemaErrorsCounted(t *testing.T) {
	var buf syncBuffer
	srv := newTestServer(t, apitest.New(t), Config{}, func(d *Deps) { d.Logger = zerolog.New(&buf) })
	space := cyphertest.NewSpace(t)
	cs := mustConnectMCP(t, srv.URL, "")
	for _, args := range []map[string]any{
		{"space": space, "messages": "not a list"}, // wrong type
		{"space": space}, // a required argument missing
		{"space": space, "messages": []any{map[string]any{"content": "x"}}, "colour": "blue"}, // an argument of no tool
	} {
		if got := callTool(t, cs, "remember", args); got.code() != "invalid" {
			t.Fatalf("remember %v: %+v, want the tool error invalid", args, got)
		}
	}
	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if want := `realm_mcp_tool_calls_total{outcome="invalid",tool="remember"} 3`; !strings.Contains(string(b), want) {
		t.Errorf("/metrics lacks %s", want)
	}
	calls, _ := mcpLogLines(t, &buf)
	if len(calls) != 3 {
		t.Fatalf("%d tool call lines, want 3: %v", len(calls), calls)
	}
	for _, c := range calls {
		if c["tool"] != "remember" || c["outcome"] != "invalid" || c["space"] != space || c["key"] != "local" || c["request_id"] == nil {
			t.Errorf("tool call line %v", c)
		}
	}
}

// TestMCPArgumentBounds: each tool's inputSchema holds the bounds the HTTP routes check,
// and arguments outside them are refused in the arguments' words, never a Go type's, and
// without quoting what was sent.
func TestMCPArgumentBounds(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	space := cyphertest.NewSpace(t)
	cs := mustConnectMCP(t, srv.URL, "")
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	type property struct {
		Description        string
		Pattern            string
		Minimum, Maximum   *float64
		MaxLength          *int
		MinItems, MaxItems *int
		Items              *struct {
			Description string
			MaxLength   *int
			Properties  map[string]struct {
				Description string
				MaxLength   *int
			}
		}
	}
	schemas := map[string]map[string]property{}
	for _, tool := range tools.Tools {
		b, _ := json.Marshal(tool.InputSchema)
		var s struct{ Properties map[string]property }
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		schemas[tool.Name] = s.Properties
	}
	recall, remember := schemas["recall"], schemas["remember"]
	if k := recall["k"]; k.Minimum == nil || *k.Minimum != 0 || k.Maximum == nil || *k.Maximum != realm.MaxRecallK {
		t.Errorf("recall's k: %+v, want 0 to %d", k, realm.MaxRecallK)
	}
	if d := recall["max_depth"]; d.Maximum == nil || *d.Maximum != realm.MaxRecallDepth {
		t.Errorf("recall's max_depth: %+v", d)
	}
	if m := recall["min_score"]; m.Minimum == nil || *m.Minimum != 0 || m.Maximum == nil || *m.Maximum != 1 {
		t.Errorf("recall's min_score: %+v", m)
	}
	if recall["space"].Pattern != realm.SpacePattern {
		t.Errorf("recall's space: %+v", recall["space"])
	}
	if m := remember["messages"]; m.MinItems == nil || *m.MinItems != 1 || m.MaxItems == nil || *m.MaxItems != 1000 ||
		m.Items == nil || m.Items.Properties["content"].MaxLength == nil || *m.Items.Properties["content"].MaxLength != 20000 {
		t.Errorf("remember's messages: %+v", m)
	}
	if id := schemas["forget"]["memory_id"]; id.MaxLength == nil || *id.MaxLength != realm.MaxIDLen {
		t.Errorf("forget's memory_id: %+v", id)
	}
	// A limit in bytes is said in bytes: maxLength counts characters, and as many
	// characters as bytes only bounds it from above. A limit in characters is maxLength.
	for _, b := range []struct {
		where, description string
		maxLength          *int
		bytes              int
	}{
		{"remember's content", remember["messages"].Items.Properties["content"].Description, remember["messages"].Items.Properties["content"].MaxLength, 20000},
		{"recall's query", recall["query"].Description, recall["query"].MaxLength, realm.MaxRecallQueryLen},
		{"forget's memory_id", schemas["forget"]["memory_id"].Description, schemas["forget"]["memory_id"].MaxLength, realm.MaxIDLen},
		{"feedback's answer", schemas["feedback"]["answer"].Description, schemas["feedback"]["answer"].MaxLength, realm.MaxFeedbackAnswerLen},
		{"feedback's useful_node_ids", schemas["feedback"]["useful_node_ids"].Items.Description, schemas["feedback"]["useful_node_ids"].Items.MaxLength, realm.MaxIDLen},
	} {
		if want := fmt.Sprintf("at most %d bytes", b.bytes); !strings.Contains(b.description, want) || b.maxLength == nil || *b.maxLength != b.bytes {
			t.Errorf("%s: %q, want it to say %s, and maxLength %d", b.where, b.description, want, b.bytes)
		}
	}
	for _, name := range []string{"speaker", "role"} {
		if s := remember["messages"].Items.Properties[name]; strings.Contains(s.Description, "bytes") || s.MaxLength == nil || *s.MaxLength != maxNameLen {
			t.Errorf("remember's %s, limited in characters: %q, maxLength %v", name, s.Description, s.MaxLength)
		}
	}
	// A text of two-byte characters: at the limit in bytes, remembered; a character over,
	// within maxLength, refused by the limit in bytes.
	for _, n := range []int{10000, 10001} {
		got := callTool(t, cs, "remember", map[string]any{"space": space, "messages": []any{map[string]any{"speaker": "Ann", "content": strings.Repeat("é", n)}}})
		fields, _ := got.out["fields"].(map[string]any)
		if n == 10000 && got.isError || n == 10001 && fields["messages[0].content"] != "at most 20000 bytes" {
			t.Errorf("remember %d bytes in %d characters: %.300v", 2*n, n, got.out)
		}
	}
	if a := schemas["forget_about"]["about"]; a.MinItems == nil || *a.MinItems != 1 || a.MaxItems == nil || *a.MaxItems != maxForgetPhrases {
		t.Errorf("forget_about's about: %+v", a)
	}

	long := strings.Repeat("x", 1<<20)
	for _, tt := range []struct {
		tool       string
		args       map[string]any
		field, why string
	}{
		{"recall", map[string]any{"space": space, "query": "bees", "k": 1e20}, "k", "must be an integer from 0 to 100"},
		{"recall", map[string]any{"space": space, "query": "bees", "k": 2.5}, "k", "must be an integer from 0 to 100"},
		{"recall", map[string]any{"space": space, "query": "bees", "min_score": 2}, "min_score", "must be a number from 0 to 1"},
		{"recall", map[string]any{"space": space, "query": "bees", "strategy": "widest"}, "strategy", "must be one of adaptive, path_search, subgraph_beam"},
		{"recall", map[string]any{"space": space, "query": "bees", "colour": "blue"}, "colour", "unknown argument"},
		{"recall", map[string]any{"space": space}, "query", "required"},
		{"recall", map[string]any{"space": long, "query": "bees"}, "space", "must be a string matching " + realm.SpacePattern},
		{"remember", map[string]any{"space": space, "messages": []any{map[string]any{"role": "user", "content": strings.Repeat("x", 20001)}}},
			"messages[0].content", "must be a string of at most 20000 characters"},
		{"forget", map[string]any{"space": space, "memory_id": long}, "memory_id", "must be a string of at most 256 characters"},
	} {
		got := callTool(t, cs, tt.tool, tt.args)
		fields, _ := got.out["fields"].(map[string]any)
		if got.code() != "invalid" || fields[tt.field] != tt.why {
			t.Errorf("%s %.200v: %.300v, want %s: %s", tt.tool, tt.args, got.out, tt.field, tt.why)
		}
		if b, _ := json.Marshal(got.out); len(b) > 1000 || strings.Contains(string(b), "Go ") || strings.Contains(string(b), "Args") {
			t.Errorf("%s: the tool error quotes what was sent or names a Go type: %.300s", tt.tool, b)
		}
	}

	// Nested past the 64 levels a request may nest: the JSON-RPC error says so.
	deep := strings.Repeat("[", 70) + strings.Repeat("]", 70)
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"recall","arguments":{"space":"` + space + `","query":` + deep + `}}}`
	if resp, b := postMCP(t, srv.URL, "", []byte(body)); resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "more than 64 deep") {
		t.Errorf("arguments nested 70 deep: %d %s", resp.StatusCode, b)
	}
}

// TestIDLength: an id longer than any stored (256 bytes, as a message's) is refused as
// invalid before any lookup, over HTTP and MCP alike, and never quoted back.
func TestIDLength(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	if code := c.status("POST", sp+"/observations", map[string]any{"messages": []any{
		map[string]any{"speaker": "Ann", "content": "Ann keeps bees.", "timestamp": "2024-05-01T10:00:00Z"}}}); code != http.StatusOK {
		t.Fatalf("ingest: %d", code)
	}
	long := strings.Repeat("é", 200) // 400 bytes in 200 characters: within a schema's maxLength, not the bytes
	huge := strings.Repeat("x", 1<<20)
	t.Run("HTTP", func(t *testing.T) {
		for _, req := range []struct {
			method, path string
			body         any
			field        string
		}{
			{"DELETE", sp + "/memories/" + url.PathEscape(long), nil, "id"},
			{"GET", sp + "/observations/" + url.PathEscape(long), nil, "id"},
			{"POST", sp + "/traces/" + url.PathEscape(long) + "/feedback", map[string]any{"correct": true}, "id"},
			{"POST", sp + "/traces/t/feedback", map[string]any{"useful_node_ids": []string{huge}}, "useful_node_ids[0]"},
			{"GET", "/v1/jobs/" + url.PathEscape(long), nil, "id"},
		} {
			var p problemDoc
			resp := c.do(req.method, req.path, req.body, &p)
			if resp.StatusCode != http.StatusBadRequest || p.Fields[req.field] != "at most 256 bytes" || strings.Contains(p.Detail, "éé") {
				t.Errorf("%s %.80s: %d %+v, want 400 with %s: at most 256 bytes", req.method, req.path, resp.StatusCode, p, req.field)
			}
		}
	})
	t.Run("MCP", func(t *testing.T) {
		cs := mustConnectMCP(t, srv.URL, "")
		for _, tt := range []struct {
			tool  string
			args  map[string]any
			field string
		}{
			{"forget", map[string]any{"space": space, "memory_id": long}, "memory_id"},
			{"forget", map[string]any{"space": space, "observation_id": long}, "observation_id"},
			{"correct", map[string]any{"space": space, "memory_id": long, "content": "Ann keeps wasps."}, "memory_id"},
			{"feedback", map[string]any{"space": space, "trace_id": long, "correct": true}, "trace_id"},
			{"feedback", map[string]any{"space": space, "trace_id": "t", "useful_node_ids": []string{long}}, "useful_node_ids[0]"},
		} {
			got := callTool(t, cs, tt.tool, tt.args)
			fields, _ := got.out["fields"].(map[string]any)
			if got.code() != "invalid" || fields[tt.field] != "at most 256 bytes" || strings.Contains(got.text, "éé") {
				t.Errorf("%s %s: %.300v, want invalid with %s: at most 256 bytes", tt.tool, tt.field, got.out, tt.field)
			}
		}
		// Past the schema's maxLength: refused there, the answer as short.
		got := callTool(t, cs, "forget", map[string]any{"space": space, "observation_id": huge})
		if b, _ := json.Marshal(got.out); got.code() != "invalid" || len(b)+len(got.text) > 1000 {
			t.Errorf("forget a 1 MB id: %s, %d bytes of text", got.code(), len(got.text))
		}
	})
}

// TestMCPNamesNotEchoed: a method or a tool name of any size is named in the JSON-RPC
// error, cut short, never sent back whole.
func TestMCPNamesNotEchoed(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	long := strings.Repeat("x", 1<<20)
	for name, body := range map[string]string{
		"Method": `{"jsonrpc":"2.0","id":1,"method":"` + long + `","params":{}}`,
		"Tool":   `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + long + `","arguments":{}}}`,
	} {
		resp, b := postMCP(t, srv.URL, "", []byte(body))
		var msg struct{ Error struct{ Code int } }
		if err := json.Unmarshal(b, &msg); err != nil || msg.Error.Code == 0 || len(b) > 1000 {
			t.Errorf("%s of 1 MB: %d, a %d-byte answer %.200s, want a short JSON-RPC error", name, resp.StatusCode, len(b), b)
		}
	}
}
