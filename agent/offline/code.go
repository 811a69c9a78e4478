package offline

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Code in a message is quoted, not said: its "i" is a loop variable, its "me" a
// parameter and its "my-settings.yaml" a file name. The rewrite leaves it as written; the
// dates and the names of a code block are not read. The prose around it is read as usual.

// reCodeBlock: a ``` fenced block (to the end of the text when left open) or a `code span`.
var reCodeBlock = regexp.MustCompile(reFence.String() + "|`[^`\n]+`")

// reFence: a fenced code block, to the end of the text when left open.
var reFence = regexp.MustCompile("(?s)```.*?(?:```|\\z)")

// reQuoted: a quotation on one line, in double quotes or single quotes.
var reQuoted = regexp.MustCompile(`"[^"\n]+"|“[^”\n]+”|'[^'\n]+'|‘[^’\n]+’`)

// reCommandToken: a command line's flag ("-i", "--force") or a word holding what prose
// does not: a path, an assignment, a call, a pipe, a variable.
var reCommandToken = regexp.MustCompile(`(?:^|\s)--?\p{L}|\p{L}[^\s]*[/\\=_|$()\[\]{}*~]|[/\\=_|$()\[\]{}*~][^\s]*\p{L}`)

// codeBlocks are the fenced blocks, code spans and quoted command lines of text: "run
// 'git tag -a v2' and push" quotes a command; "she said 'call me'" does not.
func codeBlocks(text string) []segment {
	var out []segment
	for _, ix := range reCodeBlock.FindAllStringIndex(text, -1) {
		out = append(out, segment{ix[0], ix[1]})
	}
	for _, ix := range reQuoted.FindAllStringIndex(text, -1) {
		if inSpans(out, ix[0], ix[1]) || !quoteOpens(text, ix[0]) {
			continue
		}
		if q := text[ix[0]:ix[1]]; reCommandToken.MatchString(q[1 : len(q)-1]) {
			out = append(out, segment{ix[0], ix[1]})
		}
	}
	return out
}

// quoteOpens: the quote at i opens a quotation, not an apostrophe within a word ("don't").
func quoteOpens(text string, i int) bool {
	if text[i] != '\'' || i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return !unicode.IsLetter(r) && !unicode.IsNumber(r)
}

// codeSpans are codeBlocks and the words of text that are paths or identifiers
// (isCodeToken).
func codeSpans(text string) []segment {
	out := codeBlocks(text)
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if unicode.IsSpace(r) {
			i += n
			continue
		}
		start := i
		i = skipRunes(text, i, func(r rune) bool { return !unicode.IsSpace(r) })
		if isCodeToken(text[start:i]) {
			out = append(out, segment{start, i})
		}
	}
	return out
}

// tokenOpening and tokenClosing are the punctuation prose puts around a word: "(me)",
// "me.", "*really*".
const (
	tokenOpening = `"'‘“([{*`
	tokenClosing = `.,;:!?"'’”)]}*…`
)

// isCodeToken: a word between spaces, its surrounding punctuation aside, that is a path
// or an identifier: it holds a letter and one of _ / \ ~ = ( ) [ ] { } < > * + @ # $ % ^ |
// &, a dot or colon inside it ("me.Owner", "package.json", "i.e", "user:me"), a flag's
// hyphen ("-i", "--force") or one joining two words ("my-settings"; not a dash: "do- or",
// "this--I"), or digits joined to letters ("ME2").
func isCodeToken(tok string) bool {
	tok = strings.TrimRight(strings.TrimLeft(tok, tokenOpening), tokenClosing)
	if !strings.ContainsFunc(tok, unicode.IsLetter) {
		return false
	}
	if strings.ContainsAny(tok, `_/\~=()[]{}<>*+@#$%^|&`) {
		return true
	}
	rs := []rune(tok)
	for i, r := range rs {
		prev, next := rune(0), rune(0)
		if i > 0 {
			prev = rs[i-1]
		}
		if i+1 < len(rs) {
			next = rs[i+1]
		}
		switch {
		case (r == '.' || r == ':') && prev != 0 && prev != '.' && isWordRune(next):
			return true
		case r == '-' && (i == 0 && (next == '-' || unicode.IsLetter(next)) || isWordRune(prev) && isWordRune(next)):
			return true
		case unicode.IsDigit(r) && (unicode.IsLetter(prev) || unicode.IsLetter(next)) && !reNumberUnit.MatchString(tok):
			return true
		}
	}
	return false
}

// reNumberUnit: a number and its suffix or unit ("4th", "3pm", "20mg") is prose.
var reNumberUnit = regexp.MustCompile(`^\d+\p{L}+$`)

// inSpans: [start, end) lies within one of spans.
func inSpans(spans []segment, start, end int) bool {
	for _, s := range spans {
		if s.start <= start && end <= s.end {
			return true
		}
	}
	return false
}
