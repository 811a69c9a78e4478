package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// abbreviations are the words written with a point that does not end a sentence: the
// titles before a name ("Dr. Lee", "St. Louis", "Mt. Fuji"), a name's suffix ("Jr."),
// and the Latin of an aside or a list ("etc.", "vs."). Letters each with its point are
// abbreviations too: initials ("J. K. Rowling"), "a.m.", "U.S.A.", "e.g.", "i.e."; "I" alone
// is the pronoun.
var abbreviations = wordSet(`mr mrs ms dr prof st mt jr sr vs etc`)

// EndsInAbbreviation reports whether before, the text before a point, ends in an
// abbreviation, so that the point ends no sentence. It is taken not to even where it does
// ("at 9 a.m. Then we left"): two sentences read as one lose less than a name cut in two.
func EndsInAbbreviation(before string) bool {
	k := len(before)
	for k > 0 {
		r, n := utf8.DecodeLastRuneInString(before[:k])
		if !unicode.IsLetter(r) && r != '.' {
			break
		}
		k -= n
	}
	word := strings.ToLower(strings.TrimLeft(before[k:], "."))
	return abbreviations[word] || word != "i" && lettersWithPoints(word) // "So did I. Then…"
}

// lettersWithPoints: word is single letters joined by points ("k", "a.m", "u.s.a").
func lettersWithPoints(word string) bool {
	if word == "" {
		return false
	}
	for _, part := range strings.Split(word, ".") {
		if utf8.RuneCountInString(part) != 1 {
			return false
		}
	}
	return true
}
