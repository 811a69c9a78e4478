package offline

import (
	"fmt"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// TestSummarySessionsDistinct: the summary counts each session once, however its messages
// interleave with those of other sessions (ten conversations at once, the agent seeing the
// last five messages), and a summary written before sessions were named beside the
// latest one reads as before; the summary still round-trips.
func TestSummarySessionsDistinct(t *testing.T) {
	a := New(Options{})
	summary := ""
	var recent []realm.Observation
	for i := range 100 {
		s := i % 10
		obs := obsAt(fmt.Sprintf("m%d", i), fmt.Sprintf("s%d", s), fmt.Sprintf("Person%c", 'A'+s), fmt.Sprintf("I walked %d miles today.", i))
		summary = mustExtract(t, a, agent.ExtractInput{Observation: obs, Summary: summary, Recent: recent}).Summary
		recent = append(recent, obs)
		if len(recent) > 5 {
			recent = recent[1:]
		}
	}
	if !strings.Contains(summary, "Sessions: 10, latest s9 on ") {
		t.Errorf("summary %q, want 10 sessions, the latest s9", summary)
	}
	if got := parseSummary(summary).String(); got != summary {
		t.Errorf("summary does not round-trip:\n%q\n%q", summary, got)
	}

	old := "Participants: Caroline, Melanie. Sessions: 3, latest s3 on 8 May 2023."
	for _, tt := range []struct{ session, want string }{{"s3", "Sessions: 3, latest s3 on "}, {"s4", "Sessions: 4, latest s4 on "}} {
		got := mustExtract(t, a, agent.ExtractInput{Observation: obsAt("o", tt.session, "Caroline", "I went home."), Summary: old}).Summary
		if !strings.Contains(got, tt.want) {
			t.Errorf("after %q, a message of %s: %q, want %q", old, tt.session, got, tt.want)
		}
	}
}
