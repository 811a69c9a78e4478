package construction

import (
	"strings"
	"testing"

	"github.com/realm-memory/realm"
)

// TestCorrectedWords: what a correction changed is the sentence or quote holding the
// change, as the old content and the correction say it: the words a sibling of the same
// message says too, whatever else each says.
func TestCorrectedWords(t *testing.T) {
	for _, tc := range []struct {
		name, old, content, from, to string
	}{
		{"AfterASpeaker",
			`Jonas asked: "Which database should the billing service use?" Priya: We go with MySQL for the billing service.`,
			`Jonas asked: "Which database should the billing service use?" Priya: We go with Postgres for the billing service.`,
			"We go with MySQL for the billing service.", "We go with Postgres for the billing service."},
		{"Quoted",
			`Priya said: "We go with MySQL for the billing service." Great, Jonas will set up the schema.`,
			`Priya said: "We go with Postgres for the billing service." Great, Jonas will set up the schema.`,
			"We go with MySQL for the billing service.", "We go with Postgres for the billing service."},
		{"CurlyQuotes", "Priya said: “We go with MySQL.” Fine.", "Priya said: “We go with Postgres.” Fine.",
			"We go with MySQL.", "We go with Postgres."},
		{"SecondSentence", "I live in Leeds. Work at Brightline keeps me busy.", "I live in Leeds. Work at Acme keeps me busy.",
			"Work at Brightline keeps me busy.", "Work at Acme keeps me busy."},
		{"DecimalPoint", "The budget is 2.5 million for MySQL.", "The budget is 2.5 million for Postgres.",
			"The budget is 2.5 million for MySQL.", "The budget is 2.5 million for Postgres."},
		{"Added", "We go with MySQL. It is cheap.", "We go with MySQL 8. It is cheap.", "We go with MySQL.", "We go with MySQL 8."},
		{"Rewritten", "Priya: We go with MySQL.", "Priya chose Postgres.", "Priya: We go with MySQL.", "Priya chose Postgres."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if from, to := correctedWords(tc.old, tc.content); from != tc.from || to != tc.to {
				t.Errorf("correctedWords = %q, %q; want %q, %q", from, to, tc.from, tc.to)
			}
		})
	}
}

// TestCorrectedName: a name that is words of the corrected content, the first or those of
// an exchange's second turn, becomes the correction's words from the same place; a label
// stays, and so does a name whose place the correction moved.
func TestCorrectedName(t *testing.T) {
	const exchange = `Jonas asked: "Which database should the billing service use?" Priya: We go with MySQL for the billing service.`
	for _, tc := range []struct {
		name, old, oldName, content, want string
	}{
		{"FirstWords", "Ana's new colleague Marta joined the design team.", "Ana's new colleague Marta joined the design team.",
			"Ana's new colleague Marina joined the design team at last.", "Ana's new colleague Marina joined the design team…"},
		{"SecondTurn", exchange, "Priya: We go with MySQL for the billing…",
			strings.Replace(exchange, "MySQL", "Postgres", 1), "Priya: We go with Postgres for the billing…"},
		{"Label", "Ana's new colleague Marta joined the design team.", "Ana's colleague", "Ana's new colleague Marina joined the design team.", "Ana's colleague"},
		{"Moved", exchange, "Priya: We go with MySQL for the billing…", "Priya picked Postgres.", "Priya: We go with MySQL for the billing…"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := correctedName(realm.Node{Name: tc.oldName, Content: tc.old}, tc.content); got != tc.want {
				t.Errorf("correctedName = %q, want %q", got, tc.want)
			}
		})
	}
}
