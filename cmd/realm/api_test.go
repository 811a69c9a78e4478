package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// send makes one request, checked against openapi.yaml, and decodes the response into v.
func send(t *testing.T, method, url string, body any, v any) int {
	t.Helper()
	var buf bytes.Buffer
	if body != nil {
		if err := json.NewEncoder(&buf).Encode(body); err != nil {
			t.Fatal(err)
		}
	}
	req, err := http.NewRequest(method, url, &buf)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := apitest.New(t).Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if v != nil {
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatalf("%s %s: %v", method, url, err)
		}
	}
	return resp.StatusCode
}

// TestMemoryAPI drives the write and read paths through HTTP with the offline agent.
func TestMemoryAPI(t *testing.T) {
	base := startServe(t, testEnv(nil))
	space := cyphertest.NewSpace(t)
	sp := base + "/v1/spaces/" + space
	messages := []map[string]string{
		{"id": "m1", "session_id": "s1", "speaker": "Caroline", "content": "I went to a pottery class yesterday.", "timestamp": "2023-05-08T13:56:00Z"},
		{"id": "m2", "session_id": "s2", "speaker": "Melanie", "content": "I love hiking in the mountains with my kids.", "timestamp": "2023-05-08T13:57:00Z"},
	}

	t.Run("ErrBadInputWritesNothing", func(t *testing.T) {
		bad := []map[string]string{
			{"id": "b1", "speaker": "Ana", "content": "", "timestamp": "2023-05-08T13:56:00Z"},
			{"id": "b2", "speaker": "Ana", "content": "Hello there friend", "timestamp": "yesterday"},
		}
		var p struct {
			Code   string
			Fields map[string]string
		}
		if code := send(t, "POST", sp+"/observations", map[string]any{"messages": bad}, &p); code != http.StatusBadRequest {
			t.Fatalf("status %d", code)
		}
		if p.Code != "invalid" || p.Fields["messages[0].content"] == "" || p.Fields["messages[1].timestamp"] == "" {
			t.Errorf("problem %+v lacks the field errors", p)
		}
		var st struct{ Observations int }
		send(t, "GET", sp+"/stats", nil, &st)
		if st.Observations != 0 {
			t.Errorf("%d observations stored from a refused batch", st.Observations)
		}
	})
	t.Run("ErrBadSpace", func(t *testing.T) {
		if code := send(t, "POST", base+"/v1/spaces/no$pace!/observations", map[string]any{"messages": messages}, nil); code != http.StatusBadRequest {
			t.Fatalf("status %d", code)
		}
	})
	t.Run("Ingest", func(t *testing.T) {
		var res struct {
			Results []struct {
				ID     string
				Status string
				Added  []string
			}
		}
		if code := send(t, "POST", sp+"/observations", map[string]any{"messages": messages}, &res); code != http.StatusOK {
			t.Fatalf("status %d", code)
		}
		if len(res.Results) != 2 || res.Results[0].Status != "integrated" || len(res.Results[0].Added) == 0 {
			t.Fatalf("results %+v", res.Results)
		}
		// The same batch again adds nothing.
		send(t, "POST", sp+"/observations", map[string]any{"messages": messages}, &res)
		for _, r := range res.Results {
			if r.Status != "already_integrated" || len(r.Added) != 0 {
				t.Errorf("repeat: %+v", r)
			}
		}
	})
	t.Run("Recall", func(t *testing.T) {
		var res struct {
			TraceID string `json:"trace_id"`
			Nodes   []struct {
				Node  struct{ Content string }
				Score float64
			}
		}
		if code := send(t, "POST", sp+"/recall", map[string]any{"query": "What class did Caroline take?"}, &res); code != http.StatusOK {
			t.Fatalf("status %d", code)
		}
		if len(res.Nodes) == 0 || res.TraceID == "" {
			t.Fatalf("recall %+v", res)
		}
		if code := send(t, "GET", sp+"/traces/"+res.TraceID, nil, nil); code != http.StatusOK {
			t.Errorf("trace status %d", code)
		}
		if code := send(t, "GET", base+"/v1/spaces/other_space/traces/"+res.TraceID, nil, nil); code != http.StatusNotFound {
			t.Errorf("another space reads the trace: status %d", code)
		}
	})
	t.Run("FeedbackEditsRevert", func(t *testing.T) {
		var rec struct {
			TraceID string `json:"trace_id"`
			Nodes   []struct{ Node struct{ ID string } }
		}
		send(t, "POST", sp+"/recall", map[string]any{"query": "Who loves hiking with kids, and who went to a pottery class?"}, &rec)
		if len(rec.Nodes) < 2 {
			t.Fatalf("recall returned %d nodes", len(rec.Nodes))
		}
		useful := []string{rec.Nodes[0].Node.ID, rec.Nodes[1].Node.ID}
		var fb struct {
			ReconsolidationID string `json:"reconsolidation_id"`
			Edits             []struct{ Action string }
		}
		code := send(t, "POST", sp+"/traces/"+rec.TraceID+"/feedback", map[string]any{"correct": true, "useful_node_ids": useful}, &fb)
		if code != http.StatusOK || fb.ReconsolidationID == "" {
			t.Fatalf("feedback status %d %+v", code, fb)
		}
		var list struct{ Edits []struct{ ID string } }
		send(t, "GET", sp+"/edits?trace="+rec.TraceID, nil, &list)
		if len(list.Edits) != len(fb.Edits) {
			t.Fatalf("%d edits listed, %d applied", len(list.Edits), len(fb.Edits))
		}
		if len(list.Edits) == 0 {
			t.Skip("the auditor proposed no edit on this tiny graph")
		}
		var rev struct{ Reverted []struct{ ID string } }
		if code := send(t, "POST", sp+"/edits/"+list.Edits[0].ID+"/revert", nil, &rev); code != http.StatusOK || len(rev.Reverted) == 0 {
			t.Fatalf("revert status %d, %d reverted", code, len(rev.Reverted))
		}
		send(t, "POST", sp+"/edits/"+list.Edits[0].ID+"/revert", nil, &rev)
		if len(rev.Reverted) != 0 {
			t.Errorf("second revert reverted %d edits", len(rev.Reverted))
		}
		if code := send(t, "POST", sp+"/traces/"+rec.TraceID+"/feedback", map[string]any{"useful_node_ids": []string{"no-such-node"}}, nil); code != http.StatusBadRequest {
			t.Errorf("feedback naming an unknown node: status %d", code)
		}
	})
	t.Run("ErrRecallBounds", func(t *testing.T) {
		var p struct{ Fields map[string]string }
		if code := send(t, "POST", sp+"/recall", map[string]any{"query": "x", "k": 100000}, &p); code != http.StatusBadRequest || p.Fields["k"] == "" {
			t.Fatalf("status %d, fields %v", code, p.Fields)
		}
	})
	t.Run("MemoriesAndStats", func(t *testing.T) {
		var list struct {
			Memories []struct{ ID, Type string }
		}
		if code := send(t, "GET", sp+"/memories?limit=100", nil, &list); code != http.StatusOK || len(list.Memories) == 0 {
			t.Fatalf("status %d, %d memories", code, len(list.Memories))
		}
		id := list.Memories[0].ID
		if code := send(t, "GET", sp+"/memories/"+id, nil, nil); code != http.StatusOK {
			t.Errorf("get status %d", code)
		}
		if code := send(t, "DELETE", sp+"/memories/"+id, nil, nil); code != http.StatusNoContent {
			t.Errorf("delete status %d", code)
		}
		if code := send(t, "GET", sp+"/memories/"+id, nil, nil); code != http.StatusNotFound {
			t.Errorf("deleted memory still served: %d", code)
		}
		var st struct {
			Memories int
			ByType   map[string]int `json:"by_type"`
		}
		if code := send(t, "GET", sp+"/stats", nil, &st); code != http.StatusOK || st.Memories == 0 {
			t.Errorf("stats %d %+v", code, st)
		}
	})
	t.Run("ErrAnswerNeedsLLM", func(t *testing.T) {
		var p struct{ Code, Detail string }
		if code := send(t, "POST", sp+"/answer", map[string]any{"query": "x"}, &p); code != http.StatusNotImplemented || p.Code != "not_supported" {
			t.Fatalf("status %d %+v", code, p)
		}
	})
}
