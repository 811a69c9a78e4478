package api

import (
	"net/http"
	"strings"
	"testing"

	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestBodyHygiene: what encoding/json would take in silently is refused field by field,
// in the API's words, and nothing of the request is stored.
func TestBodyHygiene(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	msg := func(field, raw string) []byte {
		fields := map[string]string{"speaker": `"Ann"`, "content": `"Ann keeps bees."`, "timestamp": `"2024-05-01T10:00:00Z"`}
		fields[field] = raw
		var parts []string
		for k, v := range fields {
			parts = append(parts, `"`+k+`":`+v)
		}
		return []byte(`{"messages":[{` + strings.Join(parts, ",") + `}]}`)
	}
	for _, tc := range []struct {
		name, path string
		body       []byte
		field      string
	}{
		{"ErrLoneSurrogate", "/observations", msg("content", `"bees \udbff here"`), "messages[0].content"},
		{"ErrLowSurrogateFirst", "/observations", msg("speaker", `"\udc00\ud800"`), "messages[0].speaker"},
		{"ErrNUL", "/observations", msg("content", `"bees\u0000"`), "messages[0].content"},
		{"ErrNULInKey", "/recall", []byte(`{"query":"x","k\u0000":1}`), "k\x00"},
		{"ErrNotUTF8", "/recall", []byte("{\"query\":\"\xff\xfe\"}"), "query"},
		{"ErrNull", "/recall", []byte(`{"query":"x","subgraph_max_nodes":null}`), "subgraph_max_nodes"},
		{"ErrNullInList", "/traces/t1/feedback", []byte(`{"misleading_node_ids":null}`), "misleading_node_ids"},
		{"ErrWrongType", "/recall", []byte(`{"query":7}`), "query"},
		{"ErrFraction", "/recall", []byte(`{"query":"x","path_top_k":35.5}`), "path_top_k"},
		{"ErrHugeInteger", "/recall", []byte(`{"query":"x","k":1e30}`), "k"},
		{"ErrHugeNumber", "/recall", []byte(`{"query":"x","min_score":1e400}`), "min_score"},
		{"ErrUnknownField", "/recall", []byte(`{"query":"x","kk":1}`), "kk"},
		{"ErrFieldTwice", "/recall", []byte(`{"query":"first","query":"second"}`), "query"},
		{"ErrNestedFieldTwice", "/observations", []byte(`{"messages":[{"speaker":"Ann","content":"a","content":"b","timestamp":"2024-05-01T10:00:00Z"}]}`), "messages[0].content"},
		{"ErrNestedType", "/observations", msg("content", `["a"]`), "messages[0].content"},
		{"ErrYear0000", "/observations", msg("timestamp", `"0000-01-01T00:00:00Z"`), "messages[0].timestamp"},
		{"ErrTimeType", "/recall", []byte(`{"query":"x","time":5}`), "time"},
		{"ErrRecallYear0000", "/recall", []byte(`{"query":"x","time":"0000-12-31T23:00:00Z"}`), "time"},
		{"ErrBidiOnlySpeaker", "/observations", msg("speaker", `"\u202e\u2066"`), "messages[0].speaker"},
		{"ErrEmptyRole", "/observations", []byte(`{"messages":[{"role":"","content":"c","timestamp":"2024-05-01T10:00:00Z"}]}`), "messages[0].role"},
		{"ErrNoSpeaker", "/observations", []byte(`{"messages":[{"content":"c","timestamp":"2024-05-01T10:00:00Z"}]}`), "messages[0].speaker"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p problemDoc
			resp := c.do("POST", sp+tc.path, tc.body, &p)
			if resp.StatusCode != http.StatusBadRequest || p.Code != "invalid" || p.Fields[tc.field] == "" {
				t.Fatalf("%s: %d %+v, want 400 invalid naming %q", tc.body, resp.StatusCode, p, tc.field)
			}
			for _, goName := range []string{"Go struct", "RecallRequest", "observationsRequest", "json:", "unmarshal"} {
				if strings.Contains(p.Detail+strings.Join(mapValues(p.Fields), " "), goName) {
					t.Errorf("the error speaks Go (%q): %+v", goName, p)
				}
			}
		})
	}
	var page struct{ Memories []any }
	c.do("GET", sp+"/memories", nil, &page)
	if len(page.Memories) != 0 {
		t.Fatalf("refused requests stored %d memories", len(page.Memories))
	}

	t.Run("IntegralNumbers", func(t *testing.T) { // JSON Schema's integer: 35.0 and 3.5e1 are 35
		if code := c.status("POST", sp+"/observations", map[string]any{"messages": []any{
			map[string]any{"speaker": "Ann", "content": "Ann keeps bees in her garden.", "timestamp": "2024-05-01T10:00:00Z"},
		}}); code != http.StatusOK {
			t.Fatalf("ingest: %d", code)
		}
		for _, body := range []string{`{"query":"bees","path_top_k":35.0,"k":5.0}`, `{"query":"bees","path_top_k":3.5e1,"max_depth":2E0}`} {
			if code := c.status("POST", sp+"/recall", []byte(body)); code != http.StatusOK {
				t.Errorf("%s: %d, want 200", body, code)
			}
		}
	})
	t.Run("BidiStripped", func(t *testing.T) {
		// U+202E (right-to-left override) makes "Ann" display as another name.
		if code := c.status("POST", sp+"/observations", []byte(`{"messages":[{"speaker":"\u202eAnn\u202c","session_id":"s\u2067","content":"Ann planted tulips yesterday.","timestamp":"2024-05-02T10:00:00Z"}]}`)); code != http.StatusOK {
			t.Fatalf("ingest: %d", code)
		}
		resp, export := raw(t, c, "GET", sp+"/export", nil)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("export: %d", resp.StatusCode)
		}
		if strings.ContainsAny(string(export), "\u202e\u202c\u2067") {
			t.Error("the space keeps bidirectional formatting characters of a speaker or session")
		}
		if !strings.Contains(string(export), `"speaker":"Ann"`) {
			t.Errorf("the observation's speaker is not Ann: %.600s", export)
		}
	})
	t.Run("ErrEmptyQueryParameters", func(t *testing.T) {
		for _, q := range []string{"/edits?since=", "/memories?until=", "/memories?since=0000-01-01T00:00:00Z", "/memories?type=", "/memories?limit=", "/graph?depth="} {
			var p problemDoc
			if resp := c.do("GET", sp+q, nil, &p); resp.StatusCode != http.StatusBadRequest || len(p.Fields) == 0 {
				t.Errorf("GET %s: %d %+v, want 400 with fields", q, resp.StatusCode, p)
			}
		}
		// A typo or a repeat is refused as an unknown body field is, naming the parameter.
		for q, field := range map[string]string{"/memories?limt=1": "limt", "/memories?type=fact&type=event": "type",
			"/edits?trace=x&trace=y": "trace", "/graph?around=x&deep=2": "deep", "/memories?limit=5&api_key=secret": "api_key"} {
			var p problemDoc
			if resp := c.do("GET", sp+q, nil, &p); resp.StatusCode != http.StatusBadRequest || p.Fields[field] == "" {
				t.Errorf("GET %s: %d %+v, want 400 naming %s", q, resp.StatusCode, p, field)
			}
		}
		if code := c.status("GET", "/v1/spaces?limit=5&cursor=a&page=2", nil); code != http.StatusBadRequest {
			t.Errorf("GET /v1/spaces?page=2: %d, want 400", code)
		}
		var p problemDoc
		if resp := c.do("POST", sp+"/observations?async=yes", []byte(`{"messages":[{"speaker":"A","content":"c","timestamp":"2024-05-01T10:00:00Z"}]}`), &p); resp.StatusCode != http.StatusBadRequest || p.Fields["async"] == "" {
			t.Errorf("async=yes: %d %+v, want 400", resp.StatusCode, p)
		}
	})
}

// TestRecallUnknownSpace: a read stores nothing. Recall and answer on a space that holds
// no memory answer 404 and leave no trace, and so no space, behind.
func TestRecallUnknownSpace(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	var p problemDoc
	if resp := c.do("POST", "/v1/spaces/"+space+"/recall", map[string]any{"query": "who keeps bees?"}, &p); resp.StatusCode != http.StatusNotFound || p.Code != "not_found" {
		t.Fatalf("recall on an unknown space: %d %+v, want 404", resp.StatusCode, p)
	}
	cs := mustConnectMCP(t, srv.URL, "")
	if got := callTool(t, cs, "recall", map[string]any{"space": space, "query": "who keeps bees?"}); !got.isError || got.code() != "not_found" {
		t.Errorf("MCP recall on an unknown space: %+v, want the tool error not_found", got)
	}
	// DELETE answers 404 for a space with nothing in it: no trace, no space node.
	if code := c.status("DELETE", "/v1/spaces/"+space, nil); code != http.StatusNotFound {
		t.Errorf("DELETE after the recalls: %d, want 404 (the recalls stored something)", code)
	}
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
