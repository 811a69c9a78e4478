package api

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// ticketMessages: two support tickets about one order, a week apart, and a chat of
// another day sent without a session id.
var ticketMessages = []map[string]string{
	{"id": "t1", "session_id": "T-118", "role": "user", "content": "My order 4417 arrived with a cracked screen.", "timestamp": "2026-02-03T09:00:00Z"},
	{"id": "t2", "session_id": "T-118", "role": "assistant", "content": "Sorry about the screen, we will send a replacement screen for order 4417.", "timestamp": "2026-02-03T09:01:00Z"},
	{"id": "t3", "session_id": "T-119", "role": "user", "content": "The replacement screen for order 4417 works, but the charger is missing.", "timestamp": "2026-02-10T15:00:00Z"},
	{"id": "t4", "session_id": "T-119", "role": "assistant", "content": "We will ship a charger for order 4417 today.", "timestamp": "2026-02-10T15:02:00Z"},
	{"id": "t5", "role": "user", "content": "I also bought a phone case for the screen last year.", "timestamp": "2026-02-20T08:00:00Z"},
}

// filteredRecall is what the tests read of a recall and its trace.
type filteredRecall struct {
	Nodes []struct {
		Node  realm.Node
		Score float64
	}
	TraceID string `json:"trace_id"`
	trace   struct {
		Filters     *realm.RecallFilters
		FilteredOut int `json:"filtered_out"`
	}
}

func recallFiltered(c client, sp string, body map[string]any) filteredRecall {
	c.t.Helper()
	body["query"], body["k"] = "What happened to the screen of order 4417?", 30
	var r filteredRecall
	if resp := c.do("POST", sp+"/recall", body, &r); resp.StatusCode != http.StatusOK {
		c.t.Fatalf("recall %v: %d", body["filters"], resp.StatusCode)
	}
	c.do("GET", sp+"/traces/"+r.TraceID, nil, &r.trace)
	return r
}

// ranking is the recall's ids and scores, in order.
func (r filteredRecall) ranking() []string {
	out := make([]string, len(r.Nodes))
	for i, n := range r.Nodes {
		out[i] = fmt.Sprintf("%s %.9f", n.Node.ID, n.Score)
	}
	return out
}

