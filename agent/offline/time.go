package offline

import (
	"slices"
	"strings"
	"time"

	"github.com/realm-memory/realm/internal/text"
)

// annotateDates inserts " (absolute date)" after every relative expression of s.
func annotateDates(s string, ms []text.Mention) string {
	if len(ms) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		b.WriteString(s[last:m.End])
		if m.Label != "" {
			b.WriteString(" (")
			b.WriteString(m.Label)
			b.WriteString(")")
		}
		last = m.End
	}
	b.WriteString(s[last:])
	return b.String()
}

// datesOf are the time expressions of s resolved against now, but for those in code (a
// version or a timestamp in a code block is no date of the message) and those in text
// pasted from elsewhere (quoted.go), written at another time: these are resolved against
// the day it says it was written (an email's Date: header), else left unresolved when they
// count from that day ("yesterday", "next Friday").
func datesOf(s, speaker string, now time.Time) []text.Mention {
	code := codeBlocks(s)
	tense := datesTense(s)
	parts := pastedParts(s, speaker)
	var out []text.Mention
	for _, m := range text.Dates(s, now, tense) {
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
	out = slices.DeleteFunc(out, func(m text.Mention) bool { return inSpans(code, m.Start, m.End) })
	slices.SortStableFunc(out, func(a, b text.Mention) int { return a.Start - b.Start })
	return out
}
