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

// TestNamesIdentifiers: an id said in prose is one name, a concept named as written,
// wherever it stands; its letters are no names. A word joined by a hyphen without a digit
// is no id.
func TestNamesIdentifiers(t *testing.T) {
	tests := []namesCase{
		{"Ticket", "The bug is tracked in ticket T-4410 now.", []nameMention{{"T-4410", "concept"}}},
		{"Order", "My order O-7700 never arrived, Sam.", []nameMention{{"O-7700", "concept"}, {"Sam", "person"}}},
		{"AtSentenceStart", "INV-2291 was charged twice.", []nameMention{{"INV-2291", "concept"}}},
		{"ErrorCode", "pnpm stops with ERR_PNPM_UNSUPPORTED_ENGINE on install.", []nameMention{{"ERR_PNPM_UNSUPPORTED_ENGINE", "concept"}}},
		{"CapitalsAndDigits", "Our flight on the A320 was late.", []nameMention{{"A320", "concept"}}},
		{"NotJoinedToAName", "Yesterday Order O-7700 shipped.", []nameMention{{"Order", "person"}, {"O-7700", "concept"}}},
		{"Quoted", "Any news on “T-4410”, Sam?", []nameMention{{"T-4410", "concept"}, {"Sam", "person"}}},
		{"CurlyPossessive", "I read T-4410’s history twice.", []nameMention{{"T-4410", "concept"}}},
		{"TwoIDs", "Merge T-4410 into T-4411 please.", []nameMention{{"T-4410", "concept"}, {"T-4411", "concept"}}},
		// Negative rows: no identifier.
		{"InCode", "Run `grep T-4410 logs/` and tell Sam.", []nameMention{{"Sam", "person"}}},
		{"LowercaseID", "The db-prod-1 host is down again for Maria.", []nameMention{{"Maria", "person"}}},
		{"HyphenatedWord", "The Wi-Fi at the cafe in Porto is slow.", []nameMention{{"Wi-Fi", "concept"}, {"Porto", "place"}}},
	}
	checkNames(t, tests)
}

// TestNamesCategories: plans, products and tools are concepts, a name coordinated with a
// place a place; the people and places of casual talk keep their types.
func TestNamesCategories(t *testing.T) {
	tests := []namesCase{
		{"Plans", "I'm on the Basic plan and want to move to Plus or Pro.", []nameMention{{"Basic", "concept"}, {"Plus", "concept"}, {"Pro", "concept"}}},
		{"Upgrade", "Can I upgrade to Pro next month?", []nameMention{{"Pro", "concept"}}},
		{"SwitchMe", "Please switch me to Pro.", []nameMention{{"Pro", "concept"}}},
		{"UpgradeUs", "Could you upgrade us to Premium?", []nameMention{{"Premium", "concept"}}},
		{"MoveMe", "They will move me to Berlin in May.", []nameMention{{"Berlin", "place"}}},
		{"TestTool", "We moved the e2e tests to Playwright last week.", []nameMention{{"Playwright", "concept"}}},
		{"CardBrand", "I paid with my Visa card.", []nameMention{{"Visa", "concept"}}},
		{"BrandAlone", "I paid with Visa last time.", []nameMention{{"Visa", "concept"}}},
		{"PlanAfter", "Switching to plan Premium saves money.", []nameMention{{"Premium", "concept"}}},
		{"Tools", "We use Postgres and TypeScript, deployed on Heroku.", []nameMention{{"Postgres", "concept"}, {"TypeScript", "concept"}, {"Heroku", "concept"}}},
		{"ToolsAfterPrepositions", "We run Redis in Kafka with Go.", []nameMention{{"Redis", "concept"}, {"Kafka", "concept"}, {"Go", "concept"}}},
		{"WrittenIn", "The parser is written in Zig these days.", []nameMention{{"Zig", "concept"}}},
		{"Owned", "The report sits in our Berlin store.", []nameMention{{"Berlin", "concept"}}},
		{"CoordinatedPlaces", "We ship from Melilla and Berlin.", []nameMention{{"Melilla", "place"}, {"Berlin", "place"}}},
		{"CoordinatedPlacesThen", "We visited Paris and Rome last summer.", []nameMention{{"Paris", "place"}, {"Rome", "place"}}},
		{"RelationNoun", "I went to the lake with my cousin Ana Lopez.", []nameMention{{"Ana Lopez", "person"}}},
		{"SpeechVerb", "The doctor said Dr. Amy Wu told us to rest.", []nameMention{{"Dr. Amy Wu", "person"}}},
		// A full name is a person's when it opens with a first name, follows "met" or is
		// told a post after a comma; a known first name is one at a sentence's start too.
		{"FullNameOfFirstName", "New contact: Raj Patel from Initech wants a demo.", []nameMention{{"Raj Patel", "person"}, {"Initech", "place"}}},
		{"FullNameAtStart", "Anna Kim moved from Acme to Globex.", []nameMention{{"Anna Kim", "person"}, {"Acme", "place"}, {"Globex", "place"}}},
		{"FirstNameAtStart", "Raj was promoted at Initech.", []nameMention{{"Raj", "person"}, {"Initech", "place"}}},
		{"FirstNameAfterTo", "I sent the report to Vera.", []nameMention{{"Vera", "person"}}},
		{"Met", "Met Xiao Zhang at Acme; he wants a demo.", []nameMention{{"Xiao Zhang", "person"}, {"Acme", "place"}}},
		{"PostAfterComma", "New contact: Xiao Zhang, VP Engineering at Initech.", []nameMention{{"Xiao Zhang", "person"}, {"Initech", "place"}}},
		// A post names no one of its own; a product with "SSO" is no person.
		{"Posts", "Raj was promoted to CTO, and the Head of IT and the IT Director left.", []nameMention{{"Raj", "person"}}},
		{"PostOpensPost", "Anna Kim is now VP Sales.", []nameMention{{"Anna Kim", "person"}}},
		{"SSOWith", "He wants SSO with Okta before signing.", []nameMention{{"SSO", "concept"}, {"Okta", "concept"}}},
		// The people and places of casual talk, typed as they always were.
		{"FriendsCoordinated", "I went hiking with Jon and Maria last weekend.", []nameMention{{"Jon", "person"}, {"Maria", "person"}}},
		{"PlaceThenPerson", "I moved to Lisbon and Jon stayed behind.", []nameMention{{"Lisbon", "place"}, {"Jon", "person"}}},
		{"TripAndFriend", "My friend Ana loved the trip to Rome.", []nameMention{{"Ana", "person"}, {"Rome", "place"}}},
		{"TellSomeone", "I told Sam about the concert in Boston.", []nameMention{{"Sam", "person"}, {"Boston", "place"}}},
		{"Possessive", "I borrowed Ana's bike for the race.", []nameMention{{"Ana", "person"}}},
		{"LanguageThenPerson", "I started learning Portuguese and Jon joined.", []nameMention{{"Portuguese", "concept"}, {"Jon", "person"}}},
		{"CityMoved", "I moved to Berlin last year.", []nameMention{{"Berlin", "place"}}},
		{"LiveIn", "I live in Melilla now.", []nameMention{{"Melilla", "place"}}},
		{"Hosted", "We hosted Sarah and Tom last weekend.", []nameMention{{"Sarah", "person"}, {"Tom", "person"}}},
		{"UsedSomeones", "I'm using Jon's old laptop.", []nameMention{{"Jon", "person"}}},
	}
	checkNames(t, tests)
}

