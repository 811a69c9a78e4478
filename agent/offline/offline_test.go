package offline

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// offlineNow is a Monday: 8 May 2023, 1:56 pm (LoCoMo conv-26, session 1).
var offlineNow = time.Date(2023, time.May, 8, 13, 56, 0, 0, time.UTC)

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func obsAt(id, session, speaker, content string) realm.Observation {
	return realm.Observation{ID: id, Space: "t", SessionID: session, Speaker: speaker, Content: content, ObservedAt: offlineNow}
}

func mustExtract(tb testing.TB, a *Agent, in agent.ExtractInput) agent.Extraction {
	tb.Helper()
	ex, usage, err := a.Extract(context.Background(), in)
	if err != nil {
		tb.Fatal(err)
	}
	if len(usage) != 0 {
		tb.Fatalf("offline usage = %v, want none", usage)
	}
	return ex
}

func ofType(cs []agent.Candidate, t realm.NodeType) []agent.Candidate {
	var out []agent.Candidate
	for _, c := range cs {
		if c.Type == t {
			out = append(out, c)
		}
	}
	return out
}

func TestOfflineExtract(t *testing.T) {
	a := New(Options{})
	recent := []realm.Observation{obsAt("o0", "s1", "Melanie", "Hey Caroline!")}
	tests := []struct {
		name        string
		obs         realm.Observation
		recent      []realm.Observation
		wantTurn    realm.NodeType // type of the whole-turn candidate; "" for none
		wantContent string         // the whole-turn content
		wantStart   time.Time
		wantEntity  []string // entity names, in order
		wantEpisode bool
	}{
		{
			name: "EventWithRelativeDate", obs: obsAt("o1", "s1", "Caroline", "I went to a LGBTQ support group yesterday and it was so powerful."), recent: recent,
			wantTurn: realm.Event, wantContent: "Caroline went to a LGBTQ support group yesterday (7 May 2023) and it was so powerful.",
			wantStart: day(2023, 5, 7), wantEntity: []string{"Caroline", "LGBTQ"},
		},
		{
			name: "FactPreference", obs: obsAt("o1", "s1", "Caroline", "I'm keen on counseling - I'd love to support those with similar issues."), recent: recent,
			wantTurn: realm.Fact, wantContent: "Caroline is keen on counseling - Caroline would love to support those with similar issues.",
			wantEntity: []string{"Caroline"},
		},
		{
			name: "EventPastNoDateGetsObservationDay", obs: obsAt("o1", "s1", "Melanie", "You know, we painted the fence and watched the kids."), recent: []realm.Observation{obsAt("o0", "s1", "Caroline", "Hi")},
			wantTurn: realm.Event, wantContent: "Melanie: You know, we painted the fence and watched the kids.", wantStart: day(2023, 5, 8),
			wantEntity: []string{"Melanie"},
		},
		{
			name: "SecondPersonNamed", obs: obsAt("o1", "s1", "Caroline", "Your painting of the lake looks stunning!"), recent: recent,
			wantTurn: realm.Fact, wantContent: "Caroline: Melanie's painting of the lake looks stunning!",
			wantEntity: []string{"Caroline", "Melanie"},
		},
		{
			name: "Greeting", obs: obsAt("o1", "s1", "Caroline", "Hey Mel! Good to see you! How have you been?"), recent: recent,
			wantEntity: []string{"Mel", "Melanie"}, // "you" is Melanie, the other speaker
		},
		{
			name: "PlaceNamedIsContent", obs: obsAt("o1", "s1", "Caroline", "I moved to Lisbon last month."), recent: recent,
			wantTurn: realm.Event, wantContent: "Caroline moved to Lisbon last month (April 2023).", wantStart: time.Date(2023, 4, 1, 0, 0, 0, 0, time.UTC),
			wantEntity: []string{"Caroline", "Lisbon"},
		},
		{name: "Thanks", obs: obsAt("o1", "s1", "Caroline", "Thanks!"), recent: recent},
		{name: "ThanksNamed", obs: obsAt("o1", "s1", "Caroline", "Thanks, Melanie!"), recent: recent, wantEntity: []string{"Melanie"}},
		{name: "Lol", obs: obsAt("o1", "s1", "Caroline", "lol"), recent: recent},
		{name: "Courtesies", obs: obsAt("o1", "s1", "Caroline", "You're welcome, Melanie. Have a good shift!"), recent: recent, wantEntity: []string{"Melanie"}},
		{
			name: "WishWithContent", obs: obsAt("o1", "s1", "Caroline", "Good luck with the interview at Google!"), recent: recent,
			wantTurn: realm.Fact, wantContent: "Caroline: Good luck with the interview at Google!", wantEntity: []string{"Caroline", "Google"},
		},
		{
			name: "FirstOfSessionEpisode", obs: obsAt("o5", "s2", "Caroline", "Hi Melanie!"), recent: recent,
			wantEpisode: true, wantEntity: []string{"Melanie"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ex := mustExtract(t, a, agent.ExtractInput{Observation: tt.obs, Recent: tt.recent})
			units := append(ofType(ex.Candidates, realm.Event), ofType(ex.Candidates, realm.Fact)...)
			if tt.wantTurn == "" {
				if len(units) != 0 {
					t.Fatalf("filler yielded %+v", units)
				}
			} else {
				var turn *agent.Candidate
				for i := range ex.Candidates {
					if ex.Candidates[i].Content == tt.wantContent {
						turn = &ex.Candidates[i]
					}
				}
				if turn == nil {
					t.Fatalf("no candidate with the whole turn %q in %+v", tt.wantContent, ex.Candidates)
				}
				if turn.Type != tt.wantTurn {
					t.Errorf("type = %s, want %s", turn.Type, tt.wantTurn)
				}
				if tt.wantStart.IsZero() != (turn.TStart == nil) {
					t.Fatalf("TStart = %v, want %v", turn.TStart, tt.wantStart)
				}
				if turn.TStart != nil && !turn.TStart.Equal(tt.wantStart) {
					t.Errorf("TStart = %v, want %v", turn.TStart, tt.wantStart)
				}
				if n := len(turn.Keywords); n < 1 || n > 5 {
					t.Errorf("keywords = %q", turn.Keywords)
				}
				if turn.Type == realm.Event && (len(turn.Participants) == 0 || turn.Participants[0] != tt.obs.Speaker) {
					t.Errorf("participants = %q, want the speaker first", turn.Participants)
				}
			}
			var names []string
			for _, c := range ofType(ex.Candidates, realm.Entity) {
				names = append(names, c.Name)
			}
			if !reflect.DeepEqual(names, tt.wantEntity) {
				t.Errorf("entities = %q, want %q", names, tt.wantEntity)
			}
			eps := ofType(ex.Candidates, realm.Episode)
			if tt.wantEpisode != (len(eps) == 1) || len(eps) > 1 {
				t.Fatalf("episodes = %+v, want %v", eps, tt.wantEpisode)
			}
			if tt.wantEpisode {
				ep := eps[0]
				if ep.Name != tt.obs.SessionID || !strings.HasPrefix(ep.Content, "Conversation between Caroline and Melanie on 8 May 2023") {
					t.Errorf("episode = %q %q", ep.Name, ep.Content)
				}
				if ep.TStart == nil || !ep.TStart.Equal(day(2023, 5, 8)) {
					t.Errorf("episode TStart = %v", ep.TStart)
				}
			}
		})
	}
}

