package offline

import (
	"slices"
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

// repliedName is whom a turn's memory says it replies to, "" for no one.
func repliedName(turn agent.Candidate) string {
	_, to, _ := strings.Cut(turn.Description, ", in reply to ")
	return strings.TrimSuffix(to, ".")
}

// A team's group chat: Dave opens it, Alice asks Bob, Bob answers, Carol asks the team.
var (
	daveOpens  = said("o0", "chat", "Dave", "Morning all, the release is on Thursday.", 0)
	aliceAsks  = said("o1", "chat", "Alice", "Bob, can you review the backoff PR today?", 1)
	bobAnswers = said("o2", "chat", "Bob", "Sure Alice, I'll review it after lunch.", 2)
	carolAsks  = said("o3", "chat", "Carol", "Who takes the on-call shift this weekend?", 3)
)

// TestOfflineReplyInTime: a turn replies to the one said just before it, however late
// either came: a batch sent in reverse order, or a message sent after later ones.
func TestOfflineReplyInTime(t *testing.T) {
	a := New(Options{})
	for _, tt := range []struct {
		name    string
		recent  []realm.Observation // in the order they came
		replyTo string              // "": a reply to no one
	}{
		{"InOrder", []realm.Observation{aliceAsks}, "Alice"},
		{"Late", []realm.Observation{aliceAsks, carolAsks}, "Alice"},
		{"Reversed", []realm.Observation{carolAsks}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			turn := turnOf(t, mustExtract(t, a, agent.ExtractInput{Observation: bobAnswers, Recent: tt.recent}))
			if to := repliedName(turn); to != tt.replyTo {
				t.Errorf("%q (%s): in reply to %q, want %q", turn.Content, turn.Description, to, tt.replyTo)
			}
		})
	}
}

// TestOfflineReplyToWhomCalled: a turn calling someone else by name answers not the turn
// before it; one calling its speaker does.
func TestOfflineReplyToWhomCalled(t *testing.T) {
	a := New(Options{})
	for _, tt := range []struct {
		speaker, text, replyTo string
	}{
		{"Carol", "Dave, you own the release notes this sprint.", ""},
		{"Carol", "Bob, you own the release notes this sprint.", "Bob"},
		{"Carol", "You own the release notes this sprint.", "Bob"},
	} {
		turn := turnOf(t, mustExtract(t, a, agent.ExtractInput{Observation: said("o9", "chat", tt.speaker, tt.text, 9), Recent: []realm.Observation{daveOpens, aliceAsks, bobAnswers}}))
		if to := repliedName(turn); to != tt.replyTo {
			t.Errorf("%q: %q in reply to %q, want %q", tt.text, turn.Content, to, tt.replyTo)
		}
	}
}

// TestOfflineCalledByName: "you" is whom the turn calls by name — a known person, or in a
// group anyone — before the latest other speaker; in a chat of two, the other speaker.
func TestOfflineCalledByName(t *testing.T) {
	a := New(Options{})
	dave, alice, bob, carol := daveOpens, aliceAsks, bobAnswers, carolAsks
	for _, tt := range []struct {
		speaker, text string
		recent        []realm.Observation
		want          string
	}{
		{"Carol", "Dave, you own the release notes this sprint.", []realm.Observation{alice, bob}, "Dave owns the release notes"},
		{"Carol", "@dave you own the release notes this sprint.", []realm.Observation{dave, alice, bob}, "Dave owns the release notes"},
		{"Carol", "@dave you own the release notes this sprint.", []realm.Observation{bob}, "dave owns the release notes"},
		{"Alice", "OK Dave, I'll take your on-call shift.", []realm.Observation{dave, bob, carol}, "Alice will take Dave's on-call shift"},
		{"Alice", "Thanks Dave, your notes were clear.", []realm.Observation{dave, bob, carol}, "Dave's notes were clear"},
		{"Alice", "Thank you, Dave, your notes were clear.", []realm.Observation{dave, bob, carol}, "Dave's notes were clear"},
		{"Alice", "Can you take the on-call shift on Saturday, Dave?", []realm.Observation{dave, bob, carol}, "Can Dave take the on-call shift"},
		// A short name is never the speaker's own: Melanie calls another Mel.
		{"Melanie", "Mel, you left your keys at the office.", []realm.Observation{said("o0", "chat", "Melanie", "Who has the spare keys?", 0), alice, bob}, "Mel left Mel's keys"},
		// A word of reply set apart calls no one, in a group too.
		{"Carol", "Perfect, you nailed the release notes.", []realm.Observation{alice, bob}, "Bob nailed the release notes"},
		// A handle calling everyone leaves "you" to everyone.
		{"Carol", "@here can you review the release notes today?", []realm.Observation{alice, bob}, "@here can you review"},
		// In a chat of two, "you" is the other speaker, however the turn calls them.
		{"Bob", "Thanks, Mel! You were right about the backoff.", []realm.Observation{alice}, "Alice was right"},
		{"Bob", "Perfect, you were right about the backoff.", []realm.Observation{alice}, "Alice was right"},
	} {
		obs := said("o9", "chat", tt.speaker, tt.text, 9)
		if got := turnOf(t, mustExtract(t, a, agent.ExtractInput{Observation: obs, Recent: tt.recent})); !strings.Contains(got.Content, tt.want) {
			t.Errorf("%s: %q (after %d turns): %q, want it to say %q", tt.speaker, tt.text, len(tt.recent), got.Content, tt.want)
		}
	}
	// A short name called, known as a participant, is the speaker whose name it opens.
	mel := mustExtract(t, a, agent.ExtractInput{Observation: said("o9", "s2", "Caroline", "Wow, Mel, you glazed the clay bowl yourself?", 9),
		Summary: "Participants: Caroline, Mel.", Recent: []realm.Observation{said("o8", "s2", "Melanie", "I finished the clay bowl today.", 8)}})
	if got := turnOf(t, mel).Content; !strings.Contains(got, "Melanie glazed the clay bowl") {
		t.Errorf("Mel called: %q, want Melanie glazed the clay bowl", got)
	}
}

