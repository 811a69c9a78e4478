package bench

import (
	"context"
	"fmt"
	"strings"

	"github.com/realm-memory/realm"
)

// StageJudge is the usage stage of judge calls.
const StageJudge = "judge"

// LMEChatter sends one system and one user message to a chat model and returns the reply
// text with what it cost, under stage; EUnavailable when the model cannot be reached.
// The judge needs nothing more (*Judge.Chat).
type LMEChatter interface {
	Chat(ctx context.Context, stage, system, user string) (string, realm.Usage, error)
}

// LMEJudgeInput is what the judge sees of one question.
type LMEJudgeInput struct {
	Type       string
	Abstention bool
	Question   string
	Answer     string // the gold answer; the rubric of a preference question; why an abstention is right
	Response   string // the system's answer
}

// LMEJudge labels a response correct or not; EUnavailable when the model cannot be
// reached or gives no verdict.
type LMEJudge interface {
	JudgeLongMemEval(ctx context.Context, in LMEJudgeInput) (bool, realm.Usage, error)
}

// LLMJudge is the LongMemEval judge on a chat model: one yes/no call per question with the
// rule of the question's type.
type LLMJudge struct{ Chat LMEChatter }

// JudgeLongMemEval asks the model and reads its yes or no; a reply that is neither is an
// EUnavailable error.
func (j LLMJudge) JudgeLongMemEval(ctx context.Context, in LMEJudgeInput) (bool, realm.Usage, error) {
	system, user := LMEJudgePrompt(in)
	reply, usage, err := j.Chat.Chat(ctx, StageJudge, system, user)
	if err != nil {
		return false, usage, err
	}
	verdict, ok := ParseVerdict(reply)
	if !ok {
		return false, usage, realm.Errorf(realm.EUnavailable, "the judge replied %q, neither yes nor no", lmeAbbrev(reply, 60))
	}
	return verdict, usage, nil
}

const lmeJudgeSystem = "You grade the answers of a chat assistant that has a long-term memory of its past conversations with a user. " +
	"You are given a question, the reference for a correct answer and the assistant's response. " +
	"Reply with one word: yes if the response is correct under the rule given, no otherwise."

// The per-type rules follow the published LongMemEval evaluation's (Wu et al., 2024) in
// our own words: the reference answer decides; temporal questions tolerate an off-by-one
// count of days, weeks or months; knowledge updates accept the updated answer even beside
// the outdated one; preferences are graded against a rubric; an abstention is right when
// the assistant says it cannot answer.
const (
	lmeRuleDefault = "Say yes if the response contains the correct answer, or an equivalent one, or all the steps that lead to it. " +
		"Say no if it gives a different answer or only part of the information the answer needs."
	lmeRuleTemporal = lmeRuleDefault + " An off-by-one error in a count of days, weeks or months is not a mistake: " +
		"if the reference says 18 days, 17 or 19 days is also correct."
	lmeRuleUpdate = "The user's information changed over time and the reference is its latest value. " +
		"Say yes if the response gives that updated answer, even when it also mentions earlier values; say no if it gives only an outdated or a different one."
	lmeRulePreference = "The reference is a rubric describing the personalised response the user would want. " +
		"Say yes if the response recalls and uses the user's personal information as the rubric asks; it need not cover every point of the rubric. " +
		"Say no if it ignores the user's preferences or contradicts them."
	lmeRuleAbstention = "The question cannot be answered from the conversations: the reference explains why. " +
		"Say yes if the response says it cannot answer, does not know or that the information was never given; " +
		"say no if it answers anyway with made-up or unrelated information."
)

// LMEJudgePrompt is the judge's system and user message for one question.
func LMEJudgePrompt(in LMEJudgeInput) (system, user string) {
	rule, label := lmeRuleDefault, "Correct answer"
	switch {
	case in.Abstention:
		rule, label = lmeRuleAbstention, "Why it cannot be answered"
	case in.Type == "temporal-reasoning":
		rule = lmeRuleTemporal
	case in.Type == "knowledge-update":
		rule = lmeRuleUpdate
	case in.Type == "single-session-preference":
		rule, label = lmeRulePreference, "Rubric"
	}
	user = fmt.Sprintf("Rule: %s\n\nQuestion: %s\n\n%s: %s\n\nResponse: %s\n\nIs the response correct? Answer yes or no only.",
		rule, in.Question, label, in.Answer, in.Response)
	return lmeJudgeSystem, user
}

// ParseVerdict reads a judge's reply: its first word yes or no (case and punctuation
// aside); failing that, a reply containing exactly one of the two words.
func ParseVerdict(reply string) (verdict, ok bool) {
	words := strings.FieldsFunc(strings.ToLower(reply), func(r rune) bool {
		return !(r >= 'a' && r <= 'z')
	})
	if len(words) == 0 {
		return false, false
	}
	switch words[0] {
	case "yes":
		return true, true
	case "no":
		return false, true
	}
	var yes, no bool
	for _, w := range words {
		yes = yes || w == "yes"
		no = no || w == "no"
	}
	if yes != no {
		return yes, true
	}
	return false, false
}
