package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestMCPErrors: tool errors keep the shape the README promises, {code, detail, fields?},
// and that shape fits each tool's outputSchema, whoever wrote the error (a tool or the
// SDK's argument check); faults of the protocol are JSON-RPC errors; the hints are honest.
func TestMCPErrors(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	cs := mustConnectMCP(t, srv.URL, "")
	space := cyphertest.NewSpace(t)

	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	outputs := map[string]*jsonschema.Resolved{}
	for _, tool := range tools.Tools {
		b, _ := json.Marshal(tool.OutputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		if outputs[tool.Name], err = s.Resolve(nil); err != nil {
			t.Fatalf("%s: output schema: %v", tool.Name, err)
		}
		if tool.Name == "forget" && (tool.Annotations == nil || tool.Annotations.IdempotentHint) {
			t.Errorf("forget says it is idempotent, yet forgetting twice is an error: %+v", tool.Annotations)
		}
	}
	// fits checks a tool error's structured content: its code, and the tool's outputSchema.
	fits := func(t *testing.T, tool string, got toolCall, code string) {
		t.Helper()
		if !got.isError || got.code() != code || got.out["detail"] == "" {
			t.Fatalf("%s: %+v, want the tool error %s", tool, got, code)
		}
		if err := outputs[tool].Validate(got.out); err != nil {
			t.Errorf("%s: the tool error %v does not fit the outputSchema: %v", tool, got.out, err)
		}
	}

	t.Run("ErrForgetTwice", func(t *testing.T) {
		if code := c.status("POST", "/v1/spaces/"+space+"/observations", map[string]any{"messages": []any{
			map[string]any{"speaker": "Ann", "content": "Ann keeps bees in her garden.", "timestamp": "2024-05-01T10:00:00Z"},
		}}); code != http.StatusOK {
			t.Fatalf("ingest: %d", code)
		}
		var page struct{ Memories []struct{ ID string } }
		c.do("GET", "/v1/spaces/"+space+"/memories", nil, &page)
		if len(page.Memories) == 0 {
			t.Fatal("no memory to forget")
		}
		args := map[string]any{"space": space, "memory_id": page.Memories[0].ID}
		if got := callTool(t, cs, "forget", args); got.isError || got.out["forgotten"] != page.Memories[0].ID {
			t.Fatalf("forget: %+v", got)
		} else if err := outputs["forget"].Validate(got.out); err != nil {
			t.Errorf("forget's result does not fit its outputSchema: %v", err)
		}
		fits(t, "forget", callTool(t, cs, "forget", args), "not_found")
	})
	t.Run("ErrArguments", func(t *testing.T) {
		// The SDK refuses these against the inputSchema before any tool runs.
		got := callTool(t, cs, "remember", map[string]any{"space": space, "messages": "not a list"})
		fits(t, "remember", got, "invalid")
		if !strings.HasPrefix(got.text, "invalid: ") {
			t.Errorf("the text of an argument error: %q", got.text)
		}
		fits(t, "recall", callTool(t, cs, "recall", map[string]any{"query": "bees"}), "invalid")
		fits(t, "feedback", callTool(t, cs, "feedback", map[string]any{"space": space, "trace_id": 5}), "invalid")
		// The tools' own checks, with fields.
		got = callTool(t, cs, "remember", map[string]any{"space": space, "messages": []any{map[string]any{"content": "c", "speaker": "\u202e"}}})
		fits(t, "remember", got, "invalid")
		if fields, _ := got.out["fields"].(map[string]any); fields["messages[0].speaker"] == nil {
			t.Errorf("a speaker of bidirectional formatting alone: %+v", got.out)
		}
		fits(t, "recall", callTool(t, cs, "recall", map[string]any{"space": space, "query": "bees", "time": "0000-01-01T00:00:00Z"}), "invalid")
	})
	t.Run("ErrBadText", func(t *testing.T) { // a lone surrogate in the arguments: a tool error naming it
		body := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"remember","arguments":{"space":"` + space +
			`","messages":[{"speaker":"Ann","content":"bees \udbff","timestamp":"2024-05-01T10:00:00Z"}]}}}`
		resp, b := postMCP(t, srv.URL, "", []byte(body))
		var msg struct {
			ID     int
			Result mcp.CallToolResult
		}
		if resp.StatusCode != http.StatusOK || json.Unmarshal(b, &msg) != nil || msg.ID != 3 || !msg.Result.IsError {
			t.Fatalf("%d %s, want a tool error", resp.StatusCode, b)
		}
		doc, _ := msg.Result.StructuredContent.(map[string]any)
		if fields, _ := doc["fields"].(map[string]any); doc["code"] != "invalid" || fields["messages[0].content"] == nil {
			t.Errorf("structured content %v", doc)
		}
		if err := outputs["remember"].Validate(doc); err != nil {
			t.Errorf("does not fit remember's outputSchema: %v", err)
		}
	})
	t.Run("ErrProtocol", func(t *testing.T) {
		initialize := func(version string) string {
			return `{"jsonrpc":"2.0","id":5,"method":"initialize","params":{` + version + `"capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
		}
		for _, tc := range []struct {
			name, body string
			status     int
			code       int
			id         string
		}{
			// A method this server does not serve is a JSON-RPC response to the request (HTTP
			// 200): before protocol 2026-07-28 an HTTP 404 says the session is gone.
			{"UnknownMethod", `{"jsonrpc":"2.0","id":7,"method":"tools/delete","params":{}}`, 200, rpcMethodNotFound, "7"},
			{"UnknownNotification", `{"jsonrpc":"2.0","method":"notifications/tools/deleted"}`, 400, rpcMethodNotFound, "null"},
			// The methods of capabilities the server does not advertise (it has tools alone).
			{"ResourcesList", `{"jsonrpc":"2.0","id":8,"method":"resources/list"}`, 200, rpcMethodNotFound, "8"},
			{"ResourcesRead", `{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":"realm://x"}}`, 200, rpcMethodNotFound, "8"},
			{"PromptsList", `{"jsonrpc":"2.0","id":8,"method":"prompts/list"}`, 200, rpcMethodNotFound, "8"},
			{"PromptsGet", `{"jsonrpc":"2.0","id":8,"method":"prompts/get","params":{"name":"x"}}`, 200, rpcMethodNotFound, "8"},
			{"LoggingSetLevel", `{"jsonrpc":"2.0","id":8,"method":"logging/setLevel","params":{"level":"info"}}`, 200, rpcMethodNotFound, "8"},
			{"Complete", `{"jsonrpc":"2.0","id":8,"method":"completion/complete","params":{}}`, 200, rpcMethodNotFound, "8"},
			{"InitializeWithoutVersion", initialize(""), 400, rpcInvalidParams, "5"},
			{"InitializeVersionNotString", initialize(`"protocolVersion":20251125,`), 400, rpcInvalidParams, "5"},
			{"NotJSON", `{"jsonrpc":`, 400, rpcParseError, "null"},
			{"NoJSONRPC", `{"id":1,"method":"tools/list"}`, 400, rpcInvalidRequest, "1"},
			{"CallWithoutParams", `{"jsonrpc":"2.0","id":"a","method":"tools/call"}`, 400, rpcInvalidParams, `"a"`},
			{"ParamsNotObject", `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":[1]}`, 400, rpcInvalidParams, "2"},
			{"FractionalID", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, 400, rpcInvalidRequest, "null"},
			{"NotificationWithID", `{"jsonrpc":"2.0","id":4,"method":"notifications/initialized"}`, 400, rpcInvalidRequest, "4"},
		} {
			resp, b := postMCP(t, srv.URL, "", []byte(tc.body))
			var msg struct {
				JSONRPC string
				ID      json.RawMessage
				Error   struct{ Code int }
			}
			if err := json.Unmarshal(b, &msg); err != nil || resp.StatusCode != tc.status || resp.Header.Get("Content-Type") != "application/json" ||
				msg.JSONRPC != "2.0" || msg.Error.Code != tc.code || string(msg.ID) != tc.id {
				t.Errorf("%s: %d %s %s, want %d and the JSON-RPC error %d with id %s", tc.name, resp.StatusCode, resp.Header.Get("Content-Type"), b, tc.status, tc.code, tc.id)
			}
			if tc.code == rpcInvalidParams && strings.HasPrefix(tc.name, "Initialize") && !strings.Contains(string(b), "params.protocolVersion") {
				t.Errorf("%s: %s, want the error to name params.protocolVersion", tc.name, b)
			}
		}
		// From protocol 2026-07-28 on, which has no sessions, a method not found is HTTP 404.
		resp, b := postMCPWith(t, srv.URL, "", []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/delete"}`), func(req *http.Request) {
			req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		})
		if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(b), strconv.Itoa(rpcMethodNotFound)) {
			t.Errorf("an unknown method at protocol 2026-07-28: %d %s, want 404 and the JSON-RPC error %d", resp.StatusCode, b, rpcMethodNotFound)
		}
		// Initialized with a version, the server advertises tools alone.
		resp, b = postMCP(t, srv.URL, "", []byte(initialize(`"protocolVersion":"2025-11-25",`)))
		var init struct {
			Result struct{ Capabilities map[string]any }
		}
		if err := json.Unmarshal(b, &init); err != nil || resp.StatusCode != http.StatusOK || len(init.Result.Capabilities) != 1 || init.Result.Capabilities["tools"] == nil {
			t.Errorf("initialize: %d %s, want a result advertising tools alone", resp.StatusCode, b)
		}
		// An integer written with a fraction or an exponent is an integer, as in JSON Schema.
		for _, id := range []string{"-208.0", "2e1"} {
			resp, b := postMCP(t, srv.URL, "", []byte(`{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`))
			var msg struct {
				ID     float64
				Result map[string]any
				Error  any
			}
			want, _ := strconv.ParseFloat(id, 64)
			if err := json.Unmarshal(b, &msg); err != nil || resp.StatusCode != http.StatusOK || msg.ID != want || msg.Result == nil || msg.Error != nil {
				t.Errorf("ping with id %s: %d %s, want its result", id, resp.StatusCode, b)
			}
		}
		// A stateless server: no event stream, no session to end.
		for _, method := range []string{"GET", "DELETE"} {
			resp, _ := guardedRequest(t, method, srv.URL+"/mcp", nil, "")
			if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" {
				t.Errorf("%s /mcp: %d Allow %q, want 405 Allow POST", method, resp.StatusCode, resp.Header.Get("Allow"))
			}
		}
	})
}

// TestMCPTooLarge: a message over the body limit is answered as MCP's streamable HTTP
// transport asks of input the server cannot accept, an HTTP error status with a JSON-RPC
// error naming the limit, with the message's id when the part read names it; the SDK's
// client takes it as the call's error and goes on with its session.
func TestMCPTooLarge(t *testing.T) {
	const limit = 4096
	srv := newTestServer(t, apitest.New(t), Config{MaxBodyBytes: limit})
	space := cyphertest.NewSpace(t)
	big := strings.Repeat("bees ", limit/5+100)
	params := `"params":{"name":"recall","arguments":{"space":"` + space + `","query":"` + big + `"}}`

	for _, tc := range []struct{ name, body, id string }{
		{"IDFirst", `{"jsonrpc":"2.0","id":9,"method":"tools/call",` + params + `}`, "9"},
		{"IDLast", `{"jsonrpc":"2.0","method":"tools/call",` + params + `,"id":9}`, "null"}, // cut off before it
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, b := postMCP(t, srv.URL, "", []byte(tc.body))
			var msg struct {
				JSONRPC string
				ID      json.RawMessage
				Error   struct {
					Code    int
					Message string
				}
			}
			if err := json.Unmarshal(b, &msg); err != nil || resp.StatusCode != http.StatusRequestEntityTooLarge ||
				resp.Header.Get("Content-Type") != "application/json" || msg.JSONRPC != "2.0" || string(msg.ID) != tc.id ||
				msg.Error.Code != rpcInvalidRequest || !strings.Contains(msg.Error.Message, "4096 bytes") {
				t.Fatalf("%d %s %s, want 413 and a JSON-RPC error %d of id %s naming the limit",
					resp.StatusCode, resp.Header.Get("Content-Type"), b, rpcInvalidRequest, tc.id)
			}
		})
	}
	t.Run("Client", func(t *testing.T) {
		cs := mustConnectMCP(t, srv.URL, "")
		_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "recall", Arguments: map[string]any{"space": space, "query": big}})
		if err == nil || !strings.Contains(err.Error(), "4096 bytes") {
			t.Fatalf("an oversized call: %v, want an error naming the limit", err)
		}
		if _, err := cs.ListTools(context.Background(), nil); err != nil {
			t.Errorf("the session after an oversized call: %v", err)
		}
	})
}