// TestNamesKinds: a known city or country is a place, modifying a noun or standing with
// no cue, an institution's
// name an organisation, a language of code next to code and a service one learns on or
// goes via a concept; the people beside them stay persons.
func TestNamesKinds(t *testing.T) {
	tests := []namesCase{
		{"PlaceModifier", "Ugh, the Rome flight got moved to June 5.", []nameMention{{"Rome", "place"}}},
		{"PlaceModifierAfterPerson", "I saw Caroline at the Boston marathon.", []nameMention{{"Caroline", "person"}, {"Boston", "place"}}},
		{"CountryModifier", "We loved the Japan trip, Nate.", []nameMention{{"Japan", "place"}, {"Nate", "person"}}},
		{"KnownPlaceNoCue", "What do you love about Seattle?", []nameMention{{"Seattle", "place"}}},
		// A known place before a noun of travel is the place, also one as often a person's
		// name, and after a possessive.
		{"TripOfPlaceAlsoAName", "We booked the Paris trip.", []nameMention{{"Paris", "place"}}},
		{"TripOfPlaceAlsoANameAbout", "I'm so excited about the Paris trip!", []nameMention{{"Paris", "place"}}},
		{"OwnedFlight", "I told Sam about our Rome flight.", []nameMention{{"Sam", "person"}, {"Rome", "place"}}},
		{"OwnedOffice", "The report sits in our Berlin office.", []nameMention{{"Berlin", "place"}}},
		{"OfficeOfPlaceAlsoAName", "The Austin office moved to a new floor.", []nameMention{{"Austin", "place"}}},
		{"Hotel", "Our London hotel was near the river.", []nameMention{{"London", "place"}}},
		{"KnownCountryApposed", "A gift from my grandma in my home country, Sweden.", []nameMention{{"Sweden", "place"}}},
		{"HospitalJoined", "She works at the Universitätsspital.", []nameMention{{"Universitätsspital", "concept"}}},
		{"UniversityHyphenated", "She studies at the Humboldt-Universität.", []nameMention{{"Humboldt-Universität", "concept"}}},
		{"HospitalWord", "He is a nurse at Mercy Hospital.", []nameMention{{"Mercy Hospital", "concept"}}},
		{"University", "Then Melanie studied at Stanford University.", []nameMention{{"Melanie", "person"}, {"Stanford University", "concept"}}},
		{"CodeLanguageIn", "The team writes code in Swift now.", []nameMention{{"Swift", "concept"}}},
		{"CodeLanguageRewrote", "We rewrote the parser in Julia.", []nameMention{{"Julia", "concept"}}},
		{"CodeLanguageBeforeCode", "I cleaned up the Ruby code.", []nameMention{{"Ruby", "concept"}}},
		{"Go", "We rewrote it in Go last year.", []nameMention{{"Go", "concept"}}},
		{"LanguageOnService", "So I'm learning German on Duolingo.", []nameMention{{"German", "concept"}, {"Duolingo", "concept"}}},
		{"PracticeOn", "I practise on Babbel every day.", []nameMention{{"Babbel", "concept"}}},
		{"Via", "I found the sofa via Craigslist.", []nameMention{{"Craigslist", "concept"}}},
		// Persons stay persons: a name no noun follows, a code language's name with no code
		// around it, a name one relies on.
		{"PersonAfterThe", "We had dinner with Maria and the Garcia kids.", []nameMention{{"Maria", "person"}, {"Garcia", "person"}}},
		{"KnownPlaceThenPerson", "I miss Tokyo and Jon.", []nameMention{{"Tokyo", "place"}, {"Jon", "person"}}},
		{"RubyPerson", "I met Ruby at the party.", []nameMention{{"Ruby", "person"}}},
		{"RubyInPlace", "I stayed with Ruby in Boston.", []nameMention{{"Ruby", "person"}, {"Boston", "place"}}},
		{"ReliedOn", "I relied on Gina for the move.", []nameMention{{"Gina", "person"}}},
		{"PlaceAlsoANameMet", "I'm meeting Paris for lunch.", []nameMention{{"Paris", "person"}}},
		{"PlaceAlsoANameOwnsOffice", "I met Austin's team at Jordan's office.", []nameMention{{"Austin", "person"}, {"Jordan", "person"}}},
	}
	checkNames(t, tests)
}