func TestOfflineExtractClauses(t *testing.T) {
	a := New(Options{})
	obs := obsAt("o1", "s1", "Melanie", "Hey Caroline, I've had a busy time. I ran a charity race last Saturday – it was really rewarding. My favourite book is Charlotte's Web.")
	ex := mustExtract(t, a, agent.ExtractInput{Observation: obs, Recent: []realm.Observation{obsAt("o0", "s1", "Caroline", "Hi")}})
	var race, book, whole *agent.Candidate
	for i, c := range ex.Candidates {
		switch {
		case strings.HasPrefix(c.Content, "Melanie ran a charity race"):
			race = &ex.Candidates[i]
		case strings.HasPrefix(c.Content, "Melanie's favourite book"):
			book = &ex.Candidates[i]
		case strings.HasPrefix(c.Content, "Hey Caroline"):
			whole = &ex.Candidates[i]
		}
	}
	if whole == nil || !strings.Contains(whole.Content, "last Saturday (Saturday 6 May 2023)") || !strings.Contains(whole.Content, "Charlotte's Web") {
		t.Fatalf("whole turn = %+v", whole)
	}
	if race == nil || race.Type != realm.Event || race.TStart == nil || !race.TStart.Equal(day(2023, 5, 6)) {
		t.Fatalf("race clause = %+v", race)
	}
	if book == nil || book.Type != realm.Fact || book.Subject != "Melanie" || book.Attribute != "favourite book" {
		t.Fatalf("book clause = %+v", book)
	}
}

func TestOfflineExtractEpisodeOnlyOnce(t *testing.T) {
	a := New(Options{})
	first := obsAt("o1", "s1", "Caroline", "Hi Melanie!")
	second := obsAt("o2", "s1", "Melanie", "Hey Caroline!")
	if n := len(ofType(mustExtract(t, a, agent.ExtractInput{Observation: first}).Candidates, realm.Episode)); n != 1 {
		t.Fatalf("first of session: %d episodes", n)
	}
	if n := len(ofType(mustExtract(t, a, agent.ExtractInput{Observation: second, Recent: []realm.Observation{first}}).Candidates, realm.Episode)); n != 0 {
		t.Fatalf("second of session: %d episodes", n)
	}
}

