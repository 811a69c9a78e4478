package offline

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// TestOfflinePromptPersons: an exchange quotes the other speaker's words with "I" and "you"
// resolved, unless the resolution is ambiguous; then it keeps the words as said and names
// who asked whom, so the memory never says something else.
func TestOfflinePromptPersons(t *testing.T) {
	a := New(Options{})
	tests := []struct {
		name, question, want string
	}{
		{"Yours", "How did you get yours?", `Andrew asked Audrey: "How did you get yours?" `},
		{"Mine", "Do you like mine better?", `Andrew asked Audrey: "Do you like mine better?" `},
		{"YouKnow", "You know that bakery on Main Street?", `Andrew asked Audrey: "You know that bakery on Main Street?" `},
		{"Resolved", "Where did you adopt your dogs?", `Andrew asked: "Where did Audrey adopt Audrey's dogs?" `},
		{"ResolvedBoth", "Did you see my photos?", `Andrew asked: "Did Audrey see Andrew's photos?" `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := obsAt("o1", "s1", "Andrew", tt.question)
			reply := obsAt("o2", "s1", "Audrey", "A shelter near the lake helped me a lot.")
			ext := mustExtract(t, a, agent.ExtractInput{Observation: reply, Recent: []realm.Observation{q}})
			i := slices.IndexFunc(ext.Candidates, func(c agent.Candidate) bool { return c.Type == realm.Event || c.Type == realm.Fact })
			if got := ext.Candidates[i].Content; !strings.HasPrefix(got, tt.want) {
				t.Errorf("content %q, want it to open with %q", got, tt.want)
			}
			// The relate step still finds the question's own words after the quote.
			if own := rePrompt.ReplaceAllString(ext.Candidates[i].Content, ""); strings.Contains(own, "asked") {
				t.Errorf("prompt not recognised in %q", ext.Candidates[i].Content)
			}
		})
	}
}

// TestOfflineNoPersonOfThings: a chat's assistant is no person, its user is one; a
// capitalised word after "a", "an" or a possessive ("my", rewritten "user's") with no
// person cue is a thing, while a relation before a name keeps it a person's.
func TestOfflineNoPersonOfThings(t *testing.T) {
	a := New(Options{})
	for _, tt := range []struct {
		speaker, text string
		persons       []string
	}{
		{"user", "I'm allergic to peanuts and I carry an EpiPen.", []string{"user"}},
		{"user", "I use my EpiPen twice a year.", []string{"user"}},
		{"assistant", "Remember to carry your EpiPen on the hike.", nil},
		// Negative: persons stay persons.
		{"user", "My sister Kat carries an EpiPen.", []string{"user", "Kat"}},
		{"Maria", "I got a puppy! Her name's Coco.", []string{"Maria", "Coco"}},
		{"assistant", "Did your sister Kat get an EpiPen?", []string{"Kat"}},
	} {
		if persons := personsOf(t, a, tt.speaker, tt.text); !slices.Equal(persons, tt.persons) {
			t.Errorf("%s: %q: persons %q, want %q", tt.speaker, tt.text, persons, tt.persons)
		}
	}
}

// TestOfflineNoPersonOfAccounts: a name only guessed a person's is an account's or a
// bill's when it is a word of bills, a pay verb's object, before a word of bills, or what
// a bank, a loan or a provider is with; a person stays one beside the same words.
func TestOfflineNoPersonOfAccounts(t *testing.T) {
	a := New(Options{})
	for _, tt := range []struct {
		text    string
		persons []string
	}{
		{"Gas was $52.33.", []string{"user"}},
		{"Internet is $60 a month.", []string{"user"}},
		{"Yesterday I paid Verizon $70.", []string{"user"}},
		{"Today I paid the Amex bill.", []string{"user"}},
		{"My phone plan is with Verizon, $70 a month.", []string{"user"}},
		{"I bank with Ally; my savings pays 4.25% APY.", []string{"user"}},
		{"My mortgage with Nationwide is £1,420 a month.", []string{"user"}},
		// Negative: persons stay persons.
		{"I paid Tom back for the tickets.", []string{"user", "Tom"}},
		{"I had dinner with Mel, $40 each.", []string{"user", "Mel"}},
		{"I went to the bank with Kat.", []string{"user", "Kat"}},
	} {
		if persons := personsOf(t, a, "user", tt.text); !slices.Equal(persons, tt.persons) {
			t.Errorf("%q: persons %q, want %q", tt.text, persons, tt.persons)
		}
	}
}