// TestExtractOpeningNoPerson: a language, a product or a known place opening a first
// message as its subject is no person of the conversation; a name is.
func TestExtractOpeningNoPerson(t *testing.T) {
	a := New(Options{})
	for _, tt := range []struct {
		msg, name string
		person    bool
	}{
		{"German is harder than I thought.", "German", false},
		{"Rome was amazing last week.", "Rome", false},
		{"Priya moved to Ghent in March.", "Priya", true},
	} {
		ext := mustExtract(t, a, agent.ExtractInput{Observation: obsAt("o1", "s1", "user", tt.msg)})
		got := slices.ContainsFunc(ofType(ext.Candidates, realm.Entity), func(c agent.Candidate) bool {
			return c.Name == tt.name && c.Category == "person"
		})
		if got != tt.person {
			t.Errorf("%q: person %s = %v, want %v (entities %+v)", tt.msg, tt.name, got, tt.person, ofType(ext.Candidates, realm.Entity))
		}
	}
}

// TestNamesPossessiveHeld: a name owning what people keep or lead is a person's, even
// after a place's preposition; a place owns other things.
func TestNamesPossessiveHeld(t *testing.T) {
	tests := []namesCase{
		{"Class", "I switched to Maria's class last month.", []nameMention{{"Maria", "person"}}},
		{"WordBetween", "I moved to Ana's yoga group.", []nameMention{{"Ana", "person"}}},
		{"Place", "We went to Jon's place after the game.", []nameMention{{"Jon", "person"}}},
		{"Office", "I dropped the keys at Priya's office.", []nameMention{{"Priya", "person"}}},
		// A place's possessive: still a place.
		{"PlaceOwnsOther", "We walked to Lisbon's old harbour.", []nameMention{{"Lisbon", "place"}}},
		{"NoPossessive", "I moved to Porto for the summer.", []nameMention{{"Porto", "place"}}},
	}
	checkNames(t, tests)
}

// TestNamesServices: a name one listens, orders or pays on, via or with, and a name with
// an account or an app, is a product's, listed or not; a person keeps company, is relied
// on, is paid.
func TestNamesServices(t *testing.T) {
	tests := []namesCase{
		{"ListenOn", "I listen to audiobooks on Deezer.", []nameMention{{"Deezer", "concept"}}},
		{"ListenOnListed", "I listen on Spotify every morning.", []nameMention{{"Spotify", "concept"}}},
		{"OrderedVia", "We ordered dinner via Deliveroo.", []nameMention{{"Deliveroo", "concept"}}},
		{"PaidWith", "I paid with Monzo at the market.", []nameMention{{"Monzo", "concept"}}},
		{"PaidWithListed", "I paid with Revolut.", []nameMention{{"Revolut", "concept"}}},
		{"Account", "I finally opened a Monzo account.", []nameMention{{"Monzo", "concept"}}},
		{"MyAccount", "Someone logged into my Bandcamp account.", []nameMention{{"Bandcamp", "concept"}}},
		{"App", "I deleted the Deliveroo app.", []nameMention{{"Deliveroo", "concept"}}},
		// People, as they were.
		{"WatchedWith", "I watched the game with Jon.", []nameMention{{"Jon", "person"}}},
		{"ReliedOn", "I relied on Jon for the move.", []nameMention{{"Jon", "person"}}},
		{"PaidSomeone", "I paid Jon back for the tickets.", []nameMention{{"Jon", "person"}}},
		{"OnInAnotherClause", "I ordered the pizza, but we waited on Sam for an hour.", []nameMention{{"Sam", "person"}}},
	}
	checkNames(t, tests)
}

