package api

import (
	"fmt"
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
	var rec realm.RecallResult
	if code := c.do("POST", sp+"/recall", map[string]any{"query": "Where does the user live?"}, &rec).StatusCode; code != http.StatusOK {
		t.Fatalf("recall: %d", code)
	}
	score := map[string]float64{}
	var got []string
	for _, n := range rec.Nodes {
		if (n.Node.Type == realm.Event || n.Node.Type == realm.Fact) && len(n.Node.Sources) == 1 {
			if _, ok := score[n.Node.Sources[0]]; !ok {
				score[n.Node.Sources[0]] = n.Score
			}
		}
		got = append(got, fmt.Sprintf("%.3f %s", n.Score, n.Node.Content))
	}
	if score["h3"] == 0 || score["h3"] <= score["h2"] || score["h3"] <= score["h1"] {
		t.Fatalf("Valencia %.4f, Madrid %.4f, Lisbon %.4f: want Valencia strictly first: %s", score["h3"], score["h2"], score["h1"], strings.Join(got, " | "))
	}
}
