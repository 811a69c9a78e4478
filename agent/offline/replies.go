package offline

import (
	"regexp"
	"slices"
	"strings"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// Short answers: "No, never." to "Do you smoke?" says nothing alone, and everything with
// the question before it. Such a turn is a memory (Extract) that joins the two when the
// rules can read them: "user does not smoke."

// reAnswerWord: a word that answers a yes/no question, as a short answer opens with it
// ("No, never.", "Yes, my father."); reAnswerNo: one of those that says no.
var (
	reAnswerWord = regexp.MustCompile(`(?i)^\W*(?:` + answerNo + `|yes|yeah|yep|yup|sure|of course|definitely|absolutely)\b[\s,.!;:]*`)
	reAnswerNo   = regexp.MustCompile(`(?i)^\W*(?:` + answerNo + `)\b`)
)

const answerNo = `no|nope|nah|never|not really|not at all|not anymore`

// maxAnswerDetail: a short answer says at most this many words after its yes or no ("Yes,
// type 2.", "Yes, my father.").
const maxAnswerDetail = 3

// shortAnswerTo is the question a turn of few words opening with a yes or a no (said, as
// rewritten), asking nothing, answers: the last question of the turn it replies to
// (repliedTo) that asks about something told (a content word: not "Are you okay?", "Did
// you go?"), rewritten as the answerer reads it ("Does user smoke?"); false for none.
func shortAnswerTo(recent []realm.Observation, obs realm.Observation, speaker, addressee, said string) (string, bool) {
	if strings.Contains(said, "?") || len(wordsOf(answerDetail(said))) > maxAnswerDetail || !reAnswerWord.MatchString(said) {
		return "", false
	}
	prev, ok := repliedTo(recent, obs, speaker, addressee)
	if !ok {
		return "", false
	}
	other := strings.TrimSpace(prev.Speaker)
	talking := map[string]bool{normName(other): true, normName(speaker): true}
	asked := ""
	for _, s := range sentences(prev.Content) {
		if part := prev.Content[s.start:s.end]; strings.HasSuffix(part, "?") && len(toldWords(part, talking)) > 0 {
			asked = part
		}
	}
	if asked == "" {
		return "", false
	}
	question, to := quotedPrompt(asked, other, speaker)
	if to != "" {
		return "", false // its words kept as said: no statement can be read from them
	}
	return question, true
}

// reYesNoQuestion: a question opening with its auxiliary, the subject and the rest after it.
var reYesNoQuestion = regexp.MustCompile(`(?i)^(do|does|did|is|are|was|were|has|have|had|can)\s+(.+?)\s*\?$`)

// reAnyone: a question's subject that an answer names ("Does anyone in your family have
// heart disease?" — "Yes, my father."), the words of the group after it.
var reAnyone = regexp.MustCompile(`(?i)^(?:anyone|anybody|someone|somebody)((?: (?:in|of|from) (?:the |\pL+'s )?\pL+)?)$`)

// answerDetail is what a short answer says after the yes or no it opens with.
func answerDetail(answer string) string {
	for {
		a := reAnswerWord.FindString(answer)
		if a == "" {
			return strings.TrimRight(strings.TrimSpace(answer), ".!;:, ")
		}
		answer = answer[len(a):]
	}
}

// joinedAnswer is the statement a yes/no question (rewritten) and its short answer make,
// "" when the rules cannot read the question: its auxiliary first, then its subject, the
// answerer (speaker) or something of theirs ("Is user's mother diabetic?" — "Yes, type
// 2.": "user's mother is diabetic, type 2."), or anyone, whom a yes may name ("user's
// father has heart disease.") and a no makes no one. What the answer says besides its yes
// or no follows after a comma.
func joinedAnswer(question, answer, speaker string) string {
	m := reYesNoQuestion.FindStringSubmatch(question)
	if m == nil || speaker == "" {
		return ""
	}
	aux, words := strings.ToLower(m[1]), strings.Fields(m[2])
	subject, rest := "", []string(nil)
	for i := range len(words) - 1 { // the longest subject that leaves words to say of it
		s := strings.Join(words[:i+1], " ")
		if i == 0 && strings.EqualFold(s, speaker) || i == 1 && strings.EqualFold(words[0], speaker+"'s") || reAnyone.MatchString(s) {
			subject, rest = s, words[i+1:]
		}
	}
	if subject == "" {
		return ""
	}
	no := reAnswerNo.MatchString(answer)
	detail := answerDetail(answer)
	if len(toldWords(detail, map[string]bool{normName(speaker): true})) == 0 {
		detail = "" // "Yes, user does."
	}
	if strings.EqualFold(rest[0], "ever") {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return ""
	}
	if !no {
		rest = strings.Fields(strings.Replace(" "+strings.Join(rest, " ")+" ", " any ", " ", 1))
	}
	if an := reAnyone.FindStringSubmatch(subject); an != nil {
		switch {
		case no:
			subject, no = "no one"+an[1], false
		case detail != "":
			subject, detail = detail, ""
		}
	}
	said := strings.Join(rest, " ")
	var verb string
	switch {
	case no && aux == "can":
		verb = "cannot " + said
	case no:
		verb = aux + " not " + said
	case aux == "does":
		verb = strings.Join(append([]string{conjugate(strings.ToLower(rest[0]))}, rest[1:]...), " ")
	case aux == "do": // "Do user's parents smoke?": "user's parents smoke"
		verb = said
	default:
		verb = aux + " " + said
	}
	out := subject + " " + verb
	if detail != "" {
		out += ", " + detail
	}
	return out + "."
}

// answered is the memory of a short answer (turn, as withPrompt made it the exchange)
// joined with the question it answers into one statement (joinedAnswer), when the rules
// read it; else the exchange.
func answered(turn agent.Candidate, question, answer, speaker string, names []string) agent.Candidate {
	joined := joinedAnswer(question, answer, speaker)
	if joined == "" {
		return turn
	}
	turn.Type, turn.Content = realm.Fact, joined
	turn.Name = shortName(joined, 8)
	turn.Keywords = keywordsOf(joined, names, speaker)
	turn.TStart, turn.TEnd, turn.Participants = nil, nil, nil
	return turn
}

// askedAlone is the node of the question a joined answer (answered) says again as
// answered, when that node is the question alone (a memory of that turn only, every
// sentence of it asking): the answer merges into it, and no question stays a fact of its
// own beside its answer. A joined answer derives from the question (AlsoFrom) and, unlike
// an exchange (withPrompt), does not quote it.
func askedAlone(c agent.Candidate, byID []scoredNeighbour) string {
	if c.InReplyTo == "" || !slices.Contains(c.AlsoFrom, c.InReplyTo) || rePrompt.MatchString(c.Content) {
		return ""
	}
	for _, nb := range byID {
		n := nb.Node
		if n.Type == c.Type && slices.Equal(n.Sources, []string{c.InReplyTo}) &&
			!slices.ContainsFunc(sentences(n.Content), func(s segment) bool { return !strings.Contains(n.Content[s.start:s.end], "?") }) {
			return n.ID
		}
	}
	return ""
}
