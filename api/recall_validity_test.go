package api

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestRecallSuccessorFirst: a choice changed later ("we switched from npm to pnpm")
// supersedes the earlier one, and a question about the present in words the earlier one
// shares ("use", "package"), or about what was decided, gets the newer choice first and
// the earlier one demoted: such words do not name something else the earlier one says,
// which would keep it (TestMCPMoveKeepsTheRest).
func TestRecallSuccessorFirst(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, []any{
		userSaid("p1", "We use npm for JavaScript packages.", "2026-10-06T10:00:00Z"),
		userSaid("p2", "We use Postgres 14 for the database.", "2026-10-08T10:00:00Z"),
		userSaid("p3", "The staging server runs out of disk space every Friday.", "2026-10-20T10:00:00Z"),
		userSaid("p4", "We switched from npm to pnpm last week.", "2026-11-10T10:00:00Z"),
		userSaid("p5", "We switched from Postgres 14 to Postgres 16 last week.", "2026-11-12T10:00:00Z"),
	})
	tests := []struct {
		name, query, time string
		newer, older      string // the source of each
	}{
		{"Packages", "Which package manager do we use?", "", "p4", "p1"},
		{"PackagesThen", "Which package manager do we use?", "2026-11-20T10:00:00Z", "p4", "p1"},
		{"Decided", "What did we decide about the database?", "2026-11-20T10:00:00Z", "p5", "p2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := map[string]any{"query": tt.query}
			if tt.time != "" {
				body["time"] = tt.time
			}
			var rec realm.RecallResult
			if code := c.do("POST", sp+"/recall", body, &rec).StatusCode; code != http.StatusOK {
				t.Fatalf("recall: %d", code)
			}
			rank := func(source string) int {
				return slices.IndexFunc(rec.Nodes, func(n realm.RecalledNode) bool {
					return (n.Node.Type == realm.Event || n.Node.Type == realm.Fact) && slices.Equal(n.Node.Sources, []string{source})
				})
			}
			newer, older := rank(tt.newer), rank(tt.older)
			if newer < 0 || older >= 0 && older < newer {
				var got []string
				for _, n := range rec.Nodes {
					got = append(got, n.Node.Content)
				}
				t.Fatalf("newer at %d, older at %d, want the newer first: %s", newer, older, strings.Join(got, " | "))
			}
			var trace realm.Trace
			c.do("GET", sp+"/traces/"+rec.TraceID, nil, &trace)
			if !slices.ContainsFunc(trace.Validity, func(v realm.TraceValidity) bool { return v.Action == realm.ValidityDemoted }) {
				t.Errorf("validity %+v, want the older demoted", trace.Validity)
			}
		})
	}
}

