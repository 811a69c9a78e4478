package api

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestRecallCountsEachOnce: a journal entry of two sentences is stored whole and as a
// clause of its first sentence. A recall whose filters leave fewer than k memories
// returns each run once: the clauses, which their whole entries say, do not fill k
// beside them, so "how many runs did I log?" counts ten runs, not twenty.
func TestRecallCountsEachOnce(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	places := []string{"the river", "the park", "the hills", "the beach", "the old town", "the forest", "the canal", "the stadium", "the harbour", "the lake"}
	var msgs []map[string]string
	for i, place := range places {
		msgs = append(msgs, map[string]string{"id": fmt.Sprintf("j%d", i), "session_id": "journal", "role": "user",
			"content":   fmt.Sprintf("I ran %d km around %s this morning. My legs felt heavy afterwards.", 5+i, place),
			"timestamp": fmt.Sprintf("2026-03-%02dT07:00:00Z", i+1)})
	}
	c.remember(sp, msgs)
	var rec realm.RecallResult
	body := map[string]any{"query": "How many runs did I log?", "k": 30,
		"filters": map[string]any{"types": []string{"event", "fact"}, "said_since": "2026-03-01T00:00:00Z", "said_until": "2026-03-31T00:00:00Z"}}
	if code := c.do("POST", sp+"/recall", body, &rec).StatusCode; code != http.StatusOK {
		t.Fatalf("recall: %d", code)
	}
	runs := map[string]int{}
	for _, n := range rec.Nodes {
		for _, place := range places {
			if strings.Contains(n.Node.Content, "around "+place) {
				runs[place]++
			}
		}
	}
	if len(runs) != len(places) {
		t.Errorf("runs %v, want each of %d: %s", runs, len(places), said(rec.Nodes))
	}
	for place, n := range runs {
		if n != 1 {
			t.Errorf("the run around %s returned %d times, want once: %s", place, n, said(rec.Nodes))
		}
	}
}