// TestNamesOrganisations: a brand, a sponsor, the other party of a business deal is an
// organisation (a concept), not a person; one listened or talked to is no place. People
// dealt with, talked to or owning a contract stay people.
func TestNamesOrganisations(t *testing.T) {
	tests := []namesCase{
		{"DealWith", "I just signed a deal with Nike last week.", []nameMention{{"Nike", "concept"}}},
		{"DealsWithBoth", "Congrats on those deals with Nike and Gatorade!", []nameMention{{"Nike", "concept"}, {"Gatorade", "concept"}}},
		{"NamedDeals", "The Nike and Gatorade deals have me stoked!", []nameMention{{"Nike", "concept"}, {"Gatorade", "concept"}}},
		{"SponsoredBy", "Our team is sponsored by Gatorade this season.", []nameMention{{"Gatorade", "concept"}}},
		{"SponsorshipFrom", "I got a sponsorship from Puma.", []nameMention{{"Puma", "concept"}}},
		{"BrandsLike", "I'm considering sports brands like Nike and Under Armour.", []nameMention{{"Nike", "concept"}, {"Under Armour", "concept"}}},
		{"InTalksAbout", "I'm also in talks with Gatorade about a potential sponsorship.", []nameMention{{"Gatorade", "concept"}}},
		{"SignedFor", "I just signed up Nike for a basketball shoe and gear deal.", []nameMention{{"Nike", "concept"}}},
		{"CompaniesSuchAs", "I applied to companies such as Acme.", []nameMention{{"Acme", "concept"}}},
		// Not a place: what one listens to, whom one talks to.
		{"ListenTo", "I listen to Adele on the way to work.", []nameMention{{"Adele", "person"}}},
		{"ListenToSeveralWords", "We listened to Taylor Swift all evening.", []nameMention{{"Taylor Swift", "concept"}}},
		{"TalkedTo", "I talked to Sam about the trip.", []nameMention{{"Sam", "person"}}},
		// People, as they were.
		{"DealWithTheVerb", "I had to deal with Jon all day.", []nameMention{{"Jon", "person"}}},
		{"WhatsTheDeal", "What's the deal with Jon lately?", []nameMention{{"Jon", "person"}}},
		{"SomeonesContract", "I read Jon's contract twice.", []nameMention{{"Jon", "person"}}},
		{"TalksAboutOther", "I'm in talks with Jon about the trip.", []nameMention{{"Jon", "person"}}},
		{"WentTo", "I went to Lisbon to listen.", []nameMention{{"Lisbon", "place"}}},
	}
	checkNames(t, tests)
}

// TestNamesCode: one word written as code is (a digit in it, an inner capital after a
// long first part, an error's name) is a concept; names with an inner capital after a
// short particle stay people.
func TestNamesCode(t *testing.T) {
	tests := []namesCase{
		{"ErrorName", "The job failed with DeadlockDetected again.", []nameMention{{"DeadlockDetected", "concept"}}},
		{"ShortErrorName", "I keep getting a KeyError when it runs.", []nameMention{{"KeyError", "concept"}}},
		{"Digit", "I think Neo4j crashed twice.", []nameMention{{"Neo4j", "concept"}}},
		{"Mc", "I went hiking with McDonald on Sunday.", []nameMention{{"McDonald", "person"}}},
		{"De", "I watched the game with DeShawn.", []nameMention{{"DeShawn", "person"}}},
		{"Le", "I met LeBron yesterday.", []nameMention{{"LeBron", "person"}}},
		{"Mac", "I called MacKenzie last night.", []nameMention{{"MacKenzie", "person"}}},
	}
	checkNames(t, tests)
}

type namesCase struct {
	name, text string
	want       []nameMention
}