// TestRecallCustomerChanges: a customer's change said as a request ("Switch my plan to Pro
// please", "Upgrade me to Premium please"), a contact preference switched, and a move or a
// new number said in German or Spanish supersede the message they replace, and a question
// about the present gets the newer message first.
func TestRecallCustomerChanges(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	tests := []struct{ name, older, newer, query string }{
		{"PlanRequested", "Please switch my plan to Plus", "Switch my plan to Pro please", "What plan is the customer on?"},
		{"PlanUpgradeMe", "I'm on the Basic plan", "Upgrade me to Premium please", "What plan is the customer on?"},
		{"ContactSwitched", "Please contact me by email only", "Actually, you can call me now instead of emailing", "How should we contact the customer?"},
		{"PlanSwitchMe", "I'm on the Basic plan", "Switch me to Pro, please.", "What plan is the customer on?"},
		{"ContactFromNowOn", "Please contact me by email only", "Text me from now on, please.", "How should we contact the customer?"},
		{"LetterOwn", "I live in Lisbon. My number is +351 911 222 333.",
			"Hi team,\n\nI moved to Porto last month and my new number is +351 912 345 678.\n\nThanks,\nAna", "Where does the customer live now?"},
		{"MovedGerman", "Ich wohne in München", "Ich bin nach Hamburg umgezogen", "Wo wohnt der Kunde?"},
		{"NewNumberGerman", "Meine Telefonnummer ist 0171 5551234.", "Meine neue Telefonnummer ist 0176 9998877.", "Wie lautet die Telefonnummer des Kunden?"},
		{"MovedSpanish", "Vivo en Madrid.", "Me mudé a Valencia", "¿Dónde vive el cliente?"},
		{"NewNumberSpanish", "Mi número es 612 345 678.", "Mi nuevo número es 699 111 222.", "¿Cuál es el número de teléfono del cliente?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := client{t: t, base: srv.URL}
			sp := "/v1/spaces/" + cyphertest.NewSpace(t)
			c.remember(sp, []any{
				userSaid("old", tt.older, "2026-03-10T10:00:00Z"),
				userSaid("new", tt.newer, "2026-06-10T10:00:00Z"),
			})
			var rec realm.RecallResult
			if code := c.do("POST", sp+"/recall", map[string]any{"query": tt.query, "time": "2026-06-20T10:00:00Z"}, &rec).StatusCode; code != http.StatusOK {
				t.Fatalf("recall: %d", code)
			}
			rank := func(source string) int {
				return slices.IndexFunc(rec.Nodes, func(n realm.RecalledNode) bool {
					return (n.Node.Type == realm.Event || n.Node.Type == realm.Fact) && slices.Contains(n.Node.Sources, source)
				})
			}
			if newer, older := rank("new"), rank("old"); newer < 0 || older >= 0 && older < newer {
				var got []string
				for _, n := range rec.Nodes {
					got = append(got, n.Node.Content)
				}
				t.Errorf("newer at %d, older at %d, want the newer first: %s", newer, older, strings.Join(got, " | "))
			}
			// A supersedes edge from a memory of the newer message to one of the older.
			of := map[string]string{}
			for _, n := range c.memories(sp, "limit=100") {
				for _, s := range n.Sources {
					of[n.ID] = s
				}
			}
			found := false
			for id, source := range of {
				if source != "new" {
					continue
				}
				var doc memoryDoc
				c.do("GET", sp+"/memories/"+id, nil, &doc)
				found = found || slices.ContainsFunc(doc.Edges, func(e realm.Edge) bool {
					return e.Predicate == realm.Supersedes && e.From == id && of[e.To] == "old"
				})
			}
			if !found {
				t.Errorf("no supersedes edge from %q to %q", tt.newer, tt.older)
			}
		})
	}
}

// TestRecallScoresInRange: every score is a relevance in [0, 1] times factors of at most
// 1 (openapi.yaml, min_score), also for what was said at a time, where a memory said
// then is returned however far it is from the question (its cosine with it below 0).
func TestRecallScoresInRange(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, []any{
		userSaid("s1", "Remind me to renew the TLS certificate before it expires.", "2026-10-13T09:00:00Z"),
		userSaid("s2", "Use tabs, not spaces, in the Makefile.", "2026-10-13T09:30:00Z"),
		userSaid("s3", "Kubernetes pods restart when memory exceeds the limit.", "2026-10-13T12:00:00Z"),
		userSaid("s4", "The dashboard graph uses a logarithmic axis.", "2026-10-13T15:00:00Z"),
		userSaid("s5", "My cat Pixel sleeps on the keyboard.", "2026-10-14T10:00:00Z"),
	})
	for _, q := range []string{"What did I tell you on October 13?", "What did we do on October 13?", "Which package manager do we use?"} {
		for _, depth := range []int{0, 3} { // seeds alone, as expansion may lift a node to 0
			var rec realm.RecallResult
			body := map[string]any{"query": q, "time": "2026-10-20T10:00:00Z", "max_depth": depth}
			if code := c.do("POST", sp+"/recall", body, &rec).StatusCode; code != http.StatusOK || len(rec.Nodes) == 0 {
				t.Fatalf("%s: %d, %d nodes", q, code, len(rec.Nodes))
			}
			for _, n := range rec.Nodes {
				if n.Score < 0 || n.Score > 1 {
					t.Errorf("%s, max_depth %d: %q scores %g, want [0, 1]", q, depth, n.Node.Content, n.Score)
				}
			}
		}
	}
}

// userSaid is a message of the user's, without a session: each day is one conversation.
func userSaid(id, content, at string) map[string]any {
	return map[string]any{"id": id, "role": "user", "content": content, "timestamp": at}
}

