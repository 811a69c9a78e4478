package api

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/agenttest"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestRecallMinScore: min_score leaves out of the top k the nodes scoring below it, over
// HTTP and MCP alike, so a small memory answers with fewer than k; the trace says what
// was cut.
func TestRecallMinScore(t *testing.T) {
	check := apitest.New(t)
	srv := newTestServer(t, check, Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	said := func(id, content string) map[string]any {
		return map[string]any{"id": id, "speaker": "Ana", "content": content, "timestamp": "2024-05-01T10:00:00Z"}
	}
	if code := c.status("POST", sp+"/observations", map[string]any{"messages": []any{
		said("m1", "We moved to Berlin last spring."), said("m2", "Ugh, it's raining again."),
		said("m3", "My cat Pixel sleeps on the keyboard."), said("m4", "Lunch was a bit too salty today."),
	}}); code != http.StatusOK {
		t.Fatalf("ingest: %d", code)
	}
	const query, k = "What is the user's current city?", 10
	var all realm.RecallResult
	if code := c.do("POST", sp+"/recall", map[string]any{"query": query, "k": k}, &all).StatusCode; code != http.StatusOK || len(all.Nodes) < 2 {
		t.Fatalf("recall: %d, %d nodes", code, len(all.Nodes))
	}
	// A cut-off between the best and the worst score of the recall without one.
	lo, hi := all.Nodes[0].Score, all.Nodes[0].Score
	for _, n := range all.Nodes {
		lo, hi = min(lo, n.Score), max(hi, n.Score)
	}
	if lo == hi {
		t.Fatalf("every node scores %g: nothing to cut between", lo)
	}
	cut := (lo + hi) / 2
	var kept, left []string
	for _, n := range all.Nodes {
		if n.Score >= cut {
			kept = append(kept, n.Node.ID)
		} else {
			left = append(left, n.Node.ID)
		}
	}

	t.Run("HTTP", func(t *testing.T) {
		var res realm.RecallResult
		if code := c.do("POST", sp+"/recall", map[string]any{"query": query, "k": k, "min_score": cut}, &res).StatusCode; code != http.StatusOK {
			t.Fatalf("recall with min_score %g: %d", cut, code)
		}
		var got []string
		for _, n := range res.Nodes {
			got = append(got, n.Node.ID)
			if n.Score < cut {
				t.Errorf("node %s scores %g, below min_score %g", n.Node.ID, n.Score, cut)
			}
		}
		if !slices.Equal(got, kept) || len(got) >= k {
			t.Errorf("min_score %g returned %v, want %v of the recall without it (scores %g to %g)", cut, got, kept, lo, hi)
		}
		var trace realm.Trace
		if code := c.do("GET", sp+"/traces/"+res.TraceID, nil, &trace).StatusCode; code != http.StatusOK {
			t.Fatalf("trace: %d", code)
		}
		var below []string
		for _, s := range trace.BelowMinScore {
			below = append(below, s.ID)
		}
		if trace.MinScore != cut || !slices.Equal(below, left) || len(trace.Scores) != len(kept) {
			t.Errorf("trace: min_score %g, below it %v, %d scores; want %g, %v, %d", trace.MinScore, below, len(trace.Scores), cut, left, len(kept))
		}
	})
	t.Run("MCP", func(t *testing.T) {
		got := callTool(t, mustConnectMCP(t, srv.URL, ""), "recall", map[string]any{"space": space, "query": query, "k": k, "min_score": cut})
		var rec mcpRecall
		got.decode(t, &rec)
		if got.isError || !slices.Equal(rec.ids(), kept) {
			t.Errorf("the recall tool with min_score %g: %v %s, want %v", cut, rec.ids(), got.text, kept)
		}
	})
	t.Run("ErrOutOfRange", func(t *testing.T) {
		for _, v := range []float64{-0.1, 1.5} {
			var p problemDoc
			resp := c.do("POST", sp+"/recall", map[string]any{"query": query, "min_score": v}, &p)
			if resp.StatusCode != http.StatusBadRequest || p.Code != "invalid" || p.Fields["min_score"] == "" {
				t.Errorf("min_score %g: %d %+v, want 400 naming min_score", v, resp.StatusCode, p)
			}
		}
	})
}

// TestRecallTopK: a recall returns k nodes whenever it gathered k candidates that say
// something another node returned does not: the candidates left out as repeats of the
// nodes returned fill what the others leave of k, but the turn that gave way to the
// exchange saying all it says, which the trace lists.
func TestRecallTopK(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, blenderMessages)
	byID := map[string]realm.Node{}
	for _, m := range c.memories(sp, "limit=100") {
		byID[m.ID] = m
	}
	for _, k := range []int{2, 3, 10} {
		t.Run(fmt.Sprint("K", k), func(t *testing.T) {
			var rec realm.RecallResult
			if code := c.do("POST", sp+"/recall", map[string]any{"query": "When will the blender arrive?", "k": k}, &rec).StatusCode; code != http.StatusOK {
				t.Fatalf("recall: %d", code)
			}
			var trace realm.Trace
			c.do("GET", sp+"/traces/"+rec.TraceID, nil, &trace)
			if want := min(k, len(trace.FirstDepth)-1); len(rec.Nodes) != want || len(trace.Scores) != want {
				t.Errorf("%d nodes, %d scores of %d candidates, want %d", len(rec.Nodes), len(trace.Scores), len(trace.FirstDepth), want)
			}
			// The turn that says the date gives way to the exchange holding it with the
			// order, which takes its score.
			if len(trace.Replaced) != 1 {
				t.Fatalf("replaced %+v, want the turn q2 by an exchange", trace.Replaced)
			}
			turn, by := byID[trace.Replaced[0].ID], byID[trace.Replaced[0].By]
			if !slices.Equal(turn.Sources, []string{"q2"}) || len(by.Sources) != 2 || !slices.Contains(by.Sources, "q2") {
				t.Errorf("%+v replaced by %+v, want the turn q2 by an exchange", turn, by)
			}
			if len(rec.Nodes) == 0 || rec.Nodes[0].Node.ID != by.ID || trace.Scores[0].ID != by.ID {
				t.Errorf("first node %+v, want the exchange %s", rec.Nodes, by.ID)
			}
			if slices.ContainsFunc(rec.Nodes, func(n realm.RecalledNode) bool { return n.Node.ID == turn.ID }) {
				t.Errorf("the turn %s came back beside the exchange that says it", turn.ID)
			}
		})
	}
}

