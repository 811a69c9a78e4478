package api

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/ui"
)

// TestOpenAPIMatchesRoutes: every route of routes.go is an operation of openapi.yaml and
// every operation is a route.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	spec := map[string]bool{}
	for _, op := range apitest.Operations(apitest.Spec(t)) {
		spec[op] = true
	}
	routed := map[string]bool{}
	err := chi.Walk(NewServer(Config{}, Deps{}).(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if !strings.HasPrefix(route, ui.Prefix) { // the explorer's files are no part of the API
			routed[method+" "+route] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for op := range routed {
		if !spec[op] {
			t.Errorf("%s is routed but not in openapi.yaml", op)
		}
	}
	for op := range spec {
		if !routed[op] {
			t.Errorf("%s is in openapi.yaml but not routed", op)
		}
	}
}

// TestSpecServers: the document names the server's default address, with no trailing
// slash (a generated client joins it to paths that begin with one).
func TestSpecServers(t *testing.T) {
	servers := apitest.Spec(t).Servers
	if len(servers) == 0 || servers[0].URL != "http://localhost:8080" {
		t.Fatalf("servers %+v, want http://localhost:8080 first", servers)
	}
	for _, s := range servers {
		if u, err := url.Parse(s.URL); err != nil || u.Host == "" || strings.HasSuffix(s.URL, "/") {
			t.Errorf("server %q: want an absolute URL without a trailing slash (%v)", s.URL, err)
		}
	}
}

// TestTour drives every endpoint with realistic requests, good and bad, over real HTTP
// and a real Neo4j; apitest checks each exchange against openapi.yaml, and the tour must
// reach every operation of it.
func TestTour(t *testing.T) {
	check := apitest.New(t)
	srv := newTestServer(t, check, Config{MaxBodyBytes: 64 << 10})
	space := cyphertest.NewSpace(t)
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + space
	messages := []map[string]string{
		{"id": "m1", "session_id": "s1", "speaker": "Caroline", "content": "I went to a pottery class yesterday.", "timestamp": "2023-05-08T13:56:00Z"},
		{"id": "m2", "session_id": "s2", "speaker": "Melanie", "role": "user", "content": "I love hiking in the mountains with my kids.", "timestamp": "2023-05-08T13:57:00Z"},
	}

	t.Run("Operations", func(t *testing.T) {
		for _, path := range []string{"/healthz", "/readyz", "/openapi.yaml", "/metrics", "/v1/info"} {
			if code := c.status("GET", path, nil); code != http.StatusOK {
				t.Errorf("GET %s: %d", path, code)
			}
		}
	})
	t.Run("Ingest", func(t *testing.T) {
		var res struct{ Results []struct{ Status string } }
		if code := c.do("POST", sp+"/observations", map[string]any{"messages": messages}, &res).StatusCode; code != http.StatusOK {
			t.Fatalf("status %d", code)
		}
		if len(res.Results) != 2 || res.Results[0].Status != "integrated" {
			t.Fatalf("results %+v", res.Results)
		}
		c.do("POST", sp+"/observations", map[string]any{"messages": messages}, &res)
		if res.Results[0].Status != "already_integrated" {
			t.Errorf("repeat: %+v", res.Results)
		}
		// A new message under a stored one's id would be lost: refused, with the batch.
		var before, after struct{ Observations int64 }
		c.do("GET", sp+"/stats", nil, &before)
		reused := []map[string]string{
			{"id": "m3", "speaker": "Caroline", "content": "A new message.", "timestamp": "2023-05-09T10:00:00Z"},
			{"id": "m1", "session_id": "s1", "speaker": "Caroline", "content": "I quit pottery.", "timestamp": "2023-05-09T10:01:00Z"},
		}
		var problem struct{ Code, Detail string }
		if code := c.do("POST", sp+"/observations", map[string]any{"messages": reused}, &problem).StatusCode; code != http.StatusConflict ||
			problem.Code != "conflict" || !strings.Contains(problem.Detail, `messages[1].id "m1"`) {
			t.Errorf("an id reused for another message: %d %+v", code, problem)
		}
		// So would the second of two messages under one id in a batch.
		twice := []map[string]string{
			{"id": "m4", "speaker": "Caroline", "content": "I love skiing.", "timestamp": "2023-05-09T10:00:00Z"},
			{"id": "m4", "speaker": "Caroline", "content": "I hate skiing.", "timestamp": "2023-05-09T10:00:00Z"},
		}
		if code := c.do("POST", sp+"/observations", map[string]any{"messages": twice}, &problem).StatusCode; code != http.StatusBadRequest ||
			problem.Code != "invalid" || !strings.Contains(problem.Detail, `messages[1].id "m4" is also messages[0].id`) {
			t.Errorf("an id given twice in a batch: %d %+v", code, problem)
		}
		c.do("GET", sp+"/stats", nil, &after)
		if after.Observations != before.Observations || before.Observations != 2 {
			t.Errorf("observations %d before the refused batches, %d after, want 2 and 2", before.Observations, after.Observations)
		}
	})
	t.Run("ListSpaces", func(t *testing.T) { // space_test.go tests it with keys
		found := false
		for query := "?limit=1000"; !found && query != ""; {
			var page struct {
				Spaces     []struct{ ID string }
				NextCursor string `json:"next_cursor"`
			}
			if code := c.do("GET", "/v1/spaces"+query, nil, &page).StatusCode; code != http.StatusOK {
				t.Fatalf("GET /v1/spaces%s: %d", query, code)
			}
			for _, s := range page.Spaces {
				found = found || s.ID == space
			}
			query = ""
			if page.NextCursor != "" {
				query = "?limit=1000&cursor=" + page.NextCursor
			}
		}
		if !found {
			t.Errorf("GET /v1/spaces does not list %s", space)
		}
	})
	t.Run("IngestAsync", func(t *testing.T) {
		var job struct {
			JobID     string `json:"job_id"`
			StatusURL string `json:"status_url"`
		}
		later := []map[string]string{{"id": "m3", "speaker": "Caroline", "content": "The pottery teacher is called Ana.", "timestamp": "2023-05-09T10:00:00Z"}}
		resp := c.do("POST", sp+"/observations?async=true", map[string]any{"messages": later}, &job)
		if resp.StatusCode != http.StatusAccepted || job.JobID == "" || resp.Header.Get("Location") != job.StatusURL {
			t.Fatalf("status %d, job %+v, location %q", resp.StatusCode, job, resp.Header.Get("Location"))
		}
		var got struct{ Status string }
		if code := c.do("GET", job.StatusURL, nil, &got).StatusCode; code != http.StatusOK {
			t.Fatalf("job status %d", code)
		}
		if code := c.status("GET", "/v1/jobs/no-such-job", nil); code != http.StatusNotFound {
			t.Errorf("unknown job: %d", code)
		}
	})
	t.Run("ErrIngest", func(t *testing.T) {
		tests := []struct {
			name   string
			body   any
			status int
			field  string
		}{
			{"EmptyBody", []byte(""), 400, ""},
			{"NotJSON", []byte("{"), 400, ""},
			{"UnknownField", map[string]any{"messages": messages, "extra": 1}, 400, ""},
			{"NoMessages", map[string]any{"messages": []any{}}, 400, "messages"},
			{"NoSpeaker", map[string]any{"messages": []map[string]string{{"content": "hi", "timestamp": "2023-05-08T13:56:00Z"}}}, 400, "messages[0].speaker"},
			{"BadTime", map[string]any{"messages": []map[string]string{{"speaker": "A", "content": "hi", "timestamp": "May 8"}}}, 400, "messages[0].timestamp"},
			{"TooLarge", map[string]any{"messages": []map[string]string{{"speaker": "A", "content": strings.Repeat("x", 70<<10), "timestamp": "2023-05-08T13:56:00Z"}}}, 413, ""},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				var p problemDoc
				if code := c.do("POST", sp+"/observations", tt.body, &p).StatusCode; code != tt.status {
					t.Fatalf("status %d, want %d: %+v", code, tt.status, p)
				}
				if tt.field != "" && p.Fields[tt.field] == "" {
					t.Errorf("fields %v lack %s", p.Fields, tt.field)
				}
			})
		}
		if code := c.status("POST", "/v1/spaces/no$pace!/observations", map[string]any{"messages": messages}); code != http.StatusBadRequest {
			t.Errorf("bad space id: %d", code)
		}
	})

	var traceID string
	var nodeIDs []string
	t.Run("Recall", func(t *testing.T) {
		var res struct {
			TraceID string `json:"trace_id"`
			Nodes   []struct{ Node struct{ ID string } }
		}
		if code := c.do("POST", sp+"/recall", map[string]any{"query": "Who loves hiking with kids, and who went to a pottery class?", "k": 5, "strategy": "subgraph_beam"}, &res).StatusCode; code != http.StatusOK {
			t.Fatalf("status %d", code)
		}
		if res.TraceID == "" || len(res.Nodes) < 2 {
			t.Fatalf("recall %+v", res)
		}
		traceID = res.TraceID
		for _, n := range res.Nodes {
			nodeIDs = append(nodeIDs, n.Node.ID)
		}
		if code := c.status("GET", sp+"/traces/"+traceID, nil); code != http.StatusOK {
			t.Errorf("trace: %d", code)
		}
		if code := c.status("GET", sp+"/traces/no-such-trace", nil); code != http.StatusNotFound {
			t.Errorf("unknown trace: %d", code)
		}
		if code := c.status("POST", sp+"/recall", map[string]any{"query": "x", "k": 1000, "max_depth": 9}); code != http.StatusBadRequest {
			t.Errorf("recall out of bounds: %d", code)
		}
		if code := c.status("POST", sp+"/recall", map[string]any{"query": strings.Repeat("q", 5000)}); code != http.StatusBadRequest {
			t.Errorf("recall query too long: %d", code)
		}
		if code := c.status("POST", sp+"/answer", map[string]any{"query": "Who hikes?"}); code != http.StatusNotImplemented {
			t.Errorf("answer: %d", code)
		}
	})
	t.Run("KnowledgeUpdate", func(t *testing.T) { // a trace's validity decisions match the spec
		sp := "/v1/spaces/" + cyphertest.NewSpace(t)
		update := []map[string]string{
			{"id": "u1", "speaker": "Nora", "content": "I live in Lisbon now, in a small flat near the river.", "timestamp": "2023-01-10T10:00:00Z"},
			{"id": "u2", "speaker": "Nora", "content": "Big news: we moved from Lisbon to Berlin last week.", "timestamp": "2023-03-20T10:00:00Z"},
		}
		if code := c.status("POST", sp+"/observations", map[string]any{"messages": update}); code != http.StatusOK {
			t.Fatalf("ingest: %d", code)
		}
		var res struct {
			TraceID string `json:"trace_id"`
		}
		if code := c.do("POST", sp+"/recall", map[string]any{"query": "Where does Nora live now?", "k": 5}, &res).StatusCode; code != http.StatusOK {
			t.Fatalf("recall: %d", code)
		}
		var trace struct {
			Validity []struct{ Action string }
		}
		c.do("GET", sp+"/traces/"+res.TraceID, nil, &trace)
		if len(trace.Validity) == 0 || trace.Validity[0].Action != "demoted" {
			t.Errorf("the Lisbon memory is not demoted for a question about the present: %+v", trace.Validity)
		}
	})
	t.Run("FeedbackEditsRevert", func(t *testing.T) {
		if traceID == "" {
			t.Skip("no trace")
		}
		var fb struct {
			ReconsolidationID string `json:"reconsolidation_id"`
			Edits             []struct{ ID string }
		}
		feedback := map[string]any{"correct": true, "useful_node_ids": nodeIDs[:2]}
		if code := c.do("POST", sp+"/traces/"+traceID+"/feedback", feedback, &fb).StatusCode; code != http.StatusOK || len(fb.Edits) == 0 {
			t.Fatalf("feedback: %d, %d edits", code, len(fb.Edits))
		}
		// Sent again (a retry), it is refused while the first one's edits stand, naming it;
		// reverted, the trace takes feedback again.
		var problem struct{ Code, Detail string }
		if code := c.do("POST", sp+"/traces/"+traceID+"/feedback", feedback, &problem).StatusCode; code != http.StatusConflict ||
			problem.Code != "conflict" || !strings.Contains(problem.Detail, fb.ReconsolidationID) {
			t.Errorf("the same feedback again: %d %+v, want 409 naming %s", code, problem, fb.ReconsolidationID)
		}
		if code := c.status("POST", sp+"/edits/"+fb.ReconsolidationID+"/revert", nil); code != http.StatusOK {
			t.Fatalf("revert: %d", code)
		}
		if code := c.do("POST", sp+"/traces/"+traceID+"/feedback", feedback, &fb).StatusCode; code != http.StatusOK || len(fb.Edits) == 0 {
			t.Errorf("feedback after the revert: %d, %d edits", code, len(fb.Edits))
		}
		for _, empty := range []map[string]any{{}, {"answer": "", "useful_node_ids": []string{}}} {
			if code := c.status("POST", sp+"/traces/"+traceID+"/feedback", empty); code != http.StatusBadRequest {
				t.Errorf("feedback %v, saying nothing: %d", empty, code)
			}
		}
		if code := c.status("POST", sp+"/traces/"+traceID+"/feedback", map[string]any{"useful_node_ids": []string{"a"}, "misleading_node_ids": []string{"a"}}); code != http.StatusBadRequest {
			t.Errorf("contradictory feedback: %d", code)
		}
		if code := c.status("POST", sp+"/traces/no-such-trace/feedback", map[string]any{"correct": false}); code != http.StatusNotFound {
			t.Errorf("feedback on an unknown trace: %d", code)
		}
		var list struct{ Edits []struct{ ID string } }
		if code := c.do("GET", sp+"/edits?limit=10&since=2000-01-01T00:00:00Z", nil, &list).StatusCode; code != http.StatusOK {
			t.Fatalf("edits: %d", code)
		}
		if code := c.status("GET", sp+"/edits?limit=0", nil); code != http.StatusBadRequest {
			t.Errorf("edits limit 0: %d", code)
		}
		editID := "no-such-edit"
		if len(list.Edits) > 0 {
			editID = list.Edits[0].ID
		}
		if code := c.status("POST", sp+"/edits/"+editID+"/revert", nil); code != http.StatusOK && code != http.StatusNotFound {
			t.Errorf("revert: %d", code)
		}
	})
	t.Run("MemoriesGraphStats", func(t *testing.T) {
		var list struct {
			Memories   []struct{ ID string }
			NextCursor string `json:"next_cursor"`
		}
		if code := c.do("GET", sp+"/memories?limit=1", nil, &list).StatusCode; code != http.StatusOK || len(list.Memories) != 1 || list.NextCursor == "" {
			t.Fatalf("status %d, page %+v", code, list)
		}
		if code := c.status("GET", sp+"/memories?type=fact&cursor="+list.NextCursor, nil); code != http.StatusOK {
			t.Errorf("next page: %d", code)
		}
		for _, bad := range []string{"type=planet", "limit=9999", "since=yesterday", "cursor=forged"} {
			if code := c.status("GET", sp+"/memories?"+bad, nil); code != http.StatusBadRequest {
				t.Errorf("memories?%s: %d", bad, code)
			}
		}
		id := list.Memories[0].ID
		if code := c.status("GET", sp+"/memories/"+id, nil); code != http.StatusOK {
			t.Errorf("get: %d", code)
		}
		if code := c.status("GET", sp+"/graph?around="+id+"&depth=2", nil); code != http.StatusOK {
			t.Errorf("graph around: %d", code)
		}
		if code := c.status("GET", sp+"/graph", nil); code != http.StatusOK {
			t.Errorf("graph: %d", code)
		}
		if code := c.status("GET", sp+"/graph?depth=3", nil); code != http.StatusBadRequest {
			t.Errorf("graph depth 3: %d", code)
		}
		if code := c.status("GET", sp+"/graph?around=no-such-memory", nil); code != http.StatusNotFound {
			t.Errorf("graph around an unknown memory: %d", code)
		}
		if code := c.status("GET", sp+"/stats", nil); code != http.StatusOK {
			t.Errorf("stats: %d", code)
		}
		var facts struct{ Memories []struct{ ID string } } // correct_test.go tests corrections thoroughly
		c.do("GET", sp+"/memories?type=event", nil, &facts)
		if len(facts.Memories) == 0 {
			t.Fatal("no event to correct")
		}
		correct := map[string]any{"content": "Caroline went to a painting class.", "valid_from": "2023-05-09T00:00:00Z"}
		if code := c.status("PATCH", sp+"/memories/"+facts.Memories[0].ID, correct); code != http.StatusOK {
			t.Errorf("correct: %d", code)
		}
		if code := c.status("PATCH", sp+"/memories/no-such-memory", correct); code != http.StatusNotFound {
			t.Errorf("correct an unknown memory: %d", code)
		}
		if code := c.status("DELETE", sp+"/memories/"+id, nil); code != http.StatusNoContent {
			t.Errorf("delete: %d", code)
		}
		if code := c.status("DELETE", sp+"/memories/"+id, nil); code != http.StatusNotFound {
			t.Errorf("delete twice: %d", code)
		}
		if code := c.status("GET", sp+"/memories/"+id, nil); code != http.StatusNotFound {
			t.Errorf("deleted memory still served: %d", code)
		}
		// Reading and forgetting a message (observations_test.go and forget_test.go test
		// them thoroughly).
		var messages struct {
			Observations []struct{ ID string }
			NextCursor   string `json:"next_cursor"`
		}
		if code := c.do("GET", sp+"/observations?limit=1", nil, &messages).StatusCode; code != http.StatusOK || len(messages.Observations) != 1 || messages.NextCursor == "" {
			t.Errorf("messages: %d %+v", code, messages)
		}
		if code := c.status("GET", sp+"/observations?session_id=s2&cursor="+messages.NextCursor, nil); code != http.StatusOK {
			t.Errorf("messages, next page: %d", code)
		}
		if code := c.status("GET", sp+"/observations?status=done", nil); code != http.StatusBadRequest {
			t.Errorf("messages of an unknown status: %d", code)
		}
		if code := c.status("GET", sp+"/observations/m2", nil); code != http.StatusOK {
			t.Errorf("read m2: %d", code)
		}
		var forgotten struct {
			MemoriesDeleted int `json:"memories_deleted"`
		}
		if code := c.do("DELETE", sp+"/observations/m2", nil, &forgotten).StatusCode; code != http.StatusOK || forgotten.MemoriesDeleted == 0 {
			t.Errorf("forget m2: %d %+v", code, forgotten)
		}
		if code := c.status("DELETE", sp+"/observations/m2", nil); code != http.StatusNotFound {
			t.Errorf("forget m2 twice: %d", code)
		}
		if code := c.status("GET", sp+"/observations/m2", nil); code != http.StatusNotFound {
			t.Errorf("read m2 forgotten: %d", code)
		}
		// Forgetting messages in bulk (forgetobservations_test.go tests it): a dry run.
		var bulk struct{ Counts struct{ Observations int } }
		if code := c.do("DELETE", sp+"/observations?dry_run=true&before=2100-01-01T00:00:00Z", nil, &bulk).StatusCode; code != http.StatusOK || bulk.Counts.Observations == 0 {
			t.Errorf("forget messages, dry run: %d %+v", code, bulk)
		}
		// Forgetting one person (forgetabout_test.go tests it thoroughly): a dry run.
		var about struct{ Observations []string }
		if code := c.do("POST", sp+"/forget", map[string]any{"about": []string{"m2"}, "dry_run": true}, &about).StatusCode; code != http.StatusOK || about.Observations == nil {
			t.Errorf("forget about, dry run: %d %+v", code, about)
		}
	})
	t.Run("MCP", func(t *testing.T) { // the tools themselves: TestMCP
		resp, body := postMCP(t, srv.URL, "", rawToolsList)
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"name":"recall"`) {
			t.Errorf("tools/list: %d %s", resp.StatusCode, body)
		}
		for _, method := range []string{"GET", "DELETE"} {
			if code := c.status(method, "/mcp", nil); code != http.StatusMethodNotAllowed {
				t.Errorf("%s /mcp: %d, want 405 (stateless)", method, code)
			}
		}
	})
	t.Run("ErrUnknownEndpoint", func(t *testing.T) {
		var p problemDoc
		resp := c.do("GET", "/v1/nowhere", nil, &p)
		if resp.StatusCode != http.StatusNotFound || p.Code != "not_found" || resp.Header.Get("Content-Type") != "application/problem+json" {
			t.Errorf("status %d, problem %+v", resp.StatusCode, p)
		}
		if code := c.status("PUT", sp+"/stats", nil); code != http.StatusMethodNotAllowed {
			t.Errorf("PUT stats: %d, want 405", code)
		}
	})
	t.Run("ExportImport", func(t *testing.T) { // export_test.go tests them thoroughly
		file := export(t, c, space)
		if code, res, p := importInto(t, c, cyphertest.NewSpace(t), file); code != http.StatusCreated || res.Counts["memory"] == 0 {
			t.Errorf("import of the export into a new space: %d %+v %+v", code, res, p)
		}
		if code, _, p := importInto(t, c, space, file); code != http.StatusConflict {
			t.Errorf("import into the full space: %d %+v", code, p)
		}
	})
	t.Run("DeleteSpace", func(t *testing.T) {
		if code := c.status("DELETE", sp, nil); code != http.StatusOK {
			t.Fatalf("delete: %d", code)
		}
		if code := c.status("DELETE", sp, nil); code != http.StatusNotFound {
			t.Errorf("delete twice: %d", code)
		}
	})

	if unseen := check.Unseen(); len(unseen) > 0 {
		t.Errorf("the tour did not reach %v", unseen)
	}
}
