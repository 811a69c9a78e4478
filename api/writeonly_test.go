package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestWriteOnlyLearnsNoContent: a key with the write scope and not read (an ingest-only
// service) is told how its messages went and which memories they added, but nothing the
// space held before: not the memories merged into or superseded, nor the edges, whose
// descriptions quote them; not by the sync ingest, the async job or the remember tool. A
// key that reads the space is told all of it for the same messages.
func TestWriteOnlyLearnsNoContent(t *testing.T) {
	check := apitest.New(t)
	spaces := map[string]string{"sync": cyphertest.NewSpace(t), "async": cyphertest.NewSpace(t), "mcp": cyphertest.NewSpace(t), "control": cyphertest.NewSpace(t)}
	keys, err := ParseKeys("test keys", fmt.Sprintf(`
		owner  sk-owner-0123456789abcdef  read,write  %[1]s,%[2]s,%[3]s,%[4]s
		wonly  sk-wonly-0123456789abcdef  write       %[1]s,%[2]s,%[3]s`, spaces["sync"], spaces["async"], spaces["mcp"], spaces["control"]))
	if err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, check, Config{Keys: keys})
	owner := func(t *testing.T) client { return client{t: t, base: srv.URL, key: "sk-owner-0123456789abcdef"} }
	wonly := func(t *testing.T) client { return client{t: t, base: srv.URL, key: "sk-wonly-0123456789abcdef"} }
	held := []map[string]string{{"id": "h1", "speaker": "user", "content": "I live in Lisbon with my wife Marta.", "timestamp": "2026-01-10T10:00:00Z"}}
	move := func(id string) map[string]any {
		return map[string]any{"messages": []map[string]string{
			{"id": id, "speaker": "user", "content": "We moved from Lisbon to Berlin last month.", "timestamp": "2026-06-10T10:00:00Z"},
		}}
	}
	for _, space := range spaces {
		owner(t).remember("/v1/spaces/"+space, held)
	}
	// quotes reports whether a response quotes what the space held: the move's message
	// names neither the wife nor Marta.
	quotes := func(v any) bool {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return bytes.Contains(b, []byte("wife")) || bytes.Contains(b, []byte("Marta"))
	}
	type ingested struct {
		Results []struct {
			Status                             string
			Added, Merged, Skipped, Superseded []string
			Edges                              []map[string]any
		}
	}

	t.Run("Sync", func(t *testing.T) {
		sp := "/v1/spaces/" + spaces["sync"]
		var got, control ingested
		if code := wonly(t).do("POST", sp+"/observations", move("m1"), &got).StatusCode; code != http.StatusOK {
			t.Fatalf("write-only ingest: %d", code)
		}
		if len(got.Results) != 1 || got.Results[0].Status != "integrated" || len(got.Results[0].Added) == 0 {
			t.Fatalf("write-only ingest: %+v, want the message integrated and what it added", got)
		}
		r := got.Results[0]
		if len(r.Merged)+len(r.Skipped)+len(r.Superseded)+len(r.Edges) > 0 || quotes(got) {
			t.Errorf("write-only ingest: %+v, want nothing of the memories the space held", r)
		}
		// Its correction of a memory it added tells no edge, whose other ends are the space's.
		var corrected struct {
			Memory struct{ ID string }
			Edges  []map[string]any
		}
		for _, id := range r.Added {
			if wonly(t).do("PATCH", sp+"/memories/"+id, map[string]any{"content": "We moved from Lisbon to Hamburg last month."}, &corrected).StatusCode == http.StatusOK {
				break
			}
		}
		if corrected.Memory.ID == "" || len(corrected.Edges) > 0 || quotes(corrected) {
			t.Errorf("write-only correction: %+v, want the new memory without edges", corrected)
		}
		// The same message sent by the owner to a space that holds the same.
		owner(t).do("POST", "/v1/spaces/"+spaces["control"]+"/observations", move("m1"), &control)
		if len(control.Results) != 1 || len(control.Results[0].Superseded) == 0 || len(control.Results[0].Edges) == 0 {
			t.Fatalf("a reading key's ingest: %+v, want what it superseded and its edges", control)
		}
	})

	t.Run("AsyncJob", func(t *testing.T) {
		sp := "/v1/spaces/" + spaces["async"]
		var accepted struct {
			JobID string `json:"job_id"`
		}
		if code := wonly(t).do("POST", sp+"/observations?async=true", move("m1"), &accepted).StatusCode; code != http.StatusAccepted {
			t.Fatalf("write-only async ingest: %d", code)
		}
		owner(t).awaitJob(accepted.JobID, nil)
		var job, full struct {
			Status  string
			Done    int
			Results []struct {
				ID         string
				Added      []string
				Superseded []string
			}
		}
		if code := wonly(t).do("GET", "/v1/jobs/"+accepted.JobID, nil, &job).StatusCode; code != http.StatusOK {
			t.Fatalf("the write-only key follows its job: %d", code)
		}
		if job.Status != "done" || job.Done != 1 || len(job.Results) != 1 || job.Results[0].ID != "m1" || len(job.Results[0].Superseded) != 0 {
			t.Errorf("job as the write-only key sees it: %+v, want its outcome without what it superseded", job)
		}
		// It learns the ids of the memories its message added, to correct or forget them.
		if len(job.Results) == 1 && len(job.Results[0].Added) == 0 {
			t.Errorf("job as the write-only key sees it: %+v, want the ids of the memories its message added", job)
		}
		for _, id := range job.Results[0].Added {
			if code := owner(t).do("GET", sp+"/memories/"+id, nil, nil).StatusCode; code != http.StatusOK {
				t.Errorf("memory %s the job added: %d, want it stored", id, code)
			}
		}
		owner(t).do("GET", "/v1/jobs/"+accepted.JobID, nil, &full)
		if len(full.Results) != 1 || len(full.Results[0].Superseded) == 0 {
			t.Errorf("job as the owner sees it: %+v, want what it superseded", full)
		}
	})

	t.Run("MCP", func(t *testing.T) {
		cs := mustConnectMCP(t, srv.URL, "sk-wonly-0123456789abcdef")
		call := callTool(t, cs, "remember", map[string]any{"space": spaces["mcp"], "messages": move("m1")["messages"]})
		var got ingested
		call.decode(t, &got)
		if call.isError || len(got.Results) != 1 || len(got.Results[0].Added) == 0 {
			t.Fatalf("remember: %+v %s", got, call.text)
		}
		r := got.Results[0]
		if len(r.Merged)+len(r.Skipped)+len(r.Superseded) > 0 || quotes(call.out) || bytes.Contains([]byte(call.text), []byte("Marta")) {
			t.Errorf("remember with a write-only key: %+v, want nothing of the memories the space held", r)
		}
	})
}

