package text

import (
	"strings"
	"unicode"
)

// IsStopword reports function words, question words, auxiliaries and time words (the
// time window carries those), which make poor keywords.
func IsStopword(w string) bool {
	switch w {
	case "a", "an", "the", "and", "or", "but", "if", "of", "to", "in", "on", "at", "by", "for", "with",
		"about", "from", "into", "over", "after", "before", "during", "as", "than", "then", "so",
		"is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "done", "have",
		"has", "had", "having", "will", "would", "shall", "should", "can", "could", "may", "might", "must",
		"what", "which", "who", "whom", "whose", "when", "where", "why", "how", "that", "this", "these",
		"those", "there", "here", "it", "its", "i", "me", "my", "we", "our", "you", "your", "he", "him",
		"his", "she", "her", "they", "them", "their", "not", "no", "any", "some", "all", "each", "both",
		"other", "such", "own", "same", "too", "very", "just", "also", "ever", "s", "t", "kind", "like",
		"get", "got", "go", "went", "make", "made", "thing", "things", "one", "up", "out", "ago", "last",
		"next", "week", "month", "year", "yesterday", "today", "tomorrow", "day", "days", "weeks", "months",
		"years", "tell", "know", "think", "much", "many", "often", "long":
		return true
	}
	return false
}

// Keywords extracts up to n content words of text, lower-cased, in order, without
// duplicates; stop words, question words and bare numbers are dropped.
func Keywords(text string, n int) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range Words(text) {
		if len(out) == n {
			break
		}
		if IsStopword(w) || seen[w] || isNumber(w) || len([]rune(w)) < 2 {
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
