package offline

import (
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/realm-memory/realm/internal/text"
)

// annotateDates inserts " (absolute date)" after every relative expression of s; inside
// parentheses, ", absolute date" (and a comma after it before more words): "(accessed 3 Dec,
// 3 December 2026)", no parenthesis inside another.
func annotateDates(s string, ms []text.Mention) string {
	if len(ms) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		b.WriteString(s[last:m.End])
		switch {
		case m.Label == "":
		case inParentheses(s, m.Start, m.End):
			b.WriteString(", " + m.Label)
			if !strings.ContainsAny(s[m.End:m.End+1], ").,;:!?") {
				b.WriteString(",")
			}
		default:
			b.WriteString(" (" + m.Label + ")")
		}
		last = m.End
	}
	b.WriteString(s[last:])
	return b.String()
}

// inParentheses: s[start:end] stands between a "(" and the ")" closing it.
func inParentheses(s string, start, end int) bool {
	open, closing := strings.LastIndexAny(s[:start], "()"), strings.IndexAny(s[end:], "()")
	return open >= 0 && s[open] == '(' && closing >= 0 && s[end+closing] == ')'
}

// datesOf are the time expressions of s resolved against now, but for those in code (a
// version or a timestamp in a code block is no date of the message), those that recur
// (recurs) and those in text
// pasted from elsewhere (quoted.go), written at another time: these are resolved against
// the day it says it was written (an email's Date: header), else left unresolved when they
// count from that day ("yesterday", "next Friday").
func datesOf(s, speaker string, now time.Time) []text.Mention {
	code := codeBlocks(s)
	tense := datesTense(s)
	parts := pastedParts(s, speaker)
	var out []text.Mention
	for _, m := range placedDates(s, now, tense) {
		in, dated := false, false
		for _, p := range parts {
			if inSpans([]segment{p.segment}, m.Start, m.End) {
				in, dated = true, dated || !p.at.IsZero()
			}
		}
		if !dated && !(in && m.Relative) {
			out = append(out, m)
		}
	}
	for _, p := range parts {
		if p.at.IsZero() {
			continue
		}
		for _, m := range text.Dates(s[p.start:p.end], p.at, tense) {
			m.Start, m.End = m.Start+p.start, m.End+p.start
			out = append(out, m)
		}
	}
	out = slices.DeleteFunc(out, func(m text.Mention) bool { return inSpans(code, m.Start, m.End) || recurs(s, m) })
	slices.SortStableFunc(out, func(a, b text.Mention) int { return a.Start - b.Start })
	return out
}

// placedDates are the time expressions of s resolved against now, each placed by the tense
// of its phrase, the words of its clause between the commas around it ("It was lovely, we're
// going back in August": the coming August; "Kat and I are planning a trip to Lisbon in
// October, just the two of us": the coming October), else by tense, s's. A message that
// moves a day (datesTense) is read whole: the day moved from is placed as the day moved to.
func placedDates(s string, now time.Time, tense int) []text.Mention {
	ms := text.Dates(s, now, tense)
	if reMovedToDay.MatchString(s) || reReschedule.MatchString(s) {
		return ms
	}
	byTense := map[int][]text.Mention{tense: ms}
	for i, m := range ms {
		t, own := dateTense(s, m)
		if !own || t == tense {
			continue
		}
		if byTense[t] == nil {
			byTense[t] = text.Dates(s, now, t)
		}
		if j := slices.IndexFunc(byTense[t], func(o text.Mention) bool { return o.Start == m.Start && o.End == m.End }); j >= 0 {
			ms[i] = byTense[t][j]
		}
	}
	return ms
}

// reIsOn: a present "is" that says the day something is on, the day next ("it is on
// November 19 now", "my last day is March 27", "it's set for May 6"); a possessive's "'s"
// is none ("Mia's May 6 recital").
var reIsOn = regexp.MustCompile(`(?i)(?:\b(?:is|are)|\b(?:it|that|this|he|she|there)['’]s|['’]re)(?: now| still| currently)?(?: set| scheduled| planned)?(?: (?:on|for|at))?(?: the)?\s*$`)

