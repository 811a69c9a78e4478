package llm

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/agent/agenttest"
)

// TestLLMValidity: the integrate prompt explains supersedes and contradicts with validity
// and shows a neighbour's end of validity; the schema carries valid_until, which a
// supersedes edge keeps, other predicates drop, and a bad date sends back for repair.
func TestLLMValidity(t *testing.T) {
	in := func() agent.IntegrateInput {
		in := integrateInput()
		ended := time.Date(2023, 1, 2, 0, 0, 0, 0, time.UTC)
		in.Candidates[1].Neighbours[0].Node.ValidUntil = &ended
		return in
	}
	withUntil := func(e map[string]any, until string) map[string]any { e["valid_until"] = until; return e }
	t.Run("OK", func(t *testing.T) {
		l := newTestLLM(t, nil)
		l.fake.Enqueue(agenttest.JSON(t, decisions(
			decision("C0", "add", "", "", withUntil(edge("add", "self", "N1", "correlates", 0.6), "2023-01-01")),
			decision("C1", "add", "", "", withUntil(edge("add", "self", "N2", "supersedes", 0.9), "2023-05-01"),
				withUntil(edge("add", "self", "C0", "contradicts", 0.7), "")),
		), 10, 5))
		got, _, err := l.Integrate(context.Background(), in())
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range append(got[0].Edges, got[1].Edges...) {
			switch {
			case e.Predicate == realm.Supersedes && (e.ValidUntil == nil || !e.ValidUntil.Equal(time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC))):
				t.Errorf("supersedes valid_until = %v, want 2023-05-01", e.ValidUntil)
			case e.Predicate != realm.Supersedes && e.ValidUntil != nil:
				t.Errorf("%s keeps valid_until %v", e.Predicate, e.ValidUntil)
			}
		}
		r := l.fake.Requests()[0]
		if !strings.Contains(r.LastUser(), "(superseded: no longer true since 2023-01-02)") {
			t.Errorf("user prompt does not show the neighbour's end of validity:\n%s", r.LastUser())
		}
		for _, want := range []string{"valid_until", `write "contradicts" instead`} {
			if !strings.Contains(r.System(), want) {
				t.Errorf("system prompt lacks %q", want)
			}
		}
		if !strings.Contains(string(r.Body), `"valid_until"`) {
			t.Errorf("schema lacks valid_until")
		}
	})
	t.Run("ErrBadDateRepaired", func(t *testing.T) {
		l := newTestLLM(t, nil)
		bad := decisions(decision("C0", "add", "", ""), decision("C1", "add", "", "", withUntil(edge("add", "self", "N2", "supersedes", 0.9), "last spring")))
		good := decisions(decision("C0", "add", "", ""), decision("C1", "add", "", "", withUntil(edge("add", "self", "N2", "supersedes", 0.9), "")))
		l.fake.Enqueue(agenttest.JSON(t, bad, 10, 5), agenttest.JSON(t, good, 10, 5))
		got, _, err := l.Integrate(context.Background(), in())
		if err != nil {
			t.Fatal(err)
		}
		if reqs := l.fake.Requests(); len(reqs) != 2 || !reqs[1].Contains("valid_until") {
			t.Fatalf("%d requests; want a repair naming valid_until", len(reqs))
		}
		if e := got[1].Edges; len(e) != 1 || e[0].ValidUntil != nil {
			t.Errorf("edges %+v, want one supersedes without valid_until (the write path dates it)", e)
		}
	})
}

// TestParseDateInZone: a date without a zone is read in the memory's zone, a time with
// one as given.
func TestParseDateInZone(t *testing.T) {
	zone := time.FixedZone("UTC-8", -8*3600)
	for s, want := range map[string]time.Time{
		"2026-03-02":           time.Date(2026, 3, 2, 0, 0, 0, 0, zone),
		"2026-03-02T18:30:00":  time.Date(2026, 3, 2, 18, 30, 0, 0, zone),
		"2026-03-02T18:30:00Z": time.Date(2026, 3, 2, 18, 30, 0, 0, time.UTC),
	} {
		got, err := parseDate(s, zone)
		if err != nil || got == nil || !got.Equal(want) {
			t.Errorf("parseDate(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
}