// TestOfflineRolesAddressed: a tool's output and a system prompt are spoken to by no one:
// a user's "you" after a tool's output is the assistant, and a system prompt's "you" is
// the assistant, never the user.
func TestOfflineRolesAddressed(t *testing.T) {
	a := New(Options{})
	user := said("t0", "trip", "user", "Please find the cheapest flight to Oslo.", 0)
	assistant := said("t1", "trip", "assistant", "I will search for flights to Oslo.", 1)
	tool := said("t2", "trip", "tool", `{"flights":[{"carrier":"SAS","price":129,"url":"https://example.com/f/1?from=OSL"}]}`, 2)
	for _, tt := range []struct {
		speaker, text string
		recent        []realm.Observation
		want          string
	}{
		{"user", "You promised me a refund last week, did you send it?", []realm.Observation{user, assistant, tool}, "assistant promised user a refund"},
		{"user", "You promised me a refund last week, did you send it?", []realm.Observation{user, tool}, "assistant promised user a refund"},
		{"assistant", "Your cheapest option is SAS at 129 euros.", []realm.Observation{user, assistant, tool}, "user's cheapest option"},
		{"system", "You are a travel agent. Always answer in English.", []realm.Observation{user, assistant, tool}, "assistant is a travel agent"},
		{"system", "You are a travel agent. Always answer in English.", nil, "assistant is a travel agent"},
	} {
		obs := said("t9", "trip", tt.speaker, tt.text, 9)
		if got := turnOf(t, mustExtract(t, a, agent.ExtractInput{Observation: obs, Recent: tt.recent})); !strings.Contains(got.Content, tt.want) {
			t.Errorf("%s: %q (after %d turns): %q, want it to say %q", tt.speaker, tt.text, len(tt.recent), got.Content, tt.want)
		}
	}
	// Nor is either a turn's prompt, or a reply: the user's question is not quoted with its
	// "you" made the system's, nor the assistant's call with the tool's output.
	refund := said("t3", "trip", "user", "You promised me a refund last week, did you send it?", 3)
	for _, tt := range []struct {
		speaker, text string
		recent        []realm.Observation
	}{
		{"user", "You promised me a refund last week, did you send it?", []realm.Observation{assistant, tool}},
		{"system", "You are a travel agent. Always answer in English.", []realm.Observation{assistant, tool, refund}},
		{"tool", `{"flights":[{"carrier":"SAS","price":129,"url":"https://example.com/f/1?from=OSL"}]}`, []realm.Observation{user, assistant}},
	} {
		got := turnOf(t, mustExtract(t, a, agent.ExtractInput{Observation: said("t9", "trip", tt.speaker, tt.text, 9), Recent: tt.recent}))
		if got.InReplyTo != "" || len(got.AlsoFrom) > 0 || strings.Contains(got.Description, "in reply to") {
			t.Errorf("%s: %q: %q (%s), want no reply", tt.speaker, tt.text, got.Content, got.Description)
		}
	}
}

// TestOfflineChatUserNamed: an assistant's "you" is the name its session's user speaks
// under, whether the user's turn was said before the answer or only one said after it is
// stored (a batch sent in reverse order), or is none of the recent ones but one of the
// session's user's shown beside them (Session: sent out of order, in jobs); only a session
// whose user is never named keeps the role's word.
func TestOfflineChatUserNamed(t *testing.T) {
	a := New(Options{})
	asked := said("k1", "trip", "Kenji", "My wife Yumi and our son Haru will come.", 0)
	later := said("k3", "trip", "Kenji", "In 2024 we went to Iceland for the northern lights.", 4)
	otherTrip := said("k0", "plans", "Kenji", "Any tips for packing light?", -60)
	tool := said("k4", "trip", "tool", `{"status":"ok"}`, 5)
	noted := said("k2", "trip", "assistant", "Noted: Yumi and Haru are travelling with you.", 2)
	for _, tt := range []struct {
		name    string
		recent  []realm.Observation
		session []realm.Observation
		want    string
	}{
		{"InOrder", []realm.Observation{asked}, nil, "travelling with Kenji"},
		{"Reversed", []realm.Observation{tool, later}, nil, "travelling with Kenji"},
		{"Session", []realm.Observation{otherTrip}, []realm.Observation{later}, "travelling with Kenji"},
		{"OtherSession", []realm.Observation{otherTrip}, nil, "travelling with user"},
		{"NoUser", []realm.Observation{tool}, nil, "travelling with user"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := agent.ExtractInput{Observation: noted, Recent: tt.recent, Session: tt.session}
			if got := turnOf(t, mustExtract(t, a, in)).Content; !strings.Contains(got, tt.want) {
				t.Errorf("%q, want it to say %q", got, tt.want)
			}
		})
	}
}