// TestOfflineNoPersonOfTravel: a word of a trip is no person where it stands: an
// acknowledgement or a place opening the assistant's reply, a diet, a firm written with a
// capital inside the word, an airline's code before its flight number, a name after "the",
// before a trip's noun or listed after a place gone to; a person stays one beside the same
// words.
func TestOfflineNoPersonOfTravel(t *testing.T) {
	a := New(Options{})
	for _, tt := range []struct {
		speaker, text string
		persons       []string
	}{
		{"assistant", "Understood, Italy is now in June.", nil},
		{"assistant", "Italy, third week of May, noted.", nil},
		{"assistant", "Vegan noted.", nil},
		{"Maria", "In two weeks we do the Sintra day tour, booked with GetYourGuide, booking GYG-7781.", []string{"Maria"}},
		{"Priya", "Last summer we went to Croatia, Split and Hvar.", []string{"Priya"}},
		{"Priya", "BA changed our flight to BA115 at 14:10.", []string{"Priya"}},
		{"Priya", "We cancelled the Hoxton and booked the Ace Hotel Brooklyn instead.", []string{"Priya"}},
		// Negative: persons stay persons.
		{"assistant", "Understood, Ana is coming too.", []string{"Ana"}},
		{"Maria", "We moved to Lisbon, Ana and Rui stayed in Boston.", []string{"Maria", "Ana", "Rui"}},
		{"Maria", "My cousin McKenzie booked the tour with MacArthur.", []string{"Maria", "McKenzie", "MacArthur"}},
		{"Priya", "Dev changed our seats to 14A and 14B.", []string{"Priya", "Dev"}},
	} {
		if persons := personsOf(t, a, tt.speaker, tt.text); !slices.Equal(persons, tt.persons) {
			t.Errorf("%s: %q: persons %q, want %q", tt.speaker, tt.text, persons, tt.persons)
		}
	}
}

// TestOfflinePronounKin: a word of kin after a possessive pronoun tells whose relation a
// name is: "our" the speaker's, "her" or "his" the person named just before.
func TestOfflinePronounKin(t *testing.T) {
	a := New(Options{})
	for _, tt := range []struct {
		speaker, text, name, want string
	}{
		{"Maria", "My sister Ana is coming, her husband Rui too.", "Rui", "Ana's husband"},
		{"Kenji", "My wife Yumi and our son Haru will come.", "Haru", "Kenji's son"},
		{"user", "I met Tom yesterday. His sister Kat was there.", "Kat", "Tom's sister"},
		// Negative: a word of kin that ends its sentence is no name's.
		{"Maria", "Ana called her sister. Rui answered.", "Rui", ""},
	} {
		var aliases []string
		for _, e := range ofType(mustExtract(t, a, agent.ExtractInput{Observation: obsAt("o1", "s1", tt.speaker, tt.text)}).Candidates, realm.Entity) {
			if e.Name == tt.name {
				aliases = e.Aliases
			}
		}
		if want := slices.DeleteFunc([]string{tt.want}, func(s string) bool { return s == "" }); !slices.Equal(aliases, want) {
			t.Errorf("%q: %s's aliases %q, want %q", tt.text, tt.name, aliases, want)
		}
	}
}