// checkNames runs findNames on each case's text, said by the user.
// TestNamesOfDocuments: a pasted paper, table or transcript names its authors, not its
// headings, labels, months or table cells: a capitalised common word after a heading or
// a cell's opening is no name, nor a label before its number ("Table 2") or a month's
// abbreviation beside a day ("3 Dec"); an author cited ("Garcia & Lee (2019)", "Smith et
// al.", "Smith, J.") is a person, also after "from" and at a sentence's start; a quoted
// title is one name.
func TestNamesOfDocuments(t *testing.T) {
	tests := []namesCase{
		{"Label", "The effect was larger in younger participants (see Table 2 on page 7).", nil},
		{"LabelAndFigure", "Page 4, Figure 2 shows it.", nil},
		{"MonthAbbreviation", "The comparison table from the review site (accessed 3 Dec).", nil},
		{"Heading", "Abstract. Background: Adolescents routinely sleep less. Results: Restricted sleep reduced accuracy.", nil},
		{"TranscriptLine", "Tom: Randomisation will be stratified.\nPriya: Decision: we will use the PSQI.", []nameMention{{"Tom", "person"}, {"Priya", "person"}, {"PSQI", "concept"}}},
		{"TableCells", "| Study | Design | Outcome |\n|---|---|---|\n| Smith et al. | RCT crossover | Working memory |\n| Okafor | Survey | Sleep onset latency |", []nameMention{{"Smith", "person"}}},
		{"CitedAfterFrom", "Finding from Garcia & Lee (2019), Journal of Sleep Research.", []nameMention{{"Garcia", "person"}, {"Lee", "person"}, {"Journal of Sleep Research", "concept"}}},
		{"EtAlAtStart", "Vaswani et al. (2017) replaced recurrence.", []nameMention{{"Vaswani", "person"}}},
		{"Initials", "Please remember this paper. Smith, J., Alvarez, R., & Cho, H. (2021). Sleep duration.", []nameMention{{"Smith", "person"}, {"Alvarez", "person"}, {"Cho", "person"}}},
		{"QuotedTitle", `They wrote "Attention Is All You Need" at Google.`, []nameMention{{"Attention Is All You Need", "concept"}, {"Google", "concept"}}},
		{"LanguagePair", "It reached 28.4 BLEU on WMT 2014 English-German.", []nameMention{{"BLEU", "concept"}, {"WMT", "concept"}, {"English-German", "concept"}}},
		{"TableYearNotAuthor", "| Phase | Year |\n|---|---|\n| Pilot | 2024 |\n| Rollout | 2025 |", nil},
		{"Repository", "Final decision: 640 students, pre-registered at OSF, https://osf.io/x7k2p.", []nameMention{{"OSF", "concept"}}},
		{"ReferenceNumber", "Okafor [13] found the same in 2016.", []nameMention{{"Okafor", "person"}}},
		{"ReferenceList", "[12] Okafor A, Lindqvist B. 2016.\n[13] Smith J, Cho HK. 2021.\n14. Garcia M. 2019.", []nameMention{{"Okafor", "person"}, {"Lindqvist", "person"}, {"Smith", "person"}, {"Cho", "person"}, {"Garcia", "person"}}},
		// Negative rows: names kept.
		{"JanAlone", "I met Jan at the gym.", []nameMention{{"Jan", "person"}}},
		{"GivenNameAndSurname", "A talk from Maria Garcia on sleep.", []nameMention{{"Maria Garcia", "person"}}},
		{"TableAuthor", "| Study | Year |\n|---|---|\n| Okafor | 2016 |", []nameMention{{"Okafor", "person"}}},
		{"InitialAfterComma", "Okafor, A. (2016). Naps and grades.", []nameMention{{"Okafor", "person"}}},
		{"PlaceWithYear", "We flew to Lisbon 2019 style.", []nameMention{{"Lisbon", "place"}}},
	}
	checkNames(t, tests)
}

// TestNamesOfContracts: a contract's clauses name their parties, not their headings, the
// parts they number or the roles they give: "Section 7.2 (Termination for Convenience)",
// "Amendment 2" and "the Licensee" name no one.
func TestNamesOfContracts(t *testing.T) {
	tests := []namesCase{
		{"Heading", "Section 7.2 (Termination for Convenience): the termination notice period is 30 days written notice.", nil},
		{"HeadingOneWord", "Section 7.2 (Termination): either party may terminate for convenience on 30 days' notice.", nil},
		{"HeadingAndRoles", "Section 9.1 (Indemnity): the Licensor shall indemnify the Licensee against claims.", nil},
		{"HeadingOfSeveralWords", "Clause 12 (Governing Law): the laws of England apply.", []nameMention{{"Governing Law", "concept"}, {"England", "place"}}},
		{"LabelledLine", "Indemnity: Acme shall indemnify the Licensee.", nil},
		{"Amendment", "The signed copy of Amendment 2 is due by Friday.", nil},
		{"Parties", "Parties: Acme Corp is the Licensor.", []nameMention{{"Acme Corp", "concept"}}},
		{"FirmsPossessiveBeforeRole", "Tom Reyes (Acme's counsel) says the cap is too low.", []nameMention{{"Tom Reyes", "person"}, {"Acme", "concept"}}},
		{"FirmsGeneralCounsel", "A letter from Globex's general counsel came.", []nameMention{{"Globex", "concept"}}},
		{"CounselIsAPost", "Jane Porter, General Counsel, signs for Acme Corp.", []nameMention{{"Jane Porter", "person"}, {"Acme Corp", "concept"}}},
		{"FirmAfterSemicolon", "Acme Corp licenses the software; Brightline LLC holds it in escrow.", []nameMention{{"Acme Corp", "concept"}, {"Brightline LLC", "concept"}}},
		{"FirmCoordinated", "The licence is between Acme Corp and Globex.", []nameMention{{"Acme Corp", "concept"}, {"Globex", "concept"}}},
		// Negative rows: names kept.
		{"NameInBrackets", "The contract was signed (Jane Porter for Acme Corp) in May.", []nameMention{{"Jane Porter", "person"}, {"Acme Corp", "concept"}}},
		{"BracketsWithoutLabel", "We met Tom (Anna's brother) at the gym.", []nameMention{{"Tom", "person"}, {"Anna", "person"}}},
		{"PersonsPossessiveBeforeRole", "I emailed Anna's manager.", []nameMention{{"Anna", "person"}}},
	}
	checkNames(t, tests)
}

