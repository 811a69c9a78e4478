package text

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Keywords extracts up to n content words of text, lower-cased, in order, without
// duplicates; stop words, question words and bare numbers are dropped.
func Keywords(text string, n int) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range Words(text) {
		if len(out) == n {
			break
		}
		if IsQuestionStopword(w) || seen[w] || isNumber(w) || len([]rune(w)) < 2 {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// Words splits text into lower-cased, composed (NFC) words of letters (with their
// combining marks: an accent no character holds composed, a Devanagari vowel sign) and
// digits; a possessive 's is dropped. Composed, a question typed with decomposed accents
// (as macOS and iOS often send them) asks for the words memories' keywords hold (composed
// as they are written).
func Words(text string) []string {
	f := strings.FieldsFunc(norm.NFC.String(strings.ToLower(text)), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsMark(r) && !unicode.IsDigit(r) && r != '\''
	})
	var out []string
	for _, w := range f {
		w = strings.TrimSuffix(strings.Trim(w, "'"), "'s")
		w = strings.ReplaceAll(w, "'", "")
		if strings.ContainsFunc(w, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
			out = append(out, w) // not a mark alone: an emoji's variation selector
		}
	}
	return out
}

func isNumber(w string) bool {
	for _, r := range w {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// Stem is a crude suffix stripper so that "moved" covers "move" and "parties" "party".
func Stem(w string) string {
	for _, suf := range []string{"ies", "ing", "ed", "es", "s", "e"} {
		if len(w) > len(suf)+2 && strings.HasSuffix(w, suf) {
			w = strings.TrimSuffix(w, suf)
			if suf == "ies" {
				w += "y"
			}
			break
		}
	}
	return w
}
