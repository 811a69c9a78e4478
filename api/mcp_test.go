package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/agenttest"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/retrieval"
)

// outputProperties are the top-level properties of each tool's output schema.
var outputProperties = map[string][]string{
	"remember": {"results"},
	"recall":   {"edges", "nodes", "trace_id"},
	"answer": {"answer", "cited_node_ids", "edges", "nodes", "reconsolidation", "reconsolidation_error",
		"timings", "trace_id", "usage"},
	"feedback":        {"confirmed", "edits", "labels", "reconsolidation_id", "rejected", "trace_id", "usage"},
	"forget":          {"forgotten", "memory_ids", "reintegrated"},
	"forget_about":    {"counts", "dry_run", "episodes", "memories", "observations", "traces"},
	"forget_messages": {"counts", "dry_run"},
	"correct":         {"also_corrected", "corrected", "memory_id", "not_corrected"},
	"spaces":          {"more", "spaces"},
}

// toolScopes is the scopes each MCP tool needs: those of its HTTP route.
var toolScopes = map[string][]Scope{
	"remember": {ScopeWrite}, "recall": {ScopeRead}, "feedback": {ScopeRead, ScopeWrite}, "forget": {ScopeWrite}, "correct": {ScopeWrite},
	"forget_about": {ScopeRead, ScopeWrite}, "forget_messages": {ScopeWrite}, // answer, offered with an LLM only: TestMCPAnswer
}

// bearerTransport adds a key to every request.
type bearerTransport struct {
	key  string
	next http.RoundTripper
}

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.key != "" {
		r.Header.Set("Authorization", "Bearer "+b.key)
	}
	return b.next.RoundTrip(r)
}

// connectMCP connects the SDK's own client to base/mcp with key (none when empty).
func connectMCP(t *testing.T, base, key string) (*mcp.ClientSession, error) {
	t.Helper()
	transport := &mcp.StreamableClientTransport{
		Endpoint:   base + "/mcp",
		HTTPClient: &http.Client{Transport: bearerTransport{key: key, next: http.DefaultTransport}},
		MaxRetries: -1,
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "realm-test", Version: "0"}, nil).Connect(context.Background(), transport, nil)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs, nil
}

func mustConnectMCP(t *testing.T, base, key string) *mcp.ClientSession {
	t.Helper()
	cs, err := connectMCP(t, base, key)
	if err != nil {
		t.Fatalf("connecting to %s/mcp: %v", base, err)
	}
	return cs
}

// toolCall is one call's outcome as the tests read it.
type toolCall struct {
	isError bool
	text    string         // the first text content
	out     map[string]any // structured content
}

// decode re-reads the structured content into v.
func (c toolCall) decode(t *testing.T, v any) {
	t.Helper()
	b, err := json.Marshal(c.out)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
}

// code is the error code of a tool error.
func (c toolCall) code() string {
	code, _ := c.out["code"].(string)
	return code
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) toolCall {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var c toolCall
	c.isError = res.IsError
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			c.text = tc.Text
		}
	}
	c.out, _ = res.StructuredContent.(map[string]any)
	return c
}

// mcpRecall is the part of a recall result the tests read.
type mcpRecall struct {
	TraceID string `json:"trace_id"`
	Nodes   []struct {
		Node struct{ ID, Content string }
	}
}

func (r mcpRecall) ids() []string {
	var ids []string
	for _, n := range r.Nodes {
		ids = append(ids, n.Node.ID)
	}
	return ids
}

// toolOutputs is, for each tool, the HTTP response of openapi.yaml whose JSON its
// structuredContent is, as "METHOD path" (remember and recall answer a view of theirs,
// forget {forgotten}).
var toolOutputs = map[string]string{
	"answer": "POST /v1/spaces/{space}/answer", "feedback": "POST /v1/spaces/{space}/traces/{id}/feedback",
	"forget_about": "POST /v1/spaces/{space}/forget", "forget_messages": "DELETE /v1/spaces/{space}/observations",
}

// documentedOutput is the schema openapi.yaml gives the 200 response of toolOutputs[tool].
func documentedOutput(t *testing.T, tool string) *openapi3.Schema {
	t.Helper()
	method, path, _ := strings.Cut(toolOutputs[tool], " ")
	op := apitest.Spec(t).Paths.Find(path).GetOperation(method)
	return op.Responses.Status(http.StatusOK).Value.Content.Get("application/json").Schema.Value
}

// checkDocumented checks a tool's structured content against the schema openapi.yaml
// gives its HTTP route's 200 response, and its text content against the structured one.
func checkDocumented(t *testing.T, tool string, got toolCall) {
	t.Helper()
	if got.isError || got.out == nil {
		t.Fatalf("%s: %+v", tool, got)
	}
	if err := documentedOutput(t, tool).VisitJSON(got.out); err != nil {
		t.Errorf("%s: structured content breaks openapi.yaml: %v", tool, err)
	}
	var text map[string]any
	if err := json.Unmarshal([]byte(got.text), &text); err != nil || !reflect.DeepEqual(text, got.out) {
		t.Errorf("%s: the text content is not the structured content as JSON (%v): %.200s", tool, err, got.text)
	}
}

