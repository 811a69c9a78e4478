package offline

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// Pasted text keeps its words: its "you" is whoever it was written to, its "I" its
// author, not the chat's speakers. The speaker's own words around it are rewritten.
func TestOfflineRewriteKeepsPastedAndForeign(t *testing.T) {
	tests := []rewriteCase{
		{"QuoteLines", "> your order shipped today\n> I will send the tracking link\nWhere is my parcel?",
			"> your order shipped today\n> I will send the tracking link\nWhere is user's parcel?"},
		{"SubjectLine", "Subject: Re: your refund request", "Subject: Re: your refund request"},
		{"HeaderToEnd", "From: Billing <billing@example.com>\nTo: me\nSubject: your invoice\n\nI attached your invoice for March.",
			"From: Billing <billing@example.com>\nTo: me\nSubject: your invoice\n\nI attached your invoice for March."},
		{"Forwarded", "I got this today.\n---------- Forwarded message ---------\nWe moved your appointment to Friday.",
			"user got this today.\n---------- Forwarded message ---------\nWe moved your appointment to Friday."},
		{"BeginForwarded", "Begin forwarded message:\n\nYour seat is 14C.", "Begin forwarded message:\n\nYour seat is 14C."},
		{"OriginalMessage", "-----Original Message-----\nCould you send me your passport number?",
			"-----Original Message-----\nCould you send me your passport number?"},
		{"WroteThenQuoted", "I checked.\nOn Tue, 3 Nov 2026, Priya Nair wrote:\n> I think your estimate is too low\nMy estimate is fine.",
			"user checked.\nOn Tue, 3 Nov 2026, Priya Nair wrote:\n> I think your estimate is too low\nuser's estimate is fine."},
		{"WroteToEnd", "See below.\nOn Monday the landlord wrote:\nI will fix your heating next week.",
			"See below.\nOn Monday the landlord wrote:\nI will fix your heating next week."},
		{"Letter", "This came from the bank:\n\nDear Mr. Okafor,\nwe refunded 80 EUR to your card.\nKind regards,\nSandra Lutz\nCustomer Care\n\nWhy did I get only 80?",
			"This came from the bank:\n\nDear Mr. Okafor,\nwe refunded 80 EUR to your card.\nKind regards,\nSandra Lutz\nCustomer Care\n\nWhy did user get only 80?"},
		{"SignOffWithName", "Hi Tom,\nI booked your table for eight.\nBest, Lena\nIs that enough for my party?",
			"Hi Tom,\nI booked your table for eight.\nBest, Lena\nIs that enough for my party?"},
		{"SaidQuoted", `My doctor said "you need more sleep" and I agree.`, `user's doctor said "you need more sleep" and user agrees.`},
		{"SaysColonQuoted", "The email says: “your account manager is now Jonas Weber”, and I like him.",
			"The email says: “your account manager is now Jonas Weber”, and user likes him."},
		// Not pasted: rewritten exactly as before.
		{"OwnLines", "I moved to Porto.\nMy new address is Rua Alta 5.\nCan you update it?",
			"user moved to Porto.\nuser's new address is Rua Alta 5.\nCan assistant update it?"},
		{"GreetingThenSignOff", "Hi Tom,\nThanks!\nI moved to Porto.", "Hi Tom,\nThanks!\nuser moved to Porto."},
		{"GreetingWithoutSignOff", "Hi,\nI need to change my delivery address.\nCan you help?",
			"Hi,\nuser needs to change user's delivery address.\nCan assistant help?"},
		{"QuoteNotSpoken", `I call my cat "the boss" and you laughed.`, `user calls user's cat "the boss" and assistant laughed.`},
		{"ThanksInProse", "Thanks, I'll try that.\nI think you are right.", "Thanks, user will try that.\nuser thinks assistant is right."},
		{"HeaderWordInProse", "My subject: your essay was great.", "user's subject: assistant's essay was great."},
		{"GreaterThan", "My score is > 90 and you know it.", "user's score is > 90 and you know it."},
		// A header line alone is no email: the line keeps its words, the rest is the speaker's.
		{"DateLineInNotes", "Date: Friday\nI moved to Porto and my number changed.", "Date: Friday\nuser moved to Porto and user's number changed."},
		{"ToLineInNotes", "To: the landlord\nI need you to fix my boiler.", "To: the landlord\nuser needs assistant to fix user's boiler."},
		{"TwoHeaderLines", "To: me\nDate: Friday\n\nI will fix your boiler.", "To: me\nDate: Friday\n\nI will fix your boiler."},
		// Words told to someone are the teller's: "told me 'my rent…'" is the landlord's rent.
		{"ToldMeQuoted", "My landlord told me 'the rent goes up to 900 in May, my costs rose'.",
			"user's landlord told user 'the rent goes up to 900 in May, my costs rose'."},
		{"SaidToQuoted", `I said to Tom "I will call you" and he agreed.`, `user said to Tom "I will call you" and he agreed.`},
		{"ToldNoQuote", "My landlord told me the rent goes up.", "user's landlord told user the rent goes up."},
		// A message that is clearly not English is kept whole; English with a foreign word
		// or two is rewritten.
		{"Spanish", "Prefiero que me llamen por la tarde, gracias.", "Prefiero que me llamen por la tarde, gracias."},
		{"SpanishShort", "Me llamo Ana y vivo en Sevilla.", "Me llamo Ana y vivo en Sevilla."},
		{"German", "Ich habe my Passwort vergessen und kann mich nicht anmelden.", "Ich habe my Passwort vergessen und kann mich nicht anmelden."},
		{"French", "Je ne trouve pas mon colis, pouvez-vous me aider ?", "Je ne trouve pas mon colis, pouvez-vous me aider ?"},
		{"Portuguese", "Eu não recebi o meu pedido, me ajuda por favor.", "Eu não recebi o meu pedido, me ajuda por favor."},
		{"Italian", "Non ho ancora visto i miei amici che sono di Roma.", "Non ho ancora visto i miei amici che sono di Roma."},
		// A short message too, when no English word stands beside its foreign one; a short
		// English one is rewritten.
		{"SpanishShorter", "Me gusta el café", "Me gusta el café"},
		{"SpanishNo", "No me gusta la playa.", "No me gusta la playa."},
		{"EnglishShort", "Me too!", "user too!"},
		{"EnglishShortWithSpanishWord", "Me and my amigo en route", "user and user's amigo en route"},
		{"EnglishWithSpanishWords", "I love the tapas at El Rincón de Pepe, you should go.", "user loves the tapas at El Rincón de Pepe, assistant should go."},
		{"EnglishWithGermanName", "My friend works at Haus der Kunst in Munich.", "user's friend works at Haus der Kunst in Munich."},
	}
	wantRewritten(t, "user", "assistant", tests)
}

