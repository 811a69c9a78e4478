package offline

import (
	"regexp"
	"strings"
)

// A customer's account (OFFLINE.md, "Knowledge that changes"): the plan asked for or
// changed ("Switch my plan to Pro please", "Upgrade me to Premium", "I changed my
// subscription to Plus"), a subscription cancelled, how to be contacted ("Please contact
// me by email only", "you can call me now instead"), and a new contact detail said
// without a subject ("New address: 40 Oak Avenue"). A customer states a change by asking
// for it, so a request is a claim, unless it is asked about ("Can I switch my plan to
// Pro?") or hedged ("if I upgrade…", "don't cancel").

// planName is a plan as products are named: capitalised or a number ("Pro", "Plus", "Team 10").
const planName = `([\p{Lu}\d][\p{L}\d+\-]*(?: [\p{Lu}\d][\p{L}\d+\-]*)?)`

// rePlanChange: a plan change asked for or told, of the subject's plan or of the subject:
// 1 the verb, 2 the subject, 3 what of it ("plan"), 4 the plan, 5 the word "plan" after it.
// The verbs are spelt out, not case-folded, so that a text without them is not searched
// (literals.go).
var rePlanChange = mustPattern(`\b([Ss]witch(?:ed)?|[Cc]hanged?|[Mm]oved?|[Uu]pgraded?|[Dd]owngraded?)(?: over| back)? ` +
	claimSubject + `(?:'s (?:current |monthly |annual |yearly )?(plan|subscription|membership|tier))?(?: over| back)? (?:to|onto|on) (?:the |an? )?` +
	planName + `( (?:plan|subscription|membership|tier))?\b`)

// planNames are the names plans are given, which "switch me to …" asks for without the
// word "plan" ("Switch me to Pro", not "Move me to Berlin").
var planNames = setOf(`free basic starter standard plus pro premium business enterprise team family student personal
individual unlimited ultimate essentials essential professional advanced lite gold silver platinum bronze growth`)

// reCancelPlan: the subject's plan or subscription cancelled, asked for or told ("Cancel my
// subscription", "I cancelled my Pro plan"): 1 the subject, 2 the plan named, if any.
var reCancelPlan = mustPattern(`\b(?:[Cc]ancel(?:l?ed)?|[Tt]erminated?) ` + claimSubject + `'s (?:` + planName + ` )?(?:plan|subscription|membership)\b`)

// channelWords are the ways to be contacted as a text names them; channelOf reads each.
const channelWords = `e-?mails?|phone calls?|phone|telephone|calls?|text messages?|texts?|SMS|sms|WhatsApp|whatsapp|Signal|Telegram|post|letters?`

// contactPatterns say how the subject wants to be contacted: "contact me by email only",
// "I'd rather be reached by phone", "you can call me now", "please text me instead". The
// last form needs a word that allows or asks it just before the verb ("will call me" tells
// of a call, not a wish) and an end after the subject ("call me Max" is a name).
var contactPatterns = []struct {
	re        literalPattern
	verbFirst bool // group 1 the verb that names the channel, group 2 the subject; else 1 the subject, 2 the channel
}{
	{mustPattern(`\b(?:[Cc]ontact|[Rr]each|[Ee]-?mail|[Cc]all|[Pp]hone|[Tt]ext|[Ww]rite to|[Gg]et in touch with|[Gg]et hold of) ` + claimSubject + `(?: only)? (?i:by|via|through|over|on|per) (?:the )?(` + channelWords + `)\b`), false},
	{mustPattern(claimSubject + claimAdverbs + `(?: (?:prefers?|would rather|'d rather|wants?|would like|'d like|likes?)(?: to)?)? (?:be )?(?:contacted|reached) (?:only )?(?i:by|via|through|over|on|per) (?:the )?(` + channelWords + `)\b`), false},
	{mustPattern(`(?:\b(?i:can|may|please|just|only|feel free to|best to|better to|rather) |(?:^|[.!?:,]\s+)(?i:from now on,? |going forward,? |in future,? )?)(?i:(e-?mail|call|phone|ring|text)) ` + claimSubject + `(?:[.,;!?]|$| (?:now|instead|from now on|anytime|any time|at|directly|only|whenever|rather|going forward|please|in future)\b)`), true},
}

// reContactFromNow: words of a request to be contacted some way that say it holds from now
// on, as a change does ("Please text me from now on", "Email me only"); a request alone
// may be for once ("Please call me at 555-0199").
var reContactFromNow = regexp.MustCompile(`(?i)\b(?:from now on|going forward|in future|from today|only|always|instead|anymore)\b`)

// reChannelPreferred: a preference that is a way to be contacted ("prefers email over
// phone", "prefers texts").
var reChannelPreferred = regexp.MustCompile(`^(?:an? |the )?(` + channelWords + `)(?: (?:over|to|rather than|instead of)\b.*)?$`)

// channelOf names a way to be contacted: "emails" and "e-mail" are email, "calls" phone.
func channelOf(s string) string {
	w := strings.ToLower(s)
	switch {
	case strings.Contains(w, "mail"):
		return "email"
	case strings.HasPrefix(w, "phone"), strings.HasPrefix(w, "telephone"), strings.HasPrefix(w, "call"), w == "ring":
		return "phone"
	case strings.HasPrefix(w, "text"), w == "sms":
		return "text"
	case strings.HasPrefix(w, "letter"):
		return "post"
	}
	return w
}

