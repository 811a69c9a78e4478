package offline

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Resolution of relative and partial dates against the observation time (REALM.md §2
// step 2). Weeks start on Monday; a day span runs from 00:00:00 to 23:59:59 in the
// observation's location. The rules are listed in OFFLINE.md.

// dateMention is one time expression found in a text.
type dateMention struct {
	start, end int       // byte offsets of the expression in the text
	from, to   time.Time // resolved span, both inclusive
	label      string    // absolute form shown in parentheses; "" when the words are already absolute
}

// Tense of a text, used to place bare weekdays and months without a year.
const (
	tensePast    = -1
	tenseUnknown = 0
	tenseFuture  = 1
)

const monthNames = `January|February|March|April|May|June|July|August|September|October|November|December`
const monthAbbrevs = `Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec`
const countWords = `a couple of|a couple|couple of|a few|few|several|an|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,3}`

var (
	reRelDay  = regexp.MustCompile(`(?i)\b(the day before yesterday|the day after tomorrow|yesterday|today|tonight|tomorrow|last night|this morning|this afternoon|this evening)\b`)
	rePeriod  = regexp.MustCompile(`(?i)\b(last|this|next|past|coming) (week|month|year|weekend|summer|winter|spring|fall|autumn)\b`)
	reWeekday = regexp.MustCompile(`(?i)\b(last|next|this|on|coming|past) (monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|wed|thurs|thur|thu|fri|sat)\b`)
	reAgo     = regexp.MustCompile(`(?i)\b(` + countWords + `) (day|week|month|year)s? ago\b`)
	reIn      = regexp.MustCompile(`(?i)\bin (` + countWords + `) (day|week|month|year)s?\b`)
	// Month names must be capitalised ("may" is a verb); a day may come before or after.
	reMonthDay = regexp.MustCompile(`\b(?:(\d{1,2})(?:st|nd|rd|th)? (?:of )?(` + monthNames + `|` + monthAbbrevs + `)\.?|(` + monthNames + `|` + monthAbbrevs + `)\.? (\d{1,2})(?:st|nd|rd|th)?)\b(?:,? ((?:19|20)\d{2})\b)?`)
	reMonth    = regexp.MustCompile(`\b(?:((?i:in|of|last|next|this|since|until|during|early|late|mid|by|from|through|before|after))[ -])?(` + monthNames + `)\b(?:,? ((?:19|20)\d{2})\b)?`)
	reYear     = regexp.MustCompile(`(?i)\b(in|since|during|of|from|by|until|around|before|after) ((?:19|20)\d{2})\b`)
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

func fmtDay(t time.Time) string { return t.Format("2 January 2006") }

func daySpan(t time.Time) (time.Time, time.Time) { return dayStart(t), dayEnd(t) }

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

// resolveDates finds the time expressions of text and resolves them against now.
// A zero now resolves nothing but explicit years and full dates.
func resolveDates(text string, now time.Time, tense int) []dateMention {
	var found []dateMention
	add := func(m dateMention, ok bool) {
		if ok {
			found = append(found, m)
		}
	}
	hasNow := !now.IsZero()
	if hasNow {
		for _, ix := range reRelDay.FindAllStringSubmatchIndex(text, -1) {
			add(relDay(strings.ToLower(text[ix[2]:ix[3]]), now, ix[0], ix[1]))
		}
		for _, ix := range rePeriod.FindAllStringSubmatchIndex(text, -1) {
			add(period(strings.ToLower(text[ix[2]:ix[3]]), strings.ToLower(text[ix[4]:ix[5]]), now, ix[0], ix[1]))
		}
		for _, ix := range reWeekday.FindAllStringSubmatchIndex(text, -1) {
			add(weekday(strings.ToLower(text[ix[2]:ix[3]]), strings.ToLower(text[ix[4]:ix[5]]), now, tense, ix[0], ix[1]))
		}
		for _, ix := range reAgo.FindAllStringSubmatchIndex(text, -1) {
			add(offset(strings.ToLower(text[ix[2]:ix[3]]), strings.ToLower(text[ix[4]:ix[5]]), -1, now, ix[0], ix[1]))
		}
		for _, ix := range reIn.FindAllStringSubmatchIndex(text, -1) {
			add(offset(strings.ToLower(text[ix[2]:ix[3]]), strings.ToLower(text[ix[4]:ix[5]]), 1, now, ix[0], ix[1]))
		}
	}
	for _, ix := range reMonthDay.FindAllStringSubmatchIndex(text, -1) {
		add(monthDay(text, ix, now, tense))
	}
	for _, ix := range reMonth.FindAllStringSubmatchIndex(text, -1) {
		add(month(text, ix, now, tense))
	}
	for _, ix := range reYear.FindAllStringSubmatchIndex(text, -1) {
		y, _ := strconv.Atoi(text[ix[4]:ix[5]])
		from, to := yearSpan(y, locOf(now))
		found = append(found, dateMention{start: ix[0], end: ix[1], from: from, to: to})
	}
	// Earliest first; on overlap keep the longer expression.
	sort.SliceStable(found, func(i, j int) bool {
		if found[i].start != found[j].start {
			return found[i].start < found[j].start
		}
		return found[i].end > found[j].end
	})
	out := found[:0]
	for _, m := range found {
		if len(out) > 0 && m.start < out[len(out)-1].end {
			continue
		}
		out = append(out, m)
	}
	return out
}

func locOf(now time.Time) *time.Location {
	if now.IsZero() {
		return time.UTC
	}
	return now.Location()
}

func relDay(word string, now time.Time, s, e int) (dateMention, bool) {
	shift := map[string]int{
		"the day before yesterday": -2, "yesterday": -1, "last night": -1,
		"today": 0, "tonight": 0, "this morning": 0, "this afternoon": 0, "this evening": 0,
		"tomorrow": 1, "the day after tomorrow": 2,
	}[word]
	d := now.AddDate(0, 0, shift)
	from, to := daySpan(d)
	return dateMention{start: s, end: e, from: from, to: to, label: fmtDay(d)}, true
}

func period(which, unit string, now time.Time, s, e int) (dateMention, bool) {
	loc := now.Location()
	m := dateMention{start: s, end: e}
	switch unit {
	case "week":
		ws := weekStart(now)
		switch which {
		case "last":
			m.from, m.label = ws.AddDate(0, 0, -7), "the week before "+fmtDay(now)
		case "next", "coming":
			m.from, m.label = ws.AddDate(0, 0, 7), "the week after "+fmtDay(now)
		case "past":
			m.from, m.to = dayStart(now.AddDate(0, 0, -7)), dayEnd(now)
			m.label = "the week before " + fmtDay(now)
			return m, true
		default:
			m.from, m.label = ws, "the week of "+fmtDay(now)
		}
		m.to = m.from.AddDate(0, 0, 7).Add(-time.Second)
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
			m.label = "the weekend before " + fmtDay(now)
		case "next", "coming":
			sat = today.AddDate(0, 0, 1)
			for sat.Weekday() != time.Saturday {
				sat = sat.AddDate(0, 0, 1)
			}
			m.label = "the weekend of " + fmtDay(sat)
		default:
			sat = weekStart(now).AddDate(0, 0, 5)
			m.label = "the weekend of " + fmtDay(sat)
		}
		m.from, m.to = sat, dayEnd(sat.AddDate(0, 0, 1))
	case "month":
		d := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, loc)
		switch which {
		case "last", "past":
			d = d.AddDate(0, -1, 0)
		case "next", "coming":
			d = d.AddDate(0, 1, 0)
		}
		m.from, m.to = monthSpan(d.Year(), d.Month(), loc)
		m.label = d.Format("January 2006")
	case "year":
		y := now.Year()
		switch which {
		case "last", "past":
			y--
		case "next", "coming":
			y++
		}
		m.from, m.to = yearSpan(y, loc)
		m.label = strconv.Itoa(y)
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
		m.from, m.to = from, to
		if season == "autumn" {
			season = "fall"
		}
		m.label = season + " " + strconv.Itoa(y)
	}
	return m, true
}