// TestOfflineToolNoPerson: a tool is no person, nor is a word of its output a person
// the conversation does not know: an error's name, a service, an error number's label.
// A person the conversation knows, named in it, is one.
func TestOfflineToolNoPerson(t *testing.T) {
	a := New(Options{})
	call := said("t1", "trip", "assistant", "Booking TP218 for you and Ana now.", 1)
	for _, tt := range []struct {
		text    string
		persons []string
	}{
		{"Error: DeadlockDetected from Neo4j (Errno 11)", nil},
		{`{"status": "Confirmed", "passenger": "Ana", "note": "Seat held"}`, []string{"Ana"}},
	} {
		ext := mustExtract(t, a, agent.ExtractInput{Observation: said("t2", "trip", "tool", tt.text, 2),
			Summary: "Participants: user, assistant, Ana.", Recent: []realm.Observation{call}})
		var persons []string
		for _, e := range ofType(ext.Candidates, realm.Entity) {
			if e.Category == "person" {
				persons = append(persons, e.Name)
			}
		}
		if !slices.Equal(persons, tt.persons) {
			t.Errorf("%q: persons %v, want %v", tt.text, persons, tt.persons)
		}
	}
}

// TestOfflineOtherSessions: "you" and an episode's participants are never a speaker of
// another conversation the speaker had no part in, nor of a group's meeting the speaker
// was one of three or more in; the one speaker the speaker talked with in an earlier
// session is, when no one else has spoken yet.
func TestOfflineOtherSessions(t *testing.T) {
	a := New(Options{})
	standup := said("a1", "standup", "Alice", "Morning team, the release is on Thursday.", 0)
	toolSaid := said("b1", "research", "tool", `{"tool":"web_search","results":[{"url":"https://example.org/neo4j-retry"}]}`, 2)
	asked := said("b2", "research", "researcher", "Did you see that the Go driver retries transient errors?", 3)
	for _, tt := range []struct {
		name    string
		obs     realm.Observation
		recent  []realm.Observation
		episode string // the episode's content, "" for none
		says    string // what the turn's memory says
	}{
		{"ToolOpens", toolSaid, []realm.Observation{standup}, "Conversation with tool on 22 November 2026, 9:02 am (session research).", ""},
		{"SpeakerAfterTool", asked, []realm.Observation{standup, toolSaid}, "", "Did you see that the Go driver retries"},
		{"SameTwoLater", said("c3", "s2", "Caroline", "Did you finish the pottery class?", 9),
			[]realm.Observation{said("c1", "s1", "Caroline", "I went to the support group.", 0), said("c2", "s1", "Melanie", "That's so brave of you!", 1)},
			"Conversation between Caroline and Melanie on 22 November 2026, 9:09 am (session s2).", "Did Melanie finish the pottery class"},
		{"AfterAGroup", said("m4", "weekly-2", "Mei", "Did you read the interview notes?", 9),
			[]realm.Observation{said("m1", "weekly-1", "Mei", "I'll run five user interviews next week.", 0),
				said("m2", "weekly-1", "Diego", "Checkout tests are in.", 1), said("m3", "weekly-1", "Sara", "Thanks, both.", 2)},
			"Conversation with Mei on 22 November 2026, 9:09 am (session weekly-2).", "Did you read the interview notes"},
		// The author of words pasted after "Emma wrote:" is quoted, not called.
		{"AuthorPasted", said("d1", "s3", "Priya", "Emma wrote: I signed the offer yesterday.", 0), nil,
			"Conversation with Priya on 22 November 2026, 9:00 am (session s3).", "Emma signed the offer"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ext := mustExtract(t, a, agent.ExtractInput{Observation: tt.obs, Recent: tt.recent})
			var episode string
			for _, ep := range ofType(ext.Candidates, realm.Episode) {
				episode = ep.Content
			}
			if episode != tt.episode {
				t.Errorf("episode %q, want %q", episode, tt.episode)
			}
			if tt.says != "" && !strings.Contains(turnOf(t, ext).Content, tt.says) {
				t.Errorf("%q, want it to say %q", turnOf(t, ext).Content, tt.says)
			}
		})
	}
}