// personsOf are the names of the person entities extracted from speaker's text.
func personsOf(t *testing.T, a *Agent, speaker, text string) []string {
	t.Helper()
	var persons []string
	for _, c := range ofType(mustExtract(t, a, agent.ExtractInput{Observation: obsAt("o1", "s1", speaker, text)}).Candidates, realm.Entity) {
		if c.Category == "person" {
			persons = append(persons, c.Name)
		}
	}
	return persons
}

// TestOfflineQuotedInAuthorsVoice: words quoted from a named author are the author's voice,
// as an exchange quotes the other speaker's: their "I" and "my" are the author, their "you"
// the speaker who pastes them. A quotation with no author named keeps its rules.
func TestOfflineQuotedInAuthorsVoice(t *testing.T) {
	wantRewritten(t, "Priya Shah", "assistant", []rewriteCase{
		{"EmailFrom", `Pasted email from Maria Chen: "I have decided to withdraw my application. My new number is +1 415 555 0000."`,
			`Pasted email from Maria Chen: "Maria Chen has decided to withdraw Maria Chen's application. Maria Chen's new number is +1 415 555 0000."`},
		{"MessageFromThanksYou", `Text from Amelia: "Thanks for considering me, I can call you on Monday."`,
			`Text from Amelia: "Thanks for considering Amelia, Amelia can call Priya Shah on Monday."`},
		{"Wrote", `Jonas Weber wrote: "I moved to Berlin." I replied that I'm glad.`,
			`Jonas Weber wrote: "Jonas Weber moved to Berlin." Priya Shah replied that Priya Shah is glad.`},
		{"Said", `Then Tom said: "my flight is at 6."`, `Then Tom said: "Tom's flight is at 6."`},
		{"NameColon", `Sam: "I quit my job." I was surprised.`, `Sam: "Sam quit Sam's job." Priya Shah was surprised.`},
		// Pasted with no quotation marks: the rest of the text, or of the line, is the author's.
		{"NameColonUnquoted", `Emma Dubois: I signed the offer yesterday. Start date January 12.`,
			`Emma Dubois: Emma Dubois signed the offer yesterday. Start date January 12.`},
		{"WroteUnquoted", `Emma wrote: I signed the offer yesterday.`, `Emma wrote: Emma signed the offer yesterday.`},
		{"TitleColonUnquoted", `Ms. Rivera: I signed the offer yesterday.`, `Ms. Rivera: Ms. Rivera signed the offer yesterday.`},
		{"Transcript", "Tom: I'll take the release.\nAna: I have the notes.", "Tom: Tom will take the release.\nAna: Ana has the notes."},
		// A transcript, two lines or more opening with a name: each line is its name's, any name.
		{"TranscriptAnyName", "Tom: I will email the ethics board.\nMarcus: I think the budget is too small.",
			"Tom: Tom will email the ethics board.\nMarcus: Marcus thinks the budget is too small."},
		// Negative: no author named, or the speaker quoting themself; lines of labels, no given name's.
		{"LabelLines", "Breakfast: I had eggs.\nLunch: I skipped it.", "Breakfast: Priya Shah had eggs.\nLunch: Priya Shah skipped it."},
		{"NoAuthor", `My doctor said "you need more sleep".`, `Priya Shah's doctor said "you need more sleep".`},
		{"OwnWords", `I said: "I will call you."`, `Priya Shah said: "I will call you."`},
		{"HeaderWord", `Subject: "my refund"`, `Subject: "my refund"`},
		{"Heading", `Update: I moved to Berlin.`, `Update: Priya Shah moved to Berlin.`},
		{"TitleColon", `Counter-Strike: Global Offensive is what I play.`, `Counter-Strike: Global Offensive is what Priya Shah plays.`},
	})
	// A transcript pasted by Dana, of a meeting of hers or not.
	wantRewritten(t, "Dana", "", []rewriteCase{
		{"TranscriptAfterHeading", "Notes from Friday.\nMarcus: I think the budget is too small.\nPriya: I agree with Marcus.",
			"Notes from Friday.\nMarcus: Marcus thinks the budget is too small.\nPriya: Priya agrees with Marcus."},
		{"TranscriptWithSpeaker", "Dana: I reran the power analysis.\nMarcus: I think the budget is too small.",
			"Dana: Dana reran the power analysis.\nMarcus: Marcus thinks the budget is too small."},
	})
}