func checkNames(t *testing.T, tests []namesCase) {
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := findNames(tt.text, map[string]string{"user": "person"}); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("findNames(%q) = %v, want %v", tt.text, got, tt.want)
			}
		})
	}
}

// TestSelfIntroduction: the name a speaker gives as their own, and what is no such name.
func TestSelfIntroduction(t *testing.T) {
	tests := []struct {
		msg   string
		first bool
		want  string
	}{
		{"My name is Alice Nguyen", false, "Alice Nguyen"},
		{"By the way, my name's Tom.", false, "Tom"},
		{"Please call me Bea from now on.", false, "Bea"},
		{"Hi, I'm Alice. My order is late.", true, "Alice"},
		{"I am Priya Patel and I manage billing.", true, "Priya Patel"},
		{"Hello, this is Marco from the Lisbon office.", false, "Marco"},
		{"Hi, Alice here. Quick question.", false, "Alice"},
		{"Priya speaking, how can I help?", false, "Priya"},
		// No name.
		{"Hi, I'm Alice.", false, ""},           // "I'm X" only opens a session
		{"I'm Good, thanks!", true, ""},         // a greeting's answer
		{"I'm Excited for the trip!", true, ""}, // a feeling
		{"Same here!", true, ""},
		{"This is Max, our new puppy!", true, ""}, // shows someone else
		{"My name is on the list.", false, ""},
		{"I'm on the Basic plan.", true, ""},
	}
	for _, tt := range tests {
		if got := selfIntroduction(tt.msg, tt.first); got != tt.want {
			t.Errorf("selfIntroduction(%q, %v) = %q, want %q", tt.msg, tt.first, got, tt.want)
		}
	}
}

// TestExtractSelfIntroduction: the user's own name is an alias of the user's entity, not
// an entity apart, and the turn telling it is still a memory; "Hi, X here" greets no X.
func TestExtractSelfIntroduction(t *testing.T) {
	a := New(Options{})
	for _, msg := range []string{"My name is Alice Nguyen.", "Hi, Alice Nguyen here. You promised me a refund."} {
		ext := mustExtract(t, a, agent.ExtractInput{Observation: obsAt("o1", "s1", "user", msg)})
		entities := ofType(ext.Candidates, realm.Entity)
		if len(entities) != 1 || entities[0].Name != "user" || entities[0].Category != "person" ||
			!slices.Equal(entities[0].Aliases, []string{"Alice Nguyen"}) || !slices.Contains(entities[0].Keywords, "Alice Nguyen") {
			t.Errorf("%q: entities %+v, want only the user, also called Alice Nguyen", msg, entities)
		}
		memories := append(ofType(ext.Candidates, realm.Fact), ofType(ext.Candidates, realm.Event)...)
		if len(memories) == 0 {
			t.Errorf("%q: no memory among %+v", msg, ext.Candidates)
		}
		for _, c := range append(memories, ofType(ext.Candidates, realm.Episode)...) {
			if strings.Contains(c.Content, "Alice Nguyen promised") || slices.Contains(c.Participants, "Alice Nguyen") && c.Type == realm.Episode {
				t.Errorf("%q: Alice Nguyen addressed in %+v", msg, c)
			}
		}
	}
}

// TestNamesNotPeople: a greeting, a firm's suffix, a title and a show's name are no person
// of their own; a name told with an animal is an animal's (an object), and one talked to
// is a person's, not a place.
func TestNamesNotPeople(t *testing.T) {
	tests := []namesCase{
		{"FirmSuffix", "I work as an accountant at Hartwell & Co. It's fine.", []nameMention{{"Hartwell & Co", "concept"}}},
		{"Title", "I have therapy every Tuesday with Dr. Patel.", []nameMention{{"Dr. Patel", "person"}}},
		{"TitleAtStart", "Dr. Patel moved my appointment.", []nameMention{{"Dr. Patel", "person"}}},
		{"Show", "I binge-watched three episodes of The Bear.", []nameMention{{"Bear", "concept"}}},
		{"AnimalBefore", "I live with my boyfriend Daniel and our cat Mochi.", []nameMention{{"Daniel", "person"}, {"Mochi", "object"}}},
		{"AnimalNamed", "We adopted a puppy named Pepper.", []nameMention{{"Pepper", "object"}}},
		{"AnimalAfter", "We adopted a puppy! His name is Pepper, he's a beagle mix.", []nameMention{{"Pepper", "object"}}},
		{"TalkedTo", "Talked to Katie on the phone for an hour.", []nameMention{{"Katie", "person"}}},
		{"KinAfter", "Dinner with Kat (user's sister) tonight.", []nameMention{{"Kat", "person"}}},
		// Still people and places.
		{"PersonAfterComma", "I met Tom, a friend of Ana.", []nameMention{{"Tom", "person"}, {"Ana", "person"}}},
		{"KinOfTheNextName", "I finished the report at Lumen, user's boss Jordan loved it.", []nameMention{{"Lumen", "place"}, {"Jordan", "person"}}},
		{"DrovePlace", "We drove to Lisbon, a long way.", []nameMention{{"Lisbon", "place"}}},
		{"NotAnAnimal", "I met Tom, a dog lover, at the park.", []nameMention{{"Tom", "person"}}},
	}
	checkNames(t, tests)
}

