package offline

import (
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// Code, paths and identifiers keep their words; the prose around them is rewritten.
func TestOfflineRewriteKeepsCode(t *testing.T) {
	tests := []struct{ text, want string }{
		{"Please run `make lint -i` before I start.", "Please run `make lint -i` before user starts."},
		{"I ran git rebase -i and you approved.", "user ran git rebase -i and assistant approved."},
		{"```py\nfor i in range(3):\n    me = load(i)\n```\nI wrote this loop.", "```py\nfor i in range(3):\n    me = load(i)\n```\nuser wrote this loop."},
		{"```\nyou := me.Owner\n", "```\nyou := me.Owner\n"},
		{"My keys live in ~/.ssh/my_id and /home/me/keys.", "user's keys live in ~/.ssh/my_id and /home/me/keys."},
		{"I keep MY_API_KEY in my shell.", "user keeps MY_API_KEY in user's shell."},
		{"Call fetch_my_orders(me) and my.orders.count, i.e. twice.", "Call fetch_my_orders(me) and my.orders.count, i.e. twice."},
		{"The file is my-notes.md, I think.", "The file is my-notes.md, user thinks."},
		{"I use 'grep -r me src/' to find you.", "user uses 'grep -r me src/' to find assistant."},
		{"for i in range(n): total += i", "for i in range(n): total += i"},
		{"I gave myself some me-time.", "user gave user some me-time."},
		// Prose stays prose: a quotation, a dash, brackets, a number with its unit.
		{"She told me 'call me tomorrow' and I did.", "She told user 'call me tomorrow' and user did."},
		{"Yes, I do- it's fine (and my cat agrees).", "Yes, user does- it's fine (and user's cat agrees)."},
		{"Busy day--I'm tired.", "Busy day--user is tired."},
		{"I take 20mg on the 4th.", "user takes 20mg on the 4th."},
		{"i think so", "user thinks so"},
		// "im" without an apostrophe is "I'm" in English only: German "im" is "in the".
		{"Wir testen die App im Browser und im Simulator.", "Wir testen die App im Browser und im Simulator."},
		{"Der Cache liegt im Speicher.", "Der Cache liegt im Speicher."},
		{"im so tired today", "user is so tired today"},
		{"ok im going to the gym now", "ok user is going to the gym now"},
	}
	for _, tt := range tests {
		if got := rewritePronouns(tt.text, "user", "assistant"); got != tt.want {
			t.Errorf("rewrite(%q)\n got %q\nwant %q", tt.text, got, tt.want)
		}
	}
}

func TestOfflineCodeToken(t *testing.T) {
	for tok, want := range map[string]bool{
		"snake_case": true, "camel.Case": true, "SCREAMING_CASE": true, "~/.bashrc": true, "a/b": true,
		"fn(me)": true, "xs[i]": true, "2**i": true, "i++": true, "x=1": true, "-i": true, "--force": true,
		"my-settings": true, "package.json": true, "user:me": true, "ME2": true, "(me)": false, "me.": false,
		"me,": false, "*me*": false, "do-": false, "day--I'm": false, "20mg": false, "4th": false,
		"1.5.0": false, "2026-12-12": false, "don't": false, "so...I": false, "[shares": false,
	} {
		if got := isCodeToken(tok); got != want {
			t.Errorf("isCodeToken(%q) = %v, want %v", tok, got, want)
		}
	}
}

// A user's message to the assistant, the first of the chat: the code block is stored as
// written and names no one, "you" is the assistant, and a common word opening the message
// calls no one.
func TestOfflineExtractCodeMessage(t *testing.T) {
	a := New(Options{})
	at := time.Date(2026, 11, 14, 10, 0, 0, 0, time.UTC)
	block := "```go\nfor i := range jobs { me := jobs[i]; you := me.Next; fmt.Println(you) }\n```"
	for _, tt := range []struct{ text, want string }{
		{block + "\nI want you to keep this style.", block + "\nuser wants assistant to keep this style."},
		{"Tests go in pkg/foo_test.go so you find them.", "user: Tests go in pkg/foo_test.go so assistant finds them."},
		{"Naming matters: I start handlers with handle_ so you can grep them.", "Naming matters: user starts handlers with handle_ so assistant can grep them."},
	} {
		obs := realm.Observation{ID: "o1", Space: "t", SessionID: "s1", Speaker: "user", Content: tt.text, ObservedAt: at}
		ex := mustExtract(t, a, agent.ExtractInput{Observation: obs})
		var turn agent.Candidate
		for _, c := range ex.Candidates {
			if c.Type == realm.Event || c.Type == realm.Fact {
				turn = c
				break
			}
		}
		if turn.Content != tt.want {
			t.Errorf("%q: content\n %q\nwant %q", tt.text, turn.Content, tt.want)
		}
		for _, c := range ex.Candidates {
			if c.Type == realm.Entity && c.Name != "user" || strings.Contains(c.Content, "between user and") {
				t.Errorf("%q: candidate %q takes the first word for a person", tt.text, c.Content)
			}
		}
	}
}
