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

// datesOf are the time expressions of s resolved against now, but for those in code: a
// version or a timestamp in a code block is no date of the message.
func datesOf(s string, now time.Time) []text.Mention {
	code := codeBlocks(s)
	return slices.DeleteFunc(text.Dates(s, now, datesTense(s)), func(m text.Mention) bool { return inSpans(code, m.Start, m.End) })
}