// TestOfflineExtractEpisodeADay: a chat sent without session ids has an episode a day,
// named by its day.
func TestOfflineExtractEpisodeADay(t *testing.T) {
	a := New(Options{})
	first := obsAt("o1", "", "user", "Hi, I need help planning a trip.")
	later := first
	later.ID, later.ObservedAt = "o2", first.ObservedAt.Add(30*time.Minute)
	nextDay := first
	nextDay.ID, nextDay.ObservedAt = "o3", first.ObservedAt.AddDate(0, 0, 1)
	for _, c := range []struct {
		obs    realm.Observation
		recent []realm.Observation
		want   []string // the episodes' names
	}{
		{first, nil, []string{"2023-05-08"}},
		{later, []realm.Observation{first}, nil},
		{nextDay, []realm.Observation{first, later}, []string{"2023-05-09"}},
	} {
		var names []string
		for _, ep := range ofType(mustExtract(t, a, agent.ExtractInput{Observation: c.obs, Recent: c.recent}).Candidates, realm.Episode) {
			names = append(names, ep.Name)
		}
		if !slices.Equal(names, c.want) {
			t.Errorf("%s at %s: episodes %v, want %v", c.obs.ID, c.obs.ObservedAt, names, c.want)
		}
	}
}

// TestOfflineLetUs: "Let's" opening a turn addresses nobody called Let.
func TestOfflineLetUs(t *testing.T) {
	eps := ofType(mustExtract(t, New(Options{}), agent.ExtractInput{Observation: obsAt("o1", "s1", "user", "Let's talk about dinner tonight.")}).Candidates, realm.Episode)
	if len(eps) != 1 || strings.Contains(eps[0].Content, "Let") || !strings.Contains(eps[0].Content, "Conversation with user") {
		t.Errorf("episodes %+v, want one conversation with user alone", eps)
	}
}

func TestOfflineSummary(t *testing.T) {
	a := New(Options{})
	turns := []realm.Observation{
		obsAt("o1", "s1", "Caroline", "Hi Melanie! I went to a LGBTQ support group yesterday."),
		obsAt("o2", "s1", "Melanie", "I painted a lake sunrise last year and I love pottery."),
		obsAt("o3", "s2", "Caroline", "I am researching adoption agencies for my future family."),
	}
	summary := ""
	var recent []realm.Observation
	for i := 0; i < 40; i++ {
		o := turns[i%3]
		o.ID = o.ID + "-" + string(rune('a'+i))
		if i%3 == 2 {
			o.SessionID = "s" + string(rune('2'+i))
		}
		ex := mustExtract(t, a, agent.ExtractInput{Observation: o, Summary: summary, Recent: recent})
		summary = ex.Summary
		recent = append(recent, o)
	}
	if n := len(strings.Fields(summary)); n > 200 || n < 10 {
		t.Fatalf("summary has %d words: %q", n, summary)
	}
	for _, w := range wordsOf(summary) {
		if firstPerson[w.lower] != "" || secondPerson[w.lower] != "" {
			t.Errorf("summary has pronoun %q: %q", w.text, summary)
		}
	}
	for _, want := range []string{"Participants: Caroline, Melanie", "Sessions: 14", "Recent topics: "} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary %q lacks %q", summary, want)
		}
	}
	if got := parseSummary(summary).String(); got != summary {
		t.Errorf("summary does not round-trip:\n%q\n%q", summary, got)
	}
}

func TestOfflineExtractDeterministic(t *testing.T) {
	a := New(Options{})
	in := agent.ExtractInput{
		Observation: obsAt("o1", "s1", "Caroline", "I moved from Sweden to Boston 4 years ago; my friends Jon and Gina helped. I love it here, and next month I will visit Paris with Melanie!"),
		Summary:     "Participants: Caroline, Melanie. Sessions: 1, latest s1 on 8 May 2023.",
		Recent:      []realm.Observation{obsAt("o0", "s0", "Melanie", "How are you?")},
	}
	first := mustExtract(t, a, in)
	for i := 0; i < 20; i++ {
		if got := mustExtract(t, a, in); !reflect.DeepEqual(got, first) {
			t.Fatalf("run %d differs:\n%+v\n%+v", i, got, first)
		}
	}
}

func TestOfflineExtractCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := New(Options{}).Extract(ctx, agent.ExtractInput{Observation: obsAt("o", "s", "A", "I went home.")}); err == nil {
		t.Fatal("want an error on a cancelled context")
	}
	if _, _, err := New(Options{}).Integrate(ctx, agent.IntegrateInput{}); err == nil {
		t.Fatal("want an error on a cancelled context")
	}
}

func TestOfflineDefaults(t *testing.T) {
	o := New(Options{MergeSimilarity: 0.8}).Options()
	if o.MergeSimilarity != 0.8 || o.SkipSimilarity != 0.95 || o.CorrelateSimilarity != 0.75 || o.MinContentWords != 2 || o.SummaryWords != 200 {
		t.Fatalf("options = %+v", o)
	}
}

// TestOfflineExtractOneClause: a turn that is one clause gives one candidate for it,
// whatever punctuation closes it (a trailing ";" once gave an event and a fact).
func TestOfflineExtractOneClause(t *testing.T) {
	a := New(Options{})
	recent := []realm.Observation{obsAt("o0", "s1", "Caroline", "Hi")}
	var want []realm.NodeType
	for i, text := range []string{"Alice moved to Lisbon in May.", "Alice moved to Lisbon in May;", "Alice moved to Lisbon in May,"} {
		ex := mustExtract(t, a, agent.ExtractInput{Observation: obsAt("o1", "s1", "Bob", text), Recent: recent})
		var got []realm.NodeType
		for _, c := range ex.Candidates {
			got = append(got, c.Type)
		}
		if i == 0 {
			want = got
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: candidates %v, want %v as for the turn closed by a full stop", text, got, want)
		}
	}
}

// TestOfflineAddressee: with no one else in the conversation yet, a first message's name
// calls to someone, its imperative does not.
func TestOfflineAddressee(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"Talk to me about wine to go with fish.", ""},
		{"Call me Max.", ""},
		{"Mel, guess what! I got the job.", "Mel"},
		{"Hey Mel, I got the job.", "Mel"},
		{"Caroline! How are you?", "Caroline"},
		{"Now, I only work 32 hours a week.", ""},
		{"Then, we went home.", ""},
		// A first word not set apart is no call: a verb or a noun opening a request.
		{"Cancel my subscription.", ""},
		{"Refund please!", ""},
		{"Moved to Denver.", ""},
		{"Gracias, muy amable.", ""},
		{"Hola Mel!", "Mel"},
		// Nor is a common word opening a note, unless it is a known name.
		{"Design notes: I keep them short so you remember them.", ""},
		{"Bug in the parser, I think you broke it.", ""},
		{"Convention here is tabs.", ""},
		{"Use tabs so you match the repo.", ""},
		{"Builds run on Kubernetes.", ""},
		{"Priya owns the billing service.", ""},
	} {
		obs := obsAt("o1", "", "user", tt.text)
		if got := addresseeOf(nil, obs, "user", tt.text, map[string]string{}); got != tt.want {
			t.Errorf("%q: addressee %q, want %q", tt.text, got, tt.want)
		}
	}
	known := map[string]string{"mel": "person"}
	if got := addresseeOf(nil, obsAt("o1", "", "user", "Mel can you check it?"), "user", "Mel can you check it?", known); got != "Mel" {
		t.Errorf("a known name opening the turn: addressee %q, want Mel", got)
	}
}

// TestOfflineUserStates: what a user says of themselves in a chat (role speakers): their
// name is a fact, and two states said in one clause become a memory each, as does a
// clause stating a value beside others.
func TestOfflineUserStates(t *testing.T) {
	a := New(Options{})
	for _, tt := range []struct {
		text string
		want []string // fact contents among the candidates
	}{
		{"My name is Marta.", []string{"user's name is Marta."}},
		{"Call me Max.", []string{"Call user Max."}},
		{"I live in Lisbon and I work as a nurse at Santa Maria hospital.",
			[]string{"user lives in Lisbon", "user works as a nurse at Santa Maria hospital."}},
		// Values a change ends without a word of change, each a memory of its own, split
		// at a comma that opens a claim, not one inside a value ("Lisbon, Portugal").
		{"I live in Lisbon, I'm on the Basic plan, and my email is ana@example.com.",
			[]string{"user lives in Lisbon", "user is on the Basic plan", "user's email is ana@example.com."}},
		{"I live in Lisbon, Portugal, and I work as a nurse.",
			[]string{"user lives in Lisbon, Portugal", "user works as a nurse."}},
		{"Ticket T-4410 is about my invoice; contact me by email only.", []string{"contact user by email only."}},
	} {
		ext := mustExtract(t, a, agent.ExtractInput{Observation: obsAt("o1", "", "user", tt.text)})
		var facts []string
		for _, c := range ofType(ext.Candidates, realm.Fact) {
			facts = append(facts, c.Content)
		}
		for _, w := range tt.want {
			if !slices.Contains(facts, w) {
				t.Errorf("%q: facts %q, want %q among them", tt.text, facts, w)
			}
		}
		for _, c := range ofType(ext.Candidates, realm.Entity) {
			if c.Name == "Call" {
				t.Errorf("%q: entity %q", tt.text, c.Name)
			}
		}
	}
	for text, want := range map[string]string{"user's name is Marta.": "Marta", "Hi, user is Maya.": "Maya", "Call user Max.": "Max", "Caroline is Irish.": ""} {
		got := ""
		for _, c := range stateClaims(text, "user") {
			if c.slot == "name" {
				got = c.value
			}
		}
		if got != want {
			t.Errorf("%q: name %q, want %q", text, got, want)
		}
	}
}