// TestRecallChainOfChanges: after two moves, the middle home is itself superseded: offered
// as the newer version of the first, it is demoted as what it is, never tied with the
// home that holds now.
func TestRecallChainOfChanges(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, []any{
		userSaid("h1", "I live in Lisbon.", "2026-01-10T10:00:00Z"),
		userSaid("h2", "I moved to Madrid.", "2026-04-20T10:00:00Z"),
		userSaid("h3", "I moved to Valencia.", "2026-08-02T10:00:00Z"),
	})
	rec := c.recall(sp, map[string]any{"query": "Where does the user live?"})
	score := map[string]float64{}
	for _, n := range rec.Nodes {
		if (n.Node.Type == realm.Event || n.Node.Type == realm.Fact) && len(n.Node.Sources) == 1 {
			if _, ok := score[n.Node.Sources[0]]; !ok {
				score[n.Node.Sources[0]] = n.Score
			}
		}
	}
	if score["h3"] == 0 || score["h3"] <= score["h2"] || score["h3"] <= score["h1"] {
		t.Fatalf("Valencia %.4f, Madrid %.4f, Lisbon %.4f: want Valencia strictly first: %s", score["h3"], score["h2"], score["h1"], said(rec.Nodes))
	}
}

// TestRecallChangeOfOneClause: a move told weeks after a message that also gave a plan and
// an email supersedes the clause of that message that told the home, not the message: the
// email and the plan still hold. A question about the home gets the new one first, one
// about the email or the plan the message that says them, never ended. A move after a
// message that told the home alone supersedes that message, as before.
func TestRecallChangeOfOneClause(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	c.remember(sp, []any{
		userSaid("all", "I live in Lisbon, I'm on the Basic plan, and my email is ana@example.com.", "2026-03-10T10:00:00Z"),
		userSaid("cat", "My cat Pixel sleeps on the keyboard.", "2026-04-02T10:00:00Z"),
		userSaid("move", "I moved to Berlin.", "2026-06-10T10:00:00Z"),
	})
	const asked = "2026-06-20T10:00:00Z"
	first := func(query string) realm.Node {
		rec := c.recall(sp, map[string]any{"query": query, "time": asked})
		for _, n := range rec.Nodes {
			if n.Node.Type == realm.Event || n.Node.Type == realm.Fact {
				return n.Node
			}
		}
		t.Fatalf("%q: no event or fact recalled: %s", query, said(rec.Nodes))
		return realm.Node{}
	}
	if n := first("Where does the user live?"); !slices.Contains(n.Sources, "move") {
		t.Errorf("where does the user live: first %q, want the move", n.Content)
	}
	if n := first("What is the user's email?"); !strings.Contains(n.Content, "ana@example.com") || n.ValidUntil != nil {
		t.Errorf("the user's email: first %q (valid until %v), want a memory of the email that holds", n.Content, n.ValidUntil)
	}
	if n := first("What plan was the user on in May?"); !strings.Contains(n.Content, "Basic plan") || n.ValidUntil != nil {
		t.Errorf("the plan in May: first %q (valid until %v), want a memory of the Basic plan that holds", n.Content, n.ValidUntil)
	}
	for _, n := range c.memories(sp, "limit=100") {
		if (strings.Contains(n.Content, "ana@example.com") || strings.Contains(n.Content, "Basic plan")) && n.ValidUntil != nil {
			t.Errorf("%q ended at %v: a move ends no email or plan", n.Content, n.ValidUntil)
		}
	}

	// A message that told the home alone is superseded whole.
	alone := "/v1/spaces/" + cyphertest.NewSpace(t)
	c.remember(alone, []any{
		userSaid("home", "I live in Lisbon.", "2026-03-10T10:00:00Z"),
		userSaid("move", "I moved to Berlin.", "2026-06-10T10:00:00Z"),
	})
	for _, n := range c.memories(alone, "limit=100") {
		if slices.Contains(n.Sources, "home") && (n.Type == realm.Event || n.Type == realm.Fact) && n.ValidUntil == nil {
			t.Errorf("%q holds, want it superseded by the move", n.Content)
		}
	}
}
