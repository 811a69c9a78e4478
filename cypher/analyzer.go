package cypher

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/rivo/uniseg"
)

// The full-text index's english analyzer (schema/migrations/0018: Lucene's
// EnglishAnalyzer), in Go, for the in-memory keyword index (keywordindex.go): text is
// split into words at the word boundaries of Unicode's UAX #29, as Lucene's
// StandardTokenizer does, keeping the words that hold a letter or a digit; a trailing
// possessive 's (', ’ or ＇) is removed; words are lower-cased; English stop words are
// dropped; the rest are stemmed by the original Porter algorithm as Lucene's
// PorterStemmer implements it. A memory matches a query word when both share a term.
// Not reproduced: Lucene's emoji and South-East Asian tokens, and the split of words
// longer than 255 characters (a query word is trimmed of what is not a letter or digit
// at its ends, so only such a word holding an emoji inside could differ).

// analyze returns the index terms of text, in order, with repeats.
func analyze(text string) []string { return analyzeWith(text, nil) }

// analyzeWith is analyze remembering in memo (when not nil) the term of each token.
func analyzeWith(text string, memo map[string]string) []string {
	var out []string
	for _, word := range tokens(text) {
		t, ok := memo[word]
		if !ok {
			t = indexTerm(word)
			if memo != nil {
				memo[word] = t
			}
		}
		if t != "" {
			out = append(out, t)
		}
	}
	return out
}

// tokens returns the words of text that hold a letter or a digit, in order, as written:
// the analyzer's tokens before they become terms.
func tokens(text string) []string {
	var out []string
	state := -1
	for len(text) > 0 {
		var word string
		word, text, state = uniseg.FirstWordInString(text, state)
		if strings.ContainsFunc(word, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
			out = append(out, word)
		}
	}
	return out
}

// indexTerm is the term of one token ("" when it is a stop word).
func indexTerm(token string) string {
	u := utf16.Encode([]rune(token))
	if n := len(u); n >= 2 && (u[n-1] == 's' || u[n-1] == 'S') && (u[n-2] == '\'' || u[n-2] == '\u2019' || u[n-2] == '\uFF07') {
		u = u[:n-2]
	}
	lower := []rune(string(utf16.Decode(u)))
	for i, r := range lower {
		lower[i] = unicode.ToLower(r)
	}
	word := string(lower)
	if IsIndexStopword(word) {
		return ""
	}
	return string(utf16.Decode(porterStem(utf16.Encode(lower))))
}

// porterStem stems a lower-cased word given in UTF-16 code units (Lucene stems Java
// chars): the original Porter algorithm (1980) with the two bounds fixes of its
// reference implementation, release 3. Words of fewer than 3 units are kept.
func porterStem(w []uint16) []uint16 {
	if len(w) < 3 {
		return w
	}
	p := porter{b: slices.Clone(w), k: len(w) - 1}
	p.step1()
	p.step2()
	p.step3()
	p.step4()
	p.step5()
	p.step6()
	return p.b[:p.k+1]
}

// porter is one word being stemmed: b[0..k] is the word so far; j marks the end of the
// stem before the suffix ends last matched.
type porter struct {
	b    []uint16
	j, k int
}

// cons: b[i] is a consonant (y after a consonant is a vowel).
func (p *porter) cons(i int) bool {
	switch p.b[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !p.cons(i-1)
	}
	return true
}

// m counts the vowel-consonant sequences of b[0..j].
func (p *porter) m() int {
	n, i := 0, 0
	for ; i <= p.j && p.cons(i); i++ {
	}
	for i <= p.j {
		for ; i <= p.j && !p.cons(i); i++ {
		}
		if i > p.j {
			break
		}
		n++
		for ; i <= p.j && p.cons(i); i++ {
		}
	}
	return n
}

// vowelInStem: b[0..j] holds a vowel.
func (p *porter) vowelInStem() bool {
	for i := 0; i <= p.j; i++ {
		if !p.cons(i) {
			return true
		}
	}
	return false
}

// doubleC: b[i-1..i] is a double consonant.
func (p *porter) doubleC(i int) bool {
	return i >= 1 && p.b[i] == p.b[i-1] && p.cons(i)
}

// cvc: b[i-2..i] is consonant, vowel, consonant, the last not w, x or y.
func (p *porter) cvc(i int) bool {
	if i < 2 || !p.cons(i) || p.cons(i-1) || !p.cons(i-2) {
		return false
	}
	c := p.b[i]
	return c != 'w' && c != 'x' && c != 'y'
}

// ends: b[0..k] ends with s; then j is the end of what precedes it.
func (p *porter) ends(s string) bool {
	o := p.k - len(s) + 1
	if o < 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if p.b[o+i] != uint16(s[i]) {
			return false
		}
	}
	p.j = p.k - len(s)
	return true
}