// rewriteCase is a text and its rewrite.
type rewriteCase struct{ name, text, want string }

// wantRewritten checks the rewrite of each text said by speaker to addressee.
func wantRewritten(t *testing.T, speaker, addressee string, tests []rewriteCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rewritePronouns(tt.text, speaker, addressee); got != tt.want {
				t.Errorf("rewrite(%q)\n got %q\nwant %q", tt.text, got, tt.want)
			}
		})
	}
}

// A customer pastes an email the company sent them: its "your Visa card" is the customer's,
// and no memory may make it the assistant's. The customer's own question is rewritten.
func TestOfflineExtractPastedEmail(t *testing.T) {
	a := New(Options{})
	at := time.Date(2026, 11, 14, 10, 0, 0, 0, time.UTC)
	text := "My refund has not arrived. This is the email I got:\n\nSubject: Re: your refund request\n\n" +
		"Dear Ana,\nwe refunded 129.00 EUR to your Visa card ending 4417. Your account manager is now Jonas Weber.\n" +
		"Kind regards,\nCustomer Care\n\nCan you check where my money is?"
	obs := realm.Observation{ID: "o1", Space: "t", SessionID: "s1", Speaker: "user", Content: text, ObservedAt: at}
	ex := mustExtract(t, a, agent.ExtractInput{Observation: obs})
	var turn string
	for _, c := range ex.Candidates {
		if strings.Contains(c.Content, "assistant's") || strings.Contains(c.Name, "assistant's") {
			t.Errorf("candidate %q makes the customer's card or manager the assistant's", c.Content)
		}
		if turn == "" && (c.Type == realm.Event || c.Type == realm.Fact) {
			turn = c.Content
		}
	}
	for _, want := range []string{"to your Visa card ending 4417", "Subject: Re: your refund request", "Your account manager is now Jonas Weber", "Can assistant check where user's money is?"} {
		if !strings.Contains(turn, want) {
			t.Errorf("turn %q lacks %q", turn, want)
		}
	}
	for _, c := range ex.Candidates {
		if c.Type == realm.Entity && c.Name == "Re" {
			t.Errorf("%q is taken for a name", c.Name)
		}
	}
}

