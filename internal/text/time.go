package text

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/realm-memory/realm"
)

// Time expressions the offline planner understands, relative to the question's time:
// "yesterday", "today", "last/this/next week|month|year", "N days|weeks|months|years
// ago", "(in) May 2023", "(on) 8 May 2023", "May 8, 2023", "(in) May" (the latest May
// not after now), "(in) 2023". Weeks start on Monday; all windows are in UTC.

var (
	monthNames = `(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)`

	reDayMonthYear = regexp.MustCompile(`(?i)\b(?:on\s+)?(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthNames + `,?\s+(\d{4})\b`)
	reMonthDayYear = regexp.MustCompile(`(?i)\b(?:on\s+)?` + monthNames + `\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`)
	reMonthYear    = regexp.MustCompile(`(?i)\b(?:(?:in|during)\s+)?` + monthNames + `,?\s+(\d{4})\b`)
	reAgo          = regexp.MustCompile(`(?i)\b(\d+|a|an|one|two|three|four|five|six)\s+(day|week|month|year)s?\s+ago\b`)
	reRelative     = regexp.MustCompile(`(?i)\b(last|this|next|past)\s+(week|month|year)\b`)
	reDayWord      = regexp.MustCompile(`(?i)\b(yesterday|today|tomorrow)\b`)
	reMonthOnly    = regexp.MustCompile(`(?i)\b(?:in|during)\s+` + monthNames + `\b`)
	reYear         = regexp.MustCompile(`(?i)\b(?:in|during)\s+((?:19|20)\d{2})\b`)
)

// ParseTimeWindow finds the first time expression of q (in the order above) and returns
// its window and q without it; nil and q when it names none.
func ParseTimeWindow(q string, now time.Time) (*realm.TimeRange, string) {
	now = now.UTC()
	day := func(t time.Time) time.Time { return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC) }
	window := func(from, to time.Time) *realm.TimeRange {
		return &realm.TimeRange{From: from, To: to.Add(-time.Nanosecond)}
	}
	cut := func(loc []int) string { return strings.Join(strings.Fields(q[:loc[0]]+" "+q[loc[1]:]), " ") }

	if m := reDayMonthYear.FindStringSubmatchIndex(q); m != nil {
		d, _ := strconv.Atoi(q[m[2]:m[3]])
		mon := monthOf(q[m[4]:m[5]])
		y, _ := strconv.Atoi(q[m[6]:m[7]])
		from := time.Date(y, mon, d, 0, 0, 0, 0, time.UTC)
		return window(from, from.AddDate(0, 0, 1)), cut(m)
	}
	if m := reMonthDayYear.FindStringSubmatchIndex(q); m != nil {
		mon := monthOf(q[m[2]:m[3]])
		d, _ := strconv.Atoi(q[m[4]:m[5]])
		y, _ := strconv.Atoi(q[m[6]:m[7]])
		from := time.Date(y, mon, d, 0, 0, 0, 0, time.UTC)
		return window(from, from.AddDate(0, 0, 1)), cut(m)
	}
	if m := reMonthYear.FindStringSubmatchIndex(q); m != nil {
		mon := monthOf(q[m[2]:m[3]])
		y, _ := strconv.Atoi(q[m[4]:m[5]])
		from := time.Date(y, mon, 1, 0, 0, 0, 0, time.UTC)
		return window(from, from.AddDate(0, 1, 0)), cut(m)
	}
	if m := reAgo.FindStringSubmatchIndex(q); m != nil {
		n := countWord(q[m[2]:m[3]])
		switch strings.ToLower(q[m[4]:m[5]]) {
		case "day":
			from := day(now).AddDate(0, 0, -n)
			return window(from, from.AddDate(0, 0, 1)), cut(m)
		case "week":
			from := weekStart(now).AddDate(0, 0, -7*n)
			return window(from, from.AddDate(0, 0, 7)), cut(m)
		case "month":
			from := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, -n, 0)
			return window(from, from.AddDate(0, 1, 0)), cut(m)
		default:
			from := time.Date(now.Year()-n, 1, 1, 0, 0, 0, 0, time.UTC)
			return window(from, from.AddDate(1, 0, 0)), cut(m)
		}
	}
	if m := reRelative.FindStringSubmatchIndex(q); m != nil {
		rel := strings.ToLower(q[m[2]:m[3]])
		unit := strings.ToLower(q[m[4]:m[5]])
		var from, to time.Time
		switch unit {
		case "week":
			from = weekStart(now)
			to = from.AddDate(0, 0, 7)
			if rel == "past" {
				from, to = day(now).AddDate(0, 0, -7), day(now).AddDate(0, 0, 1)
			}
		case "month":
			from = time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
			to = from.AddDate(0, 1, 0)
			if rel == "past" {
				from, to = day(now).AddDate(0, -1, 0), day(now).AddDate(0, 0, 1)
			}
		default:
			from = time.Date(now.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
			to = from.AddDate(1, 0, 0)
			if rel == "past" {
				from, to = day(now).AddDate(-1, 0, 0), day(now).AddDate(0, 0, 1)
			}
		}
		shift := map[string]int{"last": -1, "next": 1}[rel]
		switch unit {
		case "week":
			from, to = from.AddDate(0, 0, 7*shift), to.AddDate(0, 0, 7*shift)
		case "month":
			from, to = from.AddDate(0, shift, 0), to.AddDate(0, shift, 0)
		default:
			from, to = from.AddDate(shift, 0, 0), to.AddDate(shift, 0, 0)
		}
		return window(from, to), cut(m)
	}
	if m := reDayWord.FindStringSubmatchIndex(q); m != nil {
		offset := map[string]int{"yesterday": -1, "today": 0, "tomorrow": 1}[strings.ToLower(q[m[2]:m[3]])]
		from := day(now).AddDate(0, 0, offset)
		return window(from, from.AddDate(0, 0, 1)), cut(m)
	}
	if m := reMonthOnly.FindStringSubmatchIndex(q); m != nil {
		mon := monthOf(q[m[2]:m[3]])
		y := now.Year()
		if mon > now.Month() {
			y--
		}
		from := time.Date(y, mon, 1, 0, 0, 0, 0, time.UTC)
		return window(from, from.AddDate(0, 1, 0)), cut(m)
	}
	if m := reYear.FindStringSubmatchIndex(q); m != nil {
		y, _ := strconv.Atoi(q[m[2]:m[3]])
		from := time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
		return window(from, from.AddDate(1, 0, 0)), cut(m)
	}
	return nil, q
}

func weekStart(t time.Time) time.Time {
	d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	back := (int(d.Weekday()) + 6) % 7 // Monday = 0
	return d.AddDate(0, 0, -back)
}

func monthOf(name string) time.Month {
	name = strings.ToLower(name)
	for m := time.January; m <= time.December; m++ {
		if strings.HasPrefix(strings.ToLower(m.String()), name[:3]) {
			return m
		}
	}
	return time.January
}

func countWord(w string) int {
	switch strings.ToLower(w) {
	case "a", "an", "one":
		return 1
	case "two":
		return 2
	case "three":
		return 3
	case "four":
		return 4
	case "five":
		return 5
	case "six":
		return 6
	}
	n, _ := strconv.Atoi(w)
	return n
}
