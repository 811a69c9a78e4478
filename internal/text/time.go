package text

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The one time-expression parser: relative and partial dates resolved against a "now"
// (an observation's time, REALM.md §2 step 2; a question's time, §3). Weeks start on
// Monday. The window convention, everywhere: a span's both ends are inclusive, from its
// first second to its last (a day runs from 00:00:00 to 23:59:59), in now's location.
// The rules are listed in agent/offline/OFFLINE.md ("Dates").

// Mention is one time expression found in a text.
type Mention struct {
	Start, End int       // byte offsets of the expression in the text
	From, To   time.Time // resolved span, both inclusive
	Label      string    // absolute form ("7 May 2023"); "" when the words are already absolute
	// Relative: resolved against now alone ("yesterday", "last weekend", "two weeks ago",
	// "next Friday"), as opposed to a named date, month or year.
	Relative bool
}

// Tense of a text, used to place bare weekdays and months without a year.
const (
	TensePast    = -1
	TenseUnknown = 0
	TenseFuture  = 1
)

// MonthNames are the months' names, as a regexp alternation.
const MonthNames = `January|February|March|April|May|June|July|August|September|October|November|December`

// MonthAbbrevs are their abbreviations, as a regexp alternation ("May" is its name).
const MonthAbbrevs = `Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec`
const countWords = `a couple of|a couple|couple of|a few|few|several|an|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,3}`

var (
	reRelDay  = regexp.MustCompile(`(?i)\b(the day before yesterday|the day after tomorrow|yesterday|today|tonight|tomorrow|last night|this morning|this afternoon|this evening)\b`)
	rePeriod  = regexp.MustCompile(`(?i)\b(last|this|next|past|coming) (week|month|year|weekend|summer|winter|spring|fall|autumn)\b`)
	reWeekday = regexp.MustCompile(`(?i)\b(last|next|this|on|coming|past|by) (monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|wed|thurs|thur|thu|fri|sat)\b`)
	reAgo     = regexp.MustCompile(`(?i)\b(` + countWords + `) (day|weekend|week|fortnight|month|year)s? ago\b`)
	reIn      = regexp.MustCompile(`(?i)\bin (` + countWords + `) (day|weekend|week|fortnight|month|year)s?\b`)
	// A weekday said to be when something was, without "on": "my first day was Tuesday,
	// not Monday".
	reWasWeekday = regexp.MustCompile(`(?i)\b(?:was|were) (monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`)
	// A weekday said to be when something is, without "on": "my last day is Friday".
	reIsWeekday = regexp.MustCompile(`(?i)\b(?:is|are) (monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`)
	// A weekday opening a sentence or a clause as what something was or is, the same:
	// "Tuesday was the deadline", "Friday is my last day".
	reWeekdayWas = regexp.MustCompile(`(?i)(?:^|[.!?;:,\n]\s*)(monday|tuesday|wednesday|thursday|friday|saturday|sunday) was\b`)
	reWeekdayIs  = regexp.MustCompile(`(?i)(?:^|[.!?;:,\n]\s*)(monday|tuesday|wednesday|thursday|friday|saturday|sunday) is\b`)
	// A kind of day before either is no one day: "my favourite day is Tuesday" (any).
	reDayKind = regexp.MustCompile(`(?i)\b(?:favou?rite|best|worst|busiest|quietest|usual|preferred)\b[^.!?;,]*$`)
	// A day or a night said bare, a sentence's or clause's subject before a weekday's "is"
	// or what a weekday is after it: "Trash day is Tuesday", "Tuesday is leg day".
	reBareDayBefore = regexp.MustCompile(`(?i)(?:^|[.!?;:,\n])\s*(\w+) (?:day|night)\s*$`)
	reBareDayAfter  = regexp.MustCompile(`(?i)^\s*(\w+) (?:day|night)\b`)
	// The weekday of the week after next's: "the Thursday after next".
	reAfterNext = regexp.MustCompile(`(?i)\bthe (monday|tuesday|wednesday|thursday|friday|saturday|sunday) after next\b`)
	// A day of the month alone, "on the 14th", or what one day is ("Launch day is the
	// 14th", kindOfDay), where a sentence or a clause ends after it or a time follows: not
	// "on the 3rd floor".
	reOnNth   = regexp.MustCompile(`(?i)\b(?:on|day is) the (\d{1,2})(?:st|nd|rd|th)\b`)
	reNthEnds = regexp.MustCompile(`(?i)^(?:$|[.,;:!?)]| (?:at|and|or|from|to|until|for|when|but|so)\b)`)
	// A holiday of a fixed date, after a word that makes it a time ("Christmas tree",
	// "a Halloween costume" are none).
	reHoliday = regexp.MustCompile(`\b(?i:(last|this|next|on|at|for|over|until|since|by|before|after|during) )(Christmas Eve|Christmas Day|Christmas|New Year['’]s Eve|New Year['’]s Day|Valentine['’]s Day|Halloween)\b`)
	// Month names must be capitalised ("may" is a verb); a day may come before or after.
	reMonthDay = regexp.MustCompile(`\b(?:(\d{1,2})(?:st|nd|rd|th)? (?:of )?(` + MonthNames + `|` + MonthAbbrevs + `)\.?|(` + MonthNames + `|` + MonthAbbrevs + `)\.? (\d{1,2})(?:st|nd|rd|th)?)\b(?:,? ((?:19|20)\d{2})\b)?`)
	reMonth    = regexp.MustCompile(`\b(?:((?i:in|of|for|last|next|this|since|until|during|early|late|mid|by|from|through|before|after))[ -])?(` + MonthNames + `)\b(?:,? ((?:19|20)\d{2})\b)?`)
	reYear     = regexp.MustCompile(`(?i)\b(in|since|during|of|from|by|until|around|before|after) ((?:19|20)\d{2})\b`)
	// An ISO date: 2026-12-12.
	reISODate = regexp.MustCompile(`\b((?:19|20)\d{2})-(\d{2})-(\d{2})\b`)
	// The end of a week, month or year is its last day: "due by the end of the month".
	reEndOf = regexp.MustCompile(`(?i)\b(?:the )?end of (?:(the|this|next|last) )?(week|month|year)\b`)
	// A part of a month, read whole: "the last week of December" is not last week and
	// December, "the second week of November" no November. A month's name follows "of"
	// (month reads it), or the month or the year is named from now.
	reMonthPart = regexp.MustCompile(`\b(?i:the (?:(first|second|third|fourth|last) week|(start|beginning|middle|end)) (of) (?:(the|this|next|last) (month|year)\b)?)`)
)

var weekdayOf = map[string]time.Weekday{
	"monday": time.Monday, "mon": time.Monday,
	"tuesday": time.Tuesday, "tue": time.Tuesday, "tues": time.Tuesday,
	"wednesday": time.Wednesday, "wed": time.Wednesday,
	"thursday": time.Thursday, "thu": time.Thursday, "thur": time.Thursday, "thurs": time.Thursday,
	"friday": time.Friday, "fri": time.Friday,
	"saturday": time.Saturday, "sat": time.Saturday,
	"sunday": time.Sunday,
}