// TestRecallQueryBlank: a query of white space only is refused as a message's content
// is, by /recall and /answer alike, naming the field.
func TestRecallQueryBlank(t *testing.T) {
	c := newAnswerServer(t, apitest.New(t), Config{}, agenttest.NewFakeOpenAI(t))
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, blenderMessages)
	for _, route := range []string{"/recall", "/answer"} {
		t.Run(route[1:], func(t *testing.T) {
			var p problemDoc
			if code := c.do("POST", sp+route, map[string]any{"query": " \t\u00a0\n"}, &p).StatusCode; code != http.StatusBadRequest || p.Fields["query"] == "" {
				t.Errorf("%s of white space: %d %+v, want 400 naming query", route, code, p)
			}
		})
	}
}

// TestRecallByIdentifier: a question that names a ticket or an order by its id finds the
// memories that name it first, among others of the same kind.
func TestRecallByIdentifier(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, []any{
		userSaid("i1", "My ticket T-4410 is about a broken charger.", "2026-05-02T10:00:00Z"),
		userSaid("i2", "The invoice for my March subscription still shows the billing address and the VAT number of the company I closed last year, so I opened T-7788.", "2026-05-09T10:00:00Z"),
		userSaid("i3", "Order A-10456 arrived with a scratched screen.", "2026-05-12T10:00:00Z"),
		userSaid("i4", "Order A-20911 is a gift for my sister.", "2026-05-13T10:00:00Z"),
		userSaid("i5", "My phone number is 555-0101 and I live in Porto.", "2026-05-14T10:00:00Z"),
		userSaid("i10", "Ticket T-7702 asks why my invoice lists two seats.", "2026-05-19T10:00:00Z"),
		userSaid("i11", "Ticket T-7781 is the one about the app crashing at login.", "2026-05-20T10:00:00Z"),
		userSaid("i6", "Ticket T-5521 is still waiting for a reply about my refund.", "2026-05-15T10:00:00Z"),
		userSaid("i7", "Please merge ticket T-3307 into the one about my late delivery.", "2026-05-16T10:00:00Z"),
		userSaid("i8", "Order A-33012 was charged twice on my card.", "2026-05-17T10:00:00Z"),
		userSaid("i9", "Order A-41877 never left the warehouse.", "2026-05-18T10:00:00Z"),
	})
	for query, want := range map[string]string{"T-7788": "i2", "What is ticket T-7788 about?": "i2", "order A-10456": "i3"} {
		rec := c.recall(sp, map[string]any{"query": query})
		if len(rec.Nodes) == 0 || !slices.Contains(rec.Nodes[0].Node.Sources, want) {
			t.Errorf("%q: want the memory of %s first: %s", query, want, said(rec.Nodes))
		}
	}
}

