package agent

import (
	"time"

	"github.com/realm-memory/realm"
)

// MaxAnswerLen bounds an answer's text, as a client's answer in feedback is bounded.
const MaxAnswerLen = realm.MaxFeedbackAnswerLen

// AnswerInput is what the answerer sees: the question, its "now" (zero: unknown) and the
// evidence of one recall, the nodes best first and the edges among them.
type AnswerInput struct {
	Question string
	Time     time.Time
	Nodes    []realm.RecalledNode
	Edges    []realm.Edge
}

// Answer is an answer written from the evidence and the ids of the recalled nodes it
// rests on (none when the evidence holds no answer).
type Answer struct {
	Text  string
	Cited []string
}