// TestEntityToldWith: what a turn tells of a name beside it goes with its entity: a
// relation is an alias and its role (a later nickname of the same relation may join it,
// a memory saying "user's sister" mentions it), an animal makes a pet.
func TestEntityToldWith(t *testing.T) {
	tests := []struct {
		name, msg, entity string
		want              agent.Candidate
	}{
		{"Kin", "Talked to my sister Kat on the phone for an hour tonight.", "Kat", agent.Candidate{
			Content: "Kat (person), user's sister, mentioned by user.", Category: "person", Role: "user's sister", Aliases: []string{"user's sister"}}},
		{"KinAfter", "Dinner tonight with Kat (my big sister) downtown.", "Kat", agent.Candidate{
			Content: "Kat (person), user's sister, mentioned by user.", Category: "person", Role: "user's sister", Aliases: []string{"user's sister"}}},
		{"Pet", "I live in Portland with our cat Mochi.", "Mochi", agent.Candidate{
			Content: "Mochi (object), a pet cat, mentioned by user.", Category: "object", Role: "pet"}},
		{"NameBeginsAnother", "My sister Katherine came over with Kat.", "Kat", agent.Candidate{
			Content: "Kat (person), mentioned by user.", Category: "person"}},
		{"Plain", "Talked to Katie on the phone for an hour tonight.", "Katie", agent.Candidate{
			Content: "Katie (person), mentioned by user.", Category: "person"}},
	}
	a := New(Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ext := mustExtract(t, a, agent.ExtractInput{Observation: obsAt("o1", "s1", "user", tt.msg)})
			i := slices.IndexFunc(ext.Candidates, func(c agent.Candidate) bool { return c.Type == realm.Entity && c.Name == tt.entity })
			if i < 0 {
				t.Fatalf("no entity %s in %+v", tt.entity, ext.Candidates)
			}
			got := ext.Candidates[i]
			if got.Content != tt.want.Content || got.Category != tt.want.Category || got.Role != tt.want.Role || !slices.Equal(got.Aliases, tt.want.Aliases) {
				t.Errorf("entity %q (%s, role %q, aliases %q), want %q (%s, role %q, aliases %q)",
					got.Content, got.Category, got.Role, got.Aliases, tt.want.Content, tt.want.Category, tt.want.Role, tt.want.Aliases)
			}
		})
	}
}

// TestGreetingOfTheDayCallsNoOne: "Evening!" greets; it calls no one named Evening.
func TestGreetingOfTheDayCallsNoOne(t *testing.T) {
	a := New(Options{})
	for _, msg := range []string{"Evening!", "Morning! Slept badly again."} {
		ext := mustExtract(t, a, agent.ExtractInput{Observation: obsAt("o1", "s1", "user", msg)})
		for _, c := range ext.Candidates {
			if c.Type != realm.Event && c.Type != realm.Fact && (strings.Contains(c.Content, "Evening") || strings.Contains(c.Content, "Morning")) {
				t.Errorf("%q: %s %q", msg, c.Type, c.Content)
			}
		}
	}
}