// TestOfflineClauseOfPersonToldOf: a clause that leaves its subject unsaid after one
// opening with a person ("Emma signed the offer. Start date January 12.") tells of that
// person, not of the speaker who says it: its memory opens with the person's name, who
// takes part in it. One that says "we", names someone or something, or follows the
// speaker's own words stays the speaker's.
func TestOfflineClauseOfPersonToldOf(t *testing.T) {
	a := New(Options{})
	at := time.Date(2026, time.October, 14, 10, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		text, clause, person string
	}{
		{"Emma signed the offer. Start date January 12.", "Emma: Start date January 12 (12 January 2027).", "Emma"},
		{"Emma Dubois: I signed the offer yesterday. Start date January 12.", "Emma Dubois: Start date January 12 (12 January 2027).", "Emma Dubois"},
		{"Emma signed the offer yesterday, start date January 12.", "Emma: start date January 12 (12 January 2027).", "Emma"},
		// Negative: the speaker's own, or a clause with a subject of its own.
		{"I signed the offer yesterday. Start date January 12.", "Priya: Start date January 12 (12 January 2027).", ""},
		{"Emma signed the offer. We start on January 12.", "Priya: We start on January 12 (12 January 2027).", ""},
		{"Emma signed the offer. Tom starts on January 12.", "Priya: Tom starts on January 12 (12 January 2027).", ""},
	} {
		obs := realm.Observation{ID: "o1", Space: "t", SessionID: "s1", Speaker: "Priya", Content: tt.text, ObservedAt: at}
		events := ofType(mustExtract(t, a, agent.ExtractInput{Observation: obs}).Candidates, realm.Event)
		if !slices.ContainsFunc(events, func(c agent.Candidate) bool {
			return c.Content == tt.clause && (tt.person == "" || slices.Contains(c.Participants, tt.person))
		}) {
			t.Errorf("%q: events %+v, want %q with %q taking part", tt.text, events, tt.clause, tt.person)
		}
	}
}

// TestOfflineNoPersonOfHeadings: a note's opening word is no person when it is a thing done
// for or by someone named ("Offer approved for …"), or a word the message also writes in
// lower case; the author of a quoted email is a person, so the first name it is signed with
// is theirs, no person apart.
func TestOfflineNoPersonOfHeadings(t *testing.T) {
	a := New(Options{})
	for _, tt := range []struct {
		text    string
		persons []string
	}{
		{"Offer approved for Emma Dubois, start in January.", []string{"Priya", "Emma Dubois"}},
		{"Offer approved, start in January. Emma Dubois is waiting for the offer letter.", []string{"Priya", "Emma Dubois"}},
		{`Pasted email from Amelia Novak: "Thanks for considering me. I am available any afternoon. Best, Amelia"`, []string{"Priya", "Amelia Novak"}},
		{"Offer signed yesterday, start date January 12.", []string{"Priya"}},
		{"Contract signed.", []string{"Priya"}},
		{"We moved the e2e tests to Playwright last week.", []string{"Priya"}},
		{"Emma Dubois: I signed the offer yesterday.", []string{"Priya", "Emma Dubois"}},
		// Negative: a person doing something stays one.
		{"Emma moved to Lisbon for the job.", []string{"Priya", "Emma"}},
		{"Emma signed yesterday, she starts in January.", []string{"Priya", "Emma"}},
		{"Tom waited for hours at the airport.", []string{"Priya", "Tom"}},
	} {
		if persons := personsOf(t, a, "Priya", tt.text); !slices.Equal(persons, tt.persons) {
			t.Errorf("%q: persons %q, want %q", tt.text, persons, tt.persons)
		}
	}
}