// checkView checks that a tool's structured content decodes into its view v, field by
// field, and that its text content is the structured one as JSON.
func checkView(t *testing.T, tool string, got toolCall, v any) {
	t.Helper()
	if got.isError || got.out == nil {
		t.Fatalf("%s: %+v", tool, got)
	}
	var text map[string]any
	if err := json.Unmarshal([]byte(got.text), &text); err != nil || !reflect.DeepEqual(text, got.out) {
		t.Errorf("%s: the text content is not the structured content as JSON (%v): %.200s", tool, err, got.text)
	}
	dec := json.NewDecoder(strings.NewReader(got.text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Errorf("%s: structured content as %T: %v", tool, v, err)
	}
}

var catMessages = []any{
	map[string]any{"id": "c1", "speaker": "Ana", "content": "I adopted a grey cat called Pixel in March.", "timestamp": "2023-03-02T09:00:00Z"},
	map[string]any{"id": "c2", "speaker": "Ana", "content": "Pixel likes sleeping on my keyboard."},
}

// TestMCP drives every tool with the SDK's own client over real HTTP and Neo4j:
// remember, recall finds it, feedback reshapes, forget removes it from a later recall;
// answer is not offered without an LLM.
func TestMCP(t *testing.T) {
	check := apitest.New(t)
	srv := newTestServer(t, check, Config{Version: "test"})
	space := cyphertest.NewSpace(t)
	cs := mustConnectMCP(t, srv.URL, "")

	t.Run("ListTools", func(t *testing.T) {
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
			if len(tool.Description) < 40 {
				t.Errorf("%s: description %q is too thin for a model", tool.Name, tool.Description)
			}
			b, _ := json.Marshal(tool.InputSchema)
			var schema struct {
				Required   []string
				Properties map[string]struct{ Description string }
			}
			if err := json.Unmarshal(b, &schema); err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(schema.Required, "space") && tool.Name != "spaces" {
				t.Errorf("%s: space is not required: %s", tool.Name, b)
			}
			for prop, p := range schema.Properties {
				if p.Description == "" {
					t.Errorf("%s.%s has no description", tool.Name, prop)
				}
			}
			// The output schema: an object, either the documented result or a tool error.
			b, _ = json.Marshal(tool.OutputSchema)
			type objectSchema struct {
				Type       string
				Required   []string
				Properties map[string]any
			}
			var either struct {
				Type  string
				AnyOf []objectSchema
			}
			if err := json.Unmarshal(b, &either); err != nil {
				t.Fatal(err)
			}
			if either.Type != "object" || len(either.AnyOf) != 2 {
				t.Fatalf("%s: output schema %s, want an object, any of the result and a tool error", tool.Name, b)
			}
			output, toolErr := either.AnyOf[0], either.AnyOf[1]
			if errProps := slices.Sorted(maps.Keys(toolErr.Properties)); !slices.Equal(errProps, []string{"code", "detail", "fields", "retry_after"}) {
				t.Errorf("%s: the output schema's tool error has %v", tool.Name, errProps)
			}
			props := slices.Sorted(maps.Keys(output.Properties))
			if want := outputProperties[tool.Name]; output.Type != "object" || !slices.Equal(props, want) {
				t.Errorf("%s: output schema of type %q with %v, want an object with %v", tool.Name, output.Type, props, want)
			}
			if _, ok := toolOutputs[tool.Name]; ok {
				doc := documentedOutput(t, tool.Name)
				if documented := slices.Sorted(maps.Keys(doc.Properties)); !slices.Equal(props, documented) {
					t.Errorf("%s: output schema has %v, openapi.yaml %v", tool.Name, props, documented)
				}
				slices.Sort(output.Required)
				if required := slices.Sorted(slices.Values(doc.Required)); !slices.Equal(output.Required, required) {
					t.Errorf("%s: output schema requires %v, openapi.yaml %v", tool.Name, output.Required, required)
				}
			}
		}
		slices.Sort(names)
		if want := []string{"correct", "feedback", "forget", "forget_about", "forget_messages", "recall", "remember", "spaces"}; !slices.Equal(names, want) { // answer needs an LLM
			t.Errorf("tools %v, want %v", names, want)
		}
	})

	var pixel string // the id of a memory about the cat
	var rec mcpRecall
	t.Run("RememberRecall", func(t *testing.T) {
		got := callTool(t, cs, "remember", map[string]any{"space": space, "messages": catMessages})
		var ingest struct{ Results []struct{ ID, Status string } }
		got.decode(t, &ingest)
		if got.isError || len(ingest.Results) != 2 || ingest.Results[0].Status != "integrated" {
			t.Fatalf("remember: %+v %s", ingest, got.text)
		}
		checkView(t, "remember", got, &rememberView{})
		got = callTool(t, cs, "recall", map[string]any{"space": space, "query": "What is Ana's cat called?", "k": 5})
		got.decode(t, &rec)
		if got.isError || rec.TraceID == "" || len(rec.Nodes) == 0 {
			t.Fatalf("recall: %s", got.text)
		}
		var view recallView
		checkView(t, "recall", got, &view)
		if view.TraceID != rec.TraceID || len(view.Nodes) != len(rec.Nodes) || view.Nodes[0].Node.Content == "" {
			t.Errorf("recall's structured content as a recallView: %+v", view)
		}
		for _, n := range rec.Nodes {
			if pixel == "" && strings.Contains(n.Node.Content, "Pixel") {
				pixel = n.Node.ID
			}
		}
		if pixel == "" {
			t.Fatalf("recall found nothing about Pixel: %s", got.text)
		}
	})
	t.Run("RecallFilters", func(t *testing.T) { // as over HTTP (recall_filters_test.go): the same request
		var only struct {
			Nodes []struct {
				Node struct{ Type, Content string }
			}
		}
		got := callTool(t, cs, "recall", map[string]any{"space": space, "query": "What is Ana's cat called?", "k": 5,
			"filters": map[string]any{"types": []string{"entity"}, "said_since": "2023-03-01T00:00:00Z"}})
		got.decode(t, &only)
		if got.isError || len(only.Nodes) == 0 {
			t.Fatalf("recall of entities: %s", got.text)
		}
		for _, n := range only.Nodes {
			if n.Node.Type != string(realm.Entity) {
				t.Errorf("recall of entities returns a %s: %q", n.Node.Type, n.Node.Content)
			}
		}
	})
	t.Run("Feedback", func(t *testing.T) {
		got := callTool(t, cs, "feedback", map[string]any{"space": space, "trace_id": rec.TraceID, "correct": true,
			"answer": "Pixel", "useful_node_ids": []string{pixel}})
		var fb struct {
			TraceID   string `json:"trace_id"`
			Confirmed bool
			Labels    map[string]string
		}
		got.decode(t, &fb)
		if got.isError || fb.TraceID != rec.TraceID || !fb.Confirmed || fb.Labels[pixel] == "" {
			t.Fatalf("feedback: %+v %s", fb, got.text)
		}
		checkDocumented(t, "feedback", got)
		got = callTool(t, cs, "feedback", map[string]any{"space": space, "trace_id": "no-such-trace", "correct": true})
		if !got.isError || got.code() != "not_found" {
			t.Errorf("feedback on an unknown trace: %+v", got)
		}
	})
	t.Run("Forget", func(t *testing.T) {
		got := callTool(t, cs, "forget", map[string]any{"space": space, "memory_id": pixel})
		if got.isError || got.out["forgotten"] != pixel {
			t.Fatalf("forget: %+v", got)
		}
		var again mcpRecall
		callTool(t, cs, "recall", map[string]any{"space": space, "query": "What is Ana's cat called?", "k": 5}).decode(t, &again)
		if slices.Contains(again.ids(), pixel) {
			t.Errorf("a later recall still returns the forgotten memory %s: %v", pixel, again.ids())
		}
		got = callTool(t, cs, "forget", map[string]any{"space": space, "memory_id": pixel})
		if !got.isError || got.code() != "not_found" || !strings.HasPrefix(got.text, "not_found: ") {
			t.Errorf("forgetting twice: %+v", got)
		}
	})
	t.Run("ErrArguments", func(t *testing.T) {
		tests := []struct {
			name, tool string
			args       map[string]any
			code, text string
		}{
			{"SpaceSyntax", "recall", map[string]any{"space": "a/b", "query": "cat"}, "invalid", "space: must be a string matching"},
			{"SpaceEmpty", "remember", map[string]any{"space": "", "messages": catMessages}, "invalid", "space: must be a string matching"},
			{"QueryRequired", "recall", map[string]any{"space": space, "query": ""}, "invalid", "query: required"},
			{"QueryBlank", "recall", map[string]any{"space": space, "query": " \t\u00a0\n"}, "invalid", "query: required: not only white space"},
			{"Time", "recall", map[string]any{"space": space, "query": "cat", "time": "yesterday"}, "invalid", "time: not an RFC 3339"},
			{"K", "recall", map[string]any{"space": space, "query": "cat", "k": 1000}, "invalid", "k: must be an integer from 0 to 100"},
			{"MinScore", "recall", map[string]any{"space": space, "query": "cat", "min_score": 2}, "invalid", "min_score: must be a number from 0 to 1"},
			{"Speaker", "remember", map[string]any{"space": space, "messages": []any{map[string]any{"content": "hi", "speaker": ""}}}, "invalid", "messages[0].speaker"},
			{"SpeakerOrRole", "remember", map[string]any{"space": space, "messages": []any{map[string]any{"content": "hi"}}}, "invalid", "messages[0].speaker: required (or role)"},
			{"TraceRequired", "feedback", map[string]any{"space": space, "correct": true}, "", "trace_id"},
			{"MemoryRequired", "forget", map[string]any{"space": space, "memory_id": ""}, "invalid", "memory_id: required"},
			{"UnknownArgument", "recall", map[string]any{"space": space, "query": "cat", "spaces": "*"}, "", "spaces"},
			{"Strategy", "recall", map[string]any{"space": space, "query": "cat", "strategy": "dfs"}, "", "strategy"},
			{"FilterType", "recall", map[string]any{"space": space, "query": "cat", "filters": map[string]any{"types": []string{"memo"}}}, "", "types"},
			{"FilterEmpty", "recall", map[string]any{"space": space, "query": "cat", "filters": map[string]any{"session_ids": []string{}}}, "", "session_ids"},
			{"FilterSaidSince", "recall", map[string]any{"space": space, "query": "cat", "filters": map[string]any{"said_since": "last week"}}, "invalid", "filters.said_since: not an RFC 3339"},
			{"FilterSaidUntil", "recall", map[string]any{"space": space, "query": "cat", "filters": map[string]any{"said_since": "2023-03-02T00:00:00Z", "said_until": "2023-03-01T00:00:00Z"}}, "invalid", "filters.said_until: must not be before said_since"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				got := callTool(t, cs, tt.tool, tt.args)
				if !got.isError || !strings.Contains(got.text, tt.text) || (tt.code != "" && got.code() != tt.code) {
					t.Errorf("got %+v, want a tool error %q containing %q", got, tt.code, tt.text)
				}
			})
		}
	})
	t.Run("Metrics", func(t *testing.T) {
		resp, err := http.Get(srv.URL + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		for _, want := range []string{
			`realm_http_request_duration_seconds_count{method="POST",route="/mcp",status="200"}`,
			`realm_mcp_tool_calls_total{outcome="ok",tool="recall"}`,
			`realm_mcp_tool_calls_total{outcome="not_found",tool="forget"} 1`,
		} {
			if !strings.Contains(string(b), want) {
				t.Errorf("/metrics lacks %s", want)
			}
		}
	})
	t.Run("ErrDNSRebinding", func(t *testing.T) { // no keys: a loopback request must name a loopback host
		if resp, body := postMCPHost(t, srv.URL, "", "localhost", rawToolsList); resp.StatusCode != http.StatusOK {
			t.Errorf("Host localhost: %d %s", resp.StatusCode, body)
		}
		if resp, body := postMCPHost(t, srv.URL, "", "attacker.example", rawToolsList); resp.StatusCode != http.StatusForbidden {
			t.Errorf("Host attacker.example: %d %s, want 403", resp.StatusCode, body)
		}
	})
	t.Run("Logs", func(t *testing.T) { // a tool call's line names its tool, space, outcome and request
		var buf syncBuffer
		logged := newTestServer(t, check, Config{}, func(d *Deps) { d.Logger = zerolog.New(&buf) })
		callTool(t, mustConnectMCP(t, logged.URL, ""), "recall", map[string]any{"space": space, "query": "cat"})
		var call, access map[string]any
		calls, requests := mcpLogLines(t, &buf)
		if len(calls) > 0 {
			call = calls[len(calls)-1]
		}
		for _, r := range requests {
			if call != nil && r["request_id"] == call["request_id"] {
				access = r
			}
		}
		if call == nil || call["tool"] != "recall" || call["space"] != space || call["outcome"] != "ok" || call["key"] != "local" {
			t.Fatalf("tool call line %v", call)
		}
		if access == nil || call["request_id"] == nil || call["request_id"] != access["request_id"] {
			t.Errorf("tool call line %v and access line %v name different requests", call, access)
		}
		if strings.Contains(buf.String(), "Pixel") || strings.Contains(buf.String(), `"cat"`) {
			t.Error("the logs hold a memory's content or the query")
		}
	})
	t.Run("ErrBatch", func(t *testing.T) { // a batch would pass the rate limit for the price of one request
		batch := []byte(" \n[" + string(rawToolsList) + "," + string(rawToolsList) + "]")
		resp, body := postMCP(t, srv.URL, "", batch)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), `"code":-32600`) || !strings.Contains(string(body), "batch") {
			t.Errorf("batch: %d %s", resp.StatusCode, body)
		}
		// Leading whitespace before one message is read past and the message still served.
		if resp, body := postMCP(t, srv.URL, "", append([]byte(" \r\n\t"), rawToolsList...)); resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"name":"remember"`) {
			t.Errorf("one message after whitespace: %d %s", resp.StatusCode, body)
		}
	})
	t.Run("StatelessHTTP", func(t *testing.T) {
		for _, method := range []string{"GET", "DELETE"} {
			if code := (client{t: t, base: srv.URL}).status(method, "/mcp", nil); code != http.StatusMethodNotAllowed {
				t.Errorf("%s /mcp: %d, want 405 (a stateless server)", method, code)
			}
		}
	})
}

// TestMCPAnswer answers through the MCP tool with the LLM agent on a fake OpenAI.
func TestMCPAnswer(t *testing.T) {
	check := apitest.New(t)
	fake := agenttest.NewFakeOpenAI(t)
	fake.Handle(citeFirstTwo(t))
	c := newAnswerServer(t, check, Config{}, fake)
	space := cyphertest.NewSpace(t)
	ingestHiking(t, c, "/v1/spaces/"+space)
	cs := mustConnectMCP(t, c.base, "")

	got := callTool(t, cs, "answer", map[string]any{"space": space, "query": "Where does Melanie go hiking with her kids?",
		"k": 5, "time": "2023-06-01T10:00:00Z"})
	var res answerDoc
	got.decode(t, &res)
	if got.isError || res.Answer == "" || len(res.CitedNodeIDs) != 2 || res.Reconsolidation == nil || len(res.Reconsolidation.Edits) == 0 {
		t.Fatalf("answer: %+v %s", res, got.text)
	}
	checkDocumented(t, "answer", got)
	if !strings.Contains(fake.Requests()[len(fake.Requests())-1].LastUser(), "Where does Melanie go hiking") {
		t.Error("the LLM was not asked the question")
	}

	t.Run("ReconsolidateNeedsWrite", func(t *testing.T) { // as /answer: reconsolidate: true needs write
		keys, err := ParseKeys("test keys", "r sk-r-0123456789abcdef read "+space+"; w sk-w-0123456789abcdef read,write "+space)
		if err != nil {
			t.Fatal(err)
		}
		base := newAnswerServer(t, check, Config{Keys: keys}, fake).base
		for _, tt := range []struct {
			key           string
			reconsolidate any
			forbidden     bool
		}{
			{"sk-r-0123456789abcdef", true, true}, {"sk-r-0123456789abcdef", nil, false},
			{"sk-r-0123456789abcdef", false, false}, {"sk-w-0123456789abcdef", true, false},
		} {
			args := map[string]any{"space": space, "query": "Where does Melanie hike?", "k": 5}
			if tt.reconsolidate != nil {
				args["reconsolidate"] = tt.reconsolidate
			}
			got := callTool(t, mustConnectMCP(t, base, tt.key), "answer", args)
			if (got.code() == "forbidden") != tt.forbidden || (!tt.forbidden && got.isError) {
				t.Errorf("key %s, reconsolidate %v: %+v", tt.key, tt.reconsolidate, got)
			}
		}
	})
}

// TestMCPTenancy: /mcp needs a key; another tenant's key gets from every tool exactly
// what a space that does not exist gives; a key of the space without a tool's scope is
// forbidden; the rate limit counts MCP requests.
func TestMCPTenancy(t *testing.T) {
	check := apitest.New(t)
	spaceA, spaceB := cyphertest.NewSpace(t), cyphertest.NewSpace(t)
	keys, err := ParseKeys("test keys", fmt.Sprintf(`
		a       sk-a-0123456789abcdef   admin  %[1]s
		a-read  sk-ar-0123456789abcdef  read   %[1]s
		a-write sk-aw-0123456789abcdef  write  %[1]s
		b       sk-b-0123456789abcdef   admin  %[2]s,%[2]s-*`, spaceA, spaceB))
	if err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, check, Config{Keys: keys})
	store := cyphertest.MustOpen(t)
	a := mustConnectMCP(t, srv.URL, "sk-a-0123456789abcdef")
	b := mustConnectMCP(t, srv.URL, "sk-b-0123456789abcdef")

	if got := callTool(t, a, "remember", map[string]any{"space": spaceA, "messages": catMessages}); got.isError {
		t.Fatalf("remember in A: %s", got.text)
	}
	var rec mcpRecall
	callTool(t, a, "recall", map[string]any{"space": spaceA, "query": "Ana's cat"}).decode(t, &rec)
	if rec.TraceID == "" || len(rec.Nodes) == 0 {
		t.Fatal("recall in A found nothing")
	}
	argsIn := func(tool, space string) map[string]any {
		switch tool {
		case "remember":
			return map[string]any{"space": space, "messages": catMessages}
		case "feedback":
			return map[string]any{"space": space, "trace_id": rec.TraceID, "correct": false, "misleading_node_ids": rec.ids()[:1]}
		case "forget":
			return map[string]any{"space": space, "memory_id": rec.Nodes[0].Node.ID}
		case "correct":
			return map[string]any{"space": space, "memory_id": rec.Nodes[0].Node.ID, "content": "Ana's cat is called Pixie."}
		case "forget_about":
			return map[string]any{"space": space, "about": []string{"Ana"}, "dry_run": true}
		case "forget_messages":
			return map[string]any{"space": space, "speaker": "Ana", "dry_run": true}
		default:
			return map[string]any{"space": space, "query": "Ana's cat"}
		}
	}

	t.Run("Spaces", func(t *testing.T) {
		// Key b's call stores nothing in B: a space exists from its first message.
		for _, tt := range []struct {
			cs   *mcp.ClientSession
			want []string
		}{{a, []string{spaceA}}, {b, nil}, {mustConnectMCP(t, srv.URL, "sk-ar-0123456789abcdef"), []string{spaceA}}} {
			var got struct {
				Spaces []struct{ ID string }
				More   bool
			}
			callTool(t, tt.cs, "spaces", map[string]any{}).decode(t, &got)
			var ids []string
			for _, sp := range got.Spaces {
				ids = append(ids, sp.ID)
			}
			if !slices.Equal(ids, tt.want) || got.More {
				t.Errorf("spaces %v (more %v), want %v", ids, got.More, tt.want)
			}
		}
	})
	t.Run("ErrNoKey", func(t *testing.T) {
		for _, key := range []string{"", "sk-unknown-0123456789"} {
			if _, err := connectMCP(t, srv.URL, key); err == nil {
				t.Errorf("key %q: connected", key)
			}
			resp, body := postMCP(t, srv.URL, key, rawToolsList)
			if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(string(body), `"code":"unauthorized"`) {
				t.Errorf("key %q: %d %s", key, resp.StatusCode, body)
			}
		}
	})
	t.Run("OtherTenant", func(t *testing.T) {
		before := tenantData(t, store, spaceA)
		for tool := range toolScopes {
			// Key b on space A answers as key b on a space that does not exist.
			got := callTool(t, b, tool, argsIn(tool, spaceA))
			nowhere := "nowhere_" + spaceA
			want := callTool(t, b, tool, argsIn(tool, nowhere))
			if !got.isError || got.code() != "not_found" || got.text != strings.ReplaceAll(want.text, nowhere, spaceA) {
				t.Errorf("%s, another tenant's key: %+v; on a space that does not exist: %+v", tool, got, want)
			}
		}
		if after := tenantData(t, store, spaceA); after != before {
			t.Errorf("key b's calls changed space A:\n%s\n%s", before, after)
		}
	})
	t.Run("Scopes", func(t *testing.T) {
		// A key of space A without a tool's scope is forbidden.
		for _, k := range []struct {
			secret string
			has    Scope
		}{{"sk-ar-0123456789abcdef", ScopeRead}, {"sk-aw-0123456789abcdef", ScopeWrite}} {
			cs := mustConnectMCP(t, srv.URL, k.secret)
			for tool, scopes := range toolScopes {
				got := callTool(t, cs, tool, argsIn(tool, spaceA))
				if refused := got.code() == "forbidden"; refused != lacks(scopes, k.has) {
					t.Errorf("%s with a key with only %s: %+v, needs %v", tool, k.has, got, scopes)
				}
			}
		}
	})
	t.Run("BehindProxy", func(t *testing.T) { // with keys, a reverse proxy's Host passes
		resp, body := postMCPHost(t, srv.URL, "sk-a-0123456789abcdef", "realm.example.com", rawToolsList)
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"name":"forget"`) {
			t.Errorf("%d %s", resp.StatusCode, body)
		}
	})
	t.Run("ErrRateLimited", func(t *testing.T) {
		limited := newTestServer(t, check, Config{Keys: keys, RateLimit: 0.001, RateBurst: 2})
		for i := range 2 {
			if resp, body := postMCP(t, limited.URL, "sk-b-0123456789abcdef", rawToolsList); resp.StatusCode != http.StatusOK {
				t.Fatalf("request %d: %d %s", i, resp.StatusCode, body)
			}
		}
		resp, body := postMCP(t, limited.URL, "sk-b-0123456789abcdef", rawToolsList)
		if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(body), `"code":"rate_limited"`) || resp.Header.Get("Retry-After") == "" {
			t.Errorf("third request: %d %s", resp.StatusCode, body)
		}
		if _, err := connectMCP(t, limited.URL, "sk-b-0123456789abcdef"); err == nil {
			t.Error("the SDK client connected past the rate limit")
		}
	})
}