var monthOf = map[string]time.Month{
	"january": time.January, "jan": time.January, "february": time.February, "feb": time.February,
	"march": time.March, "mar": time.March, "april": time.April, "apr": time.April,
	"may": time.May, "june": time.June, "jun": time.June, "july": time.July, "jul": time.July,
	"august": time.August, "aug": time.August, "september": time.September, "sept": time.September,
	"sep": time.September, "october": time.October, "oct": time.October, "november": time.November,
	"nov": time.November, "december": time.December, "dec": time.December,
}

// weekOrdinal numbers the weeks of a month counted from its first day.
var weekOrdinal = map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4}

var countOf = map[string]int{
	"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
	"a couple of": 2, "a couple": 2, "couple of": 2, "a few": 3, "few": 3, "several": 3,
}

func dayStart(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}

// dayEnd is the last second of t's day.
func dayEnd(t time.Time) time.Time { return dayStart(t).AddDate(0, 0, 1).Add(-time.Second) }

func weekStart(t time.Time) time.Time {
	d := dayStart(t)
	return d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
}

// FormatDay writes a day as the labels do: "7 May 2023".
func FormatDay(t time.Time) string { return t.Format(DayLayout) }

// DayLayout is the layout of FormatDay ("3 March 2025").
const DayLayout = "2 January 2006"

// DaySpan is the day of t, from its first second to its last.
func DaySpan(t time.Time) (time.Time, time.Time) { return dayStart(t), dayEnd(t) }

func monthSpan(y int, m time.Month, loc *time.Location) (time.Time, time.Time) {
	s := time.Date(y, m, 1, 0, 0, 0, 0, loc)
	return s, s.AddDate(0, 1, 0).Add(-time.Second)
}

func yearSpan(y int, loc *time.Location) (time.Time, time.Time) {
	s := time.Date(y, time.January, 1, 0, 0, 0, 0, loc)
	return s, s.AddDate(1, 0, 0).Add(-time.Second)
}

// seasonSpan is the (northern) season starting in year y; winter runs December–February.
func seasonSpan(season string, y int, loc *time.Location) (time.Time, time.Time) {
	start := map[string]time.Month{"spring": time.March, "summer": time.June, "fall": time.September, "autumn": time.September, "winter": time.December}[season]
	s := time.Date(y, start, 1, 0, 0, 0, 0, loc)
	return s, s.AddDate(0, 3, 0).Add(-time.Second)
}

// kindOfDay: the words before or after a weekday said to be when something is, or what
// it is, name a kind of day that comes round, no one day: a favourite or usual one ("my
// favourite day is Tuesday"), or a day or a night said bare, without an article or a
// possessive ("Trash day is Tuesday", "Tuesday is leg day", "Thursday is date night");
// "my last day", "the big day" are one, and so is the day of an occasion that comes once
// (oneDay: "Moving day is Friday").
func kindOfDay(before, after string) bool {
	m := reBareDayBefore.FindStringSubmatch(before)
	if m == nil {
		m = reBareDayAfter.FindStringSubmatch(after)
	}
	return reDayKind.MatchString(before) || m != nil && !IsStopword(strings.ToLower(m[1])) && !oneDay[strings.ToLower(m[1])]
}

// oneDay: the words before "day" that make it one day, not a kind: "First day is
// Monday", and an occasion that comes once ("Moving day is Friday", "Launch day is the
// 14th"), not a chore or a habit that comes each week ("Trash day", "leg day").
var oneDay = wordSet(`first final big moving move launch wedding graduation election surgery demo`)

