package offline

import (
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// teamAt is the morning of a team's group chat.
var teamAt = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

// said is a message of session s at minute m of teamAt.
func said(id, s, speaker, content string, m int) realm.Observation {
	return realm.Observation{ID: id, SessionID: s, Speaker: speaker, Content: content, ObservedAt: teamAt.Add(time.Duration(m) * time.Minute)}
}

// turnOf is the whole-turn memory of ext: the first event or fact.
func turnOf(tb testing.TB, ext agent.Extraction) agent.Candidate {
	tb.Helper()
	ms := memoriesOf(ext)
	if len(ms) == 0 {
		tb.Fatalf("no memory in %+v", ext.Candidates)
	}
	return ms[0]
}

// TestOfflineReplyInTime: a turn replies to the one said just before it, however late
// either came: a batch sent in reverse order, or a message sent after later ones.
func TestOfflineReplyInTime(t *testing.T) {
	a := New(Options{})
	asked := said("o0", "chat", "Alice", "Bob, can you review the backoff PR today?", 0)
	answer := said("o1", "chat", "Bob", "Sure Alice, I'll review it after lunch.", 1)
	carol := said("o2", "chat", "Carol", "Is the release on Thursday?", 2)
	dave := said("o3", "chat", "Dave", "OK Carol, I'll write them by Friday.", 3)
	for _, tt := range []struct {
		name    string
		recent  []realm.Observation // in the order they came
		replyTo string              // "": a reply to no one
	}{
		{"InOrder", []realm.Observation{asked}, "Alice"},
		{"Late", []realm.Observation{asked, carol}, "Alice"},
		{"Reversed", []realm.Observation{dave, carol}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			turn := turnOf(t, mustExtract(t, a, agent.ExtractInput{Observation: answer, Recent: tt.recent}))
			_, to, _ := strings.Cut(turn.Description, ", in reply to ")
			if to = strings.TrimSuffix(to, "."); to != tt.replyTo {
				t.Errorf("%q (%s): in reply to %q, want %q", turn.Content, turn.Description, to, tt.replyTo)
			}
		})
	}
}