// TestOfflineJobClauses: in a turn of several clauses, a clause that states a job or an
// employer is a memory of its own; one that only has the shape of such a statement ("has
// become so confident", "getting better at", "are important for") is none.
func TestOfflineJobClauses(t *testing.T) {
	a := New(Options{})
	for _, tt := range []struct {
		text string
		want []string // the clause candidates besides the whole turn
	}{
		{"I became a nurse. The shifts are long.", []string{"Ana became a nurse."}},
		{"I have become the manager of the Porto store. It's a lot of work.", []string{"Ana has become the manager of the Porto store."}},
		{"I'm now a senior engineer at Stripe. The team is great.", []string{"Ana is now a senior engineer at Stripe."}},
		{"My daughter has become so confident. She reads every night.", nil},
		{"Writing has become like an escape for me. It helps a lot.", nil},
		{"Running has become an important part of my life. It keeps the stress away.", nil},
		{"Yup, on the court, I'm getting better at my overall game. It's been rewarding.", nil},
		{"I have learned that taking breaks and looking after myself are important for my health. It's all about balance.", nil},
	} {
		ex := mustExtract(t, a, agent.ExtractInput{Observation: obsAt("o1", "s1", "Ana", tt.text)})
		last := tt.text[strings.LastIndex(tt.text[:len(tt.text)-1], ".")+1:] // held by the whole turn, by no clause
		var clauses []string
		for _, c := range ex.Candidates {
			if (c.Type == realm.Fact || c.Type == realm.Event) && !strings.HasSuffix(c.Content, last) {
				clauses = append(clauses, c.Content)
			}
		}
		if !reflect.DeepEqual(clauses, tt.want) {
			t.Errorf("%q: clauses %q, want %q", tt.text, clauses, tt.want)
		}
	}
}

