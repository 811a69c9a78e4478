package offline

import (
	"slices"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// intakeAt is when an assistant asks a user its intake questions.
var intakeAt = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// TestOfflineShortAnswers: a short yes or no to the other speaker's question is one memory
// joining the two, a statement when the rules read the question, else the exchange; a
// short answer to no question, or to a question of no content, is none.
func TestOfflineShortAnswers(t *testing.T) {
	a := New(Options{})
	for _, tt := range []struct {
		asked, answer string
		want          string // the one memory, "" for none
	}{
		{"Do you smoke?", "No, never.", "user does not smoke."},
		{"Do you smoke?", "Yes.", "user smokes."},
		{"Does anyone in your family have heart disease?", "Yes, my father.", "user's father has heart disease."},
		{"Does anyone in your family have heart disease?", "No.", "no one in user's family has heart disease."},
		{"Are you taking any blood thinners?", "No.", "user is not taking any blood thinners."},
		{"Is your mother diabetic?", "Yes, type 2.", "user's mother is diabetic, type 2."},
		{"Do you have any drug allergies?", "Yep.", "user has drug allergies."},
		{"Have you ever had surgery?", "Nope.", "user has not had surgery."},
		{"Do your parents smoke?", "No.", "user's parents do not smoke."},
		{"Can you walk without pain?", "Not really.", "user cannot walk without pain."},
		// A question the rules do not read: the exchange.
		{"Thanks. So, is Mochi still limping?", "Yes, a bit.", `assistant asked: "So, is Mochi still limping?" user: Yes, a bit.`},
		// Negative: no question, a question of no content, an answer that is no yes or no.
		{"I booked the dentist.", "Yes.", ""},
		{"Are you okay?", "Yes!", ""},
		{"Did you go?", "No.", ""},
		{"Do you smoke?", "Ok.", ""},
	} {
		q := realm.Observation{ID: "a1", SessionID: "s", Speaker: "assistant", Content: tt.asked, ObservedAt: intakeAt}
		ans := realm.Observation{ID: "u2", SessionID: "s", Speaker: "user", Content: tt.answer, ObservedAt: intakeAt.Add(time.Minute)}
		ms := memoriesOf(mustExtract(t, a, agent.ExtractInput{Observation: ans, Recent: []realm.Observation{q}}))
		var got []string
		for _, m := range ms {
			got = append(got, m.Content)
		}
		switch {
		case tt.want == "" && len(ms) > 0:
			t.Errorf("%q — %q: memories %q, want none", tt.asked, tt.answer, got)
		case tt.want != "" && (len(ms) != 1 || ms[0].Content != tt.want):
			t.Errorf("%q — %q: memories %q, want %q", tt.asked, tt.answer, got, tt.want)
		case tt.want != "" && (ms[0].InReplyTo != "a1" || !slices.Contains(ms[0].AlsoFrom, "a1")):
			t.Errorf("%q — %q: in reply to %q, also from %q; want the question's turn", tt.asked, tt.answer, ms[0].InReplyTo, ms[0].AlsoFrom)
		}
	}
}

// TestOfflineAnswerMergesIntoQuestion: a joined answer merges into the memory of its
// question when that memory is the question alone, which stays no fact of its own; an
// exchange, which quotes the question, and a question told with news stay apart.
func TestOfflineAnswerMergesIntoQuestion(t *testing.T) {
	a := New(Options{})
	for _, tt := range []struct {
		asked, answer string
		merged        bool
	}{
		{"Does anyone in your family have heart disease?", "Yes, my father.", true},
		{"Is your mother diabetic?", "Yes, type 2.", true},
		{"Thanks. So, is Mochi still limping?", "Yes, a bit.", false},
		{"I moved the dentist to Friday. Is your mother diabetic?", "Yes, type 2.", false},
	} {
		q := realm.Observation{ID: "a1", SessionID: "s", Speaker: "assistant", Content: tt.asked, ObservedAt: intakeAt}
		ans := realm.Observation{ID: "u2", SessionID: "s", Speaker: "user", Content: tt.answer, ObservedAt: intakeAt.Add(time.Minute)}
		var asked agent.Candidate
		for _, c := range memoriesOf(mustExtract(t, a, agent.ExtractInput{Observation: q})) {
			if c.Part == 0 && asked.Content == "" {
				asked = c
			}
		}
		node := realm.Node{ID: "q1", Type: asked.Type, Content: asked.Content, Sources: []string{"a1"}}
		ms := memoriesOf(mustExtract(t, a, agent.ExtractInput{Observation: ans, Recent: []realm.Observation{q}}))
		if len(ms) == 0 {
			t.Errorf("%q — %q: no memory", tt.asked, tt.answer)
			continue
		}
		c := ms[0]
		out := mustIntegrate(t, agent.IntegrateInput{Observation: ans,
			Candidates: []agent.CandidateContext{{Candidate: c, Neighbours: []agent.Neighbour{{Node: node, Recent: true}}}}})
		if merged := out[0].Action == agent.ActionMerge && out[0].MergeInto == "q1" && out[0].Merged == c.Content; merged != tt.merged {
			t.Errorf("%q (%q) — %q: %s into %q as %q, want merged %v", tt.asked, node.Content, c.Content, out[0].Action, out[0].MergeInto, out[0].Merged, tt.merged)
		}
	}
}