// TestWriteOnlyGivesNoFeedback: feedback and revert are about what a recall read, and
// their answers say it (the trace's query, its memories' ids and labels, the edges'
// weights): they need read as well as write. A write-only key is refused them, over HTTP
// and MCP, before anything is audited: it can neither learn another key's question nor
// test a guess at what the space holds (an answer its words make key evidence) and
// revert the test away. The owner's feedback on the same trace is applied.
func TestWriteOnlyGivesNoFeedback(t *testing.T) {
	check := apitest.New(t)
	space := cyphertest.NewSpace(t)
	keys, err := ParseKeys("test keys", fmt.Sprintf(`
		owner  sk-owner-0123456789abcdef  read,write  %[1]s
		wonly  sk-wonly-0123456789abcdef  write       %[1]s`, space))
	if err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, check, Config{Keys: keys})
	owner := client{t: t, base: srv.URL, key: "sk-owner-0123456789abcdef"}
	wonly := client{t: t, base: srv.URL, key: "sk-wonly-0123456789abcdef"}
	sp := "/v1/spaces/" + space
	owner.remember(sp, []map[string]string{
		{"id": "s1", "speaker": "user", "content": "The billing export token is XYZZY-4242.", "timestamp": "2026-01-10T10:00:00Z"},
		{"id": "s2", "speaker": "user", "content": "The billing export runs every night at two.", "timestamp": "2026-01-10T10:01:00Z"},
	})
	rec := owner.recall(sp, map[string]any{"query": "What is the billing export token?", "k": 5})
	if len(rec.Nodes) < 2 {
		t.Fatalf("recall: %d nodes, want 2 or more", len(rec.Nodes))
	}
	ids := []string{rec.Nodes[0].Node.ID, rec.Nodes[1].Node.ID}
	feedback := sp + "/traces/" + rec.TraceID + "/feedback"
	for _, body := range []map[string]any{
		{"correct": true, "useful_node_ids": ids},
		{"answer": "The billing export token is XYZZY-4242."},
	} {
		var problem struct{ Code, Detail string }
		if code := wonly.do("POST", feedback, body, &problem).StatusCode; code != http.StatusForbidden || problem.Code != "forbidden" {
			t.Errorf("write-only feedback %v: %d %+v, want 403 forbidden", body, code, problem)
		}
	}
	cs := mustConnectMCP(t, srv.URL, "sk-wonly-0123456789abcdef")
	call := callTool(t, cs, "feedback", map[string]any{"space": space, "trace_id": rec.TraceID, "answer": "The billing export token is XYZZY-4242."})
	if !call.isError || call.code() != "forbidden" || strings.Contains(call.text, "billing") {
		t.Errorf("write-only feedback tool: %+v, want the tool error forbidden", call)
	}
	var edits struct{ Edits []map[string]any }
	owner.do("GET", sp+"/edits", nil, &edits)
	if len(edits.Edits) != 0 {
		t.Fatalf("the refused feedback logged %d edits", len(edits.Edits))
	}
	var applied struct {
		ReconsolidationID string `json:"reconsolidation_id"`
		Edits             []map[string]any
	}
	if code := owner.do("POST", feedback, map[string]any{"correct": true, "useful_node_ids": ids}, &applied).StatusCode; code != http.StatusOK || len(applied.Edits) == 0 {
		t.Fatalf("the owner's feedback: %d, %d edits", code, len(applied.Edits))
	}
	if code := wonly.status("POST", sp+"/edits/"+applied.ReconsolidationID+"/revert", nil); code != http.StatusForbidden {
		t.Errorf("write-only revert: %d, want 403", code)
	}
	owner.do("GET", sp+"/edits", nil, &edits)
	for _, e := range edits.Edits {
		if e["reverted"] != false {
			t.Errorf("edit %v reverted by the write-only key", e)
		}
	}
}

// TestIngestListsAreLists: every list of an ingestion's result is a JSON list, empty
// when nothing went there, for a key that reads as for one that does not (which gets them
// emptied): a typed client need not tell null from [].
func TestIngestListsAreLists(t *testing.T) {
	check := apitest.New(t)
	space := cyphertest.NewSpace(t)
	srv := newTestServer(t, check, Config{})
	var got struct{ Results []map[string]any }
	batch := map[string]any{"messages": []map[string]string{
		{"id": "n1", "speaker": "user", "content": "ok thanks", "timestamp": "2026-01-10T10:00:00Z"},
	}}
	client{t: t, base: srv.URL}.do("POST", "/v1/spaces/"+space+"/observations", batch, &got)
	if len(got.Results) != 1 {
		t.Fatalf("results: %+v", got.Results)
	}
	for _, field := range []string{"added", "merged", "skipped", "edges", "superseded"} {
		if _, ok := got.Results[0][field].([]any); !ok {
			t.Errorf("%s is %#v, want a list", field, got.Results[0][field])
		}
	}
}
