package main

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/realm-memory/realm/agent/agenttest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// fakeAnswerer answers the answer decision by citing the first two memories of the
// prompt; every other decision (extraction, integration) gets output that is not JSON,
// so ingestion falls back to the offline agent.
func fakeAnswerer(t *testing.T) *agenttest.FakeOpenAI {
	fake := agenttest.NewFakeOpenAI(t)
	refs := regexp.MustCompile(`(?m)^- (M\d+) \[`)
	fake.Handle(func(req agenttest.ChatRequest) agenttest.Response {
		if req.SchemaName() != "realm_answer" {
			return agenttest.Content("not JSON", 1, 1)
		}
		var cited []string
		for _, m := range refs.FindAllStringSubmatch(req.LastUser(), 2) {
			cited = append(cited, m[1])
		}
		return agenttest.JSON(t, map[string]any{"answer": "Melanie hikes in the mountains.", "cited": cited}, 50, 5)
	})
	return fake
}

// TestServeAnswer: with REALM_LLM=openai serve answers /answer with the LLM and
// reconsolidates after it; REALM_AUTO_RECONSOLIDATE=false turns that off.
func TestServeAnswer(t *testing.T) {
	for _, tt := range []struct {
		name, auto string
		wantEdits  bool
	}{
		{"AutoReconsolidate", "", true},
		{"AutoReconsolidateOff", "false", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fake := fakeAnswerer(t)
			base := startServe(t, testEnv(map[string]string{"REALM_LLM": "openai", "OPENAI_BASE_URL": fake.BaseURL(),
				"REALM_AUTO_RECONSOLIDATE": tt.auto}))
			sp := base + "/v1/spaces/" + cyphertest.NewSpace(t)
			messages := []map[string]string{
				{"id": "m1", "speaker": "Melanie", "content": "I love hiking in the mountains with my kids.", "timestamp": "2023-05-08T13:57:00Z"},
				{"id": "m2", "speaker": "Melanie", "content": "Last weekend my kids and I hiked to a lake in the mountains.", "timestamp": "2023-05-08T13:58:00Z"},
			}
			if code := send(t, "POST", sp+"/observations", map[string]any{"messages": messages}, nil); code != http.StatusOK {
				t.Fatalf("ingest: %d", code)
			}
			var res struct {
				Answer          string
				CitedNodeIDs    []string `json:"cited_node_ids"`
				TraceID         string   `json:"trace_id"`
				Reconsolidation *struct{ Edits []struct{ ID string } }
			}
			if code := send(t, "POST", sp+"/answer", map[string]any{"query": "Where does Melanie hike?"}, &res); code != http.StatusOK {
				t.Fatalf("answer: %d", code)
			}
			if res.Answer == "" || len(res.CitedNodeIDs) == 0 {
				t.Fatalf("answer %+v", res)
			}
			var list struct{ Edits []struct{ ID string } }
			send(t, "GET", sp+"/edits?trace="+res.TraceID, nil, &list)
			if got := res.Reconsolidation != nil && len(list.Edits) > 0; got != tt.wantEdits {
				t.Errorf("reconsolidation %+v, %d edits logged; want edits: %t", res.Reconsolidation, len(list.Edits), tt.wantEdits)
			}
		})
	}
}
