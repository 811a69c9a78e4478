package retrieval

import (
	"testing"
	"time"

	"github.com/realm-memory/realm"
)

// TestNamesUnchanged: a superseded memory is asked about aside from what changed only
// when the question names something it names (a name, or the noun introducing one) that
// the change does not say; words it merely shares with the question do not count.
func TestNamesUnchanged(t *testing.T) {
	tests := []struct {
		query, old, change string
		want               bool
	}{
		{"What is the name of Nora's dog?", "Nora lives in Lisbon with Nora's dog Biscuit.", "Nora moved from Lisbon to Berlin.", true},
		{"How is Biscuit?", "Nora lives in Lisbon with our dog, Biscuit.", "Nora moved from Lisbon to Berlin.", true},
		{"Who is the user's partner?", "user lives in Lisbon with user's partner Tomás.", "user moved to Berlin.", true},
		{"Where does Nora live now?", "Nora lives in Lisbon with Nora's dog Biscuit.", "Nora moved from Lisbon to Berlin. Nora lives in: Berlin", false},
		{"Which package manager do we use?", "user: We use npm for JavaScript packages.", "user: We switched from npm to pnpm last week.", false},
		{"Which JavaScript packages do we use?", "user: We use npm for JavaScript packages.", "user: We switched from npm to pnpm last week.", true},
		{"Which database do we use?", "user: We use Postgres 14 for the database.", "user: We switched from Postgres 14 to Postgres 16.", false},
		{"Is the user still with Tomás?", "user lives with user's partner Tomás.", "Tomás and user broke up.", false},
		{"Am I going to Lisbon in October?", "Kat and user is planning a trip to Lisbon in October, just the two of us.", "Kat and user cancelled the Lisbon trip. user: no longer Lisbon trip", false},
	}
	for _, tt := range tests {
		if got := namesUnchanged(tt.query, tt.old, tt.change); got != tt.want {
			t.Errorf("%q about %q (changed by %q): %v, want %v (named %v)", tt.query, tt.old, tt.change, got, tt.want, namedIn(tt.old))
		}
	}
}

// TestPastQuestion: a past tense asks about the past, but not that of a decision, which
// asks for what was decided; a present cue wins.
func TestPastQuestion(t *testing.T) {
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		query string
		want  bool
	}{
		{"Where did Nora live before?", true},
		{"What was Ben's job?", true},
		{"Where does Nora live now?", false},
		{"What did we decide about the database?", false},
		{"What did the team agree on for the launch?", false},
		{"What was decided about the database?", false},
		{"What did we decide before the upgrade?", true},
		{"How old was Quin last year?", true},
	}
	for _, tt := range tests {
		if got := pastQuestion(tt.query, nil, now); got != tt.want {
			t.Errorf("%q: past %v, want %v", tt.query, got, tt.want)
		}
	}
}

// TestPastQuestionRange: a time range that ended before the question asks about the past,
// unless the question asks about what is to come: a plan cancelled since is no answer to
// "Am I going to Lisbon in October?", asked in November.
func TestPastQuestionRange(t *testing.T) {
	now := time.Date(2026, 11, 29, 23, 0, 0, 0, time.UTC)
	october := []realm.Plan{{TimeRange: &realm.TimeRange{From: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2026, 10, 31, 23, 59, 59, 0, time.UTC)}}}
	for _, tt := range []struct {
		query string
		want  bool
	}{
		{"What happened in October?", true},
		{"Am I going to Lisbon in October?", false},
		{"Will Nora visit Lisbon in October?", false},
		{"Was I going to Lisbon in October?", true},
	} {
		if got := pastQuestion(tt.query, october, now); got != tt.want {
			t.Errorf("%q: past %v, want %v", tt.query, got, tt.want)
		}
	}
}

// TestNamesSlot: a question names the slot a supersedes edge's description opens with,
// past its subject and names; the subject alone, or a description without a slot, does not
// count.
func TestNamesSlot(t *testing.T) {
	tests := []struct {
		query, description string
		want               bool
	}{
		{"Which flights are we taking to Rome?", "Kenji's flight: NH223, LH1456, previously NH215, LH1454", true},
		{"Where does Nora live now?", "Nora lives in: Berlin, previously Lisbon", true},
		{"What is the name of Nora's dog?", "Nora lives in: Berlin, previously Lisbon", false},
		{"What is the name of the user's dog?", "user lives in: Berlin, previously Lisbon", false},
		{"Where is Kenji going?", "Kenji: We're going to Italy for the 3rd week of May (now June)", false},
		{"Which flight?", "flight changed", false},
		// A client's correction names who corrected and when, no slot: not the corrector's
		// name (a key's), nor a part of the time its first colon cuts.
		{"What did counsel say about the notice period?", "changed by counsel as of 2026-06-01T10:00:00Z: Section 7.2: the notice period is 30 days", false},
		{"What did counsel say about the notice period?", "corrected by counsel: Section 7.2: the notice period is 30 days", false},
	}
	for _, tt := range tests {
		if got := namesSlot(tt.query, tt.description); got != tt.want {
			t.Errorf("%q, %q: %v, want %v", tt.query, tt.description, got, tt.want)
		}
	}
}
