package bench_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/realm-memory/realm/bench"
)

func TestLoadLoCoMo(t *testing.T) {
	samples, err := bench.LoadLoCoMo("testdata/locomo-mini.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(samples) != 2 || samples[1].ID != "mini-2" || len(samples[1].Questions) != 6 {
		t.Fatalf("got %d samples", len(samples))
	}
	s := samples[0]
	if s.SpeakerA != "Ana" || s.SpeakerB != "Ben" {
		t.Errorf("speakers %q %q", s.SpeakerA, s.SpeakerB)
	}
	if len(s.Sessions) != 2 || s.Sessions[0].Number != 1 || s.Sessions[1].Number != 2 {
		t.Fatalf("sessions %+v, want 1 and 2 in order (session_3 has a date only)", s.Sessions)
	}
	if want := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC); !s.Sessions[0].Date.Equal(want) {
		t.Errorf("date %v, want %v", s.Sessions[0].Date, want)
	}
	if got := s.Sessions[1].Turns[1].Text; got != "Look at this [shares a photo of a photo of a lake]" {
		t.Errorf("caption text %q", got)
	}
	obs := s.Observations()
	if len(obs) != 4 || obs[0].ID != "D1:1" || obs[2].ID != "D2:1" || obs[2].SessionID != "session_2" {
		t.Fatalf("observations %+v", obs)
	}
	if !obs[1].ObservedAt.After(obs[0].ObservedAt) {
		t.Error("turns of a session are not time-ordered")
	}
	q := s.Questions
	if q[2].Answer != "2023" || q[3].Answer != "nothing" || q[3].Category != 5 {
		t.Errorf("answers %q %q", q[2].Answer, q[3].Answer)
	}
	if !reflect.DeepEqual(q[1].Evidence, []string{"D1:2", "D2:1"}) {
		t.Errorf("evidence %v", q[1].Evidence)
	}
	if !reflect.DeepEqual(q[2].Evidence, []string{"D2:1"}) || !reflect.DeepEqual(q[2].Skipped, []string{"junk"}) {
		t.Errorf("lenient evidence %v skipped %v", q[2].Evidence, q[2].Skipped)
	}
}

func TestParseEvidence(t *testing.T) {
	tests := []struct {
		in      []string
		ids     []string
		skipped []string
	}{
		{[]string{"D8:6; D9:17"}, []string{"D8:6", "D9:17"}, nil},
		{[]string{"D:11:26"}, []string{"D11:26"}, nil},
		{[]string{"D30:05"}, []string{"D30:5"}, nil},
		{[]string{"D1:3", "D1:3"}, []string{"D1:3"}, nil},
		{[]string{"none"}, nil, []string{"none"}},
	}
	for _, tt := range tests {
		ids, skipped := bench.ParseEvidence(tt.in)
		if !reflect.DeepEqual(ids, tt.ids) || !reflect.DeepEqual(skipped, tt.skipped) {
			t.Errorf("ParseEvidence(%q) = %v, %v; want %v, %v", tt.in, ids, skipped, tt.ids, tt.skipped)
		}
	}
}

// TestSamplesWithoutSessionIDs: the turns are sent without session ids, as they were
// otherwise (ids, speakers, words, times), and the samples read keep theirs.
func TestSamplesWithoutSessionIDs(t *testing.T) {
	samples, err := bench.LoadLoCoMo("testdata/locomo-mini.json")
	if err != nil {
		t.Fatal(err)
	}
	with, without := samples[0].Observations(), bench.SamplesWithoutSessionIDs(samples)[0].Observations()
	if len(with) == 0 || len(without) != len(with) {
		t.Fatalf("%d observations without session ids, %d with", len(without), len(with))
	}
	for i, o := range without {
		if with[i].SessionID == "" || o.SessionID != "" {
			t.Errorf("turn %s: session id %q with, %q without", o.ID, with[i].SessionID, o.SessionID)
		}
		o.SessionID = with[i].SessionID
		if o != with[i] {
			t.Errorf("turn %s: %+v without session ids, %+v with", o.ID, o, with[i])
		}
	}
}

// TestSamplesAsChatRoles: Ana speaks as "user" and Ben as "assistant", the questions name
// them so, and the turns' words and the samples read stay as they were.
func TestSamplesAsChatRoles(t *testing.T) {
	samples, err := bench.LoadLoCoMo("testdata/locomo-mini.json")
	if err != nil {
		t.Fatal(err)
	}
	roles := bench.SamplesAsChatRoles(samples)
	s, r := samples[0], roles[0]
	var speakers, questions []string
	for _, turn := range r.Sessions[0].Turns {
		speakers = append(speakers, turn.Speaker)
	}
	for _, q := range r.Questions {
		questions = append(questions, q.Question)
	}
	if want := []string{"user", "assistant"}; !reflect.DeepEqual(speakers, want) || r.SpeakerA != "user" {
		t.Errorf("speakers %v (A %q), want %v", speakers, r.SpeakerA, want)
	}
	if want := []string{"When did the user go to a pottery class?", "What does the assistant love?", "Which year?", "What did the assistant's cat do?"}; !reflect.DeepEqual(questions, want) {
		t.Errorf("questions %q, want %q", questions, want)
	}
	if r.Sessions[0].Turns[0].Text != s.Sessions[0].Turns[0].Text || s.Sessions[0].Turns[0].Speaker != "Ana" || s.Questions[0].Question != "When did Ana go to a pottery class?" {
		t.Errorf("the turns' words changed, or the samples read: %+v %+v", r.Sessions[0].Turns[0], s.Questions[0])
	}
}