func TestOfflineReadsForeign(t *testing.T) {
	for text, want := range map[string]bool{
		"Prefiero que me llamen por la tarde":             true,
		"Wir testen die App auf dem Handy und im Browser": true,
		"Je vis à Nice depuis deux ans":                   true,
		"I moved to Porto last year":                      false,
		"We had paella con mariscos in Valencia":          false,
		"TypeScript im Frontend":                          false,
		"Me gusta el café":                                true,
		"Me too":                                          false,
	} {
		if got := readsForeign(wordsOf(text)); got != want {
			t.Errorf("readsForeign(%q) = %v, want %v", text, got, want)
		}
	}
}

// A letter is the speaker's own message, read like any other, when its greeting names no
// one and it is signed with the speaker's name, or it is the whole message and nothing says
// it quotes; any other letter was pasted and keeps its words.
func TestOfflineOwnLetter(t *testing.T) {
	tests := []struct{ name, speaker, text, want string }{
		{"Whole", "user", "Hi team,\n\nI moved to Porto last month and my new number is +351 912 345 678.\n\nThanks,\nAna",
			"Hi team,\n\nuser moved to Porto last month and user's new number is +351 912 345 678.\n\nThanks,\nAna"},
		{"WholeNoSignature", "user", "Hello,\nI need my invoice for March.\nKind regards", "Hello,\nuser needs user's invoice for March.\nKind regards"},
		{"SignedBySpeaker", "Ana", "Hi team,\nI moved to Porto, see below.\nBest, Ana\n\n> Your parcel is held at the depot.",
			"Hi team,\nAna moved to Porto, see below.\nBest, Ana\n\n> Your parcel is held at the depot."},
		{"SignedBySpeakerBelow", "Ana Costa", "I wrote this for the file:\n\nDear support team,\nI moved to Porto.\nThanks,\nAna",
			"Ana Costa wrote this for the file:\n\nDear support team,\nAna Costa moved to Porto.\nThanks,\nAna"},
		// Pasted: a cue that it quotes, words of the speaker's around it, another's name on
		// its greeting, another pasted part.
		{"QuotingCue", "user", "Hi all,\nforwarding the note below: I will fix your boiler on Monday.\nThanks,\nMark",
			"Hi all,\nforwarding the note below: I will fix your boiler on Monday.\nThanks,\nMark"},
		{"SpeakerAround", "user", "This came in today:\n\nHi there,\nI refunded your order.\nBest,\nSupport",
			"This came in today:\n\nHi there,\nI refunded your order.\nBest,\nSupport"},
		{"NamedGreeting", "Ana", "Dear Mr. Byrne,\nyour boiler is broken again.\nBest,\nAna", "Dear Mr. Byrne,\nyour boiler is broken again.\nBest,\nAna"},
		{"WithHeader", "user", "From: Billing <billing@example.com>\nTo: me\n\nHi,\nI attached your invoice.\nThanks,\nBilling",
			"From: Billing <billing@example.com>\nTo: me\n\nHi,\nI attached your invoice.\nThanks,\nBilling"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rewritePronouns(tt.text, tt.speaker, "assistant"); got != tt.want {
				t.Errorf("rewrite(%q)\n got %q\nwant %q", tt.text, got, tt.want)
			}
		})
	}
}

// A user's own letter changes what an older message said: its move and its new number
// supersede the home and the number before them.
func TestOfflineOwnLetterSupersedes(t *testing.T) {
	a := New(Options{})
	at := time.Date(2026, 6, 10, 10, 0, 0, 0, time.UTC)
	letter := "Hi team,\n\nI moved to Porto last month and my new number is +351 912 345 678.\n\nThanks,\nAna"
	ex := mustExtract(t, a, agent.ExtractInput{Observation: realm.Observation{ID: "o2", Space: "t", Speaker: "user", Content: letter, ObservedAt: at}})
	for _, old := range []string{"user lives in Lisbon.", "user's number is +351 911 222 333."} {
		found := false
		for _, c := range ex.Candidates {
			if c.Type != realm.Event && c.Type != realm.Fact {
				continue
			}
			said := newStatement(c.Content, "user")
			ch, _ := changeOf(said, c, realm.Node{Content: old, Description: "Said by user on 10 March 2026."})
			found = found || ch.predicate == "supersedes"
		}
		if !found {
			t.Errorf("no memory of %q supersedes %q", letter, old)
		}
	}
}

