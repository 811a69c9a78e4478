package api

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/agenttest"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestImportHoldsSpace: while an import's body is still arriving, its space refuses every
// request but the import's own and its erasure with 409 conflict saying until when an
// import holds it: recall, answer, ingest (synchronous and asynchronous), forgetting a
// message or a person, deleting or correcting a memory, feedback, revert, the export and
// every read (nothing reads it half written, nothing it writes is changed or deleted
// under it), the MCP tools too; it stores nothing of what it refused; once the import
// ended, the same requests work and the messages sent again are integrated beside the
// imported ones.
func TestImportHoldsSpace(t *testing.T) {
	check := apitest.New(t)
	fake := agenttest.NewFakeOpenAI(t)
	fake.Handle(citeFirstTwo(t))
	c := newAnswerServer(t, check, Config{}, fake)
	store := cyphertest.MustOpen(t)
	ctx := context.Background()

	src := cyphertest.NewSpace(t)
	if code := c.status("POST", "/v1/spaces/"+src+"/observations", map[string]any{"messages": exportMessages[:3]}); code != http.StatusOK {
		t.Fatalf("ingest: %d", code)
	}
	file := export(t, c, src)
	imported := int64(strings.Count(string(file), `{"kind":"observation"`))

	// The import goes to a second server over the same Neo4j (a replica: the hold is in
	// Neo4j), not checked against the spec: the checker reads a whole body before serving.
	replica := httptest.NewServer(NewServer(Config{Embedder: EmbedderInfo{ID: embedder.ID(), Dim: embedder.Dim()},
		LLM: LLMInfo{Mode: "offline"}}, testDeps(t)))
	t.Cleanup(replica.Close)

	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	body, feed := io.Pipe()
	req, err := http.NewRequest("POST", replica.URL+sp+"/import", body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-ndjson")
	imported1 := make(chan int, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			imported1 <- 0
			return
		}
		resp.Body.Close()
		imported1 <- resp.StatusCode
	}()
	t.Cleanup(func() { feed.CloseWithError(io.ErrUnexpectedEOF) }) // a failed test leaves no import waiting
	half := len(file) / 2
	if _, err := feed.Write(file[:half]); err != nil {
		t.Fatal(err)
	}
	// The import claims the space before reading its body; wait for the claim (bounded).
	for i := 0; realm.ErrorCode(store.CheckNotImporting(ctx, space)) != realm.EConflict; i++ {
		if i > 300 {
			t.Fatal("the import never claimed its space")
		}
		time.Sleep(100 * time.Millisecond)
	}

	late := []map[string]string{{"id": "late1", "speaker": "Melanie", "content": "Pixel learned to open the fridge.", "timestamp": "2023-06-03T10:00:00Z"}}
	question := map[string]any{"query": "Where did Caroline take a pottery class?", "time": "2023-06-03T00:00:00Z"}
	ingest := map[string]any{"messages": late}
	for _, tc := range []struct {
		name, method, path string
		body               any
	}{
		{"Recall", "POST", sp + "/recall", question},
		{"Answer", "POST", sp + "/answer", question},
		{"Ingest", "POST", sp + "/observations", ingest},
		{"IngestAsync", "POST", sp + "/observations?async=true", ingest},
		{"ForgetMessage", "DELETE", sp + "/observations/" + exportMessages[0]["id"], nil},
		{"ForgetPerson", "POST", sp + "/forget", map[string]any{"about": []string{"Caroline"}}},
		{"ForgetMessages", "DELETE", sp + "/observations?speaker=Caroline&dry_run=true", nil},
		{"DeleteMemory", "DELETE", sp + "/memories/m1", nil},
		{"Correct", "PATCH", sp + "/memories/m1", map[string]any{"content": "Caroline took a pottery class in Boston."}},
		{"Feedback", "POST", sp + "/traces/t1/feedback", map[string]any{"correct": true}},
		{"Revert", "POST", sp + "/edits/e1/revert", nil},
		{"Export", "GET", sp + "/export", nil},
		{"ListMessages", "GET", sp + "/observations", nil},
		{"GetMessage", "GET", sp + "/observations/" + exportMessages[0]["id"], nil},
		{"ListMemories", "GET", sp + "/memories", nil},
		{"GetMemory", "GET", sp + "/memories/m1", nil},
		{"Stats", "GET", sp + "/stats", nil},
		{"Graph", "GET", sp + "/graph", nil},
		{"Trace", "GET", sp + "/traces/t1", nil},
		{"Edits", "GET", sp + "/edits", nil},
	} {
		t.Run(tc.name+"Refused", func(t *testing.T) {
			var p problemDoc
			resp := c.do(tc.method, tc.path, tc.body, &p)
			if resp.StatusCode != http.StatusConflict || p.Code != "conflict" || !strings.Contains(p.Detail, "import into space") || !strings.Contains(p.Detail, "holds it until") {
				t.Errorf("during the import: %d %+v, want 409 conflict saying until when an import holds the space", resp.StatusCode, p)
			}
		})
	}
	// A malformed request is told so (400) during the import too: a client learns that
	// its request is wrong whatever the import.
	for _, tc := range []struct {
		name, method, path string
		body               any
		field              string
	}{
		{"Recall", "POST", sp + "/recall", map[string]any{"query": "x", "k": 101}, "k"},
		{"Answer", "POST", sp + "/answer", map[string]any{"query": "x", "k": 101}, "k"},
		{"Ingest", "POST", sp + "/observations", map[string]any{"messages": []map[string]string{{"speaker": "Ana", "content": " ", "timestamp": "2023-06-03T10:00:00Z"}}}, "messages[0].content"},
		{"ForgetPerson", "POST", sp + "/forget", map[string]any{"about": []string{}}, "about"},
		{"Correct", "PATCH", sp + "/memories/m1", map[string]any{"content": " "}, "content"},
		{"Feedback", "POST", sp + "/traces/t1/feedback", map[string]any{"useful_node_ids": []string{strings.Repeat("x", 257)}}, "useful_node_ids[0]"},
		{"ListMessages", "GET", sp + "/observations?limit=0", nil, "limit"},
		{"ListMemories", "GET", sp + "/memories?type=thing", nil, "type"},
		{"Graph", "GET", sp + "/graph?depth=9", nil, "depth"},
		{"Edits", "GET", sp + "/edits?limit=0", nil, "limit"},
		{"GetMessage", "GET", sp + "/observations/" + strings.Repeat("x", 257), nil, "id"},
		{"ForgetMessage", "DELETE", sp + "/observations/" + strings.Repeat("x", 257), nil, "id"},
	} {
		t.Run(tc.name+"MalformedFirst", func(t *testing.T) {
			var p problemDoc
			if code := c.do(tc.method, tc.path, tc.body, &p).StatusCode; code != http.StatusBadRequest || p.Fields[tc.field] == "" {
				t.Errorf("during the import: %d %+v, want 400 naming %s", code, p, tc.field)
			}
		})
	}
	cs := mustConnectMCP(t, c.base, c.key)
	for tool, args := range map[string]map[string]any{
		"forget_about":    {"space": space, "about": []string{"Caroline"}},
		"forget_messages": {"space": space, "before": "2030-01-01T00:00:00Z"},
		"forget":          {"space": space, "observation_id": exportMessages[0]["id"]},
		"recall":          {"space": space, "query": "Where did Caroline take a pottery class?"},
	} {
		if got := callTool(t, cs, tool, args); !got.isError || got.code() != "conflict" || !strings.Contains(got.text, "holds it until") {
			t.Errorf("MCP %s during the import: %+v, want a conflict saying until when an import holds the space", tool, got)
		}
	}
	if _, err := store.Observation(ctx, space, "late1"); realm.ErrorCode(err) != realm.ENotFound {
		t.Errorf("a refused message was stored during the import: %v", err)
	}

	if _, err := feed.Write(file[half:]); err != nil {
		t.Fatal(err)
	}
	feed.Close()
	if code := <-imported1; code != http.StatusCreated {
		t.Fatalf("import: %d", code)
	}
	if st := mustSpaceStats(t, c, sp); st.Observations != imported {
		t.Errorf("after the import the space holds %d observations, the file %d", st.Observations, imported)
	}

	var rec struct{ Nodes []any }
	if code := c.do("POST", sp+"/recall", question, &rec).StatusCode; code != http.StatusOK || len(rec.Nodes) == 0 {
		t.Errorf("recall after the import: %d, %d nodes", code, len(rec.Nodes))
	}
	if code := c.status("POST", sp+"/answer", question); code != http.StatusOK {
		t.Errorf("answer after the import: %d", code)
	}
	var ing struct {
		Results []struct{ ID, Status string }
	}
	if code := c.do("POST", sp+"/observations", map[string]any{"messages": late}, &ing).StatusCode; code != http.StatusOK ||
		len(ing.Results) != 1 || ing.Results[0].Status != "integrated" {
		t.Errorf("the refused message sent again: %d %+v", code, ing.Results)
	}
	if st := mustSpaceStats(t, c, sp); st.Observations != imported+1 {
		t.Errorf("after ingesting again the space holds %d observations, want %d", st.Observations, imported+1)
	}
	if code := c.status("DELETE", sp+"/observations/"+exportMessages[0]["id"], nil); code != http.StatusOK {
		t.Errorf("an imported message forgotten after the import: %d", code)
	}
}

// mustSpaceStats reads a space's stats over HTTP.
func mustSpaceStats(t *testing.T, c client, sp string) struct{ Observations int64 } {
	t.Helper()
	var st struct{ Observations int64 }
	if code := c.do("GET", sp+"/stats", nil, &st).StatusCode; code != http.StatusOK {
		t.Fatalf("stats: %d", code)
	}
	return st
}
