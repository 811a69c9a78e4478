package api

import (
	"net/http"
	"slices"
	"testing"

	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestListEditsPages: GET …/edits pages by cursor as the other lists do: pages of one
// edit, each with the next page's next_cursor, join into the whole log, newest first;
// next_cursor is empty on the last page; a cursor not given out is 400.
func TestListEditsPages(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	c.remember(sp, []map[string]string{
		{"id": "e1", "speaker": "Ana", "content": "I moved to Lisbon in 2021 for a job at a bakery.", "timestamp": "2023-01-10T09:00:00Z"},
		{"id": "e2", "speaker": "Ana", "content": "The bakery makes pastel de nata every morning.", "timestamp": "2023-01-11T09:00:00Z"},
		{"id": "e3", "speaker": "Ana", "content": "My sister Rita visits me in Lisbon every summer.", "timestamp": "2023-01-12T09:00:00Z"},
	})
	for _, q := range []string{"Where does Ana work?", "What does the bakery make?", "Who visits Ana?"} {
		var rec struct {
			TraceID string `json:"trace_id"`
			Nodes   []struct{ Node struct{ ID string } }
		}
		c.do("POST", sp+"/recall", map[string]any{"query": q}, &rec)
		var useful []string
		for _, n := range rec.Nodes[:min(2, len(rec.Nodes))] {
			useful = append(useful, n.Node.ID)
		}
		var p problemDoc
		if code := c.do("POST", sp+"/traces/"+rec.TraceID+"/feedback", map[string]any{"correct": true, "useful_node_ids": useful}, &p).StatusCode; code != http.StatusOK {
			t.Fatalf("feedback: %d %+v", code, p)
		}
	}
	type page struct {
		Edits      []struct{ ID string }
		NextCursor string `json:"next_cursor"`
	}
	var whole page
	if code := c.do("GET", sp+"/edits?limit=1000", nil, &whole).StatusCode; code != http.StatusOK || len(whole.Edits) < 2 || whole.NextCursor != "" {
		t.Fatalf("whole log: %d, %d edits, next %q; want 2 or more and no next page", code, len(whole.Edits), whole.NextCursor)
	}
	var paged []string
	for cursor := ""; ; {
		var p page
		if code := c.do("GET", sp+"/edits?limit=1&cursor="+cursor, nil, &p).StatusCode; code != http.StatusOK || len(p.Edits) != 1 || len(paged) > len(whole.Edits) {
			t.Fatalf("page %d: %d, %d edits", len(paged), code, len(p.Edits))
		}
		paged = append(paged, p.Edits[0].ID)
		if p.NextCursor == "" {
			break
		}
		cursor = p.NextCursor
	}
	var want []string
	for _, e := range whole.Edits {
		want = append(want, e.ID)
	}
	if !slices.Equal(paged, want) {
		t.Errorf("pages of one: %v, want %v", paged, want)
	}
	if code := c.status("GET", sp+"/edits?cursor=not-one", nil); code != http.StatusBadRequest {
		t.Errorf("a cursor not given out: %d, want 400", code)
	}
}