// dateTense is the tense that places m, a date of s, and whether its phrase tells it
// (phraseOf): the phrase's own tense, the future for the day a booking is for; what a
// present "is" says something is on, the day next, unless the phrase speaks of the future,
// whatever past word the message or the phrase holds besides ("The appointment was moved,
// it is on November 19 now", "My last day is March 27": neither the move nor "last" places
// the day): a weekday the coming one ("My last day is on Friday"), a named day or month
// the nearest — none (datesTense places a bare weekday: "The release is on Thursday").
// A relative clause's "is" tells of what its sentence names before it, in that
// sentence's past ("We went to the fair, which is on May 20": the last May 20), unless
// that past is someone telling of it ("I was told about the offsite, which is on April
// 2"); otherwise s's tense places it.
func dateTense(s string, m text.Mention) (int, bool) {
	if bookedFor(s, m) {
		return text.TenseFuture, true
	}
	p := phraseOf(s, m)
	t := datesTense(s[p.start:p.end])
	if t == text.TenseFuture || !reIsOn.MatchString(s[p.start:m.Start]) {
		return t, t != text.TenseUnknown
	}
	switch {
	case qualifiesPast(s, p.start, m.Start):
		return text.TensePast, true
	case m.Relative && reWeekday.MatchString(s[m.Start:m.End]):
		return text.TenseFuture, true
	case !m.Relative:
		return text.TenseUnknown, true
	}
	return t, t != text.TenseUnknown
}

// reRelativeIs: the present "is" of a relative clause ("the fair, which is on", "the
// fair that is on"; not a "That is on" opening the phrase).
var reRelativeIs = regexp.MustCompile(`(?i)(?:\bwhich|\w,?\s+that)\s+(?:is|are)\b`)

// qualifiesPast: s[from:to] holds a relative clause's present "is" whose sentence tells,
// before it, of something done in the past, not of someone telling of it (quoteVerbs).
func qualifiesPast(s string, from, to int) bool {
	ix := reRelativeIs.FindAllStringIndex(s[from:to], -1)
	if ix == nil {
		return false
	}
	before := s[sentenceOf(s, from).start : from+ix[len(ix)-1][0]]
	return datesTense(before) == text.TensePast && !slices.ContainsFunc(wordsOf(before), func(w wordSpan) bool { return quoteVerbs[w.lower] })
}

// phraseOf is m's clause in s between the commas around m, and between the "and"s around
// it when that part tells no past of its own: a want beside a past action is ahead ("He
// wants a demo in May and asked for pricing", said in January: the coming May), a sign-up
// and what came of it stay one past ("I signed up for a class in March and loved it").
func phraseOf(s string, m text.Mention) segment {
	c := clauseAt(s, m.Start)
	if c.end < m.End {
		c = segment{0, len(s)}
	}
	start, end := c.start, c.end
	if k := strings.LastIndexByte(s[start:m.Start], ','); k >= 0 {
		start += k + 1
	}
	if k := strings.IndexByte(s[m.End:end], ','); k >= 0 {
		end = m.End + k
	}
	own := segment{start, end}
	if k := strings.LastIndex(s[start:m.Start], " and "); k >= 0 {
		own.start = start + k + len(" and ")
	}
	if k := strings.Index(s[m.End:end], " and "); k >= 0 {
		own.end = m.End + k
	}
	if hasPastCue(s[own.start:own.end]) {
		return segment{start, end}
	}
	return own
}

// recurrence: the words of a time that comes round again ("on the 15th of each month",
// "every other Friday", "each year on 3 May"): a due day of the month alone ("Amex is now
// due on the 22nd": every month, whatever is due) and a birthday's or an anniversary's
// date ("my birthday is on 14 February": every year) too; with an adverb of how often
// (saysHowOften), what recurs is a fact (reFactCue), no single day.
const recurrence = everyTime + `|` + dueDay + `|` + yearlyDay

const (
	everyTime = `(?:every|each)(?: other| second)? (?:day|week|weekend|fortnight|month|year|morning|afternoon|evening|night|` + weekdayNames + `)`
	dueDay    = `due on the \d{1,2}(?:st|nd|rd|th)`
	yearlyDay = `(?:birthday|anniversary) (?:is|falls)`
)

