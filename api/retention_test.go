package api

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestTraceRetention: once the sweep has deleted a trace past its retention, reading it
// and feedback on it, by HTTP and MCP, answer 404 not_found saying how long traces are
// kept; its question is nowhere in the space's export (not in the edits made from it,
// not in the learned links they added), the edits are still listed by its id, with their
// query erased, and revert to the bit; a younger trace stays. A copy of the space
// imported from an export without traces loses the question at the same sweep.
func TestTraceRetention(t *testing.T) {
	const retention = 720 * time.Hour
	cyphertest.MustOpen(t) // the schema, or a skip without Neo4j
	cfg := cyphertest.Config()
	cfg.TraceRetention = retention
	ctx := context.Background()
	store, err := cypher.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close(ctx) })
	deps := testDepsOn(t, store)
	check := apitest.New(t)
	srv := httptest.NewServer(check.Handler(NewServer(Config{
		Embedder: EmbedderInfo{ID: embedder.ID(), Dim: embedder.Dim()}, LLM: LLMInfo{Mode: "offline"}}, deps)))
	t.Cleanup(srv.Close)
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space

	messages := []map[string]string{
		{"id": "m1", "speaker": "Melanie", "content": "I love hiking in the mountains with my kids.", "timestamp": "2023-05-08T13:57:00Z"},
		{"id": "m2", "speaker": "Melanie", "content": "Last weekend my kids and I hiked to a lake in the mountains.", "timestamp": "2023-05-08T13:58:00Z"},
		{"id": "m3", "speaker": "Caroline", "content": "I went to a pottery class and made a bowl for my mother.", "timestamp": "2023-05-08T13:59:00Z"},
	}
	c.remember(sp, messages)
	type recalled struct {
		TraceID string `json:"trace_id"`
		Nodes   []struct{ Node struct{ ID string } }
	}
	var old, young recalled
	const asked = "Where does Melanie hike with her kids?"
	if code := c.do("POST", sp+"/recall", map[string]any{"query": asked, "k": 5}, &old).StatusCode; code != http.StatusOK || len(old.Nodes) < 2 {
		t.Fatalf("recall: %d %+v", code, old)
	}
	before, err := store.EdgeWeights(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	var fb struct {
		ReconsolidationID string `json:"reconsolidation_id"`
		Edits             []struct{ ID string }
	}
	feedback := map[string]any{"correct": true, "useful_node_ids": []string{old.Nodes[0].Node.ID, old.Nodes[1].Node.ID}}
	if code := c.do("POST", sp+"/traces/"+old.TraceID+"/feedback", feedback, &fb).StatusCode; code != http.StatusOK || len(fb.Edits) == 0 {
		t.Fatalf("feedback: %d, %d edits", code, len(fb.Edits))
	}
	if edited, err := store.EdgeWeights(ctx, space); err != nil || maps.Equal(before, edited) {
		t.Fatalf("the feedback left the edges as they were (%v): nothing to revert", err)
	}
	var trace struct {
		CreatedAt time.Time `json:"created_at"`
	}
	if code := c.do("GET", sp+"/traces/"+old.TraceID, nil, &trace).StatusCode; code != http.StatusOK || trace.CreatedAt.IsZero() {
		t.Fatalf("trace: %d %+v", code, trace)
	}
	if code := c.do("POST", sp+"/recall", map[string]any{"query": "Who made a bowl?", "k": 5}, &young).StatusCode; code != http.StatusOK {
		t.Fatalf("second recall: %d", code)
	}

	holdsQuestion := func() bool {
		t.Helper()
		resp, body := raw(t, c, "GET", sp+"/export", nil)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("export: %d %s", resp.StatusCode, body)
		}
		return strings.Contains(string(body), asked)
	}
	if !holdsQuestion() {
		t.Fatalf("the export before the sweep does not hold the question %q", asked)
	}
	// A copy of the space from an export without its traces (as one taken after a version
	// that kept the question in the edits and links deleted them): the sweep erases the
	// question from its edits and links too, though no trace of it is past the retention.
	copied := cyphertest.NewSpace(t)
	_, export := raw(t, c, "GET", sp+"/export", nil)
	if code, res, p := importInto(t, c, copied, withoutTraces(t, export)); code != http.StatusCreated || res.Counts["trace"] != 0 {
		t.Fatalf("import of the export without traces: %d %+v %+v", code, res, p)
	}
	copyHoldsQuestion := func() bool {
		t.Helper()
		resp, body := raw(t, c, "GET", "/v1/spaces/"+copied+"/export", nil)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("export of the copy: %d %s", resp.StatusCode, body)
		}
		return strings.Contains(string(body), asked)
	}
	if !copyHoldsQuestion() {
		t.Fatalf("the copy's export before the sweep does not hold the question %q", asked)
	}

	// The sweep as it runs when the first trace has just passed the retention: the second,
	// recorded after it, has not.
	if _, err := store.ExpireTraces(ctx, trace.CreatedAt.Add(retention+time.Nanosecond), deps.Recall.QueryVectors); err != nil {
		t.Fatal(err)
	}
	if holdsQuestion() {
		t.Errorf("the export after the sweep still holds the question %q", asked)
	}
	if copyHoldsQuestion() {
		t.Errorf("the export of the copy without traces after the sweep still holds the question %q", asked)
	}
	for _, req := range []struct {
		method, path string
		body         any
	}{
		{"GET", sp + "/traces/" + old.TraceID, nil},
		{"POST", sp + "/traces/" + old.TraceID + "/feedback", feedback},
		{"POST", sp + "/traces/" + old.TraceID + "/feedback", map[string]any{"correct": false}},
	} {
		var p problemDoc
		// Gone, it cannot be told from a trace that never was: the message says both.
		if code := c.do(req.method, req.path, req.body, &p).StatusCode; code != http.StatusNotFound || p.Code != "not_found" ||
			!strings.Contains(p.Detail, old.TraceID) || !strings.Contains(p.Detail, "(traces are kept for 720h)") {
			t.Errorf("%s %s after the sweep: %d %+v, want 404 not_found naming the trace and how long traces are kept", req.method, req.path, code, p)
		}
	}
	got := callTool(t, mustConnectMCP(t, srv.URL, ""), "feedback", map[string]any{"space": space, "trace_id": old.TraceID, "correct": true})
	if detail, _ := got.out["detail"].(string); !got.isError || got.code() != "not_found" || !strings.Contains(detail, "(traces are kept for 720h)") {
		t.Errorf("MCP feedback after the sweep: %+v, want the error not_found saying how long traces are kept", got)
	}
	// Another space's trace is not found in this one, and its age is not told.
	other := cyphertest.NewSpace(t)
	if code := c.status("POST", "/v1/spaces/"+other+"/observations", map[string]any{"messages": []map[string]string{
		{"id": "x1", "speaker": "Ana", "content": "I made a clay bowl at the studio.", "timestamp": "2024-05-01T10:00:00Z"},
	}}); code != http.StatusOK {
		t.Fatalf("ingest into %s: %d", other, code)
	}
	var theirs recalled
	if code := c.do("POST", "/v1/spaces/"+other+"/recall", map[string]any{"query": "Who made a bowl?"}, &theirs).StatusCode; code != http.StatusOK {
		t.Fatalf("recall in %s: %d", other, code)
	}
	var p problemDoc
	if code := c.do("GET", sp+"/traces/"+theirs.TraceID, nil, &p).StatusCode; code != http.StatusNotFound || strings.Contains(p.Detail, "older than") {
		t.Errorf("another space's trace: %d %+v, want 404 saying nothing of its age", code, p)
	}
	if code := c.status("GET", sp+"/traces/"+young.TraceID, nil); code != http.StatusOK {
		t.Errorf("the younger trace after the sweep: %d", code)
	}

	var list struct {
		Edits []struct {
			ID          string
			TraceID     string `json:"trace_id"`
			Reverted    bool
			Label       string
			Query       *string
			QueryErased bool `json:"query_erased"`
		}
	}
	if code := c.do("GET", sp+"/edits?trace="+old.TraceID, nil, &list).StatusCode; code != http.StatusOK || len(list.Edits) != len(fb.Edits) {
		t.Fatalf("edits of the deleted trace: %d, %d edits, want the %d applied", code, len(list.Edits), len(fb.Edits))
	}
	links := 0
	for _, e := range list.Edits {
		if e.Label != "" {
			links++
		}
		if e.Query != nil {
			t.Errorf("edit %s (label %q) of the deleted trace: query %q, want none", e.ID, e.Label, *e.Query)
		}
		if e.QueryErased != (e.Label != "") {
			t.Errorf("edit %s (label %q) of the deleted trace: query_erased %v, want it on a learned link's add only", e.ID, e.Label, e.QueryErased)
		}
	}
	if links == 0 {
		t.Fatalf("the feedback added no learned link: nothing of its query to erase")
	}
	if code := c.status("POST", sp+"/edits/"+fb.ReconsolidationID+"/revert", nil); code != http.StatusOK {
		t.Fatalf("revert of the deleted trace's reconsolidation: %d", code)
	}
	after, err := store.EdgeWeights(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(before, after) {
		t.Errorf("after the revert the edges are\n%v\nwant as before the feedback\n%v", after, before)
	}
	c.do("GET", sp+"/edits?trace="+old.TraceID, nil, &list)
	for _, e := range list.Edits {
		if !e.Reverted {
			t.Errorf("edit %s not marked reverted", e.ID)
		}
	}
}

// withoutTraces is export with its trace records left out, counted so in its end record.
func withoutTraces(t *testing.T, export []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	for _, line := range strings.SplitAfter(strings.TrimSuffix(string(export), "\n"), "\n") {
		var rec struct {
			Kind   string
			Counts map[string]int64
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("export line %q: %v", line, err)
		}
		switch rec.Kind {
		case "trace":
			continue
		case "end":
			rec.Counts["trace"] = 0
			end, err := json.Marshal(map[string]any{"kind": "end", "counts": rec.Counts})
			if err != nil {
				t.Fatal(err)
			}
			line = string(end) + "\n"
		}
		out.WriteString(line)
	}
	return out.Bytes()
}