// TestRecallByWholeIdentifier: a question naming a paper by its DOI or arXiv id, or a file
// by its name, finds the memory naming it first, not another whose identifier shares its
// parts ("10.1057", "s41562").
func TestRecallByWholeIdentifier(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	note := func(id, content string) map[string]any {
		return map[string]any{"id": id, "speaker": "Dana", "role": "user", "content": content, "timestamp": "2026-12-01T10:00:00Z"}
	}
	c.remember(sp, []any{
		note("n0", "Paper note: Petrov (2017) on anxiety and sleep. DOI: 10.1057/s41562.2017.10.791. Sample n = 3752."),
		note("n1", "Paper note: Haddad (2019) on air pollution. DOI: 10.1021/s41562.2019.11.204. Sample n = 96."),
		note("n2", "Paper note: Rossi (2025) on transformers. DOI: 10.1057/j.neuroimage.2025.03.118. Sample n = 640."),
		note("n3", "Paper note: Vaswani (2017), attention, arXiv:1706.03762."),
		note("n4", "Paper note: Kaur (2021), sleep and mood, arXiv:2104.09864."),
		note("n5", "The trials are in nback_trials.csv, the sessions in sessions_2021.csv."),
	})
	for query, want := range map[string]string{
		"Which paper has DOI 10.1057/s41562.2017.10.791?": "n0",
		"10.1057/j.neuroimage.2025.03.118":                "n2",
		"What is 2104.09864?":                             "n4",
		"1706.03762":                                      "n3",
		"nback_trials.csv":                                "n5",
	} {
		rec := c.recall(sp, map[string]any{"query": query})
		if len(rec.Nodes) == 0 || !slices.Contains(rec.Nodes[0].Node.Sources, want) {
			t.Errorf("%q: want the memory of %s first: %s", query, want, said(rec.Nodes))
		}
	}
}