// Dates finds the time expressions of text, earliest first and none overlapping, and
// resolves them against now. A zero now resolves nothing but explicit years and full dates.
func Dates(text string, now time.Time, tense int) []Mention {
	var found []Mention
	add := func(m Mention, ok bool) {
		if ok {
			found = append(found, m)
		}
	}
	hasNow := !now.IsZero()
	if hasNow {
		for _, ix := range reRelDay.FindAllStringSubmatchIndex(text, -1) {
			if !titledDay(text, ix[0], ix[1]) {
				add(relDay(strings.ToLower(text[ix[2]:ix[3]]), now, ix[0], ix[1]))
			}
		}
		for _, ix := range rePeriod.FindAllStringSubmatchIndex(text, -1) {
			add(period(strings.ToLower(text[ix[2]:ix[3]]), strings.ToLower(text[ix[4]:ix[5]]), now, ix[0], ix[1]))
		}
		for _, ix := range reWeekday.FindAllStringSubmatchIndex(text, -1) {
			add(weekday(strings.ToLower(text[ix[2]:ix[3]]), strings.ToLower(text[ix[4]:ix[5]]), now, tense, ix[0], ix[1]))
		}
		// A weekday something was or is, without "on", is placed as "on" places it in a
		// past or a future text, whatever the tense of the rest: the last one or the
		// coming one, or today said on that weekday.
		for _, w := range []struct {
			re    *regexp.Regexp
			tense int
		}{{reWasWeekday, TensePast}, {reIsWeekday, TenseFuture}, {reWeekdayWas, TensePast}, {reWeekdayIs, TenseFuture}} {
			for _, ix := range w.re.FindAllStringSubmatchIndex(text, -1) {
				if !kindOfDay(text[:ix[0]], text[ix[1]:]) {
					add(weekday("on", strings.ToLower(text[ix[2]:ix[3]]), now, w.tense, ix[2], ix[3]))
				}
			}
		}
		for _, ix := range reAgo.FindAllStringSubmatchIndex(text, -1) {
			add(offset(strings.ToLower(text[ix[2]:ix[3]]), strings.ToLower(text[ix[4]:ix[5]]), -1, now, ix[0], ix[1]))
		}
		for _, ix := range reIn.FindAllStringSubmatchIndex(text, -1) {
			add(offset(strings.ToLower(text[ix[2]:ix[3]]), strings.ToLower(text[ix[4]:ix[5]]), 1, now, ix[0], ix[1]))
		}
		for _, ix := range reAfterNext.FindAllStringSubmatchIndex(text, -1) {
			m, _ := weekday("next", strings.ToLower(text[ix[2]:ix[3]]), now, tense, ix[0], ix[1])
			m.From, m.To = m.From.AddDate(0, 0, 7), m.To.AddDate(0, 0, 7)
			m.Label = m.From.Format("Monday 2 January 2006")
			add(m, true)
		}
		for _, ix := range reHoliday.FindAllStringSubmatchIndex(text, -1) {
			add(holiday(text, ix, now, tense))
		}
		for _, ix := range reEndOf.FindAllStringSubmatchIndex(text, -1) {
			which := "this"
			if ix[2] >= 0 {
				which = strings.ToLower(text[ix[2]:ix[3]])
			}
			add(endOf(which, strings.ToLower(text[ix[4]:ix[5]]), now, ix[0], ix[1]))
		}
	}
	if hasNow && mayHold(text, otherRelDayWords, true) {
		for _, ix := range reOtherRelDay.FindAllStringSubmatchIndex(text, -1) {
			add(otherRelDay(text, ix, now))
		}
	}
	var days []Mention
	if strings.ContainsAny(text, "0123456789") && mayHold(text, otherMonthWords, false) {
		for _, ix := range reOtherMonthDay.FindAllStringSubmatchIndex(text, -1) {
			m, ok := otherMonthDay(text, ix, now, tense)
			add(m, ok)
			if ok {
				days = append(days, m)
			}
		}
	}
	for _, ix := range reMonthDay.FindAllStringSubmatchIndex(text, -1) {
		m, ok := monthDay(text, ix, now, tense)
		add(m, ok)
		if m.End > m.Start {
			days = append(days, m)
		}
	}
	slices.SortFunc(days, func(a, b Mention) int { return a.Start - b.Start })
	found = append(found, dayRanges(text, days)...)
	if hasNow {
		for _, ix := range reOnNth.FindAllStringSubmatchIndex(text, -1) {
			if day, _, ok := strings.Cut(text[ix[0]:], " is "); ok && kindOfDay(text[:ix[0]]+day, "") {
				continue // "Pay day is the 15th": each month's
			}
			if reNthEnds.MatchString(text[ix[1]:]) {
				add(dayOfMonth(text, ix, days, now, tense))
			}
		}
	}
	for _, ix := range reMonthPart.FindAllStringSubmatchIndex(text, -1) {
		add(monthPart(text, ix, now, tense))
	}
	for _, ix := range reISODate.FindAllStringSubmatchIndex(text, -1) {
		add(isoDate(text, ix, now))
	}
	// A month that is part of a day is read with its day, even where the month and the
	// word before it are longer: "moved from December 1", "before August 3".
	for _, ix := range reMonth.FindAllStringSubmatchIndex(text, -1) {
		m, ok := month(text, ix, now, tense)
		add(m, ok && !slices.ContainsFunc(days, func(d Mention) bool { return m.Start < d.End && d.Start < m.End }))
	}
	for _, ix := range reYear.FindAllStringSubmatchIndex(text, -1) {
		y, _ := strconv.Atoi(text[ix[4]:ix[5]])
		from, to := yearSpan(y, locOf(now))
		found = append(found, Mention{Start: ix[0], End: ix[1], From: from, To: to})
	}
	// On overlap keep the longer expression (the earlier on a tie), then earliest first:
	// "before August 3, 2023" is a day, not "before August".
	sort.SliceStable(found, func(i, j int) bool {
		li, lj := found[i].End-found[i].Start, found[j].End-found[j].Start
		if li != lj {
			return li > lj
		}
		return found[i].Start < found[j].Start
	})
	var out []Mention
	for _, m := range found {
		if !slices.ContainsFunc(out, func(o Mention) bool { return m.Start < o.End && o.Start < m.End }) {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// Days in other languages, read as their English counterparts are: a day of a month
// ("el 3 de marzo", "le 14 juillet", "20 maggio", "am 3. März 2026", "3月3日",
// "2026年3月3日") and the days next to today ("mañana", "morgen", "demain", "amanhã",
// "domani", "明天", "明日"). A message in another language is dated as an English one is,
// and an English question ("What do I have tomorrow?") finds it. Only as those languages
// write them, so that English words are no dates: a Romance month in lower case (and
// after "de" in Spanish and Portuguese: "2 de mayo", not "2 mayo packets"), a German one
// after its day's point ("3. März", not "2 Mai Tais"), a day's word in lower case or
// opening a sentence ("Mañana tengo…", not "A. J. Ayer"); German "hier" (here) is no
// French yesterday, and a Japanese day's word followed by a kanji is a name's (明日香).
// Decomposed accents read as composed ones.
var (
	reOtherMonthDay = regexp.MustCompile(`(?:^|[^\p{L}\p{N}])(\d{1,2})(?:(?:º|°)? (de )?(` + alternation(romanceMonthOf, false) + `)|\. (` +
		alternation(germanMonthOf, false) + `))(?:,? (?:de )?((?:19|20)\d{2}))?` +
		`|(?:((?:19|20)\d{2})年)?(\d{1,2})月(\d{1,2})[日号]`)
	reOtherRelDay = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(` + alternation(otherRelDayOf, false) + `)|(` + alternation(otherRelDayOf, true) + `)`)
)

// romanceMonthOf are the months' names in Spanish, Portuguese, French and Italian, as
// those languages write them (in lower case); germanMonthOf in German.
var (
	romanceMonthOf = map[string]time.Month{
		"enero": 1, "janeiro": 1, "janvier": 1, "gennaio": 1,
		"febrero": 2, "fevereiro": 2, "février": 2, "febbraio": 2,
		"marzo": 3, "março": 3, "mars": 3,
		"abril": 4, "avril": 4, "aprile": 4,
		"mayo": 5, "maio": 5, "mai": 5, "maggio": 5,
		"junio": 6, "junho": 6, "juin": 6, "giugno": 6,
		"julio": 7, "julho": 7, "juillet": 7, "luglio": 7,
		"agosto": 8, "août": 8,
		"septiembre": 9, "setiembre": 9, "setembro": 9, "septembre": 9, "settembre": 9,
		"octubre": 10, "outubro": 10, "octobre": 10, "ottobre": 10,
		"noviembre": 11, "novembro": 11, "novembre": 11,
		"diciembre": 12, "dezembro": 12, "décembre": 12, "dicembre": 12,
	}
	germanMonthOf = map[string]time.Month{
		"Januar": 1, "Jänner": 1, "Februar": 2, "März": 3, "April": 4, "Mai": 5, "Juni": 6, "Juli": 7,
		"August": 8, "September": 9, "Oktober": 10, "November": 11, "Dezember": 12,
	}
)

// afterDe are the Spanish and Portuguese months, which follow "de" ("3 de marzo"): not
// Italian "3 marzo", French "2 mai".
var afterDe = wordSet(`enero janeiro febrero fevereiro março abril mayo maio junio junho julio julho septiembre setiembre
setembro octubre outubro noviembre novembro diciembre dezembro`)

// otherRelDayOf shifts today by the days a word of another language names. "mañana" and
// "morgen" are also the morning: "esta mañana", "heute Morgen" are today, and after "la",
// "am", "guten"… the word is no day (otherRelDay).
var otherRelDayOf = map[string]int{
	"pasado mañana": 2, "anteayer": -2, "antes de ayer": -2, "ayer": -1, "hoy": 0, "esta mañana": 0, "esta noche": 0, "mañana": 1,
	"übermorgen": 2, "vorgestern": -2, "gestern": -1, "heute morgen": 0, "heute abend": 0, "heute": 0, "morgen": 1,
	"après-demain": 2, "avant-hier": -2, "aujourd'hui": 0, "aujourd’hui": 0, "ce matin": 0, "ce soir": 0, "demain": 1,
	"depois de amanhã": 2, "anteontem": -2, "ontem": -1, "hoje": 0, "amanhã": 1,
	"dopodomani": 2, "l'altro ieri": -2, "altroieri": -2, "ieri": -1, "oggi": 0, "stamattina": 0, "stasera": 0, "domani": 1,
	"后天": 2, "前天": -2, "昨天": -1, "今天": 0, "今晚": 0, "明天": 1,
	"明後日": 2, "あさって": 2, "一昨日": -2, "おととい": -2, "昨日": -1, "今日": 0, "今夜": 0, "明日": 1,
}

// otherRelDayWords and otherMonthWords are the words of the other languages' days and
// months written in ASCII letters only (mayHold).
var (
	otherRelDayWords = asciiKeys(otherRelDayOf)
	otherMonthWords  = append(asciiKeys(romanceMonthOf), asciiKeys(germanMonthOf)...)
)

func asciiKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		if !beyondASCII(k) {
			out = append(out, k)
		}
	}
	return out
}

// mayHold reports whether text may hold one of the other languages' days or months: it
// has a letter beyond ASCII, or one of words (in any case when fold). A cheap test that
// spares an English text the two regexps above, most of the cost of reading its dates.
func mayHold(text string, words []string, fold bool) bool {
	if beyondASCII(text) {
		return true
	}
	if fold {
		text = strings.ToLower(text)
	}
	return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(text, w) })
}

func beyondASCII(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r >= utf8.RuneSelf })
}

// japaneseDays are the words of otherRelDayOf that begin Japanese names too (明日香, 今日子):
// followed by a kanji, they are no day.
var japaneseDays = map[string]bool{"明後日": true, "一昨日": true, "昨日": true, "今日": true, "今夜": true, "明日": true}

// notADay: a word before "mañana" or "morgen" that makes it the morning ("la mañana",
// "am Morgen", "guten Morgen").
var notADay = map[string]bool{"la": true, "una": true, "cada": true, "toda": true, "las": true, "am": true, "guten": true, "jeden": true, "den": true, "einen": true, "diesen": true, "vom": true}

// alternation is the keys of m written in Chinese or Japanese characters (cjk), or the
// others, as a regexp alternation, longest first (so that "pasado mañana" wins over
// "mañana"), each also with its accents decomposed.
func alternation[V any](m map[string]V, cjk bool) string {
	var keys []string
	for k := range m {
		if unbroken(k) != cjk {
			continue
		}
		keys = append(keys, regexp.QuoteMeta(k))
		if d := norm.NFD.String(k); d != k {
			keys = append(keys, regexp.QuoteMeta(d))
		}
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	return strings.Join(keys, "|")
}

// unbroken reports whether s begins with a character of a script written without spaces
// between words (Han, Hiragana, Katakana): such a word has no boundary to look for.
func unbroken(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

// otherMonthDay reads a match of reOtherMonthDay as monthDay reads an English one.
func otherMonthDay(text string, ix []int, now time.Time, tense int) (Mention, bool) {
	group := func(g int) string {
		if ix[2*g] < 0 {
			return ""
		}
		return text[ix[2*g]:ix[2*g+1]]
	}
	var dayStr, yearStr string
	var mon time.Month
	start := ix[2]
	if start >= 0 {
		if end := ix[1]; end < len(text) && isLetter(text[end:]) {
			return Mention{}, false // "3 marzolino": not a month
		}
		dayStr, yearStr = group(1), group(5)
		if romance := norm.NFC.String(group(3)); romance != "" {
			if afterDe[romance] && group(2) == "" {
				return Mention{}, false // "2 mayo packets": Spanish says "2 de mayo"
			}
			mon = romanceMonthOf[romance]
		} else {
			mon = germanMonthOf[norm.NFC.String(group(4))]
		}
	} else {
		start = ix[0]
		m, _ := strconv.Atoi(group(7))
		mon, dayStr, yearStr = time.Month(m), group(8), group(6)
	}
	day, _ := strconv.Atoi(dayStr)
	if day < 1 || day > 31 || mon < time.January || mon > time.December {
		return Mention{}, false
	}
	y, _ := strconv.Atoi(yearStr)
	if yearStr == "" {
		if now.IsZero() {
			return Mention{}, false
		}
		y = inferYear(mon, day, now, tense)
	}
	d := time.Date(y, mon, day, 0, 0, 0, 0, locOf(now))
	if d.Day() != day {
		return Mention{}, false
	}
	m := Mention{Start: start, End: ix[1]}
	m.From, m.To = DaySpan(d)
	if yearStr == "" {
		m.Label = FormatDay(d)
	}
	return m, true
}

// otherRelDay reads a match of reOtherRelDay as relDay reads an English one.
func otherRelDay(text string, ix []int, now time.Time) (Mention, bool) {
	s, e := ix[2], ix[3]
	if s < 0 {
		s, e = ix[4], ix[5] // Chinese or Japanese: no boundary
		if next, _ := utf8.DecodeRuneInString(text[e:]); japaneseDays[text[s:e]] && unicode.Is(unicode.Han, next) {
			return Mention{}, false // 明日香: a name
		}
	} else if e < len(text) && isLetter(text[e:]) {
		return Mention{}, false // "hoyo", "heutig": another word
	}
	first, _ := utf8.DecodeRuneInString(text[s:])
	if unicode.IsUpper(first) && !opensSentence(text[:s]) {
		return Mention{}, false // "A. J. Ayer", "cousin Morgen": a name
	}
	word := norm.NFC.String(strings.ToLower(text[s:e]))
	if word == "mañana" || word == "morgen" {
		if before := strings.Fields(text[:s]); len(before) > 0 && notADay[strings.ToLower(before[len(before)-1])] {
			return Mention{}, false
		}
	}
	d := now.AddDate(0, 0, otherRelDayOf[word])
	from, to := DaySpan(d)
	return Mention{Start: s, End: e, From: from, To: to, Label: FormatDay(d), Relative: true}, true
}

// opensSentence reports whether what follows before opens a sentence: nothing before it,
// or the end of a sentence that is not an abbreviation's point ("A. J. ", "Dr. ").
func opensSentence(before string) bool {
	before = strings.TrimRight(before, " \t\"'“‘«(")
	if before == "" || strings.HasSuffix(before, "\n") {
		return true
	}
	last, _ := utf8.DecodeLastRuneInString(before)
	if !strings.ContainsRune(".!?¡¿:…", last) {
		return false
	}
	return last != '.' || !EndsInAbbreviation(before[:len(before)-1])
}

// titledDay: the relative day's words text[s:e] are capitalised inside a sentence, after a
// word in lower case and before no time: a title's ("Finished reading Tomorrow, and
// Tomorrow, and Tomorrow tonight", "Listened to Yesterday by the Beatles"), no day. A
// sentence's first word ("Yesterday I…"), a day in a capitalised heading ("Dentist
// Tomorrow") and one before a time ("see you Tomorrow at 5") are days.
func titledDay(text string, s, e int) bool {
	first, n := utf8.DecodeRuneInString(text[s:])
	second, _ := utf8.DecodeRuneInString(text[s+n:])
	if !unicode.IsUpper(first) || !unicode.IsLower(second) || opensSentence(text[:s]) || reTimeAfter.MatchString(text[e:]) {
		return false
	}
	before := strings.Fields(text[:s])
	last, _ := utf8.DecodeRuneInString(before[len(before)-1])
	return unicode.IsLower(last)
}

// reTimeAfter: a time or a part of the day follows ("Tomorrow at 5", "Tomorrow morning").
var reTimeAfter = regexp.MustCompile(`(?i)^\s+(?:at|morning|afternoon|evening|night|\d)`)

// isLetter reports whether s begins with a letter.
func isLetter(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r)
}

func locOf(now time.Time) *time.Location {
	if now.IsZero() {
		return time.UTC
	}
	return now.Location()
}

func relDay(word string, now time.Time, s, e int) (Mention, bool) {
	shift := map[string]int{
		"the day before yesterday": -2, "yesterday": -1, "last night": -1,
		"today": 0, "tonight": 0, "this morning": 0, "this afternoon": 0, "this evening": 0,
		"tomorrow": 1, "the day after tomorrow": 2,
	}[word]
	d := now.AddDate(0, 0, shift)
	from, to := DaySpan(d)
	return Mention{Start: s, End: e, From: from, To: to, Label: FormatDay(d), Relative: true}, true
}

func period(which, unit string, now time.Time, s, e int) (Mention, bool) {
	loc := now.Location()
	m := Mention{Start: s, End: e, Relative: true}
	switch unit {
	case "week":
		ws := weekStart(now)
		switch which {
		case "last":
			m.From = ws.AddDate(0, 0, -7)
		case "next", "coming":
			m.From = ws.AddDate(0, 0, 7)
		case "past":
			m.From, m.To = dayStart(now.AddDate(0, 0, -7)), dayEnd(now)
			m.Label = "the week before " + FormatDay(now)
			return m, true
		default:
			m.From = ws
		}
		// Named by its Monday, as "two weeks ago" is: "the week of 8 May" said on a
		// Wednesday would read as the week starting that day.
		m.To, m.Label = m.From.AddDate(0, 0, 7).Add(-time.Second), "the week of "+FormatDay(m.From)
	case "weekend":
		today := dayStart(now)
		var sat time.Time
		switch which {
		case "last", "past":
			// The Saturday of the most recent weekend that ended before today.
			sun := today.AddDate(0, 0, -1)
			for sun.Weekday() != time.Sunday {
				sun = sun.AddDate(0, 0, -1)
			}
			sat = sun.AddDate(0, 0, -1)
			m.Label = "the weekend before " + FormatDay(now)
		case "next", "coming":
			sat = today.AddDate(0, 0, 1)
			for sat.Weekday() != time.Saturday {
				sat = sat.AddDate(0, 0, 1)
			}
			m.Label = "the weekend of " + FormatDay(sat)
		default:
			sat = weekStart(now).AddDate(0, 0, 5)
			m.Label = "the weekend of " + FormatDay(sat)
		}
		m.From, m.To = sat, dayEnd(sat.AddDate(0, 0, 1))
	case "month":
		d := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, loc)
		switch which {
		case "last", "past":
			d = d.AddDate(0, -1, 0)
		case "next", "coming":
			d = d.AddDate(0, 1, 0)
		}
		m.From, m.To = monthSpan(d.Year(), d.Month(), loc)
		m.Label = d.Format("January 2006")
	case "year":
		y := now.Year()
		switch which {
		case "last", "past":
			y--
		case "next", "coming":
			y++
		}
		m.From, m.To = yearSpan(y, loc)
		m.Label = strconv.Itoa(y)
	default: // seasons
		season := unit
		today := dayStart(now)
		y := now.Year()
		if now.Month() <= time.February && season == "winter" {
			y-- // January and February belong to the winter that began last December
		}
		from, to := seasonSpan(season, y, loc)
		switch which {
		case "last", "past":
			for !to.Before(today) {
				y--
				from, to = seasonSpan(season, y, loc)
			}
		case "next", "coming":
			for !from.After(today) {
				y++
				from, to = seasonSpan(season, y, loc)
			}
		}
		m.From, m.To = from, to
		if season == "autumn" {
			season = "fall"
		}
		m.Label = season + " " + strconv.Itoa(y)
	}
	return m, true
}

func weekday(which, name string, now time.Time, tense int, s, e int) (Mention, bool) {
	wd := weekdayOf[name]
	today := dayStart(now)
	if which == "by" {
		// A deadline is on the day it is by, the coming one unless the text is past: "the
		// signed copy is due by Friday", "I'll finish it by Monday".
		which = "on"
		if tense != TensePast {
			tense = TenseFuture
		}
	}
	if which == "on" {
		switch {
		case today.Weekday() == wd:
			// Said on that weekday, it is today, in any tense: "the disk was at 81% on
			// Tuesday", "the meeting is on Tuesday", said on a Tuesday. Another week is
			// said so ("last Tuesday", "next Tuesday").
			which = "this"
		case tense == TenseFuture:
			which = "next"
		default:
			which = "last"
		}
	}
	var d time.Time
	switch which {
	case "last", "past":
		d = today.AddDate(0, 0, -1)
		for d.Weekday() != wd {
			d = d.AddDate(0, 0, -1)
		}
	case "next", "coming":
		d = today.AddDate(0, 0, 1)
		for d.Weekday() != wd {
			d = d.AddDate(0, 0, 1)
		}
	default: // this: the one of the current week
		d = weekStart(now).AddDate(0, 0, (int(wd)+6)%7)
	}
	return Mention{Start: s, End: e, From: d, To: dayEnd(d), Label: d.Format("Monday 2 January 2006"), Relative: true}, true
}

func offset(count, unit string, sign int, now time.Time, s, e int) (Mention, bool) {
	n, ok := countOf[count]
	if !ok {
		var err error
		if n, err = strconv.Atoi(count); err != nil {
			return Mention{}, false
		}
	}
	n *= sign
	loc := now.Location()
	m := Mention{Start: s, End: e, Relative: true}
	approx := ""
	if strings.Contains(count, "few") || count == "several" {
		approx = "around "
	}
	if unit == "fortnight" {
		n, unit = 2*n, "week"
	}
	switch unit {
	case "weekend":
		// The last or next weekend, then n-1 weeks further: "two weekends ago".
		which := map[int]string{-1: "last", 1: "next"}[sign]
		w, _ := period(which, unit, now, s, e)
		m.From, m.To = w.From.AddDate(0, 0, 7*(n-sign)), w.To.AddDate(0, 0, 7*(n-sign))
		m.Label = approx + "the weekend of " + FormatDay(m.From)
	case "day":
		d := now.AddDate(0, 0, n)
		m.From, m.To = DaySpan(d)
		m.Label = approx + FormatDay(d)
	case "week":
		ws := weekStart(now.AddDate(0, 0, 7*n))
		m.From, m.To = ws, ws.AddDate(0, 0, 7).Add(-time.Second)
		m.Label = approx + "the week of " + FormatDay(ws)
	case "month":
		d := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, loc).AddDate(0, n, 0)
		m.From, m.To = monthSpan(d.Year(), d.Month(), loc)
		m.Label = approx + d.Format("January 2006")
	case "year":
		y := now.Year() + n
		m.From, m.To = yearSpan(y, loc)
		m.Label = approx + strconv.Itoa(y)
	}
	return m, true
}

// dayOfMonth reads "on the 14th": a day of the month of the last day of days named before
// it, or of the month after when it comes before that day ("on March 14 and back on the
// 21st": 21 March; "from January 28, back on the 3rd": 3 February); with none, the next
// such day from today for a text of the present or the future, the last one up to today
// for a past text, as a weekday is placed; a month without that day is passed over.
func dayOfMonth(text string, ix []int, days []Mention, now time.Time, tense int) (Mention, bool) {
	day, _ := strconv.Atoi(text[ix[2]:ix[3]])
	if day < 1 || day > 31 {
		return Mention{}, false
	}
	var named time.Time
	for _, d := range days {
		if d.End <= ix[0] && !d.From.IsZero() {
			named = d.From
		}
	}
	if !named.IsZero() {
		c := time.Date(named.Year(), named.Month(), day, 0, 0, 0, 0, named.Location())
		if day < named.Day() {
			c = time.Date(named.Year(), named.Month()+1, day, 0, 0, 0, 0, named.Location())
		}
		if c.Day() != day {
			return Mention{}, false
		}
		return Mention{Start: ix[0], End: ix[1], From: c, To: dayEnd(c), Label: FormatDay(c)}, true
	}
	step := 1
	if tense == TensePast {
		step = -1
	}
	first := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, now.Location())
	for d := first; ; d = d.AddDate(0, step, 0) {
		c := d.AddDate(0, 0, day-1)
		if c.Day() != day || (step > 0 && c.Before(dayStart(now))) || (step < 0 && c.After(now)) {
			continue
		}
		return Mention{Start: ix[0], End: ix[1], From: c, To: dayEnd(c), Label: FormatDay(c), Relative: true}, true
	}
}

// holidays are the days of the holidays reHoliday reads.
var holidays = map[string]struct {
	month time.Month
	day   int
}{
	"christmas eve": {time.December, 24}, "christmas day": {time.December, 25}, "christmas": {time.December, 25},
	"new year's eve": {time.December, 31}, "new year's day": {time.January, 1}, "valentine's day": {time.February, 14},
	"halloween": {time.October, 31},
}

// holiday reads a match of reHoliday: last Christmas is the latest before today, next
// Christmas the first after it, this Christmas this year's; otherwise the year is placed
// as a day of a month's is.
func holiday(text string, ix []int, now time.Time, tense int) (Mention, bool) {
	h := holidays[strings.ReplaceAll(strings.ToLower(text[ix[4]:ix[5]]), "’", "'")]
	which := strings.ToLower(text[ix[2]:ix[3]])
	y := now.Year()
	at := func(y int) time.Time { return time.Date(y, h.month, h.day, 0, 0, 0, 0, now.Location()) }
	relative := true
	switch which {
	case "last":
		if !at(y).Before(dayStart(now)) {
			y--
		}
	case "next":
		if !at(y).After(dayStart(now)) {
			y++
		}
	case "this":
	default: // a preposition: a named day
		y, relative = inferYear(h.month, h.day, now, tense), false
	}
	d := at(y)
	return Mention{Start: ix[0], End: ix[1], From: d, To: dayEnd(d), Label: FormatDay(d), Relative: relative}, true
}

// inferYear places a month (and day) without a year: the observation's year, moved one
// year back when the text speaks of the past and the date is after now, one forward when
// it speaks of the future and the date is before now. A text of neither tense takes the
// occurrence nearest now ("Lily turns 7 on March 3rd", said in November: the coming March;
// "in June", said in July: the June just gone), the observation's year on a tie. February
// 29 falls in a leap year: the nearest one on the side of now that rule picked.
func inferYear(m time.Month, day int, now time.Time, tense int) int {
	y := nearestYear(m, day, now, tense)
	if m == time.February && day == 29 {
		step := 1
		if time.Date(y, time.March, 1, 0, 0, 0, 0, now.Location()).Before(now) {
			step = -1
		}
		for time.Date(y, time.February, 29, 0, 0, 0, 0, time.UTC).Day() != 29 {
			y += step
		}
	}
	return y
}

// nearestYear is inferYear's year, before February 29 is placed in a leap year.
func nearestYear(m time.Month, day int, now time.Time, tense int) int {
	y := now.Year()
	if tense == TenseUnknown {
		best := y
		for _, c := range []int{y - 1, y + 1} {
			if yearDistance(c, m, day, now) < yearDistance(best, m, day, now) {
				best = c
			}
		}
		return best
	}
	if day == 0 {
		if tense == TensePast && m > now.Month() {
			return y - 1
		}
		if tense == TenseFuture && m < now.Month() {
			return y + 1
		}
		return y
	}
	d := time.Date(y, m, day, 0, 0, 0, 0, now.Location())
	if tense == TensePast && d.After(now) {
		return y - 1
	}
	if tense == TenseFuture && d.Before(dayStart(now)) {
		return y + 1
	}
	return y
}

// yearDistance is how far month m (day, or the whole month when 0) of year y lies from
// now: in months for a month, in hours for a day.
func yearDistance(y int, m time.Month, day int, now time.Time) float64 {
	if day == 0 {
		return math.Abs(float64((y*12 + int(m)) - (now.Year()*12 + int(now.Month()))))
	}
	return math.Abs(time.Date(y, m, day, 0, 0, 0, 0, now.Location()).Sub(dayStart(now)).Hours())
}

func monthDay(text string, ix []int, now time.Time, tense int) (Mention, bool) {
	var dayStr, monStr string
	if ix[2] >= 0 {
		dayStr, monStr = text[ix[2]:ix[3]], text[ix[4]:ix[5]]
	} else {
		monStr, dayStr = text[ix[6]:ix[7]], text[ix[8]:ix[9]]
	}
	day, _ := strconv.Atoi(dayStr)
	mon := monthOf[strings.ToLower(monStr)]
	if day < 1 || day > 31 || mon == 0 {
		return Mention{}, false
	}
	m := Mention{Start: ix[0], End: ix[1]}
	var y int
	if ix[10] >= 0 {
		y, _ = strconv.Atoi(text[ix[10]:ix[11]])
	} else {
		if now.IsZero() {
			return Mention{}, false
		}
		var relYear bool
		if y, m.End, relYear = relativeYear(text, ix[1], now); !relYear {
			y, m.End = inferYear(mon, day, now, tense), ix[1]
		}
	}
	d := time.Date(y, mon, day, 0, 0, 0, 0, locOf(now))
	if d.Day() != day {
		// 31 April, 29 February 2025: no day of that year, read as none (its span is
		// returned so that its month is not read alone).
		return m, false
	}
	m.From, m.To = DaySpan(d)
	if ix[10] < 0 {
		m.Label = FormatDay(d)
	}
	return m, true
}

// A range of days is one expression, from the first day's start to the last one's end:
// "March 14 to 18", "March 14-18", "14–18 March", "from March 14 to March 18", "14 March
// 2026 to 18 March 2026". A move from one day to another is two days ("moved the review
// from May 2 to May 9", "the launch moves from April 15 to May 6"), and a day followed by a time is no range ("March 14 to 9 pm").
const rangeTo = `(?:\s*[-–—]\s*|\s+(?i:to|through|until|till)\s+)`

var (
	reRangeJoin = regexp.MustCompile(`^` + rangeTo + `$`)
	reRangeTail = regexp.MustCompile(`^` + rangeTo + `(\d{1,2})(?:st|nd|rd|th)?\b(?:,? ((?:19|20)\d{2})\b)?`)
	reRangeHead = regexp.MustCompile(`\b(\d{1,2})(?:st|nd|rd|th)?` + rangeTo + `$`)
	reNoDayNext = regexp.MustCompile(`^\s*(?:[:.]\d|(?i:[ap]\.?m)\b|(?:` + MonthNames + `|` + MonthAbbrevs + `)\b)`)
	reMovedFrom = regexp.MustCompile(`(?i)\b(?:move[ds]|moving|rescheduled|postponed|pushed|shifted|changed|switched|slip(?:s|ped)|slides|slid|delayed|bumped|brought)\b[^.!?;\n]*\bfrom\s*$`)
)

// dayRanges are the ranges of days of text: two of days (earliest first) joined, or one
// with a day of the month alone before or after it, which takes its month and year.
func dayRanges(text string, days []Mention) []Mention {
	var out []Mention
	add := func(first, last Mention) {
		if reMovedFrom.MatchString(text[:first.Start]) || !first.From.Before(last.From) {
			return
		}
		r := Mention{Start: first.Start, End: last.End, From: first.From, To: last.To}
		if first.Label != "" || last.Label != "" {
			r.Label = spanLabel(r.From, r.To)
		}
		out = append(out, r)
	}
	for i, d := range days {
		if d.From.IsZero() {
			continue
		}
		if i+1 < len(days) && reRangeJoin.MatchString(text[d.End:days[i+1].Start]) && !days[i+1].From.IsZero() {
			last := days[i+1]
			if last.Label != "" && last.From.Before(d.From) { // "December 28 to January 3"
				last.From, last.To = last.From.AddDate(1, 0, 0), last.To.AddDate(1, 0, 0)
			}
			if d.Label != "" && last.Label == "" { // "14 March to 18 March 2026"
				d.From = time.Date(last.From.Year(), d.From.Month(), d.From.Day(), 0, 0, 0, 0, d.From.Location())
			}
			add(d, last)
			continue
		}
		if ix := reRangeTail.FindStringSubmatchIndex(text[d.End:]); ix != nil && !reNoDayNext.MatchString(text[d.End+ix[1]:]) {
			last, y := d, d.From.Year()
			if ix[4] >= 0 {
				y, _ = strconv.Atoi(text[d.End+ix[4] : d.End+ix[5]])
				d.From, d.Label = time.Date(y, d.From.Month(), d.From.Day(), 0, 0, 0, 0, d.From.Location()), ""
			}
			day, _ := strconv.Atoi(text[d.End+ix[2] : d.End+ix[3]])
			last.From = time.Date(y, d.From.Month(), day, 0, 0, 0, 0, d.From.Location())
			last.To, last.End = dayEnd(last.From), d.End+ix[1]
			if last.From.Day() == day {
				add(d, last)
			}
			continue
		}
		dayFirst := text[d.Start] >= '0' && text[d.Start] <= '9'
		if ix := reRangeHead.FindStringSubmatchIndex(text[:d.Start]); ix != nil && dayFirst && (i == 0 || days[i-1].End <= ix[0]) {
			first := d
			day, _ := strconv.Atoi(text[ix[2]:ix[3]])
			first.Start, first.From = ix[0], time.Date(d.From.Year(), d.From.Month(), day, 0, 0, 0, 0, d.From.Location())
			add(first, d)
		}
	}
	return out
}

// spanLabel writes a span of days as the labels do: "14 to 18 March 2026", "30 March to 2
// April 2026", "28 December 2026 to 3 January 2027".
func spanLabel(from, to time.Time) string {
	switch {
	case from.Year() != to.Year():
		return FormatDay(from) + " to " + FormatDay(to)
	case from.Month() != to.Month():
		return from.Format("2 January") + " to " + FormatDay(to)
	}
	return from.Format("2") + " to " + FormatDay(to)
}

// reYearAfter: a year named from now right after a month or a day ("in March last year",
// "on May 3 of next year").
var reYearAfter = regexp.MustCompile(`^,? (?:of )?(?i:(last|next|this)) year\b`)

// relativeYear is the year text names from now right after end ("… last year"), and the
// end of those words.
func relativeYear(text string, end int, now time.Time) (y, to int, ok bool) {
	ix := reYearAfter.FindStringSubmatchIndex(text[end:])
	if ix == nil || now.IsZero() {
		return 0, 0, false
	}
	y = now.Year()
	switch strings.ToLower(text[end+ix[2] : end+ix[3]]) {
	case "last":
		y--
	case "next":
		y++
	}
	return y, end + ix[1], true
}

// isoDate reads 2026-12-12; its words are already absolute.
func isoDate(text string, ix []int, now time.Time) (Mention, bool) {
	y, _ := strconv.Atoi(text[ix[2]:ix[3]])
	mon, _ := strconv.Atoi(text[ix[4]:ix[5]])
	day, _ := strconv.Atoi(text[ix[6]:ix[7]])
	d := time.Date(y, time.Month(mon), day, 0, 0, 0, 0, locOf(now))
	if mon < 1 || mon > 12 || d.Day() != day {
		return Mention{}, false
	}
	m := Mention{Start: ix[0], End: ix[1]}
	m.From, m.To = DaySpan(d)
	return m, true
}

// endOf is the last day of this, next or last week (Sunday), month or year.
func endOf(which, unit string, now time.Time, s, e int) (Mention, bool) {
	p, _ := period(which, unit, now, s, e)
	last := dayStart(p.To)
	p.From, p.To, p.Label = last, dayEnd(last), FormatDay(last)
	return p, true
}

// monthPart reads a match of reMonthPart: the first, second, third, fourth or last seven
// days of the month or year (the second week of November: its 8th to 14th), or the first, fifteenth or last day of the month ("by the end of June": its last
// day, as "by the end of the month" is).
func monthPart(text string, ix []int, now time.Time, tense int) (Mention, bool) {
	var whole Mention
	if ix[8] >= 0 {
		if now.IsZero() {
			return Mention{}, false
		}
		which := strings.ToLower(text[ix[8]:ix[9]])
		if which == "the" {
			which = "this"
		}
		whole, _ = period(which, strings.ToLower(text[ix[10]:ix[11]]), now, ix[0], ix[1])
	} else {
		mix := reMonth.FindStringSubmatchIndex(text[ix[6]:])
		if mix == nil || mix[0] != 0 || mix[2] < 0 {
			return Mention{}, false
		}
		for i := range mix {
			if mix[i] >= 0 {
				mix[i] += ix[6]
			}
		}
		var ok bool
		if whole, ok = month(text, mix, now, tense); !ok {
			return Mention{}, false
		}
	}
	m := Mention{Start: ix[0], End: whole.End, Relative: whole.Relative}
	switch part := strings.ToLower(text[max(ix[2], ix[4]):max(ix[3], ix[5])]); {
	case weekOrdinal[part] > 0:
		m.From = whole.From.AddDate(0, 0, 7*(weekOrdinal[part]-1))
		m.To = m.From.AddDate(0, 0, 7).Add(-time.Second)
	case part == "last":
		m.From, m.To = dayStart(whole.To).AddDate(0, 0, -6), whole.To
	case whole.To.Sub(whole.From) > 31*24*time.Hour:
		return Mention{}, false // the start or middle of a year is no day; its end is endOf's
	case part == "end":
		m.From, m.To = DaySpan(whole.To)
	case part == "middle":
		m.From, m.To = DaySpan(whole.From.AddDate(0, 0, 14))
	default: // start, beginning
		m.From, m.To = DaySpan(whole.From)
	}
	if whole.Label != "" {
		m.Label = FormatDay(m.From)
		if !m.To.Equal(dayEnd(m.From)) {
			m.Label = spanLabel(m.From, m.To)
		}
	}
	return m, true
}

func month(text string, ix []int, now time.Time, tense int) (Mention, bool) {
	prep := ""
	if ix[2] >= 0 {
		prep = strings.ToLower(text[ix[2]:ix[3]])
	}
	name := text[ix[4]:ix[5]]
	mon := monthOf[strings.ToLower(name)]
	hasYear := ix[6] >= 0
	ry, rend, relYear := relativeYear(text, ix[1], now)
	if !hasYear && !relYear && prep == "" && (mon == time.May || mon == time.March) {
		return Mention{}, false // "May I", "March on": not dates without a preposition
	}
	loc := locOf(now)
	m := Mention{Start: ix[0], End: ix[1]}
	var y int
	switch {
	case hasYear:
		y, _ = strconv.Atoi(text[ix[6]:ix[7]])
	case now.IsZero():
		return Mention{}, false
	case relYear:
		y, m.End = ry, rend
	case prep == "last":
		y = now.Year()
		if mon >= now.Month() {
			y--
		}
	case prep == "next":
		y = now.Year()
		if mon <= now.Month() {
			y++
		}
	case prep == "by" && tense == TenseUnknown:
		// A deadline is ahead, said with no tense ("$10,000 saved by December", said in
		// January: this December, not the nearer last one).
		y = inferYear(mon, 0, now, TenseFuture)
	default:
		y = inferYear(mon, 0, now, tense)
	}
	m.From, m.To = monthSpan(y, mon, loc)
	if !hasYear {
		m.Label = time.Date(y, mon, 1, 0, 0, 0, 0, loc).Format("January 2006")
	}
	return m, true
}

// QuestionTime finds the time expression of the question q (the first one with its
// year, else the first), resolved against now in its zone in the question's tense (most
// ask of the past, TensePast: "in May" is the latest May not after now; "What do I have
// on Tuesday?", TenseFuture, asks of the coming Tuesday), and returns it with q without it
// (and the preposition before it); ok is false when q names none. What a window the
// expression makes is the planner's decision (agent/offline, PlanSeeds).
func QuestionTime(q string, now time.Time, tense int) (m Mention, rest string, ok bool) {
	ms := Dates(q, now, tense)
	if !now.IsZero() {
		ms = append(ms, spansOver(q, now, ms)...)
		sort.SliceStable(ms, func(i, j int) bool { return ms[i].Start < ms[j].Start })
	}
	if len(ms) == 0 {
		return Mention{}, q, false
	}
	// A date the question spells out with its year wins over a relative one ("last week,
	// as mentioned on November 6, 2023").
	m = ms[0]
	if i := slices.IndexFunc(ms, func(m Mention) bool { return m.Label == "" }); i >= 0 {
		m = ms[i]
	}
	before := strings.Fields(q[:m.Start])
	if n := len(before); n > 0 && windowPreposition[strings.ToLower(before[n-1])] {
		before = before[:n-1]
	}
	rest = strings.Join(append(before, strings.Fields(q[m.End:])...), " ")
	return m, rest, true
}

// windowPreposition: a word before a time expression that goes with it ("on 8 May 2023").
var windowPreposition = map[string]bool{"on": true, "in": true, "during": true}

// reOverThe: a weekend or a season a question asks about without saying which ("What did
// I do over the weekend?", "during the summer").
var reOverThe = regexp.MustCompile(`(?i)\b(?:over|during|through|in) the (weekend|summer|winter|spring|fall|autumn)\b`)

// spansOver are the weekends and seasons of reOverThe in q that no mention of ms holds,
// each the one of now's week or year when it has begun by now, else the last one.
func spansOver(q string, now time.Time, ms []Mention) []Mention {
	var out []Mention
	for _, ix := range reOverThe.FindAllStringSubmatchIndex(q, -1) {
		if slices.ContainsFunc(ms, func(o Mention) bool { return ix[0] < o.End && o.Start < ix[1] }) {
			continue
		}
		unit := strings.ToLower(q[ix[2]:ix[3]])
		m, _ := period("this", unit, now, ix[0], ix[1])
		if m.From.After(now) {
			m, _ = period("last", unit, now, ix[0], ix[1])
		}
		out = append(out, m)
	}
	return out
}