// postMCP posts one raw JSON-RPC message to base/mcp as an MCP client would.
func postMCP(t *testing.T, base, key string, body []byte) (*http.Response, []byte) {
	t.Helper()
	return postMCPHost(t, base, key, "", body)
}

// postMCPHost is postMCP with another Host header (none: base's).
func postMCPHost(t *testing.T, base, key, host string, body []byte) (*http.Response, []byte) {
	t.Helper()
	return postMCPWith(t, base, key, body, func(req *http.Request) {
		if host != "" {
			req.Host = host
		}
	})
}

// postMCPWith is postMCP with the request changed by edit before it is sent.
func postMCPWith(t *testing.T, base, key string, body []byte, edit func(*http.Request)) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest("POST", base+"/mcp", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	edit(req)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// tenantData is what a space holds, as one comparable string: its stats (memories by
// type, edges by predicate, the weight histogram, observations, reconsolidation totals),
// its memory ids and its edit log's length.
func tenantData(t *testing.T, store *cypher.Store, space string) string {
	t.Helper()
	ctx := context.Background()
	st, err := store.Stats(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	nodes, _, err := store.ListMemories(ctx, space, cypher.MemoryFilter{}, "", 500)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, n := range nodes {
		ids = append(ids, n.ID)
	}
	slices.Sort(ids)
	edits, _, err := store.ListEdits(ctx, space, realm.EditFilter{Limit: realm.MaxEditLimit}, "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(map[string]any{"stats": st, "memories": ids, "edits": len(edits)})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// rawToolsList is a tools/list request as a client sends it, for raw HTTP.
var rawToolsList = []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`)

// TestMCPChatRoles: a chat remembered as the remember tool suggests, said by "user" and
// "assistant" without sessions: the move supersedes the old home, which recall ranks after
// the new one for the present, its validity ended.
// TestMCPWhatWasSaid: a chat without session ids over three days about cooking; "What
// did we talk about yesterday?" asked on the third day returns what was said on the
// second, not the turns most like the question.
func TestMCPWhatWasSaid(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{Version: "test"})
	space := cyphertest.NewSpace(t)
	cs := mustConnectMCP(t, srv.URL, "")
	chat := []map[string]any{
		{"id": "d1a", "speaker": "user", "content": "Let's talk about dinner: I want to cook a risotto with mushrooms.", "timestamp": "2026-03-01T18:00:00Z"},
		{"id": "d1b", "speaker": "user", "content": "We talked about the risotto, and I still need arborio rice.", "timestamp": "2026-03-01T18:05:00Z"},
		{"id": "d2a", "speaker": "user", "content": "My sister Ana bakes sourdough bread every Sunday.", "timestamp": "2026-03-02T09:00:00Z"},
		{"id": "d2b", "speaker": "user", "content": "Ana gave me a jar of her starter for my own loaves.", "timestamp": "2026-03-02T09:10:00Z"},
		{"id": "d3a", "speaker": "user", "content": "Talk to me about wine to go with fish.", "timestamp": "2026-03-03T20:00:00Z"},
	}
	if got := callTool(t, cs, "remember", map[string]any{"space": space, "messages": chat}); got.isError {
		t.Fatal(got.text)
	}
	var said []string
	for _, n := range recalledNodes(t, cs, map[string]any{"space": space, "query": "What did we talk about yesterday?", "time": "2026-03-03T21:00:00Z", "k": 3}) {
		if n.Type == realm.Event || n.Type == realm.Fact {
			said = append(said, n.Content)
			if !slices.ContainsFunc(n.Sources, func(s string) bool { return strings.HasPrefix(s, "d2") }) {
				t.Errorf("recalled %q (from %v), said on another day than yesterday", n.Content, n.Sources)
			}
		}
	}
	if len(said) < 2 {
		t.Errorf("recalled %v, want yesterday's two turns", said)
	}
	// The conversations of other days are not what was said yesterday either.
	for _, n := range recalledNodes(t, cs, map[string]any{"space": space, "query": "What did we talk about yesterday?", "time": "2026-03-03T21:00:00Z", "k": 10}) {
		if n.Type == realm.Episode && !strings.Contains(n.Content, "2 March 2026") {
			t.Errorf("recalled the episode %q", n.Content)
		}
	}
	// Nothing said then: nothing recalled, rather than what is most like the words.
	if nodes := recalledNodes(t, cs, map[string]any{"space": space, "query": "What did we talk about yesterday?", "time": "2026-04-20T12:00:00Z"}); len(nodes) != 0 {
		t.Errorf("recalled %d memories for a day when nothing was said, first %q", len(nodes), nodes[0].Content)
	}
}

// TestMCPWhatWasSaidInTimeZone: in a memory whose days are those of UTC−8, an evening
// chat that crosses UTC's midnight is one conversation, and "yesterday" is the asker's.
func TestMCPWhatWasSaidInTimeZone(t *testing.T) {
	zone := time.FixedZone("UTC-8", -8*3600)
	srv := newTestServer(t, apitest.New(t), Config{Version: "test"}, func(d *Deps) {
		logger := zerolog.New(io.Discard)
		d.Ingest = construction.New(d.Store, offline.New(offline.Options{}), embedder, construction.Options{Zone: zone}, logger)
		t.Cleanup(d.Ingest.Wait)
		d.Recall = retrieval.New(d.Store, embedder, offline.New(offline.Options{}), retrieval.Options{Zone: zone}, logger)
	})
	space := cyphertest.NewSpace(t)
	cs := mustConnectMCP(t, srv.URL, "")
	chat := []map[string]any{ // UTC times, as clients send them; local 1 March 09:00, 2 March 15:50 and 16:10
		{"id": "d1a", "speaker": "user", "content": "Let's talk about dinner: I want to cook a risotto with mushrooms.", "timestamp": "2026-03-01T17:00:00Z"},
		{"id": "d2a", "speaker": "user", "content": "My sister Ana bakes sourdough bread every Sunday.", "timestamp": "2026-03-02T23:50:00Z"},
		{"id": "d2b", "speaker": "user", "content": "Ana gave me a jar of her starter for my own loaves.", "timestamp": "2026-03-03T00:10:00Z"},
	}
	if got := callTool(t, cs, "remember", map[string]any{"space": space, "messages": chat}); got.isError {
		t.Fatal(got.text)
	}
	var names []string
	for _, e := range (client{t: t, base: srv.URL}).memories("/v1/spaces/"+space, "type=episode") {
		names = append(names, e.Name)
	}
	slices.Sort(names)
	if want := []string{"2026-03-01", "2026-03-02"}; !slices.Equal(names, want) {
		t.Errorf("episodes %v, want %v", names, want)
	}
	said := map[string]bool{}
	for _, n := range recalledNodes(t, cs, map[string]any{"space": space, "query": "What did we talk about yesterday?", "time": "2026-03-03T17:00:00Z", "k": 3}) {
		if n.Type == realm.Event || n.Type == realm.Fact {
			for _, s := range n.Sources {
				said[s] = true
			}
		}
	}
	if !said["d2a"] || !said["d2b"] || said["d1a"] {
		t.Errorf("recalled the turns %v, want yesterday's (2 March, UTC−8): d2a and d2b", slices.Sorted(maps.Keys(said)))
	}
}

// TestMCPWhatWasSaidOverDays: a conversation that goes on over days (one session_id) was
// said on each of them: "yesterday" is the messages of the day before, not the session's
// first day (a memory of two turns either side of the gap was said on both days).
func TestMCPWhatWasSaidOverDays(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{Version: "test"})
	space := cyphertest.NewSpace(t)
	cs := mustConnectMCP(t, srv.URL, "")
	chat := []map[string]any{
		{"id": "t1", "session_id": "ticket-7", "speaker": "user", "content": "My espresso machine leaks water from the bottom.", "timestamp": "2026-03-22T09:00:00Z"},
		{"id": "t2", "session_id": "ticket-7", "speaker": "assistant", "content": "Please send a photo of the leaking gasket.", "timestamp": "2026-03-22T09:05:00Z"},
		{"id": "t3", "session_id": "ticket-7", "speaker": "user", "content": "Here is the photo; the gasket looks cracked near the pump.", "timestamp": "2026-03-24T14:00:00Z"},
		{"id": "t4", "session_id": "ticket-7", "speaker": "assistant", "content": "We will ship a replacement gasket and a pump seal by courier.", "timestamp": "2026-03-24T14:10:00Z"},
	}
	if got := callTool(t, cs, "remember", map[string]any{"space": space, "messages": chat}); got.isError {
		t.Fatal(got.text)
	}
	for _, tt := range []struct {
		query string
		then  []string // the turns said that day
	}{
		{"What did we talk about yesterday?", []string{"t3", "t4"}},
		{"What did we talk about on 22 March?", []string{"t1", "t2"}},
	} {
		said := map[string]bool{}
		for _, n := range recalledNodes(t, cs, map[string]any{"space": space, "query": tt.query, "time": "2026-03-25T10:00:00Z"}) {
			if n.Type != realm.Event && n.Type != realm.Fact {
				continue
			}
			if !slices.ContainsFunc(n.Sources, func(s string) bool { return slices.Contains(tt.then, s) }) {
				t.Errorf("%q: recalled %q (turns %v), said on another day", tt.query, n.Content, n.Sources)
			}
			for _, s := range n.Sources {
				said[s] = true
			}
		}
		if !said[tt.then[0]] || !said[tt.then[1]] {
			t.Errorf("%q: recalled the turns %v, want %v", tt.query, slices.Sorted(maps.Keys(said)), tt.then)
		}
	}
}

// TestMCPRecallView: the recall tool answers the memories of the HTTP recall, in its
// order and with its scores and validity, in fewer bytes.
func TestMCPRecallView(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{Version: "test"})
	space := cyphertest.NewSpace(t)
	c := client{t: t, base: srv.URL}
	chat := []map[string]any{
		{"role": "user", "content": "I live in Lisbon with my partner Tomás and our dog Biscuit.", "timestamp": "2026-01-10T10:00:00Z"},
		{"role": "assistant", "content": "Lisbon is lovely! How old is Biscuit?", "timestamp": "2026-01-10T10:00:05Z"},
		{"role": "user", "content": "He is three, a very lazy beagle.", "timestamp": "2026-01-10T10:01:00Z"},
		{"role": "user", "content": "We moved from Lisbon to Berlin last month.", "timestamp": "2026-06-10T10:00:00Z"},
	}
	if resp := c.do("POST", "/v1/spaces/"+space+"/observations", map[string]any{"messages": chat}, nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("ingest: %d", resp.StatusCode)
	}
	query := map[string]any{"query": "Where does the user live?", "time": "2026-06-11T10:00:00Z"}
	var full realm.RecallResult
	resp := c.do("POST", "/v1/spaces/"+space+"/recall", query, &full)
	httpBytes, _ := json.Marshal(full)
	query["space"] = space
	got := callTool(t, mustConnectMCP(t, srv.URL, ""), "recall", query)
	var view recallView
	checkView(t, "recall", got, &view)
	if resp.StatusCode != http.StatusOK || len(view.Nodes) != len(full.Nodes) || len(view.Edges) != len(full.Edges) {
		t.Fatalf("recall over HTTP (%d): %d nodes, %d edges; the tool %d, %d", resp.StatusCode, len(full.Nodes), len(full.Edges), len(view.Nodes), len(view.Edges))
	}
	superseded := 0
	for i, n := range view.Nodes {
		f := full.Nodes[i]
		if n.Node.ID != f.Node.ID || n.Node.Content != f.Node.Content || n.Score != f.Score || (n.Node.ValidUntil == nil) != (f.Node.ValidUntil == nil) {
			t.Errorf("node %d: %+v, over HTTP %+v", i, n, f)
		}
		if n.Node.ValidUntil != nil {
			superseded++
		}
	}
	if superseded == 0 {
		t.Errorf("no superseded memory among %+v", view.Nodes)
	}
	t.Logf("%d memories: the tool's %d bytes, HTTP's %d", len(view.Nodes), len(got.text), len(httpBytes))
	if len(got.text) >= len(httpBytes)*2/3 {
		t.Errorf("the tool's %d bytes, HTTP's %d: not a third fewer", len(got.text), len(httpBytes))
	}
}

// TestMCPStatesChangeApart: a user's move ends where they lived, not the job they told
// of in the same breath; a history sent after its newer part does not undo the move; and
// the name they gave is a memory of its own.
func TestMCPStatesChangeApart(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{Version: "test"})
	space := cyphertest.NewSpace(t)
	cs := mustConnectMCP(t, srv.URL, "")
	for _, m := range []map[string]any{ // the newest first, as a backfill may send them
		{"speaker": "user", "content": "I moved to Porto last month.", "timestamp": "2026-12-01T10:00:00Z"},
		{"speaker": "user", "content": "I live in Lisbon and I work as a nurse at Santa Maria hospital.", "timestamp": "2026-11-01T10:00:00Z"},
		{"speaker": "user", "content": "My name is Marta.", "timestamp": "2026-10-01T10:00:00Z"},
	} {
		if got := callTool(t, cs, "remember", map[string]any{"space": space, "messages": []any{m}}); got.isError {
			t.Fatal(got.text)
		}
	}
	recall := func(q string) []realm.Node {
		return recalledNodes(t, cs, map[string]any{"space": space, "query": q, "k": 3, "time": "2026-12-02T10:00:00Z"})
	}
	job := recall("Where does the user work?")
	if !slices.ContainsFunc(job, func(n realm.Node) bool { return strings.Contains(n.Content, "nurse") && n.ValidUntil == nil }) {
		t.Errorf("work: %+v, want the job, still valid", job)
	}
	if got := recall("Where does the user live now?"); len(got) == 0 || !strings.Contains(got[0].Content, "Porto") || got[0].ValidUntil != nil {
		t.Errorf("home: %+v, want the move first, still valid", got)
	}
	if got := recall("What is the user's name?"); len(got) == 0 || !strings.Contains(got[0].Content, "Marta") {
		t.Errorf("name: %+v, want Marta first", got)
	}
}

// TestMCPMoveKeepsTheRest: after a move, what the message that told of the old home says
// besides the home still comes first (the partner, in the clause of the home; the dog, in
// a clause of its own); where the user lives now is the move.
func TestMCPMoveKeepsTheRest(t *testing.T) {
	cs, space := rememberedChat(t, []map[string]any{
		{"speaker": "user", "content": "I live in Lisbon with my partner Tomás and our dog Biscuit.", "timestamp": "2026-03-01T10:00:00Z"},
		{"speaker": "user", "content": "I finally finished the quarterly report for work.", "timestamp": "2026-04-01T10:00:00Z"},
		{"speaker": "user", "content": "We moved to Berlin last month.", "timestamp": "2026-06-10T10:00:00Z"},
	})
	first := func(q string) realm.Node {
		nodes := recalledNodes(t, cs, map[string]any{"space": space, "query": q, "k": 3, "time": "2026-06-11T10:00:00Z"})
		if len(nodes) == 0 {
			t.Fatalf("%s: nothing recalled", q)
		}
		return nodes[0]
	}
	for q, name := range map[string]string{"What is the name of the user's dog?": "Biscuit", "Who is the user's partner?": "Tomás"} {
		if got := first(q); !strings.Contains(got.Content, name) {
			t.Errorf("%s: first %q, want a memory naming %s", q, got.Content, name)
		}
	}
	if got := first("Where does the user live now?"); !strings.Contains(got.Content, "Berlin") {
		t.Errorf("home: first %q, want the move", got.Content)
	}
}

// TestMCPRescheduled: a flight moved to another day is recalled at its new day first.
func TestMCPRescheduled(t *testing.T) {
	cs, space := rememberedChat(t, []map[string]any{
		{"speaker": "user", "content": "My flight to Madrid is on December 12th.", "timestamp": "2026-12-01T10:00:00Z"},
		{"speaker": "user", "content": "I bought a new winter coat for the trip.", "timestamp": "2026-12-02T10:00:00Z"},
		{"speaker": "user", "content": "My flight to Madrid got moved to December 14th.", "timestamp": "2026-12-03T10:00:00Z"},
	})
	nodes := recalledNodes(t, cs, map[string]any{"space": space, "query": "When is the user's flight to Madrid?", "k": 3, "time": "2026-12-04T10:00:00Z"})
	if len(nodes) == 0 || !strings.Contains(nodes[0].Content, "14th") {
		t.Fatalf("recall %+v, want the new day first", nodes)
	}
}

// rememberedChat serves the API, remembers chat in a new space over MCP and returns the
// client's session and the space.
func rememberedChat(t *testing.T, chat []map[string]any) (*mcp.ClientSession, string) {
	t.Helper()
	srv := newTestServer(t, apitest.New(t), Config{Version: "test"})
	space := cyphertest.NewSpace(t)
	cs := mustConnectMCP(t, srv.URL, "")
	if got := callTool(t, cs, "remember", map[string]any{"space": space, "messages": chat}); got.isError {
		t.Fatal(got.text)
	}
	return cs, space
}

// recalledNodes are the memories the recall tool answers for args, in order.
func recalledNodes(t *testing.T, cs *mcp.ClientSession, args map[string]any) []realm.Node {
	t.Helper()
	var rec struct{ Nodes []struct{ Node realm.Node } }
	callTool(t, cs, "recall", args).decode(t, &rec)
	out := make([]realm.Node, len(rec.Nodes))
	for i, n := range rec.Nodes {
		out[i] = n.Node
	}
	return out
}

// TestMCPChatRoles: remember takes who spoke as a speaker or, as POST …/observations
// does, a chat role; a move said by the user is recalled first.
func TestMCPChatRoles(t *testing.T) {
	cs, space := rememberedChat(t, []map[string]any{
		{"speaker": "user", "content": "I live in Lisbon with my wife.", "timestamp": "2026-01-10T10:00:00Z"},
		{"role": "assistant", "content": "Lisbon is lovely! How can I help you today?", "timestamp": "2026-01-10T10:00:05Z"},
		{"role": "user", "content": "We moved from Lisbon to Berlin last month.", "timestamp": "2026-06-10T10:00:00Z"},
	})
	nodes := recalledNodes(t, cs, map[string]any{"space": space, "query": "Where does the user live now?", "k": 3})
	if len(nodes) == 0 || !strings.Contains(nodes[0].Content, "Berlin") {
		t.Fatalf("recall %+v, want the move first", nodes)
	}
	ended := 0
	for _, n := range nodes {
		if strings.Contains(n.Content, "Lisbon") && !strings.Contains(n.Content, "Berlin") {
			if n.ValidUntil == nil {
				t.Errorf("%q is still valid", n.Content)
			}
			ended++
		}
	}
	if ended == 0 {
		t.Errorf("recall %+v holds no older home", nodes)
	}
}

// TestMCPRememberSaysSuperseded: remember names the memories a message superseded, so a
// model learns that a fact it may hold changed; a message that changes nothing names none.
func TestMCPRememberSaysSuperseded(t *testing.T) {
	cs, space := rememberedChat(t, []map[string]any{
		{"speaker": "user", "content": "I live in Lisbon with my wife.", "timestamp": "2026-01-10T10:00:00Z"},
	})
	var res struct {
		Results []struct{ Added, Superseded []string }
	}
	callTool(t, cs, "remember", map[string]any{"space": space, "messages": []map[string]any{
		{"speaker": "user", "content": "I bought a new bike for my commute.", "timestamp": "2026-05-01T10:00:00Z"},
		{"speaker": "user", "content": "We moved from Lisbon to Berlin last month.", "timestamp": "2026-06-10T10:00:00Z"},
	}}).decode(t, &res)
	if len(res.Results) != 2 || len(res.Results[0].Superseded) != 0 || len(res.Results[1].Superseded) == 0 {
		t.Fatalf("results %+v: want the move alone to name what it superseded", res.Results)
	}
	ended := map[string]realm.Node{}
	for _, n := range recalledNodes(t, cs, map[string]any{"space": space, "query": "Did the user live in Lisbon before?", "k": 10}) {
		ended[n.ID] = n
	}
	for _, id := range res.Results[1].Superseded {
		n, ok := ended[id]
		if !ok || n.ValidUntil == nil || !strings.Contains(n.Content, "Lisbon") {
			t.Errorf("superseded %s: %+v (recalled %v); want the Lisbon memory, ended", id, n, ok)
		}
	}
}

// TestMCPCorrectValidFrom: correct takes, as PATCH …/memories/{id} does, when the change
// happened: the old memory holds until then, the new one is learned then; a valid_from
// that is no time is invalid, and one before the memory began a conflict that ends nothing.
func TestMCPCorrectValidFrom(t *testing.T) {
	c, sp, old := correctionSpace(t)
	cs := mustConnectMCP(t, c.base, "")
	args := func(validFrom string) map[string]any {
		return map[string]any{"space": old.Space, "memory_id": old.ID, "content": correctedContent, "valid_from": validFrom}
	}

	if got := callTool(t, cs, "correct", args("yesterday")); !got.isError || got.code() != realm.EInvalid || !strings.Contains(got.text, "valid_from") {
		t.Errorf("valid_from yesterday: %+v, want invalid naming valid_from", got)
	}
	if got := callTool(t, cs, "correct", args("2023-05-01T00:00:00Z")); !got.isError || got.code() != realm.EConflict || !strings.Contains(got.text, "valid_from") {
		t.Errorf("valid_from before the memory began: %+v, want conflict naming valid_from", got)
	}
	var still memoryDoc
	c.do("GET", sp+"/memories/"+old.ID, nil, &still)
	if still.Memory.ValidUntil != nil {
		t.Fatalf("a refused correction ended the memory: valid_until %v", still.Memory.ValidUntil)
	}

	var res correctResult
	got := callTool(t, cs, "correct", args("2023-06-01T00:00:00Z"))
	if got.isError {
		t.Fatal(got.text)
	}
	got.decode(t, &res)
	want := time.Date(2023, 6, 1, 0, 0, 0, 0, time.UTC)
	var corrected, ended memoryDoc
	c.do("GET", sp+"/memories/"+res.MemoryID, nil, &corrected)
	c.do("GET", sp+"/memories/"+old.ID, nil, &ended)
	if l := corrected.Memory.LearnedAt; l == nil || !l.Equal(want) {
		t.Errorf("the correction dated 2023-06-01 is learned at %v", l)
	}
	if v := ended.Memory.ValidUntil; v == nil || !v.Equal(want) {
		t.Errorf("the corrected memory holds until %v, want %v", v, want)
	}
}

// TestMCPRememberRetried: a message with an id and no timestamp, sent again a second later
// (a retry after a lost answer), is the same message, not another one under its id; the
// same id saying something else is still a conflict.
func TestMCPRememberRetried(t *testing.T) {
	msg := []map[string]any{{"id": "m1", "speaker": "user", "content": "I adopted a cat named Miso."}}
	cs, space := rememberedChat(t, msg)
	time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(1100 * time.Millisecond))) // "now" is another second
	if got := callTool(t, cs, "remember", map[string]any{"space": space, "messages": msg}); got.isError {
		t.Fatalf("the retry: %s", got.text)
	}
	other := []map[string]any{{"id": "m1", "speaker": "user", "content": "I adopted a dog named Rex."}}
	if got := callTool(t, cs, "remember", map[string]any{"space": space, "messages": other}); got.code() != "conflict" {
		t.Errorf("another message under m1: %+v, want the tool error conflict", got)
	}
}
