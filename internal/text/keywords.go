package text

import (
	"strings"
	"unicode"
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

// Words splits text into lower-cased words of letters and digits; a possessive 's is
// dropped.
func Words(text string) []string {
	f := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
	var out []string
	for _, w := range f {
		w = strings.TrimSuffix(strings.Trim(w, "'"), "'s")
		w = strings.ReplaceAll(w, "'", "")
		if w != "" {
			out = append(out, w)
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