// setTo replaces b[j+1..k] with s.
func (p *porter) setTo(s string) {
	p.b = p.b[:p.j+1]
	for i := 0; i < len(s); i++ {
		p.b = append(p.b, uint16(s[i]))
	}
	p.k = p.j + len(s)
}

// r replaces the suffix when m() > 0.
func (p *porter) r(s string) {
	if p.m() > 0 {
		p.setTo(s)
	}
}

// step1 removes plurals and -ed or -ing.
func (p *porter) step1() {
	if p.b[p.k] == 's' {
		switch {
		case p.ends("sses"):
			p.k -= 2
		case p.ends("ies"):
			p.setTo("i")
		case p.b[p.k-1] != 's':
			p.k--
		}
	}
	if p.ends("eed") {
		if p.m() > 0 {
			p.k--
		}
	} else if (p.ends("ed") || p.ends("ing")) && p.vowelInStem() {
		p.k = p.j
		switch {
		case p.ends("at"):
			p.setTo("ate")
		case p.ends("bl"):
			p.setTo("ble")
		case p.ends("iz"):
			p.setTo("ize")
		case p.doubleC(p.k):
			if c := p.b[p.k]; c != 'l' && c != 's' && c != 'z' {
				p.k--
			}
		default:
			if p.j = p.k; p.m() == 1 && p.cvc(p.k) {
				p.setTo("e")
			}
		}
	}
}

// step2 turns a final y into i when the stem holds a vowel.
func (p *porter) step2() {
	if p.ends("y") && p.vowelInStem() {
		p.b[p.k] = 'i'
	}
}

// suffixes tries each {suffix, replacement} in order and replaces the first that
// ends the word (when m() > 0).
func (p *porter) suffixes(pairs ...string) {
	for i := 0; i+1 < len(pairs); i += 2 {
		if p.ends(pairs[i]) {
			p.r(pairs[i+1])
			return
		}
	}
}

// step3 maps double suffixes to single ones (-ization to -ize...).
func (p *porter) step3() {
	if p.k == 0 {
		return
	}
	switch p.b[p.k-1] {
	case 'a':
		p.suffixes("ational", "ate", "tional", "tion")
	case 'c':
		p.suffixes("enci", "ence", "anci", "ance")
	case 'e':
		p.suffixes("izer", "ize")
	case 'l':
		p.suffixes("bli", "ble", "alli", "al", "entli", "ent", "eli", "e", "ousli", "ous")
	case 'o':
		p.suffixes("ization", "ize", "ation", "ate", "ator", "ate")
	case 's':
		p.suffixes("alism", "al", "iveness", "ive", "fulness", "ful", "ousness", "ous")
	case 't':
		p.suffixes("aliti", "al", "iviti", "ive", "biliti", "ble")
	case 'g':
		p.suffixes("logi", "log")
	}
}

// step4 handles -ic-, -full, -ness...
func (p *porter) step4() {
	switch p.b[p.k] {
	case 'e':
		p.suffixes("icate", "ic", "ative", "", "alize", "al")
	case 'i':
		p.suffixes("iciti", "ic")
	case 'l':
		p.suffixes("ical", "ic", "ful", "")
	case 's':
		p.suffixes("ness", "")
	}
}

// step5 removes -ant, -ence... when m() > 1.
func (p *porter) step5() {
	if p.k == 0 {
		return
	}
	var found bool
	switch p.b[p.k-1] {
	case 'a':
		found = p.ends("al")
	case 'c':
		found = p.ends("ance") || p.ends("ence")
	case 'e':
		found = p.ends("er")
	case 'i':
		found = p.ends("ic")
	case 'l':
		found = p.ends("able") || p.ends("ible")
	case 'n':
		found = p.ends("ant") || p.ends("ement") || p.ends("ment") || p.ends("ent")
	case 'o':
		found = p.ends("ion") && p.j >= 0 && (p.b[p.j] == 's' || p.b[p.j] == 't') || p.ends("ou")
	case 's':
		found = p.ends("ism")
	case 't':
		found = p.ends("ate") || p.ends("iti")
	case 'u':
		found = p.ends("ous")
	case 'v':
		found = p.ends("ive")
	case 'z':
		found = p.ends("ize")
	}
	if found && p.m() > 1 {
		p.k = p.j
	}
}

// step6 removes a final -e when m() > 1, and -ll to -l.
func (p *porter) step6() {
	p.j = p.k
	if p.b[p.k] == 'e' {
		if a := p.m(); a > 1 || a == 1 && !p.cvc(p.k-1) {
			p.k--
		}
	}
	if p.b[p.k] == 'l' && p.doubleC(p.k) && p.m() > 1 {
		p.k--
	}
}