func weekday(which, name string, now time.Time, tense int, s, e int) (dateMention, bool) {
	wd := weekdayOf[name]
	today := dayStart(now)
	if which == "on" {
		which = "last"
		if tense == tenseFuture {
			which = "next"
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
	return dateMention{start: s, end: e, from: d, to: dayEnd(d), label: d.Format("Monday 2 January 2006")}, true
}

func offset(count, unit string, sign int, now time.Time, s, e int) (dateMention, bool) {
	n, ok := countOf[count]
	if !ok {
		var err error
		if n, err = strconv.Atoi(count); err != nil {
			return dateMention{}, false
		}
	}
	n *= sign
	loc := now.Location()
	m := dateMention{start: s, end: e}
	approx := ""
	if strings.Contains(count, "few") || count == "several" {
		approx = "around "
	}
	switch unit {
	case "day":
		d := now.AddDate(0, 0, n)
		m.from, m.to = daySpan(d)
		m.label = approx + fmtDay(d)
	case "week":
		ws := weekStart(now.AddDate(0, 0, 7*n))
		m.from, m.to = ws, ws.AddDate(0, 0, 7).Add(-time.Second)
		m.label = approx + "the week of " + fmtDay(ws)
	case "month":
		d := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, loc).AddDate(0, n, 0)
		m.from, m.to = monthSpan(d.Year(), d.Month(), loc)
		m.label = approx + d.Format("January 2006")
	case "year":
		y := now.Year() + n
		m.from, m.to = yearSpan(y, loc)
		m.label = approx + strconv.Itoa(y)
	}
	return m, true
}

// inferYear places a month (and day) without a year: the observation's year, moved one
// year back when the text speaks of the past and the date is after now, one forward when
// it speaks of the future and the date is before now.
func inferYear(m time.Month, day int, now time.Time, tense int) int {
	y := now.Year()
	if day == 0 {
		if tense == tensePast && m > now.Month() {
			return y - 1
		}
		if tense == tenseFuture && m < now.Month() {
			return y + 1
		}
		return y
	}
	d := time.Date(y, m, day, 0, 0, 0, 0, now.Location())
	if tense == tensePast && d.After(now) {
		return y - 1
	}
	if tense == tenseFuture && d.Before(dayStart(now)) {
		return y + 1
	}
	return y
}

func monthDay(text string, ix []int, now time.Time, tense int) (dateMention, bool) {
	var dayStr, monStr string
	if ix[2] >= 0 {
		dayStr, monStr = text[ix[2]:ix[3]], text[ix[4]:ix[5]]
	} else {
		monStr, dayStr = text[ix[6]:ix[7]], text[ix[8]:ix[9]]
	}
	day, _ := strconv.Atoi(dayStr)
	mon := monthOf[strings.ToLower(monStr)]
	if day < 1 || day > 31 || mon == 0 {
		return dateMention{}, false
	}
	m := dateMention{start: ix[0], end: ix[1]}
	var y int
	if ix[10] >= 0 {
		y, _ = strconv.Atoi(text[ix[10]:ix[11]])
	} else {
		if now.IsZero() {
			return dateMention{}, false
		}
		y = inferYear(mon, day, now, tense)
	}
	d := time.Date(y, mon, day, 0, 0, 0, 0, locOf(now))
	if d.Day() != day { // 31 June and the like
		return dateMention{}, false
	}
	m.from, m.to = daySpan(d)
	if ix[10] < 0 {
		m.label = fmtDay(d)
	}
	return m, true
}

func month(text string, ix []int, now time.Time, tense int) (dateMention, bool) {
	prep := ""
	if ix[2] >= 0 {
		prep = strings.ToLower(text[ix[2]:ix[3]])
	}
	name := text[ix[4]:ix[5]]
	mon := monthOf[strings.ToLower(name)]
	hasYear := ix[6] >= 0
	if !hasYear && prep == "" && (mon == time.May || mon == time.March) {
		return dateMention{}, false // "May I", "March on": not dates without a preposition
	}
	loc := locOf(now)
	var y int
	switch {
	case hasYear:
		y, _ = strconv.Atoi(text[ix[6]:ix[7]])
	case now.IsZero():
		return dateMention{}, false
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
	default:
		y = inferYear(mon, 0, now, tense)
	}
	m := dateMention{start: ix[0], end: ix[1]}
	m.from, m.to = monthSpan(y, mon, loc)
	if !hasYear {
		m.label = time.Date(y, mon, 1, 0, 0, 0, 0, loc).Format("January 2006")
	}
	return m, true
}

// annotateDates inserts " (absolute date)" after every relative expression of text.
func annotateDates(text string, ms []dateMention) string {
	if len(ms) == 0 {
		return text
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		b.WriteString(text[last:m.end])
		if m.label != "" {
			b.WriteString(" (")
			b.WriteString(m.label)
			b.WriteString(")")
		}
		last = m.end
	}
	b.WriteString(text[last:])
	return b.String()
}