// TestRecallFilters: each filter narrows a recall to the memories matching it (types;
// said in a session, an episode of it too; said in a time window), all of which it
// returns that the recall without it returned; a filter matching nothing returns no
// node; an empty filters object changes nothing; the trace records the filters and the
// memories they left out.
func TestRecallFilters(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	c.remember(sp, ticketMessages)

	all := recallFiltered(c, sp, map[string]any{})
	if len(all.Nodes) < 6 {
		t.Fatalf("the recall without filters returns %d nodes, want at least 6: %+v", len(all.Nodes), all.Nodes)
	}
	if all.trace.Filters != nil || all.trace.FilteredOut != 0 {
		t.Errorf("a recall without filters traces filters %+v, %d left out", all.trace.Filters, all.trace.FilteredOut)
	}
	if empty := recallFiltered(c, sp, map[string]any{"filters": map[string]any{}}); !slices.Equal(empty.ranking(), all.ranking()) {
		t.Errorf("filters {} changed the recall:\n%v\nwant\n%v", empty.ranking(), all.ranking())
	}

	saidIn := func(sources ...string) func(realm.Node) bool {
		return func(n realm.Node) bool {
			return slices.ContainsFunc(n.Sources, func(s string) bool { return slices.Contains(sources, s) })
		}
	}
	tests := []struct {
		name    string
		filters map[string]any
		match   func(realm.Node) bool
	}{
		{"Facts", map[string]any{"types": []string{"fact"}}, func(n realm.Node) bool { return n.Type == realm.Fact }},
		{"EntitiesEpisodes", map[string]any{"types": []string{"entity", "episode"}}, func(n realm.Node) bool { return n.Type == realm.Entity || n.Type == realm.Episode }},
		{"Session", map[string]any{"session_ids": []string{"T-118"}}, saidIn("t1", "t2")},
		{"Sessions", map[string]any{"session_ids": []string{"T-119", "T-404"}}, saidIn("t3", "t4")},
		{"SessionAsSent", map[string]any{"session_ids": []string{"T-118\u200e"}}, saidIn("t1", "t2")}, // as a message's: without bidi marks
		{"SaidSince", map[string]any{"said_since": "2026-02-10T15:01:00Z"}, saidIn("t4", "t5")},
		{"SaidBetween", map[string]any{"said_since": "2026-02-03T09:00:00Z", "said_until": "2026-02-03T09:00:00Z"}, saidIn("t1")},
		{"SessionEventsUntil", map[string]any{"session_ids": []string{"T-119"}, "types": []string{"event", "fact"}, "said_until": "2026-02-10T15:00:30+00:00"},
			func(n realm.Node) bool { return saidIn("t3")(n) && (n.Type == realm.Event || n.Type == realm.Fact) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := recallFiltered(c, sp, map[string]any{"filters": tt.filters})
			if len(got.Nodes) == 0 {
				t.Fatalf("no node")
			}
			for _, n := range got.Nodes {
				if !tt.match(n.Node) {
					t.Errorf("%s %q (sources %v) does not match", n.Node.Type, n.Node.Content, n.Node.Sources)
				}
			}
			// What the recall without filters returned and matches is returned too: the
			// filter leaves out, it does not lose.
			for _, n := range all.Nodes {
				if tt.match(n.Node) && !slices.ContainsFunc(got.Nodes, func(g struct {
					Node  realm.Node
					Score float64
				}) bool {
					return g.Node.ID == n.Node.ID
				}) {
					t.Errorf("%s %q, recalled without filters, is not", n.Node.Type, n.Node.Content)
				}
			}
			if got.trace.Filters == nil || got.trace.FilteredOut < 1 {
				t.Errorf("trace: filters %+v, %d left out; want the filters and at least one left out", got.trace.Filters, got.trace.FilteredOut)
			}
		})
	}

	t.Run("EpisodeOfSession", func(t *testing.T) {
		got := recallFiltered(c, sp, map[string]any{"filters": map[string]any{"types": []string{"episode"}, "session_ids": []string{"T-118"}}})
		if len(got.Nodes) != 1 || got.Nodes[0].Node.Name != "T-118" {
			t.Errorf("the episodes of T-118: %+v", got.Nodes)
		}
	})

	for name, filters := range map[string]map[string]any{
		"NoSuchSession": {"session_ids": []string{"T-404"}},
		"NothingSaid":   {"said_since": "2027-01-01T00:00:00Z"},
		"NoEpisodeThen": {"types": []string{"episode"}, "said_until": "2000-01-01T00:00:00Z"},
	} {
		t.Run(name, func(t *testing.T) {
			if got := recallFiltered(c, sp, map[string]any{"filters": filters}); len(got.Nodes) != 0 {
				t.Errorf("filters %v matching nothing return %+v", filters, got.Nodes)
			}
		})
	}
}

// TestRecallFiltersInvalid: a bad filter is refused with 400 naming the field.
func TestRecallFiltersInvalid(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	c.remember(sp, ticketMessages[:1])

	many := make([]string, realm.MaxFilterItems+1)
	for i := range many {
		many[i] = fmt.Sprintf("s%d", i)
	}
	tests := []struct {
		filters map[string]any
		field   string
	}{
		{map[string]any{"types": []string{"fact", "memo"}}, "filters.types[1]"},
		{map[string]any{"types": []string{}}, "filters.types"},
		{map[string]any{"session_ids": []string{}}, "filters.session_ids"},
		{map[string]any{"session_ids": []string{"T-118", ""}}, "filters.session_ids[1]"},
		{map[string]any{"session_ids": many}, "filters.session_ids"},
		{map[string]any{"said_since": "2026-02-04T00:00:00Z", "said_until": "2026-02-03T00:00:00Z"}, "filters.said_until"},
		{map[string]any{"said_since": "last week"}, "filters.said_since"},
		{map[string]any{"speaker": "user"}, "filters.speaker"},
	}
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			var p problemDoc
			resp := c.do("POST", sp+"/recall", map[string]any{"query": "screen", "filters": tt.filters}, &p)
			if resp.StatusCode != http.StatusBadRequest || p.Fields[tt.field] == "" {
				t.Errorf("filters %v: %d %+v, want 400 naming %s", tt.filters, resp.StatusCode, p, tt.field)
			}
		})
	}
}
