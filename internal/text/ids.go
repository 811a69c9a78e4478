package text

import (
	"regexp"
	"slices"
	"strings"
)

// reIDNumber: the number of an identifier ("ticket T-7788", "INV-2291", "PR #512",
// "order 10456-B") or a long number that is no year ("card ending 4417", "555-0101").
var reIDNumber = regexp.MustCompile(`(?i)\b\p{L}{1,12}\s?[-_#](\d{2,})\b|\b(\d{2,})[-_]\p{L}|\b(\d{4,})\b`)

// IDNumbers returns the numbers of s that name one thing (a ticket, an order, a card),
// in order, without repeats. Keywords drops bare numbers, which in most questions are
// counts and dates; a year (19xx, 20xx) standing alone is left out here too.
func IDNumbers(s string) []string {
	var out []string
	for _, m := range reIDNumber.FindAllStringSubmatch(s, -1) {
		n := m[1] + m[2] + m[3]
		if m[3] != "" && len(n) == 4 && (strings.HasPrefix(n, "19") || strings.HasPrefix(n, "20")) {
			continue
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// NamesNumber reports whether s holds the number n as a number of its own (not part of a
// longer one): "T-7788" and "ticket 7788" hold 7788, "77889" does not.
func NamesNumber(s, n string) bool {
	for from := 0; ; {
		i := strings.Index(s[from:], n)
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(n)
		if (start == 0 || !isDigit(s[start-1])) && (end == len(s) || !isDigit(s[end])) {
			return true
		}
		from = start + 1
	}
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }
