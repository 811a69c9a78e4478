package api

import (
	"encoding/json"
	"net/http"
	"testing"

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