// TestRecallBySection: a question naming a part of a contract by its number ("Section
// 7.2", "§ 12.10", or the number alone where its words make it a clause's: "the cap in
// 9.1") finds the clause naming it first among clauses alike in all but their numbers and
// topics, and an amendment or an email naming it, with or without "Section", beside it.
func TestRecallBySection(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	topics := []string{"notice period", "payment term", "cure period", "audit window", "renewal notice"}
	var clauses []any
	clause := func(id, content string) {
		clauses = append(clauses, map[string]any{"id": id, "speaker": "Counsel", "role": "user", "content": content, "timestamp": "2026-12-01T10:00:00Z"})
	}
	for i := 1; i <= 12; i++ {
		for j := 1; j <= 4; j++ {
			clause(fmt.Sprintf("s%d.%d", i, j), fmt.Sprintf("Section %d.%d: the %s under this agreement is %d days.", i, j, topics[(i+j)%len(topics)], 10*(i+j)))
		}
	}
	clause("s12.10", "Section 12.10: the notice period under this agreement is 90 days.")
	clause("a2", "Amendment 2: the notice period in Section 7.2 is changed to 60 days.")
	clause("e1", "Email from Acme's counsel: we cannot accept uncapped indemnity; the cap in 9.1 must stay at $2,000,000.")
	c.remember(sp, clauses)
	for query, want := range map[string][]string{
		"What does Section 7.2 say?":            {"s7.2", "a2"},
		"What is the notice period in § 12.10?": {"s12.10"},
		"Section 3.4":                           {"s3.4"},
		"Which clause did Amendment 2 change?":  {"a2"},
		"What is the cap in 9.1?":               {"s9.1", "e1"},
		"What is the cure period in 4.3?":       {"s4.3"},
		"the payment term under 8.2":            {"s8.2"},
	} {
		rec := c.recall(sp, map[string]any{"query": query})
		for i, id := range want {
			if len(rec.Nodes) <= i || !slices.ContainsFunc(rec.Nodes[:len(want)], func(n realm.RecalledNode) bool { return slices.Contains(n.Node.Sources, id) }) {
				t.Errorf("%q: want %s among the first %d: %s", query, id, len(want), said(rec.Nodes))
			}
		}
	}
}

// TestRecallRelativeTime: a question that names a time relative to its own, whatever it
// asks, recalls the memories of then: "What did I do last weekend?" the weekend's concert,
// told the next day, not a move "last weekend" in September nor a weekend of early
// November; "What happened last week?" what was told that week or is dated then. Nothing
// told or dated then, nothing recalled.
func TestRecallRelativeTime(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	told := map[string]string{ // id: the day it was said
		"sep12": "2026-09-12", "oct10": "2026-10-10", "nov03": "2026-11-03", "nov13": "2026-11-13",
		"nov18": "2026-11-18", "nov20": "2026-11-20", "nov22": "2026-11-22",
	}
	said := func(id, content string) map[string]any {
		return map[string]any{"id": id, "role": "user", "content": content, "timestamp": told[id] + "T19:00:00Z"}
	}
	c.remember(sp, []any{
		said("sep12", "I moved to Seattle last weekend, I live in Capitol Hill now."),
		said("oct10", "Cleaned the whole apartment today, feels great."),
		said("nov03", "Priya is officially my girlfriend now, we said it out loud this weekend."),
		said("nov13", "Therapy is on Tuesday this week as usual."),
		said("nov18", "Talked to my sister on the phone for an hour tonight."),
		said("nov20", "Finished the quarterly report at work, my boss loved it."),
		said("nov22", "Priya and I went to a Phoebe Bridgers concert last night, it was amazing."),
	})
	recall := func(query, at string, from, to string) []string {
		t.Helper()
		var got []string
		for _, n := range c.recall(sp, map[string]any{"query": query, "time": at, "k": 5}).Nodes {
			if n.Node.Type != realm.Event && n.Node.Type != realm.Fact {
				continue
			}
			got = append(got, n.Node.Content)
			dated := ""
			if n.Node.TStart != nil {
				dated = n.Node.TStart.UTC().Format(time.DateOnly)
			}
			for _, s := range n.Node.Sources {
				if day := told[s]; (day < from || day > to) && (dated < from || dated > to) {
					t.Errorf("%q recalled %q, told on %s, dated %s", query, n.Node.Content, day, dated)
				}
			}
		}
		return got
	}
	const now = "2026-11-29T23:00:00Z" // a Sunday
	got := recall("What did I do last weekend?", now, "2026-11-21", "2026-11-25")
	if !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, "concert") }) {
		t.Errorf("last weekend: recalled %q, want the concert", got)
	}
	got = recall("What happened last week?", now, "2026-11-16", "2026-11-22")
	if len(got) < 3 {
		t.Errorf("last week: recalled %q, want the call, the report and the concert", got)
	}
	if got = recall("What did I do last weekend?", "2026-12-20T12:00:00Z", "", ""); len(got) != 0 {
		t.Errorf("a weekend nothing was told: recalled %q", got)
	}
}