// TestHyphenatedSpeaker: a speaker called "Jean-Luc" is one person, also where the turn
// names them: no "Jean" or "Luc" beside them.
func TestHyphenatedSpeaker(t *testing.T) {
	ex, _, err := New(Options{}).Extract(context.Background(), agent.ExtractInput{Observation: realm.Observation{
		ID: "m1", Speaker: "Jean-Luc", Content: "Jean-Luc here: my boss is Anne-Marie Picard and I met Luc at the office.", ObservedAt: time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range ex.Candidates {
		if c.Type == realm.Entity {
			got = append(got, c.Name)
		}
	}
	if want := []string{"Jean-Luc", "Anne-Marie Picard", "Luc"}; !reflect.DeepEqual(got, want) {
		t.Errorf("entities %q, want %q", got, want)
	}
}

// TestHyphenatedAddressee: a greeting calls "Jean-Luc", not "Jean": "you" is Jean-Luc.
func TestHyphenatedAddressee(t *testing.T) {
	ex, _, err := New(Options{}).Extract(context.Background(), agent.ExtractInput{Observation: realm.Observation{
		ID: "m1", Speaker: "Ana", Content: "Hey Jean-Luc, did you like the museum in Lyon?", ObservedAt: time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range ex.Candidates {
		if c.Type != realm.Entity && c.Type != realm.Episode && !strings.Contains(c.Content, "did Jean-Luc like") {
			t.Errorf("%s %q, want \"you\" rewritten as Jean-Luc", c.Type, c.Content)
		}
		if c.Type == realm.Entity && (c.Name == "Jean" || c.Name == "Luc") {
			t.Errorf("an entity %q", c.Name)
		}
	}
}

// TestTitledAddressee: a name called with its title ("Ms. Rivera", "Dr Chen") is called
// whole, the speaker of that name before it too: "you" is Ms. Rivera, not "Ms".
func TestTitledAddressee(t *testing.T) {
	a := New(Options{})
	at := time.Date(2026, time.October, 14, 10, 0, 0, 0, time.UTC)
	rivera := realm.Observation{ID: "o1", Space: "t", SessionID: "s1", Speaker: "Ms. Rivera", Content: "I reviewed the contract.", ObservedAt: at}
	for _, tt := range []struct {
		text, said, called string
		recent             []realm.Observation
	}{
		{"Thanks Ms. Rivera, I will send you the contract tomorrow.", "Priya will send Ms. Rivera the contract", "Ms. Rivera", nil},
		{"Thanks Ms. Rivera, I will send you the contract tomorrow.", "Priya will send Ms. Rivera the contract", "Ms. Rivera", []realm.Observation{rivera}},
		{"Dr. Chen, can you send me the report?", "can Dr. Chen send Priya the report", "Dr. Chen", nil},
		{"Hi Mr Smith, did you get the report I sent on Monday?", "did Mr Smith get the report", "Mr Smith", nil},
	} {
		obs := realm.Observation{ID: "o2", Space: "t", SessionID: "s1", Speaker: "Priya", Content: tt.text, ObservedAt: at.Add(time.Minute)}
		var said bool
		for _, c := range mustExtract(t, a, agent.ExtractInput{Observation: obs, Recent: tt.recent}).Candidates {
			said = said || c.Type != realm.Entity && c.Type != realm.Episode && strings.Contains(c.Content, tt.said)
			if c.Type == realm.Entity && c.Name != "Priya" && c.Name != tt.called || c.Type == realm.Episode && !slices.Contains(c.Participants, tt.called) {
				t.Errorf("%q: %s %q with %q, want none but of Priya and %s", tt.text, c.Type, c.Name, c.Participants, tt.called)
			}
		}
		if !said {
			t.Errorf("%q: no memory saying %q", tt.text, tt.said)
		}
	}
}

// TestExtractNickname: a person told with the name they go by is one entity, the short
// name its alias, not a person apart.
func TestExtractNickname(t *testing.T) {
	a := New(Options{})
	for _, msg := range []string{
		"Robert Lang (goes by Bob) signed the renewal.",
		"New contact: Robert Lang, known as Bob, CFO at Initech.",
		"Bob (Robert Lang) signed the renewal.",
	} {
		ext := mustExtract(t, a, agent.ExtractInput{Observation: obsAt("o1", "s1", "Sam Carter", msg)})
		var got []string
		for _, e := range ofType(ext.Candidates, realm.Entity) {
			if e.Category == "person" && e.Name != "Sam Carter" {
				got = append(got, e.Name+" "+strings.Join(e.Aliases, ","))
			}
		}
		if !slices.Equal(got, []string{"Robert Lang Bob"}) {
			t.Errorf("%q: persons %q, want Robert Lang alone, also called Bob", msg, got)
		}
	}
}

// TestExtractFirstNameOfFullName: a first name said before or after the one full name of
// the message it opens is that person, no entity apart; beside two full names it opens,
// it stays a name of its own.
func TestExtractFirstNameOfFullName(t *testing.T) {
	a := New(Options{})
	for _, tt := range []struct {
		msg  string
		want []string
	}{
		{"Tom called about the renewal. Later: Tom Becker from Acme confirmed the order.", []string{"Tom Becker"}},
		{"Tom Becker from Acme confirmed the order; Tom wants the invoice.", []string{"Tom Becker"}},
		{"Tom called. Tom Becker and Tom Ruiz both confirmed.", []string{"Tom", "Tom Becker", "Tom Ruiz"}},
	} {
		ext := mustExtract(t, a, agent.ExtractInput{Observation: obsAt("o1", "s1", "Sam Carter", tt.msg)})
		var got []string
		for _, e := range ofType(ext.Candidates, realm.Entity) {
			if e.Category == "person" && e.Name != "Sam Carter" {
				got = append(got, e.Name)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: persons %q, want %q", tt.msg, got, tt.want)
		}
	}
}
