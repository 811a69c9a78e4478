package text

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
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

// reIdentifier: a token of letters or digits joined by ".", "/", "_", ":" or "-".
var reIdentifier = regexp.MustCompile(`^[\p{L}\p{N}]+(?:[._/:\-]+[\p{L}\p{N}]+)+$`)

// reFileName: a name ending in a file's extension ("nback_trials.csv", "Node.js").
var reFileName = regexp.MustCompile(`\p{L}\.\p{L}{2,4}$`)

// Identifiers returns the tokens of s that name one thing by their whole spelling, lower-
// cased, in order, without repeats: a DOI ("10.1057/s41562.2017.10.791"), an arXiv id
// ("1706.03762"), a file name ("nback_trials.csv"), a version ("v2.14.1"). Such a
// token joins its parts with ".", "/", "_" or ":", holds a digit, an "_" or a file's
// extension, and has at least 6 characters; a date or a time of day ("12/05/2023",
// "10:30"), only digits joined by "/", "-" or ":", is none. Keywords splits them at
// their separators, into parts that other identifiers share ("10.1057" begins many DOIs).
func Identifiers(s string) []string {
	var out []string
	for _, w := range strings.Fields(strings.ToLower(s)) {
		w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if len(w) < 6 || !reIdentifier.MatchString(w) || slices.Contains(out, w) {
			continue
		}
		digits := strings.ContainsFunc(w, unicode.IsDigit)
		dateLike := !strings.ContainsFunc(w, func(r rune) bool { return unicode.IsLetter(r) || r == '.' || r == '_' })
		if (digits || strings.Contains(w, "_") || reFileName.MatchString(w)) && !dateLike && strings.ContainsAny(w, "._/:") {
			out = append(out, w)
		}
	}
	return out
}

// NamesIdentifier reports whether s holds the identifier id (lower-cased, as Identifiers
// returns it) whole, in any case, not inside a longer token of letters and digits.
func NamesIdentifier(s, id string) bool {
	s = strings.ToLower(s)
	for from := 0; ; {
		i := strings.Index(s[from:], id)
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(id)
		if (start == 0 || !alphanumericAt(s, start-1, true)) && (end == len(s) || !alphanumericAt(s, end, false)) {
			return true
		}
		from = start + 1
	}
}

// alphanumericAt reports whether the rune ending (before) or starting at byte i of s is a
// letter or a digit.
func alphanumericAt(s string, i int, before bool) bool {
	var r rune
	if before {
		r, _ = utf8.DecodeLastRuneInString(s[:i+1])
	} else {
		r, _ = utf8.DecodeRuneInString(s[i:])
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// sectionNoun names a part of a document before its number; sectionNumber is the number,
// with its sub-clauses ("9.1(b)").
const (
	sectionNoun   = `\b(?:sections?|sec\.|clauses?|articles?|art\.|paragraphs?|para\.|schedules?|exhibits?|annex|appendix|chapters?|amendments?)|§§?`
	sectionNumber = `(\d+(?:\.\d+)*)\b((?:\([a-z0-9]{1,4}\))*)`
)

// SectionPattern is a part of a document named by its number in a pattern that gives its
// context ("the notice period in Section 7.2 is changed"): a noun and a number ("Section
// 7.2", "§ 4.3", "clause 9.1(b)") or a number with a point ("9.1"); no groups.
const SectionPattern = `(?i:(?:(?:` + sectionNoun + `)\s*\d+(?:\.\d+)*|\d+(?:\.\d+)+)\b(?:\([a-z0-9]{1,4}\))*)`

// reSection: a part of a document named by its number (groups 1 to 3: noun, number,
// sub-clauses): "Section 7.2", "§ 12.10", "clause 9.1(b)", "Article 5", "Amendment 2"; or
// by its number alone where the words around it make it one (groups 4 and 5: the number
// and sub-clauses; groups 6 and 7 the same after "in", "under" or "see" with a
// sub-clause): "the cap in 9.1 must stay", "as set out in 4.3.", "under 9.1(b)". Not "7.2
// million", "version 1.2", "2.5 kg" or "the fee in 2.5 hours", numbers as often as parts.
var reSection = regexp.MustCompile(`(?i)(` + sectionNoun + `)\s*` + sectionNumber +
	`|\b(?:(?:cap|caps|limit|limits|period|term|terms|fee|fees|notice|obligations?|indemnity|liability|warranty|warranties|definition|provisions?|payment|deadline) (?:in|under)|(?:set out|defined|described|provided|specified|referred to|stated) in|pursuant to) (\d+(?:\.\d+)+)\b((?:\([a-z0-9]{1,4}\))*)(?:\s*(?:[.,;:!?)"']|$)|\s+(?:must|shall|should|may|will|is|are|was|were|and|or|remains?|stays?|says?|states?|provides?|requires?|appl(?:y|ies)|survives?)\b)` +
	`|\b(?:in|under|see) (\d+(?:\.\d+)+)((?:\([a-z]{1,4}\))+)`)

// sectionNouns are the names of a part of a document, each as one spelling.
var sectionNouns = map[string]string{"§": "section", "§§": "section", "sec.": "section", "sections": "section",
	"clauses": "clause", "art.": "article", "articles": "article", "para.": "paragraph", "paragraphs": "paragraph",
	"schedules": "schedule", "exhibits": "exhibit", "chapters": "chapter", "amendments": "amendment"}

// A SectionRef is a part of a document a text names by its number: its noun, one spelling
// ("section" for "Section", "§" and a number alone), its number ("9.1"), its sub-clauses
// ("(b)"), and where the number and sub-clauses start and end in the text.
type SectionRef struct {
	Noun, Number, Sub string
	Start, End        int
}

// SectionRefs returns the parts of a document that s names by their numbers, in order.
func SectionRefs(s string) []SectionRef {
	var out []SectionRef
	for _, m := range reSection.FindAllStringSubmatchIndex(s, -1) {
		noun, at := "section", 4 // a number alone
		switch {
		case m[2] >= 0:
			noun, at = strings.ToLower(s[m[2]:m[3]]), 2
			noun = cmp.Or(sectionNouns[noun], noun)
		case m[8] < 0:
			at = 6
		}
		num, sub := m[2*at:2*at+2], m[2*at+2:2*at+4]
		out = append(out, SectionRef{Noun: noun, Number: s[num[0]:num[1]], Sub: strings.ToLower(s[sub[0]:sub[1]]), Start: num[0], End: sub[1]})
	}
	return out
}

// Sections returns the parts of a document that s names by their numbers, each as its
// noun and number ("section 7.2" for "Section 7.2", "§ 7.2" and "the cap in 7.2"), in
// order, without repeats. Keywords drops bare numbers, and "7.2" alone is as often a decimal.
func Sections(s string) []string {
	var out []string
	for _, r := range SectionRefs(s) {
		if ref := r.Noun + " " + r.Number; !slices.Contains(out, ref) {
			out = append(out, ref)
		}
	}
	return out
}

// NamesSection reports whether s names the part of a document ref (as Sections returns it).
func NamesSection(s, ref string) bool {
	return slices.Contains(Sections(s), ref)
}