// TestRecallScheduleTime: a question about what one has at a time ("What do I have
// today?", "What's on today?", "What do I have on Tuesday?") recalls the events of then,
// told before, and what has no time of its own ("every Tuesday"), on that day alone and on
// the coming Tuesday; a question about nothing but a past time ("Where did I go last
// weekend?", "What did we do last Friday?", "What did we do on June 5?") recalls what was dated then as well as what
// was told then: a plan told before the weekend, a flight told after the day; a deadline
// "by Friday" is Friday's.
func TestRecallScheduleTime(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	c.remember(sp, []any{
		userSaid("choir", "Every Tuesday evening I have choir practice at 7pm.", "2024-01-08T09:15:00Z"),
		userSaid("mum", "My mum's birthday is March 3, I need to get her a present.", "2024-01-10T20:00:00Z"),
		userSaid("moma", "Landed in New York! This weekend I'm visiting the MoMA.", "2024-02-15T18:00:00Z"),
		userSaid("off", "The day after tomorrow is my day off, I'm driving to Philadelphia.", "2024-02-27T20:00:00Z"),
		userSaid("review", "Tomorrow I have the quarterly review at 10am.", "2024-02-28T21:00:00Z"),
		userSaid("hike", "Tomorrow I'm hiking at Bear Mountain with Jake.", "2024-03-09T22:00:00Z"),
		userSaid("rome", "We flew to Rome on Friday.", "2026-06-08T10:00:00Z"),          // a Monday
		userSaid("signed", "The signed copy is due by Friday.", "2026-12-02T08:00:00Z"), // a Wednesday
	})
	tests := []struct {
		q, at string
		want  string // a source among the events and facts recalled
		day   string // when set, no event or fact recalled is dated another day
	}{
		{"What do I have today?", "2024-02-29T08:00:00Z", "review", "2024-02-29"},
		{"What's on today?", "2024-03-10T09:00:00Z", "hike", "2024-03-10"},
		{"What do I have tomorrow?", "2024-02-28T22:00:00Z", "off", "2024-02-29"},
		{"What do I have on Tuesday?", "2024-02-18T10:00:00Z", "choir", "2024-02-20"},
		{"Where did I go last weekend?", "2024-02-19T09:00:00Z", "moma", ""},
		{"What did I do last weekend?", "2024-02-19T09:00:00Z", "moma", ""},
		{"What was I up to over the weekend?", "2024-02-19T09:00:00Z", "moma", ""},
		{"What did we do last Friday?", "2026-06-09T09:00:00Z", "rome", ""},
		{"What did we do on June 5?", "2026-06-09T09:00:00Z", "rome", ""},
		{"What is due this Friday?", "2026-12-02T09:00:00Z", "signed", ""},
	}
	for _, tt := range tests {
		t.Run(tt.q+" "+tt.at, func(t *testing.T) {
			var sources []string
			for _, n := range c.recall(sp, map[string]any{"query": tt.q, "time": tt.at, "k": 10}).Nodes {
				if n.Node.Type != realm.Event && n.Node.Type != realm.Fact {
					continue
				}
				sources = append(sources, n.Node.Sources...)
				if tt.day != "" && n.Node.TStart != nil && n.Node.TStart.UTC().Format(time.DateOnly) != tt.day {
					t.Errorf("recalled %q, dated %v", n.Node.Content, n.Node.TStart)
				}
			}
			if !slices.Contains(sources, tt.want) {
				t.Errorf("recalled the memories of %q, want %s's", sources, tt.want)
			}
		})
	}
}
