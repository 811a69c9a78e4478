package api

import (
	"net/http"
	"testing"

	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestDeleteSpace: erasing a space removes everything in it and nothing of another
// space holding the same messages.
func TestDeleteSpace(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	spaceA, spaceB := cyphertest.NewSpace(t), cyphertest.NewSpace(t)
	msgs := map[string]any{"messages": []map[string]string{
		{"id": "d1", "speaker": "Ana", "content": "I moved to Lisbon in 2021 for a job at a bakery.", "timestamp": "2023-01-10T09:00:00Z"},
		{"id": "d2", "speaker": "Ana", "content": "The bakery makes pastel de nata every morning.", "timestamp": "2023-01-11T09:00:00Z"},
	}}
	type stats struct {
		Memories, Edges, Observations int
	}
	traces := map[string]string{}
	for _, space := range []string{spaceA, spaceB} {
		if code := c.status("POST", "/v1/spaces/"+space+"/observations", msgs); code != http.StatusOK {
			t.Fatalf("ingest into %s: %d", space, code)
		}
		var rec struct {
			TraceID string `json:"trace_id"`
		}
		c.do("POST", "/v1/spaces/"+space+"/recall", map[string]any{"query": "Where does Ana work?"}, &rec)
		c.do("POST", "/v1/spaces/"+space+"/traces/"+rec.TraceID+"/feedback", map[string]any{"correct": true}, nil)
		traces[space] = rec.TraceID
	}
	var before stats
	c.do("GET", "/v1/spaces/"+spaceB+"/stats", nil, &before)
	var editsBefore struct{ Edits []any }
	c.do("GET", "/v1/spaces/"+spaceB+"/edits", nil, &editsBefore)

	var del struct {
		DeletedNodes int `json:"deleted_nodes"`
	}
	if code := c.do("DELETE", "/v1/spaces/"+spaceA, nil, &del).StatusCode; code != http.StatusOK || del.DeletedNodes < 4 {
		t.Fatalf("delete: %d, %d nodes", code, del.DeletedNodes)
	}

	var a stats
	c.do("GET", "/v1/spaces/"+spaceA+"/stats", nil, &a)
	if a != (stats{}) {
		t.Errorf("space A after its deletion: %+v", a)
	}
	var list struct{ Memories []any }
	c.do("GET", "/v1/spaces/"+spaceA+"/memories", nil, &list)
	var rec struct{ Nodes []any }
	c.do("POST", "/v1/spaces/"+spaceA+"/recall", map[string]any{"query": "Where does Ana work?"}, &rec)
	if len(list.Memories) != 0 || len(rec.Nodes) != 0 {
		t.Errorf("space A still lists %d memories, recalls %d", len(list.Memories), len(rec.Nodes))
	}
	if code := c.status("GET", "/v1/spaces/"+spaceA+"/traces/"+traces[spaceA], nil); code != http.StatusNotFound {
		t.Errorf("space A's trace: %d", code)
	}
	var editsA struct{ Edits []any }
	c.do("GET", "/v1/spaces/"+spaceA+"/edits", nil, &editsA)
	if len(editsA.Edits) != 0 {
		t.Errorf("space A keeps %d edits", len(editsA.Edits))
	}

	var after stats
	c.do("GET", "/v1/spaces/"+spaceB+"/stats", nil, &after)
	var editsAfter struct{ Edits []any }
	c.do("GET", "/v1/spaces/"+spaceB+"/edits", nil, &editsAfter)
	if after != before || after.Memories == 0 || len(editsAfter.Edits) != len(editsBefore.Edits) {
		t.Errorf("space B changed: %+v then %+v; %d then %d edits", before, after, len(editsBefore.Edits), len(editsAfter.Edits))
	}
	if code := c.status("GET", "/v1/spaces/"+spaceB+"/traces/"+traces[spaceB], nil); code != http.StatusOK {
		t.Errorf("space B's trace: %d", code)
	}
}