// TestOfflineMachineSpeakers: a device or a service reporting is no person, and its name
// says who said what it reports: sent as a tool ("thermostat-3", "db-primary") its memory
// is said by that name, and no entity is made of it; sent without a role, a speaker named
// as a device ("thermostat", "Weather API") is an object. A person stays one.
func TestOfflineMachineSpeakers(t *testing.T) {
	a := New(Options{})
	at := time.Date(2026, time.December, 3, 10, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		speaker, role, text string
		said                string // how the memory of what it reports opens
		entity              string // the category of the speaker's entity, "" for none
	}{
		{"thermostat-3", "tool", "Living room 21.5C", "thermostat-3: Living room 21.5C", ""},
		{"db-primary", "tool", "Disk at 81% on Monday", "db-primary: Disk at 81% on Monday", ""},
		{"tool", "", "Disk at 81% on Monday", "tool: Disk at 81% on Monday", ""},
		{"thermostat", "", "Living room 21.5C", "thermostat: Living room 21.5C", "object"},
		{"Weather API", "", "Forecast for Lisbon on Saturday: sunny, 24 degrees.", "Weather API: Forecast for Lisbon", "object"},
		// Negative: a person's name, with the user's role or none.
		{"Maya", "user", "Living room at 21.5C, cosy.", "Maya: Living room at 21.5C", "person"},
		{"Dana", "", "The living room temperature is now 22.0C", "Dana: The living room temperature", "person"},
	} {
		obs := realm.Observation{ID: "o1", Space: "t", SessionID: "s1", Speaker: tt.speaker, Role: tt.role, Content: tt.text, ObservedAt: at}
		cands := mustExtract(t, a, agent.ExtractInput{Observation: obs}).Candidates
		if !slices.ContainsFunc(cands, func(c agent.Candidate) bool {
			return c.Type != realm.Entity && c.Type != realm.Episode && strings.HasPrefix(c.Content, tt.said)
		}) {
			t.Errorf("%s (%s): memories %+v, want one opening %q", tt.speaker, tt.role, cands, tt.said)
		}
		entity := ""
		for _, c := range ofType(cands, realm.Entity) {
			if c.Name == tt.speaker {
				entity = c.Category
			}
		}
		if entity != tt.entity {
			t.Errorf("%s (%s): the speaker's entity %q, want %q", tt.speaker, tt.role, entity, tt.entity)
		}
	}
}

// TestOfflineToolNameNoPersonAfter: the name a tool's output was sent under is no person
// of the conversation: the user naming it in the next turn makes no person of it.
func TestOfflineToolNameNoPersonAfter(t *testing.T) {
	a := New(Options{})
	at := time.Date(2026, time.December, 3, 10, 0, 0, 0, time.UTC)
	tool := realm.Observation{ID: "o1", Space: "t", SessionID: "s1", Speaker: "Weather API", Role: "tool", Content: "Forecast for Lisbon on Saturday: sunny, 24 degrees.", ObservedAt: at}
	first := mustExtract(t, a, agent.ExtractInput{Observation: tool})
	user := realm.Observation{ID: "o2", Space: "t", SessionID: "s1", Speaker: "Maya", Role: "user", Content: "Weather API says it will be sunny, so I will go to the beach with Tom.", ObservedAt: at.Add(time.Minute)}
	var persons []string
	for _, c := range ofType(mustExtract(t, a, agent.ExtractInput{Observation: user, Summary: first.Summary, Recent: []realm.Observation{tool}}).Candidates, realm.Entity) {
		if c.Category == "person" {
			persons = append(persons, c.Name)
		}
	}
	if want := []string{"Maya", "Tom"}; !slices.Equal(persons, want) {
		t.Errorf("persons %q, want %q", persons, want)
	}
}