// reNewDetail: a new contact detail with no subject, the speaker's ("New address: 40 Oak
// Avenue", "New number is 555-0199"): 1 which detail, 2 the value.
var reNewDetail = mustPattern(`(?:^|[.!?:]\s+)(?i:new) ((?:phone |mobile |cell )?number|e-?mail(?: address)?|(?:home )?address)(?: is)?:?\s+` + claimValue + claimEnd)

// requestClaims are the claims of a customer's requests and contact details in a
// (pronoun-rewritten) text; a subject "we" is the speaker, as for stateClaims. A plan
// without the word "plan" is read of the speaker only ("upgrade me to Premium").
func requestClaims(text, speaker string) []stateClaim {
	var out []stateClaim
	for _, m := range rePlanChange.findAllIndex(text) {
		verb, subject, owned, plan, planWord := group(text, m, 1), group(text, m, 2), group(text, m, 3), group(text, m, 4), group(text, m, 5)
		// "Switch me to Berlin" may be anything; "the Pro plan", "my plan to Pro",
		// "upgrade me to Premium" or "switch me to Pro" (a name plans take) is a plan.
		tiered := strings.HasPrefix(strings.ToLower(verb), "upgrad") || strings.HasPrefix(strings.ToLower(verb), "downgrad")
		if owned == "" && planWord == "" && (!tiered && !planNames[strings.ToLower(firstWord(plan))] || !strings.EqualFold(subject, "we") && !sameSubject(subject, speaker)) {
			continue // "upgrade Node to Aurora": a person upgraded is the speaker
		}
		if saidAsChange(text, m[0], subject) {
			out = append(out, stateClaim{subject: subject, slot: "plan", value: plan, cued: true})
		}
	}
	for _, m := range reCancelPlan.findAllIndex(text) {
		subject, value := group(text, m, 1), group(text, m, 2)
		if value == "" {
			value = "plan" // the slot's own word: it ends whichever plan the subject is on
		}
		if saidAsChange(text, m[0], subject) {
			out = append(out, stateClaim{subject: subject, slot: "plan", value: value, ended: true, cued: true})
		}
	}
	for _, p := range contactPatterns {
		for _, m := range p.re.findAllIndex(text) {
			subject, channel := group(text, m, 1), group(text, m, 2)
			if p.verbFirst {
				subject, channel = channel, subject
			}
			if saidAsChange(text, m[0], subject) {
				cued := reContactFromNow.MatchString(sentenceAt(text, m[0]))
				out = append(out, stateClaim{subject: subject, slot: "contacted by", value: channelOf(channel), cued: cued})
			}
		}
	}
	for _, m := range reNewDetail.findAllIndex(text) {
		out = append(out, stateClaim{subject: "we", slot: contactSlot(group(text, m, 1)), value: group(text, m, 2), cued: true})
	}
	return out
}

// group is submatch i of a match's indexes, "" when it did not take part.
func group(text string, m []int, i int) string {
	if m[2*i] < 0 {
		return ""
	}
	return text[m[2*i]:m[2*i+1]]
}

// reHedge: words before a change, in its sentence, that say it is not made: a negation,
// a condition, a doubt ("don't cancel", "if I upgrade", "thinking about switching"), also
// in German and Spanish.
var reHedge = regexp.MustCompile(`(?i)n't\b|\b(?:not|never|if|whether|unless|considering|thinking|wondering|might|maybe|perhaps|should|how|why|nicht|kein\p{L}*|wenn|ob|falls|vielleicht|si|quizás|tal vez)\b`)

// rePoliteIf is a condition that only asks politely: "if possible", "if you can".
var rePoliteIf = regexp.MustCompile(`(?i)\bif (?:possible|\S+ (?:can|could))\b`)

// rePoliteRequest: a question that asks someone to do something ("Could you switch my
// plan…?", "Können Sie…", "¿Puede…"); group 1 is who is asked.
var rePoliteRequest = regexp.MustCompile(`^(?:\S+: )?¿?(?i:can|could|would|will|können|könnten|kannst|könntest|puede|podría|puedes|podrías) (\S+) `)

// askers are who asks a question about what they may do themselves ("Can I…", "Können wir…").
var askers = setOf(`we i ich wir`)

// saidAsChange: the match at start of text, of subject, is said as a change: no hedge
// before it in its sentence, and its sentence is no question, unless one that asks
// someone else to make it ("Could you switch my plan to Pro?", not "Can I switch my plan
// to Pro?").
func saidAsChange(text string, start int, subject string) bool {
	if reHedge.MatchString(rePoliteIf.ReplaceAllString(text[sentenceOf(text, start).start:start], "")) {
		return false
	}
	sentence := sentenceAt(text, start)
	if !strings.HasSuffix(sentence, "?") {
		return true
	}
	m := rePoliteRequest.FindStringSubmatch(sentence)
	return m != nil && !askers[strings.ToLower(m[1])] && !sameSubject(m[1], subject)
}

// sentenceOf is the sentence of text (sentences) holding offset at: the last to start at
// or before it, or the first.
func sentenceOf(text string, at int) segment {
	var out segment
	for i, s := range sentences(text) {
		if i > 0 && s.start > at {
			break
		}
		out = s
	}
	return out
}

// sentenceAt is the sentence of text holding offset at.
func sentenceAt(text string, at int) string {
	s := sentenceOf(text, at)
	return text[s.start:s.end]
}