// Pasted text was written elsewhere, at another time: its "we" is its writers' (no claim
// of the speaker's), and its relative dates count from its own Date: header, or from the
// "On … wrote:" line above its quoted lines, else stay unresolved; its named dates and the
// speaker's own words are read as ever.
func TestOfflinePastedWeAndDates(t *testing.T) {
	now := time.Date(2026, 11, 14, 10, 0, 0, 0, time.UTC)
	dates := []struct{ name, text, want string }{
		{"DateHeader", "See below.\nFrom: Clinic <desk@clinic.example>\nDate: Tue, 3 Nov 2026 09:14\nSubject: your visit\n\nWe moved your appointment to next Friday.",
			"See below.\nFrom: Clinic <desk@clinic.example>\nDate: Tue, 3 Nov 2026 09:14\nSubject: your visit\n\nWe moved your appointment to next Friday (Friday 6 November 2026)."},
		{"ForwardedSent", "---------- Forwarded message ---------\nFrom: Clinic\nSent: Tuesday, November 3, 2026 9:14 AM\n\nSee you tomorrow.",
			"---------- Forwarded message ---------\nFrom: Clinic\nSent: Tuesday, November 3, 2026 9:14 AM\n\nSee you tomorrow (4 November 2026)."},
		{"WroteLine", "On Tue, 3 Nov 2026, Priya Nair wrote:\n> I'll send it tomorrow\nOk, I got it yesterday.",
			"On Tue, 3 Nov 2026, Priya Nair wrote:\n> I'll send it tomorrow (4 November 2026)\nOk, user got it yesterday (13 November 2026)."},
		{"Undated", "My landlord sent this:\n\nDear tenant,\nthe plumber comes tomorrow and the rent rises on 1 December.\nRegards,\nM. Byrne",
			"user's landlord sent this:\n\nDear tenant,\nthe plumber comes tomorrow and the rent rises on 1 December (1 December 2026).\nRegards,\nM. Byrne"},
		{"ToldMe", "My landlord told me 'the plumber comes next week' yesterday.",
			"user's landlord told user 'the plumber comes next week' yesterday (13 November 2026)."},
		{"OwnLetter", "Hi team,\nI moved last week.\nThanks,\nAna", "Hi team,\nuser moved last week (the week of 2 November 2026).\nThanks,\nAna"},
	}
	for _, tt := range dates {
		t.Run(tt.name, func(t *testing.T) {
			rewritten := rewritePronouns(tt.text, "user", "assistant")
			if got := annotateDates(rewritten, datesOf(rewritten, "user", now)); got != tt.want {
				t.Errorf("dates of %q\n got %q\nwant %q", tt.text, got, tt.want)
			}
		})
	}
	claims := []struct {
		name, text string
		want       bool // a claim of the speaker's
	}{
		{"PastedEmail", "user: Here is the email:\nFrom: HR <hr@example.com>\nTo: all staff\n\nWe moved to Slack for all team chat. Our office is now in Leeds.\nRegards,\nHR", false},
		{"PastedQuote", `user's manager said "we use Jira for all tickets now".`, false},
		{"PastedLetter", "Dear tenant,\nwe moved to a new office in Leeds.\nRegards,\nM. Byrne", false},
		{"OwnWords", "user: We moved to Leeds. Our tickets are in Jira now.", true},
		{"OwnLetter", "Hi team,\nwe moved to Leeds last month.\nThanks,\nAna", true},
	}
	// The words of the other speaker an exchange opens with are theirs, said in the chat.
	exchange := realm.Node{Content: `Mel said: "We moved to Boston in May." Caroline: That's great news!`, Description: "Said by Caroline on 8 May 2023."}
	if cs := nodeClaims(exchange); !slices.ContainsFunc(cs, func(c stateClaim) bool { return c.subject == "Mel" && c.slot == "lives in" }) {
		t.Errorf("claims of %q: %+v, want Mel's home", exchange.Content, cs)
	}
	for _, tt := range claims {
		t.Run(tt.name, func(t *testing.T) {
			cs := stateClaims(tt.text, "user")
			if got := slices.ContainsFunc(cs, func(c stateClaim) bool { return c.subject == "user" }); got != tt.want {
				t.Errorf("claims of %q: %+v, want the speaker's: %v", tt.text, cs, tt.want)
			}
		})
	}
}