// TestOfflineShortRequests: a short request, news or fact of a chat's user is a memory, its
// first word no person; courtesies stay filler; a turn in another language of three words or
// more is kept whole, as is one of three characters or more in a script written without
// spaces.
func TestOfflineShortRequests(t *testing.T) {
	a := New(Options{})
	for _, tt := range []struct {
		text, want string // want: the whole-turn content, "" for none
		entities   []string
	}{
		{"Cancel my subscription.", "Cancel user's subscription.", []string{"user"}},
		{"Refund please!", "user: Refund please!", []string{"user"}},
		{"Moved to Denver.", "user: Moved to Denver.", []string{"user", "Denver"}},
		{"Je vis à Nice.", "user: Je vis à Nice.", []string{"user"}},
		{"J'ai déménagé à Marseille.", "user: J'ai déménagé à Marseille.", []string{"user", "Marseille"}},
		{"我对花生过敏。", "user: 我对花生过敏。", []string{"user"}},
		{"我们从上海搬到了深圳。", "user: 我们从上海搬到了深圳。", []string{"user"}},
		{"猫アレルギーがあります。", "user: 猫アレルギーがあります。", []string{"user"}},
		{"我累了", "user: 我累了", []string{"user"}},
		// A short fact of the user's own: a negation, an amount with its unit.
		{"I don't have any allergies.", "user doesn't have any allergies.", []string{"user"}},
		{"I don't smoke.", "user doesn't smoke.", []string{"user"}},
		{"No allergies.", "user: No allergies.", []string{"user"}},
		{"I weigh 72.5 kg.", "user weighs 72.5 kg.", []string{"user"}},
		// An expense or a price noted, however short.
		{"Gas was $52.33.", "user: Gas was $52.33.", []string{"user"}},
		{"Netflix €13.99.", "user: Netflix €13.99.", []string{"user"}},
		{"Petrol £71.02.", "user: Petrol £71.02.", []string{"user"}},
		{"Groceries were $120.", "user: Groceries were $120.", []string{"user"}},
		{"Coffee $4.50", "user: Coffee $4.50", []string{"user"}},
		{"rent: $2,100", "user: rent: $2,100", []string{"user"}},
		// Negative: courtesies, in English or not, and a name alone.
		{"Thanks!", "", nil},
		{"Wow, great!", "", nil},
		{"Thank you so much!", "", nil},
		{"Merci beaucoup, bonne journée !", "", nil},
		{"Gracias, muy amable.", "", nil},
		{"好的，谢谢！", "", nil},
		{"谢谢你！", "", nil},
		{"ありがとうございます。", "", nil},
		{"Ok, thanks Tom!", "", []string{"Tom"}},
		{"ok thanks", "", nil},
		{"sounds good", "", nil},
		{"No worries!", "", nil},
		// A greeting or a wish tells nothing; what is said with it does.
		{"Happy birthday!", "", nil},
		{"Happy anniversary!", "", nil},
		{"Happy new year!", "", nil},
		{"Merry Christmas!", "", nil},
		{"Congrats!", "", nil},
		{"Good luck!", "", nil},
		{"Happy birthday, Mel!", "", []string{"Mel"}},
		{"Happy birthday to my daughter, she turned 5 today!", "Happy birthday to user's daughter, she turned 5 today (8 May 2023)!", []string{"user"}},
		{"I can't believe it!", "", nil},
		{"I don't blame you.", "", nil},
		{"I won't be long.", "", nil},
		{"ok cool", "", nil},
		{"lol 100%", "", nil},
		{"$20?", "", nil},
	} {
		ex := mustExtract(t, a, agent.ExtractInput{Observation: obsAt("o1", "", "user", tt.text)})
		var got []string
		for _, c := range append(ofType(ex.Candidates, realm.Event), ofType(ex.Candidates, realm.Fact)...) {
			got = append(got, c.Content)
		}
		if tt.want == "" && len(got) != 0 || tt.want != "" && !slices.Contains(got, tt.want) {
			t.Errorf("%q: units %q, want %q", tt.text, got, tt.want)
		}
		var names []string
		for _, c := range ofType(ex.Candidates, realm.Entity) {
			names = append(names, c.Name)
		}
		if !reflect.DeepEqual(names, tt.entities) {
			t.Errorf("%q: entities %q, want %q", tt.text, names, tt.entities)
		}
	}
}