var (
	reEveryTime = regexp.MustCompile(`(?i)\b(?:` + everyTime + `)\b`)
	reHowOften  = regexp.MustCompile(`(?i)\b(?:daily|weekly|fortnightly|biweekly|monthly|quarterly|yearly|annually)\b`)
	reDueDay    = regexp.MustCompile(`(?i)\b` + dueDay + `\b`)
	reYearlyDay = regexp.MustCompile(`(?i)\b` + yearlyDay + `\b`)
	// reDayAlone: a day of the month said without its month ("on the 22nd").
	reDayAlone = regexp.MustCompile(`(?i)^on the \d{1,2}(?:st|nd|rd|th)$`)
	// reMonthCounted: a month counted from now, which dates a due day ("due on the 22nd
	// next month").
	reMonthCounted = regexp.MustCompile(`(?i)\b(?:this|next|last) month\b`)
)

// saysHowOften: s says how often the fact comes round by an adverb ("we meet weekly",
// "weekly on Mondays", "on a daily basis"); before a noun it qualifies, the word says what
// a thing is, not when the fact holds ("the weekly meeting on Thursday was cancelled", "back
// to the daily grind": a day and a past).
func saysHowOften(s string) bool {
	for _, m := range reHowOften.FindAllStringIndex(s, -1) {
		if !beforeNoun(s[m[1]:]) {
			return true
		}
	}
	return false
}

// beforeNoun: rest, the text after an adverb of how often, opens with a word it qualifies:
// a content word after one space, no adverb ("weekly now", "daily together") nor the
// "basis" of "on a daily basis".
func beforeNoun(rest string) bool {
	ws := wordsOf(rest)
	if len(ws) == 0 || ws[0].start != 1 || rest[0] != ' ' {
		return false
	}
	w := ws[0].lower
	return isContentWord(w) && !strings.HasSuffix(w, "ly") && !howOftenFollowers[w]
}

// howOftenFollowers are the words, not stop words, that follow an adverb of how often
// without being a thing it says what is: adverbs, and "basis", which says how often.
var howOftenFollowers = setOf(`basis now since together anymore instead apart alone either`)

// recurs: m is a time that comes round again, no date of s: a day or a month named without
// its year, or a weekday or a day of the month placed by tense ("on Thursday", "on the
// 22nd"), in a phrase of a recurrence ("each year on 3 May", "on Thursday every week").
// A due day is one alone ("due on the 22nd"; not "due on the 22nd of March"); a birthday
// comes round on a day of the year, not a weekday ("my birthday is on Friday": this
// Friday). A time counted from now ("every Monday last week") stays a date.
func recurs(s string, m text.Mention) bool {
	p := phraseOf(s, m)
	phrase, said := s[p.start:p.end], strings.ToLower(s[m.Start:m.End])
	if placed := !m.Relative && m.Label != "" || strings.HasPrefix(said, "on "); !placed {
		return false
	}
	return reEveryTime.MatchString(phrase) || saysHowOften(phrase) ||
		reDueDay.MatchString(phrase) && reDayAlone.MatchString(said) && !reMonthCounted.MatchString(phrase) ||
		reYearlyDay.MatchString(phrase) && !reWeekday.MatchString(said)
}

// reBookedFor: a booking, its date next ("We booked the hotel for March 14 to 18",
// "Booked NH215 to Rome, departing May 16", "In Porto we booked the Infante Sagres,
// confirmation PRT-55821, for March 18"); an assistant's "Saved NH223, June 13" opening a
// sentence too. reBookingVerb is its verb alone.
var (
	reBookingVerb = regexp.MustCompile(`(?i)(?:^\s*saved|\b(?:booked|rebooked|reserved|scheduled|(?:bought|got)(?: \w+){0,2} tickets?))\b`)
	reBookedFor   = regexp.MustCompile(reBookingVerb.String() + `[^.!?;\n]*?(?:\b(?i:for|on|departing|arriving|leaving|returning|from)|,)\s+(?i:the\s+)?$`)
)

// bookedFor reports whether m is the date of a booking its sentence tells: the booking is
// past, the date it is for is ahead, unless another word of the sentence is past ("We
// booked the hotel for March 14 and loved it"). A stay without a booking is read by its
// tense ("We stayed there from March 14 to 18").
func bookedFor(s string, m text.Mention) bool {
	sen := sentenceOf(s, m.Start)
	if !reBookedFor.MatchString(s[sen.start:m.Start]) {
		return false
	}
	return !hasPastCue(reBookingVerb.ReplaceAllString(s[sen.start:sen.end], ""))
}
