package offline

import (
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// Pasted text keeps its words: its "you" is whoever it was written to, its "I" its
// author, not the chat's speakers. The speaker's own words around it are rewritten.
func TestOfflineRewriteKeepsPastedAndForeign(t *testing.T) {
	tests := []struct{ name, text, want string }{
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
		// A message that is clearly not English is kept whole; English with a foreign word
		// or two is rewritten.
		{"Spanish", "Prefiero que me llamen por la tarde, gracias.", "Prefiero que me llamen por la tarde, gracias."},
		{"SpanishShort", "Me llamo Ana y vivo en Sevilla.", "Me llamo Ana y vivo en Sevilla."},
		{"German", "Ich habe my Passwort vergessen und kann mich nicht anmelden.", "Ich habe my Passwort vergessen und kann mich nicht anmelden."},
		{"French", "Je ne trouve pas mon colis, pouvez-vous me aider ?", "Je ne trouve pas mon colis, pouvez-vous me aider ?"},
		{"Portuguese", "Eu não recebi o meu pedido, me ajuda por favor.", "Eu não recebi o meu pedido, me ajuda por favor."},
		{"Italian", "Non ho ancora visto i miei amici che sono di Roma.", "Non ho ancora visto i miei amici che sono di Roma."},
		{"EnglishWithSpanishWords", "I love the tapas at El Rincón de Pepe, you should go.", "user loves the tapas at El Rincón de Pepe, assistant should go."},
		{"EnglishWithGermanName", "My friend works at Haus der Kunst in Munich.", "user's friend works at Haus der Kunst in Munich."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rewritePronouns(tt.text, "user", "assistant"); got != tt.want {
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
	} {
		if got := readsForeign(wordsOf(text)); got != want {
			t.Errorf("readsForeign(%q) = %v, want %v", text, got, want)
		}
	}
}