// A first message opening with a name doing something names that person without calling
// them; a common word opening a note names no one.
func TestOfflineOpeningSubject(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"Priya moved to Ghent in March.", "Priya"},
		{"Priya has started a new job.", "Priya"},
		{"Priya lives in Ghent now.", "Priya"},
		{"Design notes: keep them short.", ""},
		{"Use tabs so the diff stays small.", ""},
		{"Tests go in the pkg folder.", ""},
		{"Bug in the parser again.", ""},
		{"In the backend we use Go.", ""},
		{"Odio los lunes.", ""},
		{"Hoy es lunes.", ""},
		{"Los perros de Ana son grandes.", ""},
	} {
		if got := openingSubject(tt.text, "user"); got != tt.want {
			t.Errorf("openingSubject(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestOfflineNewsAfterStatement: what a speaker states after the other speaker's statement
// is a memory of its own too, beside the exchange; an answer to a question, or a turn that
// states no claim, is the exchange alone.
func TestOfflineNewsAfterStatement(t *testing.T) {
	a := New(Options{})
	at := time.Date(2026, 10, 5, 10, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		prev, text string
		alone      bool
	}{
		{"Got it: pnpm for all JavaScript packages, I will use it for installs.", "Priya owns the billing service.", true},
		{"Got it: pnpm for all JavaScript packages, I will use it for installs.", "Our pipelines run on Jenkins.", true},
		{"Who owns the billing service these days?", "Priya owns the billing service.", false},
		{"Got it: pnpm for all JavaScript packages, I will use it for installs.", "Great, that sounds like a solid plan to me.", false},
		// Stand-up lines: a ticket's status, a plan moved.
		{"Design review is every Tuesday at 10.", "PAY-1420 is blocked on the vendor API.", true},
		{"Ana now owns the billing migration, Tom is off it.", "The release moved to Friday the 18th.", true},
	} {
		prev := realm.Observation{ID: "p1", SessionID: "s1", Speaker: "assistant", Content: tt.prev, ObservedAt: at}
		obs := realm.Observation{ID: "o2", SessionID: "s1", Speaker: "user", Content: tt.text, ObservedAt: at.Add(time.Minute)}
		ext := mustExtract(t, a, agent.ExtractInput{Observation: obs, Recent: []realm.Observation{prev}})
		glued, alone := false, false
		for _, c := range ext.Candidates {
			if c.Type != realm.Fact && c.Type != realm.Event {
				continue
			}
			glued = glued || strings.HasPrefix(c.Content, "assistant ")
			alone = alone || c.Content == "user: "+tt.text
		}
		if !glued || alone != tt.alone {
			t.Errorf("%q after %q: exchange %v, alone %v, want true, %v (%+v)", tt.text, tt.prev, glued, alone, tt.alone, ext.Candidates)
		}
	}
}

// TestOfflineOwnerNamed: the owner a team names is a person, also opening a first message.
func TestOfflineOwnerNamed(t *testing.T) {
	a := New(Options{})
	ext := mustExtract(t, a, agent.ExtractInput{Observation: obsAt("o1", "s1", "user", "Jonas took over the billing service from Priya.")})
	var got []string
	for _, c := range ext.Candidates {
		if c.Type == realm.Entity && c.Name != "user" {
			got = append(got, c.Name+" "+c.Content)
		}
	}
	want := []string{"Jonas Jonas (person), mentioned by user.", "Priya Priya (person), mentioned by user."}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("entities %q, want %q", got, want)
	}
}

// memoriesOf are the events and facts of an extraction.
func memoriesOf(ext agent.Extraction) []agent.Candidate {
	return slices.DeleteFunc(slices.Clone(ext.Candidates), func(c agent.Candidate) bool {
		return c.Type != realm.Event && c.Type != realm.Fact
	})
}

// TestOfflinePhatic: a turn that keeps the conversation going without telling anything —
// a greeting, an acknowledgement, a question back — is no memory of its own, and a reply
// to it is its speaker's words alone, derived from its own turn; a question that asks
// something is kept, and quoted by its answer.
func TestOfflinePhatic(t *testing.T) {
	a := New(Options{})
	at := time.Date(2026, 7, 25, 19, 0, 0, 0, time.UTC)
	turn := func(id, speaker, text string, minute int) realm.Observation {
		return realm.Observation{ID: id, SessionID: "chat-1", Speaker: speaker, Content: text, ObservedAt: at.Add(time.Duration(minute) * time.Minute)}
	}
	userSaid := turn("u0", "user", "I bought new running shoes.", 0)

	t.Run("NoMemory", func(t *testing.T) {
		for _, tt := range []struct{ speaker, text string }{
			{"assistant", "Hi Maya! How was your day?"},
			{"assistant", "Good to hear from you. How are you?"},
			{"assistant", "That makes sense. Be gentle with yourself today."},
			{"assistant", "How can I help?"},
			{"assistant", "I love that! Tell me more."},
			{"assistant", "I'm glad you shared that with me."},
			{"assistant", "That sounds like a lot. How are you feeling about it?"},
			{"assistant", "Is there anything on your mind for tomorrow?"},
			{"Melanie", "Hey Caroline! Great to hear from you! How have you been?"},
			{"Gina", "I'm here for you, rooting for you all the way."},
		} {
			prev := userSaid
			if tt.speaker != "assistant" {
				prev = turn("u0", "Caroline", "I went to a support group yesterday.", 0)
			}
			ext := mustExtract(t, a, agent.ExtractInput{Observation: turn("a1", tt.speaker, tt.text, 1), Recent: []realm.Observation{prev}})
			if got := memoriesOf(ext); len(got) > 0 {
				t.Errorf("%q: memories %q, want none", tt.text, got[0].Content)
			}
		}
	})

	t.Run("KeepsQuestionsThatAsk", func(t *testing.T) {
		for _, text := range []string{"Did you get the job at Lumen?", "How is Mochi doing after the vet?", "What's one small thing you could do for yourself tonight?"} {
			ext := mustExtract(t, a, agent.ExtractInput{Observation: turn("a1", "assistant", text, 1), Recent: []realm.Observation{userSaid}})
			if len(memoriesOf(ext)) != 1 {
				t.Errorf("%q: memories %+v, want one", text, memoriesOf(ext))
			}
		}
	})

	t.Run("Reply", func(t *testing.T) {
		for _, tt := range []struct {
			asked, quoted string // quoted "": the reply stands alone
		}{
			{"Hey! What's new?", ""},
			{"Hi Maya! How was your day?", ""},
			{"Good to hear from you. How are you?", ""},
			{"That sounds like a lot. How are you feeling about it?", ""},
			{"Hey Mel, what's up?", ""},
			{"Did you get the job at Lumen?", `assistant asked: "Did user get the job at Lumen?" `},
			{"How is Mochi doing after the vet?", `assistant asked: "How is Mochi doing after the vet?" `},
			{"Oh no! How was it?", `assistant asked: "How was it?" `},
			{"How are you? How did the interview go?", `assistant asked: "How did the interview go?" `},
		} {
			prev := turn("a1", "assistant", tt.asked, 1)
			ext := mustExtract(t, a, agent.ExtractInput{Observation: turn("u2", "user", "Daniel and I broke up last night.", 2), Recent: []realm.Observation{prev}})
			got := memoriesOf(ext)[0]
			want := tt.quoted + "Daniel and user broke up last night (24 July 2026)."
			if got.Content != want || slices.Contains(got.AlsoFrom, "a1") != (tt.quoted != "") {
				t.Errorf("after %q: %q also from %v, want %q", tt.asked, got.Content, got.AlsoFrom, want)
			}
		}
	})

	// The same words said again the same day are skipped, whatever was said before them.
	t.Run("RepeatSkipped", func(t *testing.T) {
		first := mustExtract(t, a, agent.ExtractInput{Observation: turn("u2", "user", "I bought new running shoes.", 2), Recent: []realm.Observation{turn("a1", "assistant", "Hey! What's new?", 1)}})
		again := mustExtract(t, a, agent.ExtractInput{Observation: turn("u4", "user", "I bought new running shoes.", 4), Recent: []realm.Observation{turn("a3", "assistant", "How are you feeling about it?", 3)}})
		c, old := memoriesOf(again)[0], memoriesOf(first)[0]
		node := realm.Node{ID: "m1", Type: old.Type, Content: old.Content, TStart: old.TStart, TEnd: old.TEnd}
		out := mustIntegrate(t, agent.IntegrateInput{Observation: turn("u4", "user", "I bought new running shoes.", 4),
			Candidates: []agent.CandidateContext{{Candidate: c, Neighbours: []agent.Neighbour{{Node: node, Similar: true}}}}})
		if out[0].Action != agent.ActionSkip {
			t.Errorf("%q after %q: %s, want skip", c.Content, old.Content, out[0].Action)
		}
	})
}

// TestOfflineSpeakerNameAsWords: a speaker named with an emoji or markup ("Zoë 🦄",
// "<b>Mallory</b>") is one person, called by the name's words too, not a participant
// and a second person of those words mentioned by the first.
func TestOfflineSpeakerNameAsWords(t *testing.T) {
	for speaker, plain := range map[string]string{"Zoë 🦄": "Zoë", "<b>Mallory</b>": "Mallory", "Ana": ""} {
		ex := mustExtract(t, New(Options{}), agent.ExtractInput{Observation: obsAt("o1", "s1", speaker, "I moved to Porto last year and I love the beach there.")})
		var persons []agent.Candidate
		for _, c := range ofType(ex.Candidates, realm.Entity) {
			if c.Category == "person" {
				persons = append(persons, c)
			}
		}
		if len(persons) != 1 || persons[0].Name != speaker {
			t.Errorf("%s: persons %+v, want the speaker alone", speaker, persons)
			continue
		}
		if plain != "" && !slices.Contains(persons[0].Aliases, plain) {
			t.Errorf("%s: aliases %v, want %q among them", speaker, persons[0].Aliases, plain)
		}
	}
}

// TestOfflineDeviceStatus: a device's short status line ("Dishwasher finished") is
// something that happened, an event, whether the device reports as a tool or under its
// name alone; the device is no person, so a person's "The dishwasher finished." said
// after it is an event too, not a turn naming only the people talking.
func TestOfflineDeviceStatus(t *testing.T) {
	a := New(Options{})
	at := time.Date(2026, 12, 1, 21, 40, 0, 0, time.UTC)
	for _, role := range []string{"tool", ""} {
		dev := realm.Observation{ID: "d1", SessionID: "bridge", Speaker: "dishwasher", Role: role, Content: "Dishwasher finished", ObservedAt: at}
		ex := mustExtract(t, a, agent.ExtractInput{Observation: dev})
		if ms := memoriesOf(ex); len(ms) != 1 || ms[0].Type != realm.Event || !strings.Contains(ms[0].Content, "Dishwasher finished") {
			t.Errorf("role %q: memories %+v, want the event of the dishwasher finishing", role, ms)
		}
		for _, e := range ofType(ex.Candidates, realm.Entity) {
			if e.Category == "person" {
				t.Errorf("role %q: entity %q is a person", role, e.Content)
			}
		}
		sarah := realm.Observation{ID: "s1", SessionID: "bridge", Speaker: "Sarah", Content: "The dishwasher finished.", ObservedAt: at.Add(5 * time.Minute)}
		ex = mustExtract(t, a, agent.ExtractInput{Observation: sarah, Recent: []realm.Observation{dev}, Summary: ex.Summary})
		if ms := memoriesOf(ex); len(ms) != 1 || ms[0].Type != realm.Event {
			t.Errorf("role %q: Sarah's memories %+v, want the event", role, ms)
		}
	}
}
