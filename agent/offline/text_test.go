package offline

import (
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/unicode/norm"
)

func TestOfflineRewritePronouns(t *testing.T) {
	tests := []struct {
		name, text, speaker, addressee, want string
	}{
		{"Subject", "I went to a LGBTQ support group yesterday.", "Caroline", "", "Caroline went to a LGBTQ support group yesterday."},
		{"Possessive", "My kids love my pottery.", "Melanie", "", "Melanie's kids love Melanie's pottery."},
		{"Contractions", "I'm keen on counseling - I'd love to help. I've been busy and I'll rest.", "Caroline", "", "Caroline is keen on counseling - Caroline would love to help. Caroline has been busy and Caroline will rest."},
		{"ThirdPersonVerb", "I love painting and I really enjoy hiking.", "Melanie", "", "Melanie loves painting and Melanie really enjoys hiking."},
		{"Irregular", "I have a dog. I am tired. I don't know.", "Jon", "", "Jon has a dog. Jon is tired. Jon doesn't know."},
		{"Object", "It made me happy and gave me courage to embrace myself.", "Caroline", "", "It made Caroline happy and gave Caroline courage to embrace Caroline."},
		{"SecondPerson", "You're doing great and your kids are lucky to have you.", "Caroline", "Melanie", "Melanie is doing great and Melanie's kids are lucky to have Melanie."},
		{"Question", "Are you coming? Have you been there?", "Caroline", "Melanie", "Is Melanie coming? Has Melanie been there?"},
		{"QuestionAfterAux", "Did you like it?", "Caroline", "Melanie", "Did Melanie like it?"},
		{"SecondPersonUnknown", "You're doing great and I agree.", "Caroline", "", "You're doing great and Caroline agrees."},
		{"ThankYouKept", "Thank you so much!", "Caroline", "Melanie", "Thank you so much!"},
		{"CurlyApostrophe", "I’m off to swim.", "Melanie", "", "Melanie is off to swim."},
		{"NoPronoun", "The colors blend nicely.", "Caroline", "Melanie", "The colors blend nicely."},
		{"NoSpeaker", "I went.", "", "", "I went."},
		{"AdverbNow", "I now live in Valencia and I now have a cat.", "Ana", "", "Ana now lives in Valencia and Ana now has a cat."},
		{"TwoAdverbs", "I now also work from home, so I mostly prefer mornings.", "Ana", "", "Ana now also works from home, so Ana mostly prefers mornings."},
		{"AdverbSecondPerson", "You already know my schedule and you still need my address.", "Ana", "Tom", "Tom already knows Ana's schedule and Tom still needs Ana's address."},
		// A name calling the addressee beside a "you" goes with the rewrite, which names them
		// there: else the name would stand twice, and "Jon Jon" would be a name of no one.
		// Two pronouns of the speaker side by side are set apart by a comma.
		{"CalledBefore", "No doubt, Jon you've got this. Wow Jon, your support means a lot.", "Gina", "Jon", "No doubt, Jon has got this. Wow, Jon's support means a lot."},
		{"CalledAfter", "I'm so happy for you, Caroline. You found your true self, Mel, you did!", "Melanie", "Caroline", "Melanie is so happy for Caroline. Caroline found Caroline's true self, Mel, Caroline did!"},
		{"CalledShort", "Wow, Mel, you look great. What about you, Mel?", "Caroline", "Melanie", "Wow, Melanie looks great. What about Melanie?"},
		{"CalledOnce", "Thank you, Dave, your notes were clear.", "Alice", "Dave", "Thank you, Dave's notes were clear."},
		{"CalledSetOff", "You, Dave, are great. And you, Dave, always know what to say.", "Alice", "Dave", "Dave is great. And Dave always knows what to say."},
		{"CalledSetOffKept", "Thanks, Dave, I love your notes. Dave, can you send them?", "Alice", "Dave", "Thanks, Dave, Alice loves Dave's notes. Dave, can Dave send them?"},
		{"CalledNotAuxiliary", "Oh? Are you going?", "Joanna", "Aretha", "Oh? Is Aretha going?"},
		{"CalledNotBeside", "Thanks, Jon! Your help means a lot.", "Gina", "Jon", "Thanks, Jon! Jon's help means a lot."},
		{"SpeakerTwice", "They keep reminding me I'm not alone. For me I just get lost.", "Maria", "John", "They keep reminding Maria, Maria is not alone. For Maria, Maria just gets lost."},
		{"TwoPersonsSideBySide", "I'm so excited to tell you I started yoga.", "John", "Maria", "John is so excited to tell Maria, John started yoga."},
		// The common verbs of what one is and does take the third person; a past, a modal, a
		// verb whose past is its base form and a pasted quotation keep theirs.
		{"CommonVerbs", "I weigh 72.5 kg, I eat fish and I personally watch TV. You fix bikes.", "user", "assistant", "user weighs 72.5 kg, user eats fish and user personally watches TV. assistant fixes bikes."},
		{"CommonVerbsKept", "I walked, I can drive and I read it. She said \"I smoke\".", "user", "assistant", "user walked, user can drive and user read it. She said \"I smoke\"."},
		{"AdverbPastKept", "I still lived in Lyon then and I now realised why.", "Ana", "", "Ana still lived in Lyon then and Ana now realised why."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rewritePronouns(tt.text, tt.speaker, tt.addressee); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func segTexts(text string, segs []segment) []string {
	var out []string
	for _, s := range segs {
		out = append(out, text[s.start:s.end])
	}
	return out
}

func TestOfflineSegmentation(t *testing.T) {
	tests := []struct {
		name      string
		text      string
		sentences []string
		clauses   []string
	}{
		{"Sentences", "Hey Mel! Good to see you. How are you?", []string{"Hey Mel!", "Good to see you.", "How are you?"}, []string{"Hey Mel!", "Good to see you.", "How are you?"}},
		{"Abbreviation", "I saw Dr. Smith today. It went well!!", []string{"I saw Dr. Smith today.", "It went well!!"}, []string{"I saw Dr. Smith today.", "It went well!!"}},
		{"Decimal", "It cost 3.50 dollars.", []string{"It cost 3.50 dollars."}, []string{"It cost 3.50 dollars."}},
		{"Clauses", "I ran a race last Saturday – it was rewarding; I will run again, but slower.", []string{"I ran a race last Saturday – it was rewarding; I will run again, but slower."}, []string{"I ran a race last Saturday", "it was rewarding", "I will run again", "slower."}},
		{"LineBreak", "first line\nsecond line", []string{"first line", "second line"}, []string{"first line", "second line"}},
		{"FullWidthStops", "我很好。你呢？我们搬到了深圳！！", []string{"我很好。", "你呢？", "我们搬到了深圳！！"}, []string{"我很好。", "你呢？", "我们搬到了深圳！！"}},
		{"StopBeforeUnspaced", "今日は晴れ.明日は雨?そうですね!", []string{"今日は晴れ.", "明日は雨?", "そうですね!"}, []string{"今日は晴れ.", "明日は雨?", "そうですね!"}},
		{"StopBeforeLatin", "See example.com or v2.0!Thanks", []string{"See example.com or v2.0!Thanks"}, []string{"See example.com or v2.0!Thanks"}},
		// An abbreviation's point ends no sentence, even where one ends ("at 9 a.m. Then"):
		// a sentence cut there would cut names ("St" and "Louis").
		{"Abbreviations", "The meeting is at 9 a.m. tomorrow with Dr. Lee. We flew to the U.S.A. last year, e.g. to St. Louis and Mt. Hood, i.e. west, vs. east etc. and read J. K. Rowling.", []string{"The meeting is at 9 a.m. tomorrow with Dr. Lee.", "We flew to the U.S.A. last year, e.g. to St. Louis and Mt. Hood, i.e. west, vs. east etc. and read J. K. Rowling."}, []string{"The meeting is at 9 a.m. tomorrow with Dr. Lee.", "We flew to the U.S.A. last year, e.g. to St. Louis and Mt. Hood, i.e. west, vs. east etc. and read J. K. Rowling."}},
		{"AbbreviationEndsSentence", "We met at 9 a.m. Then we left.", []string{"We met at 9 a.m. Then we left."}, []string{"We met at 9 a.m. Then we left."}},
		{"ClosingQuote", `She said "I'm done." Then she left (quietly.) Bye.`, []string{`She said "I'm done."`, "Then she left (quietly.)", "Bye."}, []string{`She said "I'm done."`, "Then she left (quietly.)", "Bye."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := segTexts(tt.text, sentences(tt.text)); !reflect.DeepEqual(got, tt.sentences) {
				t.Errorf("sentences = %q, want %q", got, tt.sentences)
			}
			if got := segTexts(tt.text, clauses(tt.text)); !reflect.DeepEqual(got, tt.clauses) {
				t.Errorf("clauses = %q, want %q", got, tt.clauses)
			}
		})
	}
}

func TestOfflineFindNames(t *testing.T) {
	known := map[string]string{"caroline": "person", "melanie": "person"}
	tests := []struct {
		name string
		text string
		want []nameMention
	}{
		{"MidSentence", "Caroline moved from Sweden to New York last year.", []nameMention{{"Caroline", "person"}, {"Sweden", "place"}, {"New York", "place"}}},
		{"SentenceStartUnknownSkipped", "Painting is fun. Melanie's kids love it.", []nameMention{{"Melanie", "person"}}},
		{"Connector", "We read The Lord of the Rings with Jon.", []nameMention{{"Lord of the Rings", "concept"}, {"Jon", "person"}}},
		{"AcronymAndGreeting", "Hey Caroline! The LGBTQ group met on Friday in May.", []nameMention{{"Caroline", "person"}, {"LGBTQ", "concept"}}},
		// A term of the trade in capitals is no entity; a firm's or a product's is.
		{"TermAcronyms", "Melanie sent the SOC 2 report and the API docs; the KPIs and SLA are due, ETA Friday, for IBM on AWS.", []nameMention{{"Melanie", "person"}, {"IBM", "concept"}, {"AWS", "concept"}}},
		{"OneMentionPerName", "Jon called Jon's mom, and Jon laughed.", []nameMention{{"Jon", "person"}}},
		{"None", "lol that is so true", nil},
		{"DiscourseVerbs", "Hey Melanie, Guess what? Remember, Listen: I saw Jon.", []nameMention{{"Melanie", "person"}, {"Jon", "person"}}},
		{"DaysAndNotes", "Yoga on Tuesdays, Melanie? Today I can't. Je suis fatigué. Message Jon, please.", []nameMention{{"Melanie", "person"}, {"Jon", "person"}}},
		{"Languages", "Melanie started learning Portuguese and reads in Spanish with Jon.", []nameMention{{"Melanie", "person"}, {"Portuguese", "concept"}, {"Spanish", "concept"}, {"Jon", "person"}}},
		{"LettersAlone", "Thanks, Melanie. P.S. the R&R chapter of the book by J.K. Rowling made Caroline laugh.", []nameMention{{"Melanie", "person"}, {"Rowling", "person"}, {"Caroline", "person"}}},
		// A hyphen joins the parts of a name, and a place's particles between hyphens; a
		// hyphenated name opens a sentence as a name. An apostrophe was always part of a word.
		{"Hyphenated", "Anne-Marie O'Connor-Smith lives in Stratford-upon-Avon with Jean-Luc and Seán O'Brien, not in Aix-en-Provence.", []nameMention{
			{"Anne-Marie O'Connor-Smith", "concept"}, {"Stratford-upon-Avon", "place"}, {"Jean-Luc", "person"}, {"Seán O'Brien", "concept"}, {"Aix-en-Provence", "place"}}},
		{"HyphenNoName", "Melanie drove to Paris - London, a Paris-based firm, mid-June.", []nameMention{{"Melanie", "person"}, {"Paris", "place"}}},
		// A Spanish question or exclamation opens with its mark: its first word is no name.
		{"InvertedMarks", "¿Dónde está Melanie? Ya viene Jon. ¡Qué bien! Dime, ¿Cómo está Ana?", []nameMention{{"Melanie", "person"}, {"Jon", "person"}, {"Ana", "person"}}},
		// A hyphenated name before a word for a route is the route, not a person.
		{"Route", "Melanie took the Berlin-Paris train with Anne-Marie.", []nameMention{{"Melanie", "person"}, {"Berlin-Paris", "concept"}, {"Anne-Marie", "person"}}},
		// "St." and "Mt." open a place's name as a title opens a person's, also at a
		// sentence start.
		{"PlaceTitles", "We lived in St. Louis near Mt. Hood. St. Paul is colder.", []nameMention{{"St. Louis", "place"}, {"Mt. Hood", "place"}, {"St. Paul", "concept"}}},
		// Accents typed decomposed (NFD, as macOS and iOS often send them) stay in the name; a
		// full name met is a person.
		{"Decomposed", norm.NFD.String("Caroline met José Álvarez in Málaga, at Telefónica."), []nameMention{
			{"Caroline", "person"}, {norm.NFD.String("José Álvarez"), "person"}, {norm.NFD.String("Málaga"), "place"}, {norm.NFD.String("Telefónica"), "place"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := findNames(tt.text, known); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestOfflineFactSlots(t *testing.T) {
	tests := []struct {
		text string
		want []factSlot
	}{
		{"Caroline lives in Boston and loves it.", []factSlot{{"Caroline", "lives in", "Boston"}}},
		{"Caroline moved to New York last year.", []factSlot{{"Caroline", "lives in", "New York last year"}}},
		{"Jon works as a baker.", []factSlot{{"Jon", "works as", "baker"}}},
		{"Jon now works at Google, for now.", []factSlot{{"Jon", "works at", "Google"}}},
		{"Melanie's favourite book is Charlotte's Web.", []factSlot{{"Melanie", "favourite book", "Charlotte's Web"}}},
		{"Melanie's favorite color is blue!", []factSlot{{"Melanie", "favourite color", "blue"}}},
		{"Caroline is from Sweden.", []factSlot{{"Caroline", "is from", "Sweden"}}},
		{"Caroline is single.", []factSlot{{"Caroline", "relationship status", "single"}}},
		{"The painting is lovely.", nil},
	}
	for _, tt := range tests {
		if got := factSlots(tt.text); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("factSlots(%q) = %+v, want %+v", tt.text, got, tt.want)
		}
	}
}

func TestOfflineKeywords(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		names   []string
		speaker string
		want    []string
	}{
		{"NamesFirst", "Caroline went to a LGBTQ support group and the support group was powerful.", []string{"Caroline", "LGBTQ"}, "Caroline", []string{"LGBTQ", "support", "group", "powerful", "went"}},
		{"SpeakerFillsUp", "Melanie swims.", nil, "Melanie", []string{"swims", "Melanie"}},
		{"StopwordsDropped", "It was really so very nice, you know.", nil, "", nil},
		// A combining mark is part of its word: the accent of a decomposed "é", a Devanagari
		// vowel sign (composed or not).
		{"Decomposed", norm.NFD.String("Melanie loves the café's crème brûlée."), nil, "Melanie", []string{norm.NFD.String("brûlée"), norm.NFD.String("crème"), norm.NFD.String("café"), "loves"}},
		// The words of a hyphenated name are the name's, not content words besides it.
		{"Hyphenated", "Jean-Luc Picard moved to Stratford-upon-Avon.", []string{"Jean-Luc Picard", "Stratford-upon-Avon"}, "Anne-Marie", []string{"Jean-Luc Picard", "Stratford-upon-Avon", "moved"}},
		{"VowelSigns", "राहुल दिल्ली में रहता है, दिल्ली", nil, "", []string{"दिल्ली", "राहुल", "रहता", "में", "है"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := keywordsOf(tt.text, tt.names, tt.speaker)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if len(got) > 5 {
				t.Errorf("%d keywords, want at most 5", len(got))
			}
		})
	}
}

func TestOfflineContainsName(t *testing.T) {
	for _, tt := range []struct {
		text, name string
		want       bool
	}{
		{"Caroline's dog", "Caroline", true},
		{"Carolines", "Caroline", false},
		{"with mel.", "Mel", true},
		{"Melanie", "Mel", false},
		{norm.NFD.String("with José."), "Jose", false}, // the accent is part of the word
	} {
		if got := containsName(tt.text, tt.name); got != tt.want {
			t.Errorf("containsName(%q, %q) = %v", tt.text, tt.name, got)
		}
	}
	if strings.Contains(shortName("one two three four five six seven eight nine", 8), "nine") {
		t.Error("shortName kept more than 8 words")
	}
}

// reWord is what wordsOf finds by hand.
var reWord = regexp.MustCompile(`[\p{L}\p{M}\p{N}]+(?:['’]\p{L}[\p{L}\p{M}]*)*`)

// wordsOf finds the matches of reWord, on texts made to try its edges (apostrophes at
// word ends and in a row, digits after an apostrophe, combining marks, invalid UTF-8),
// random strings of such runes, and every LoCoMo turn and candidate text when the data
// is there.
func TestWordsOfIsTheRegexp(t *testing.T) {
	texts := []string{
		"", "a", "'", "’", "don't", "don’t stop", "rock'n'roll", "'tis", "cats'", "cats' toys", "it''s",
		"90's", "x'9", "a'b'c'd", "l'été", "e\u0301te\u0301", "naïve café", "東京 2024年", "Ωmega-3", "\xffab\xfe'c",
		"Hey Mel! I'm 29, and my kids' school's great… ¿qué?", "a\u2019\u2019b", "ab’", "½ ² x²", "\u00a0word\u00a0",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "Z", "é", "e\u0301", "1", "²", "'", "’", " ", ".", "-", "\xff", "東", "\u200d"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		texts = append(texts, b.String())
	}
	if data := locomoTexts(t); len(data) > 0 {
		texts = append(texts, data...)
	} else {
		t.Log("LoCoMo data not available: hand-written and random texts only")
	}
	for _, text := range texts {
		var got [][]int
		for _, w := range wordsOf(text) {
			if w.text != text[w.start:w.end] {
				t.Fatalf("%q: word %q at %d–%d", text, w.text, w.start, w.end)
			}
			got = append(got, []int{w.start, w.end})
		}
		if want := reWord.FindAllStringIndex(text, -1); !reflect.DeepEqual(got, want) {
			t.Fatalf("words of %q: %v, the regexp finds %v", text, got, want)
		}
	}
}

// locomoTexts are every LoCoMo turn and the offline extractor's candidate texts of them,
// nil without the development data.
func locomoTexts(t *testing.T) []string {
	var texts []string
	t.Run("LoCoMo", func(t *testing.T) {
		for _, conv := range loadLocomo(t) {
			for _, s := range conv {
				for _, obs := range s.turns {
					texts = append(texts, obs.Content)
				}
			}
		}
		texts = append(texts, candidateTexts(t)...)
	})
	return texts
}

// TestSentenceAt: the sentence around an offset ends at a stop followed by a space, past
// a closing quote, at a full-width stop, and at a stop followed directly by a letter of a
// script written without spaces; not at an abbreviation's point.
func TestSentenceAt(t *testing.T) {
	for _, tt := range []struct{ text, at, want string }{
		{"I moved. Did you move?", "Did", "Did you move?"},
		{"Write to ana.lima@example.com please.", "example", "Write to ana.lima@example.com please."},
		{"我搬家了。你能改我的地址吗？", "你", "你能改我的地址吗？"},
		{"我搬家了!你能改我的地址吗?谢谢", "你", "你能改我的地址吗?"},
		{"引っ越しました。住所を変えてください", "住所", "住所を変えてください"},
		{"Please ask Dr. Lee, not me.", "Lee", "Please ask Dr. Lee, not me."},
		{`She said "I'm done." Then she left.`, "done", `She said "I'm done."`},
	} {
		if got := sentenceAt(tt.text, strings.Index(tt.text, tt.at)); got != tt.want {
			t.Errorf("sentenceAt(%q, %q) = %q, want %q", tt.text, tt.at, got, tt.want)
		}
	}
}

// TestShortName: a name is the first 8 words of a content, and no more characters than
// those words take in English when the content is written without spaces.
func TestShortName(t *testing.T) {
	for _, tt := range []struct{ content, want string }{
		{"Ana: I moved to Lisbon.", "Ana: I moved to Lisbon."},
		{"Caroline: I went to a LGBTQ support group yesterday and it was so powerful.", "Caroline: I went to a LGBTQ support group…"},
		{"李伟: 我对花生过敏。", "李伟: 我对花生过敏。"},
		{"Ana: " + strings.Repeat("今天我和朋友去了公园。", 10), "Ana: 今天我和朋友去了公园。今天我和朋友去了公园。今天我和朋友去了公园。今天…"},
	} {
		if got := shortName(tt.content, 8); got != tt.want {
			t.Errorf("shortName(%q) = %q, want %q", tt.content, got, tt.want)
		}
	}
}

// A day without a year said of an appointment, or acknowledged ("noted"), is the coming
// one unless a word of the past says otherwise: a plan's state ("is cancelled") and an
// acknowledgement are no past actions.
func TestOfflineAppointmentDates(t *testing.T) {
	wantAnnotated(t, time.Date(2026, time.March, 1, 9, 0, 0, 0, time.UTC), []struct{ text, want string }{
		{"My physio appointment on April 3 is cancelled.", "My physio appointment on April 3 (3 April 2026) is cancelled."},
		{"The meeting on April 3 has been called off.", "The meeting on April 3 (3 April 2026) has been called off."},
		{"Booking for June 12, confirmed.", "Booking for June 12 (12 June 2026), confirmed."},
		// Negative: the past stays past.
		{"I had a dentist appointment on April 3.", "I had a dentist appointment on April 3 (3 April 2025)."},
		{"The interview on April 3 went well.", "The interview on April 3 (3 April 2025) went well."},
		{"I noted the date of the race on April 3.", "I noted the date of the race on April 3 (3 April 2025)."},
	})
	wantAnnotated(t, time.Date(2026, time.February, 5, 13, 2, 0, 0, time.UTC), []struct{ text, want string }{
		{"Dentist on March 2 at 3 pm, noted.", "Dentist on March 2 (2 March 2026) at 3 pm, noted."},
		{"Noted: dentist on March 2.", "Noted: dentist on March 2 (2 March 2026)."},
	})
}
