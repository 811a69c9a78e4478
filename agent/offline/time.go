package offline

import (
	"strings"

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
