package api

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestSenderOffsetDays: in a memory whose days are UTC's (REALM_TIME_ZONE unset), a
// message sent with another UTC offset is read in its sender's days, kept through
// storage: its "tomorrow" and its conversation of the day are theirs; one sent in UTC
// keeps UTC's.
func TestSenderOffsetDays(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{Version: "test"})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	c.remember(sp, []map[string]any{
		{"id": "brunch", "role": "user", "content": "Tomorrow I'm having brunch with Tom at Cafe Lotte.", "timestamp": "2024-01-20T00:30:00+01:00"},
		{"id": "review", "role": "user", "content": "Tomorrow I have the quarterly review at 10am.", "timestamp": "2024-02-28T21:00:00-05:00"},
		{"id": "flight", "role": "user", "content": "Tomorrow I'm flying to Rome with Marta.", "timestamp": "2024-01-19T23:30:00Z"},
	})
	want := map[string]string{"brunch": "21 January 2024", "review": "29 February 2024", "flight": "20 January 2024"}
	episodes := map[string]bool{}
	for _, m := range c.memories(sp, "limit=100") {
		if m.Type == realm.Episode {
			episodes[m.Name] = true
			continue
		}
		for _, s := range m.Sources {
			if day, ok := want[s]; ok && strings.HasPrefix(m.Content, "Tomorrow") {
				if !strings.Contains(m.Content, "("+day+")") {
					t.Errorf("message %s: %q, want it dated %s", s, m.Content, day)
				}
				delete(want, s)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("no memory of %v", slices.Sorted(maps.Keys(want)))
	}
	if wantEps := []string{"2024-01-19", "2024-01-20", "2024-02-28"}; !slices.Equal(slices.Sorted(maps.Keys(episodes)), wantEps) {
		t.Errorf("episodes %v, want %v (the senders' days)", slices.Sorted(maps.Keys(episodes)), wantEps)
	}
}

// TestQuestionOffsetDays: a question's time given with a UTC offset places its
// "yesterday" in the asker's days, not in the memory's zone (UTC here).
func TestQuestionOffsetDays(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{Version: "test"})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, []map[string]any{ // UTC: 2 March 15:00, 3 March 14:00
		{"id": "bread", "speaker": "user", "content": "My sister Ana bakes sourdough bread every Sunday.", "timestamp": "2026-03-02T10:00:00-05:00"},
		{"id": "starter", "speaker": "user", "content": "Ana gave me a jar of her starter for my own loaves.", "timestamp": "2026-03-03T09:00:00-05:00"},
	})
	// 4 March 01:00 in UTC, whose yesterday is the 3rd; the asker's is the 2nd.
	question := map[string]any{"query": "What did we talk about yesterday?", "time": "2026-03-03T20:00:00-05:00", "k": 5}
	var nodes []realm.Node
	for _, n := range c.recall(sp, question).Nodes {
		nodes = append(nodes, n.Node)
	}
	wantYesterdays(t, "HTTP", nodes)
	question["space"] = space
	wantYesterdays(t, "MCP", recalledNodes(t, mustConnectMCP(t, srv.URL, ""), question))
}

// wantYesterdays checks that nodes, recalled for TestQuestionOffsetDays, are the turns
// said on the asker's yesterday.
func wantYesterdays(t *testing.T, via string, nodes []realm.Node) {
	t.Helper()
	said := map[string]bool{}
	for _, n := range nodes {
		if n.Type == realm.Event || n.Type == realm.Fact {
			for _, s := range n.Sources {
				said[s] = true
			}
		}
	}
	if !said["bread"] || said["starter"] {
		t.Errorf("%s: recalled the turns %v, want the asker's yesterday's (2 March, UTC−5): bread", via, slices.Sorted(maps.Keys(said)))
	}
}
