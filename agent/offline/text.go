package offline

import (
	"iter"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/realm-memory/realm/internal/text"
)

// Text rules of the offline extractor: words, pronoun rewriting, segmentation, content
// words, keywords, names, typing cues and fact slots. OFFLINE.md lists them.

// wordSpan is one word of a text with its byte offsets.
type wordSpan struct {
	start, end int
	text       string
	lower      string // lowercase, curly apostrophe made straight
}

// wordsOf finds the words of text: runs of letters, combining marks and digits, and
// letters joined to them by an apostrophe ("don't", "rock'n'roll") — the matches of the
// regexp [\p{L}\p{M}\p{N}]+(?:['’]\p{L}[\p{L}\p{M}]*)*, found by hand: the regexp engine
// was most of the offline agent's time on the write path (the equivalence is tested).
// A combining mark is part of its letter: the accent of a decomposed "é" (as macOS and
// iOS keyboards often send it), a Devanagari vowel sign.
func wordsOf(text string) []wordSpan {
	var out []wordSpan
	for i := 0; i < len(text); {
		if r, n := utf8.DecodeRuneInString(text[i:]); !isWordRune(r) {
			i += n
			continue
		}
		start := i
		i = skipRunes(text, i, isWordRune)
		for {
			r, n := utf8.DecodeRuneInString(text[i:])
			if r != '\'' && r != '’' {
				break
			}
			end := skipRunes(text, i+n, unicode.IsLetter)
			if end == i+n {
				break // an apostrophe not followed by a letter ends the word before it
			}
			i = skipRunes(text, end, isLetterOrMark)
		}
		w := text[start:i]
		out = append(out, wordSpan{start: start, end: i, text: w, lower: strings.ReplaceAll(strings.ToLower(w), "’", "'")})
	}
	return out
}

func isWordRune(r rune) bool { return isLetterOrMark(r) || unicode.IsNumber(r) }

func isLetterOrMark(r rune) bool { return unicode.IsLetter(r) || unicode.IsMark(r) }

// skipRunes is the offset of the first rune of text from i on that is not in.
func skipRunes(text string, i int, in func(rune) bool) int {
	for i < len(text) {
		r, n := utf8.DecodeRuneInString(text[i:])
		if !in(r) {
			break
		}
		i += n
	}
	return i
}

// firstPerson maps a first-person word to its replacement; "%s" is the speaker's name.
var firstPerson = map[string]string{
	"i": "%s", "i'm": "%s is", "im": "%s is", "i've": "%s has", "i'll": "%s will", "i'd": "%s would",
	"me": "%s", "my": "%s's", "mine": "%s's", "myself": "%s",
}

// secondPerson maps a second-person word to its replacement; "%s" is the addressee.
var secondPerson = map[string]string{
	"you": "%s", "you're": "%s is", "youre": "%s is", "you've": "%s has", "you'll": "%s will",
	"you'd": "%s would", "your": "%s's", "yours": "%s's", "yourself": "%s",
}

// objectPronouns, rewritten right before another pronoun rewritten, end a phrase: "tell
// you I started" is "tell Maria, John started", not a name "Maria John".
var objectPronouns = setOf(`me you myself yourself`)

// subjectWords are the pronouns after which the next verb takes the third person.
var subjectWords = map[string]bool{"i": true, "you": true}

// thirdPersonIrregular conjugates the verb after a replaced subject pronoun.
var thirdPersonIrregular = map[string]string{
	"am": "is", "are": "is", "have": "has", "do": "does", "don't": "doesn't", "dont": "doesn't",
	"haven't": "hasn't", "aren't": "isn't", "were": "was", "weren't": "wasn't", "go": "goes",
}

// presentVerbs are base forms conjugated after a replaced subject ("I love" → "Caroline
// loves", "I weigh 72.5 kg" → "user weighs 72.5 kg"). A verb whose past is its base form
// (read, put, cut, set, quit, hurt, cost) is left out: "I read it yesterday" is past.
var presentVerbs = setOf(`love like want need think hope feel know make take get try enjoy prefer
plan work live miss wish believe mean guess agree remember forget see hear find keep play
write paint run swim cook bake teach study learn help volunteer care use wonder understand
appreciate admire adore hate dream collect own start visit practice practise support say call
look seem weigh eat drink sleep walk drive ride bike cycle jog hike dance sing listen watch
travel buy sell spend earn pay owe rent smoke exercise train lift meditate pray attend manage
lead handle report build design develop fix coach mentor struggle suffer avoid bring give wear
carry feed order pick choose decide expect intend stay sit stand wake grow raise save invest
check follow track count depend rely apply reply fly worry speak talk text email chat meet
share host organise organize commute cover suggest recommend trust doubt suppose assume
realise realize notice continue tend belong fit sound mind`)

// adverbs may stand between a subject and its verb.
var subjectAdverbs = setOf(`really also just still always never totally absolutely definitely
actually truly usually often sometimes even finally recently currently kinda honestly now
already mostly rarely generally normally`)

// auxiliaries before a subject pronoun mean a question or infinitive: no conjugation after
// it, and the auxiliary itself takes the third person ("are you" → "is Melanie").
var invertedAux = map[string]string{"am": "is", "are": "is", "were": "was", "do": "does", "have": "has", "don't": "doesn't", "aren't": "isn't", "haven't": "hasn't"}
var auxWords = setOf(`did do does can could will would should might must may have has had are were was
is to let make help don't didn't can't won't wouldn't couldn't shouldn't doesn't isn't aren't
haven't hasn't am made makes let lets helped helps saw watched heard`)

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// rewritePronouns replaces first-person words by speaker and second-person words by
// addressee (when known), keeping every other word; verbs after a replaced subject take
// the third person. Code and pasted text keep their words, and a message in another
// language is kept whole: its "me" is not the English one.
func rewritePronouns(text, speaker, addressee string) string {
	ws := wordsOf(text)
	if len(ws) == 0 || (speaker == "" && addressee == "") || readsForeign(ws) {
		return text
	}
	code := codeSpans(text)
	kept := append(pastedSpans(text, speaker), code...)
	english := readsEnglish(ws)
	repl := make([]string, len(ws)) // "" keeps the word
	var edits []edit
	for _, q := range authoredQuotes(text, speaker) {
		if !inSpans(code, q.start, q.end) {
			kept = append(kept, q.segment)
			words, _ := quotedPrompt(text[q.start:q.end], q.author, speaker)
			edits = append(edits, edit{q.start, q.end, words})
		}
	}
	called := map[int]bool{} // the words of a name calling the addressee, cut
	for i, w := range ws {
		next := i + 1 // the word after w, past a name cut beside it ("you, Dave, are")
		if inSpans(kept, w.start, w.end) || w.text == "i" && lineHasCode(text, code, w.start) || w.lower == "im" && !english {
			continue
		}
		var pattern, name string
		if speaker != "" {
			if p, ok := firstPerson[w.lower]; ok {
				pattern, name = p, speaker
			}
		}
		if pattern == "" && addressee != "" {
			if p, ok := secondPerson[w.lower]; ok {
				prev := ""
				if i > 0 {
					prev = ws[i-1].lower
				}
				if !(w.lower == "you" && (prev == "thank" || (i+1 < len(ws) && ws[i+1].lower == "know" && !auxWords[prev]))) {
					pattern, name = p, addressee
					if k, cut, ok := calledBeside(text, ws, i, addressee); ok && !called[k] {
						called[k] = true
						edits = append(edits, cut)
						if k == i+1 && k+1 < len(ws) && cut.end == ws[k+1].start {
							next = k + 1
						}
					}
				}
			}
		}
		if pattern == "" {
			continue
		}
		repl[i] = strings.ReplaceAll(pattern, "%s", name)
		if i > 0 && repl[i-1] != "" && objectPronouns[ws[i-1].lower] && gapIsSpace(text, ws[i-1].end, w.start) {
			repl[i-1] += "," // "reminding me I'm not alone": "Maria, Maria is", not a name "Maria Maria"; "tell you I": "Maria, John"
		}
		if !subjectWords[w.lower] {
			continue
		}
		if i > 0 {
			if aux, ok := invertedAux[ws[i-1].lower]; ok && gapIsSpace(text, ws[i-1].end, w.start) && opensQuestion(text, ws, i-1) {
				repl[i-1] = matchCase(ws[i-1].text, aux)
				continue
			}
			if auxWords[ws[i-1].lower] {
				continue
			}
		}
		// Conjugate the next verb, possibly after one or two adverbs ("I now also work").
		for j := next; j < len(ws) && j <= next+2; j++ {
			bridged := j == next && next > i+1 // the cut of the name between left a space
			if !bridged && !gapIsSpace(text, ws[j-1].end, ws[j].start) || inSpans(kept, ws[j].start, ws[j].end) {
				break
			}
			if v, ok := thirdPersonIrregular[ws[j].lower]; ok {
				if w.lower == "you" && ws[j].lower == "were" || ws[j].lower != "were" {
					repl[j] = v
				}
				break
			}
			if presentVerbs[ws[j].lower] && ws[j].text == ws[j].lower {
				repl[j] = conjugate(ws[j].lower)
				break
			}
			if !subjectAdverbs[ws[j].lower] && !strings.HasSuffix(ws[j].lower, "ly") { // "I personally think"
				break
			}
		}
	}
	for i, w := range ws {
		if repl[i] != "" {
			edits = append(edits, edit{w.start, w.end, repl[i]})
		}
	}
	sort.Slice(edits, func(a, b int) bool { return edits[a].start < edits[b].start })
	var b strings.Builder
	last := 0
	for _, e := range edits {
		b.WriteString(text[last:e.start])
		b.WriteString(e.text)
		last = e.end
	}
	b.WriteString(text[last:])
	return b.String()
}

// edit replaces text[start:end] by text.
type edit struct {
	start, end int
	text       string
}

// calledBeside: the word ws[k] next to ws[i], a "you" rewritten, with nothing but spaces
// and commas between, calls the addressee by name ("Jon, you did great", "for you,
// Maria"); cut takes it out with what stands between, as the rewrite names the addressee
// there: "Jon did great", "for Maria", "Thanks, Dave's notes…" of "Thanks Dave, your
// notes…", not "Jon, Jon did great" nor "Jon Jon has got this", a name of no one. A name
// after the "you" set off by commas goes with both ("You, Dave, are great": "Dave is
// great", not "Dave, are great", the verb cut from its subject).
func calledBeside(msg string, ws []wordSpan, i int, addressee string) (k int, cut edit, ok bool) {
	calls := func(k int) bool {
		l, first := ws[k].lower, firstWord(normName(addressee))
		return isNameWord(ws[k]) && !text.IsStopword(l) && (l == first || utf8.RuneCountInString(l) >= 3 && strings.HasPrefix(first, l))
	}
	bare := func(from, to int) bool { return strings.Trim(msg[from:to], " ,") == "" }
	switch {
	case i > 0 && bare(ws[i-1].end, ws[i].start) && calls(i-1):
		k = i - 1
		if k > 0 && ws[k-1].end == ws[k].start-1 && msg[ws[k-1].end] == ' ' {
			return k, edit{ws[k-1].end, ws[i].start, ", "}, true // "Thanks Dave, your" → "Thanks, Dave's"
		}
		return k, edit{ws[k].start, ws[i].start, ""}, true
	case i+1 < len(ws) && bare(ws[i].end, ws[i+1].start) && calls(i+1):
		k = i + 1
		if k+1 < len(ws) && strings.Contains(msg[ws[i].end:ws[k].start], ",") && strings.TrimSpace(msg[ws[k].end:ws[k+1].start]) == "," {
			return k, edit{ws[i].end, ws[k+1].start, " "}, true
		}
		return k, edit{ws[i].end, ws[k].end, ""}, true
	}
	return 0, edit{}, false
}

// lineHasCode: the line of text around pos holds code, so a lowercase "i" there is a loop
// variable ("for i in range(3):"), not the speaker.
func lineHasCode(text string, code []segment, pos int) bool {
	from := strings.LastIndexByte(text[:pos], '\n') + 1
	to := len(text)
	if k := strings.IndexByte(text[pos:], '\n'); k >= 0 {
		to = pos + k
	}
	for _, s := range code {
		if s.start < to && from < s.end {
			return true
		}
	}
	return false
}

// readsEnglish: the words are English enough for "im" to be "I'm": at least one in five
// is an English stop word, or they are too few to tell ("im so tired"). German "im
// Frontend" is "in the".
func readsEnglish(ws []wordSpan) bool {
	n, stop := 0, 0
	for _, w := range ws {
		if !unicode.IsLetter([]rune(w.lower)[0]) || w.lower == "im" {
			continue
		}
		n++
		if text.IsStopword(w.lower) {
			stop++
		}
	}
	return n < 4 || 5*stop >= n
}

// opensQuestion: the word at k starts a sentence or clause, or follows a wh-word, so an
// auxiliary there is inverted ("Are you …", "how have you …"), not "to have you".
func opensQuestion(text string, ws []wordSpan, k int) bool {
	if k == 0 {
		return true
	}
	if strings.ContainsAny(text[ws[k-1].end:ws[k].start], ".!?,;:-–—") {
		return true
	}
	return whWords[ws[k-1].lower]
}

var whWords = setOf(`what how where when why who which whom whose`)

func gapIsSpace(text string, from, to int) bool { return strings.TrimSpace(text[from:to]) == "" }

func matchCase(orig, repl string) string {
	r, _ := utf8.DecodeRuneInString(orig)
	if unicode.IsUpper(r) && repl != "" {
		return strings.ToUpper(repl[:1]) + repl[1:]
	}
	return repl
}

func conjugate(v string) string {
	switch {
	case v == "have":
		return "has"
	case strings.HasSuffix(v, "s") || strings.HasSuffix(v, "sh") || strings.HasSuffix(v, "ch") || strings.HasSuffix(v, "x") || strings.HasSuffix(v, "o"):
		return v + "es"
	case strings.HasSuffix(v, "y") && len(v) > 1 && !strings.ContainsRune("aeiou", rune(v[len(v)-2])):
		return v[:len(v)-1] + "ies"
	}
	return v + "s"
}

// segment is a sentence or clause of a text.
type segment struct{ start, end int }

// sentenceStops end a sentence: the ASCII ones when a space, a line break, or a letter of
// a script written without spaces follows them ("好!你呢?"), past the closing quotes and
// brackets that close with the sentence ('She said "I'm done." Then she left.'); the
// full-width ones of Chinese and Japanese whatever follows.
const sentenceStops = ".!?。！？"

// sentenceClosers are the closing quotes and brackets a sentence's stop may stand in.
const sentenceClosers = "\"'”’»)]"

// sentences splits msg after a run of sentenceStops, and at line breaks; an abbreviation's
// point ("Dr.", "a.m.", "J. K. Rowling") ends no sentence (text.EndsInAbbreviation).
func sentences(msg string) []segment {
	var out []segment
	start := 0
	emit := func(end int) {
		s := strings.TrimSpace(msg[start:end])
		if s != "" {
			lead := start + strings.Index(msg[start:end], s)
			out = append(out, segment{lead, lead + len(s)})
		}
		start = end
	}
	for i := 0; i < len(msg); {
		r, n := utf8.DecodeRuneInString(msg[i:])
		if r == '\n' {
			emit(i)
		}
		if !strings.ContainsRune(sentenceStops, r) {
			i += n
			continue
		}
		j, fullWidth := i, false
		for j < len(msg) {
			r, n := utf8.DecodeRuneInString(msg[j:])
			if !strings.ContainsRune(sentenceStops, r) {
				break
			}
			fullWidth = fullWidth || r >= utf8.RuneSelf
			j += n
		}
		point := r == '.' && j == i+1
		j = skipRunes(msg, j, func(r rune) bool { return strings.ContainsRune(sentenceClosers, r) })
		next, _ := utf8.DecodeRuneInString(msg[j:])
		ends := fullWidth || j == len(msg) || next == ' ' || next == '\n' || isUnspaced(next)
		if ends && point && !isUnspaced(next) {
			ends = !text.EndsInAbbreviation(msg[:i])
		}
		if ends {
			emit(j)
		}
		i = j
	}
	emit(len(msg))
	return out
}

// isUnspaced: r is a letter of a script written without spaces between words — Chinese,
// Japanese, Thai — where a run of letters is a phrase or a sentence, not a word.
func isUnspaced(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai)
}

var reClauseBreak = regexp.MustCompile(`\s*(?:;|\s[-–—]\s|, but |, so | but )\s*`)

// clauses splits each sentence at semicolons, dashes and "but"/"so" conjunctions.
func clauses(text string) []segment {
	var out []segment
	for _, s := range sentences(text) {
		part := text[s.start:s.end]
		last := 0
		for _, ix := range reClauseBreak.FindAllStringIndex(part, -1) {
			if strings.TrimSpace(part[last:ix[0]]) != "" {
				out = append(out, segment{s.start + last, s.start + ix[0]})
			}
			last = ix[1]
		}
		if strings.TrimSpace(part[last:]) != "" {
			out = append(out, segment{s.start + last, s.end})
		}
	}
	return out
}

// isContentWord: at least three characters, a letter, not a stop word (greetings and
// fillers are stop words, so a turn made of them has no content words).
func isContentWord(w string) bool {
	if len(w) < 3 || text.IsStopword(w) {
		return false
	}
	for _, r := range w {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// contentWords returns the content words of text: lowercase, stopwords removed, "'s" cut.
func contentWords(text string) []string {
	var out []string
	for _, w := range wordsOf(text) {
		l := strings.TrimSuffix(w.lower, "'s")
		if isContentWord(l) {
			out = append(out, l)
		}
	}
	return out
}

func wordSet(ws []string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// nonName are capitalised words that are not names: interjections, pronouns, time words,
// the discourse verbs people capitalise after a greeting ("Hey Mel, Guess what?"), and the
// marks of a reply or a forward in an email's subject ("Subject: Re: your refund").
var nonName = setOf(`i i'm i've i'll i'd hey hi hello wow thanks thank yeah yes no oh omg lol haha hahaha
aww awww congrats congratulations sure ok okay good great cool awesome nice glad amazing sweet dear god
the a an and but so or if when what where who why how this that these those it it's its my your our their
his her he she they we you me us them monday tuesday wednesday thursday friday saturday sunday january
february march april may june july august september october november december mom dad mum mommy daddy
btw gonna wanna anyway anyways well also just really totally definitely absolutely maybe yep nope hmm
happy merry christmas guess remember look listen wait please sorry imagine honestly actually let
talk tell ask call show give help remind find send mondays tuesdays wednesdays thursdays fridays saturdays
sundays weekends today tonight tomorrow yesterday message note reminder je j'ai c'est now then
re fwd fw`)

// reLabel: a label opening a sentence, the word after it opening the sentence as well:
// a heading ("Results: Restricted sleep…", "Action item: Tom will…"), a transcript's
// speaker ("Tom: Randomisation will be…").
var reLabel = regexp.MustCompile(`^\p{Lu}[\p{L}'’-]*(?: [\p{L}'’-]+){0,2}:[ \t]+`)

// reTableCell: the opening of a cell of a table, which a word opens as a sentence does
// ("| Cohort | 1032 |").
var reTableCell = regexp.MustCompile(`(?m)(?:^[ \t]*\||\|)[ \t]*`)

// reReferenceEntry: the opening of an entry of a numbered list of references, which a word
// opens as a sentence does: "[12] Okafor A. Naps…", "13. Smith J, Cho H. …".
var reReferenceEntry = regexp.MustCompile(`(?m)^[ \t]*(?:\[\d+\]|\d+\.)[ \t]+`)

// reNumberedHeading: the heading of a numbered part of a document, in brackets after its
// label and number: "Section 7.2 (Termination for Convenience)", "Clause 9 (Indemnity)".
var reNumberedHeading = regexp.MustCompile(`(\p{L}+)[ \t]+\d[\w.]*[ \t]*\(([^()]*)\)`)

var connectorWords = map[string]bool{"of": true, "the": true, "de": true, "la": true, "van": true, "von": true, "and": false}

// nameMention is a proper name found in a text.
type nameMention struct {
	name     string
	category string
}

// findNames returns the proper names of text in order of first appearance: runs of
// capitalised words (joined by "of"/"the", or by hyphens: "Jean-Luc", "Stratford-upon-Avon"),
// not at a sentence start unless known or hyphenated, and
// identifiers ("T-4410", entities.go), wherever they stand.
func findNames(text string, known map[string]string) []nameMention {
	var out []nameMention
	seen := map[string]bool{}
	sentStart := map[int]bool{}
	for _, s := range sentences(text) {
		sentStart[s.start] = true
	}
	for _, s := range clauses(text) {
		sentStart[s.start] = true
	}
	// A word alone after a label, opening a table's cell or a numbered reference opens a
	// sentence too: "Results: Restricted sleep reduced…", "| Sleep onset latency |", "[12]
	// Sleep and memory"; several are a name more often than not ("New contact: Xiao Zhang,
	// VP Engineering").
	labelled := map[int]bool{}
	for start := range sentStart {
		if m := reLabel.FindStringIndex(text[start:]); m != nil {
			labelled[start+m[1]] = true
		}
	}
	for _, m := range reTableCell.FindAllStringIndex(text, -1) {
		labelled[m[1]] = true
	}
	var references []segment // the lines of numbered references
	for _, m := range reReferenceEntry.FindAllStringIndex(text, -1) {
		labelled[m[1]] = true
		end := strings.IndexByte(text[m[1]:], '\n')
		if end < 0 {
			end = len(text) - m[1]
		}
		references = append(references, segment{m[1], m[1] + end})
	}
	// Each word of a numbered part's heading opens it as well, a capitalised common word
	// no name: "Section 7.2 (Termination for Convenience): …".
	ws := wordsOf(text)
	for _, m := range reNumberedHeading.FindAllStringSubmatchIndex(text, -1) {
		for _, w := range ws {
			if w.start >= m[4] && w.end <= m[5] && labels[strings.ToLower(text[m[2]:m[3]])] {
				labelled[w.start] = true
			}
		}
	}
	code := codeBlocks(text)
	ids := identifierSpans(text)
	// A reference's initials follow its author's name, of which they are no part: "[12]
	// Okafor A.", "13. Smith J, Cho HK."
	initialsAt := func(k int) bool {
		return k < len(ws) && inSpans(references, ws[k].start, ws[k].end) && isInitials(text, ws[k])
	}
	nameWord := func(k int) bool {
		return isNameWord(ws[k]) && !inSpans(ids, ws[k].start, ws[k].end) && !initialsAt(k)
	}
	for i := 0; i < len(ws); i++ {
		if inSpans(code, ws[i].start, ws[i].end) {
			continue
		}
		if id, ok := identifierAt(ids, ws[i].start); ok {
			if name := text[id.start:id.end]; !seen[strings.ToLower(name)] {
				seen[strings.ToLower(name)] = true
				out = append(out, nameMention{name: name, category: "concept"})
			}
			for i+1 < len(ws) && ws[i+1].end <= id.end {
				i++
			}
			continue
		}
		if !nameWord(i) {
			continue
		}
		j := i
		quoted := strings.HasSuffix(text[:ws[i].start], "\"") || strings.HasSuffix(text[:ws[i].start], "“")
		for j+1 < len(ws) && (gapIsSpace(text, ws[j].end, ws[j+1].start) || joinsName(text, ws, j)) {
			if nameWord(j + 1) {
				j++
				continue
			}
			if quoted && j+2 < len(ws) && isCapitalised(ws[j+1]) && gapIsSpace(text, ws[j+1].end, ws[j+2].start) && nameWord(j+2) {
				j += 2 // a quoted title keeps its capitalised small words: "Attention Is All You Need"
				continue
			}
			if k := pastConnectors(text, ws, j, nameWord); k > 0 {
				j = k
				continue
			}
			break
		}
		if i < j && ws[i].text == "Met" && isAfterOpening(text, ws[i].start, sentStart) {
			i++ // "Met Tom Becker at Acme": the person met, named after the verb (personCued)
		}
		if (isPost(ws, i, j) || i == j && (isTermAcronym(ws[i]) || isDateOrLabel(ws, i) || partyRoles[ws[i].lower])) && known[strings.ToLower(text[ws[i].start:ws[j].end])] == "" {
			i = j // a post, a term, a month, a label or a party's role names nothing of its own: "CFO", "Head of IT", "the SOC 2 report", "3 Dec", "Table 2", "the Licensee" (entities.go)
			continue
		}
		name := strings.TrimSuffix(strings.TrimSuffix(text[ws[i].start:ws[j].end], "'s"), "’s")
		// A title opens a name wherever it stands: "Dr. Patel called", "St. Louis is
		// lovely"; so do capitalised words joined by a hyphen, which are seldom anything but
		// a name ("Anne-Marie lives in Leeds"), and a firm's suffix closes one ("…; Brightline
		// LLC is the escrow agent").
		atStart := (isAfterOpening(text, ws[i].start, sentStart) || i == j && labelled[ws[i].start]) && !(i < j && (opensName(ws, i) || hyphenAfter(text, ws, i) || companySuffixes[ws[j].lower]))
		key := strings.ToLower(name)
		cat, isKnown := known[key]
		if utf8.RuneCountInString(name) == 1 && !isKnown {
			// A capital letter alone names no one: "P.S.", "J.K. Rowling"'s "K", "R&R".
			i = j
			continue
		}
		if atStart && !isKnown && !firstNames[ws[i].lower] && !initialsAt(j+1) && !citedAfter(text, ws, j) {
			// A known name may follow a capitalised greeting: "Hey Mel" is caught on "Mel".
			i = j
			continue
		}
		if !seen[key] {
			seen[key] = true
			if !isKnown {
				cat = guessCategory(text, ws, i, j)
			}
			out = append(out, nameMention{name: name, category: cat})
		}
		i = j
	}
	return out
}

// isAfterOpening: the word at pos opens one of starts (sentences and clauses), the text
// but for opening quotes and brackets, or a Spanish question or exclamation, wherever it
// stands ("¿Dónde está Ana?", "Dime, ¿Cómo está?"). A quote does not make its first word
// a sentence's first: a title quoted there is named ("Hi Joanna! "Finding Home" sounds
// special").
func isAfterOpening(text string, pos int, starts map[int]bool) bool {
	before := text[:pos]
	return starts[pos] || strings.TrimRight(before, " \"'“‘([") == "" || strings.HasSuffix(before, "¿") || strings.HasSuffix(before, "¡")
}

func isNameWord(w wordSpan) bool {
	return isCapitalised(w) && !nonName[strings.TrimSuffix(w.lower, "'s")]
}

func isCapitalised(w wordSpan) bool {
	r, _ := utf8.DecodeRuneInString(w.text)
	return unicode.IsUpper(r)
}

// keywordsOf picks 3–5 keywords: names first (in order), then the content words used
// most, longer first, then in order of appearance; the speaker only fills up to three.
func keywordsOf(text string, names []string, speaker string) []string {
	var out []string
	seen := map[string]bool{}
	push := func(w string) {
		k := strings.ToLower(w)
		if w == "" || seen[k] || len(out) >= 5 {
			return
		}
		seen[k] = true
		for _, part := range strings.Fields(k) {
			seen[part] = true
		}
		out = append(out, w)
	}
	for _, n := range names {
		if !strings.EqualFold(n, speaker) {
			push(n)
		}
	}
	isName := map[string]bool{}
	for _, n := range append([]string{speaker}, names...) {
		for _, p := range strings.Fields(normName(n)) {
			isName[p] = true
		}
	}
	var cw []string
	for _, w := range contentWords(text) {
		if !isName[w] {
			cw = append(cw, w)
		}
	}
	count := map[string]int{}
	first := map[string]int{}
	for i, w := range cw {
		if _, ok := first[w]; !ok {
			first[w] = i
		}
		count[w]++
	}
	uniq := make([]string, 0, len(first))
	for w := range first {
		uniq = append(uniq, w)
	}
	sort.Slice(uniq, func(a, b int) bool {
		wa, wb := uniq[a], uniq[b]
		if count[wa] != count[wb] {
			return count[wa] > count[wb]
		}
		if len(wa) != len(wb) {
			return len(wa) > len(wb)
		}
		return first[wa] < first[wb]
	})
	for _, w := range uniq {
		push(w)
	}
	if len(out) < 3 {
		push(speaker)
	}
	return out
}

// Typing cues (REALM.md §1: events happen, facts are stable).
var (
	reFactCue     = regexp.MustCompile(`(?i)\b(likes?|loves?|prefers?|enjoys?|favou?rite|is an?|are an?|works? as|works? at|works? in|plans? to|planning to|wants? to|hopes? to|dreams? of|keen on|interested in|passionate about|believes?|lives? in|is from|allergic|is called|named|has an?|owns?|used to|always|usually|` + recurrence + `)\b`)
	reFutureCue   = regexp.MustCompile(`(?i)\b(will|won't|going to|gonna|about to|tomorrow|next|soon|upcoming|later)\b`)
	rePastCue     = regexp.MustCompile(`(?i)\b(ago|yesterday|last|was|were|just|recently|been)\b`)
	reRegularPast = regexp.MustCompile(`\b[a-z]{3,}ed\b`)
)

// irregularPast: the past of the irregular verbs, by their base form ("fly": "flew").
var irregularPast = map[string]string{"arise": "arose", "awake": "awoke", "bear": "bore", "become": "became",
	"begin": "began", "bend": "bent", "bind": "bound", "bite": "bit", "bleed": "bled", "blow": "blew", "break": "broke",
	"breed": "bred", "bring": "brought", "build": "built", "burn": "burnt", "buy": "bought", "catch": "caught",
	"choose": "chose", "cling": "clung", "come": "came", "creep": "crept", "deal": "dealt", "dig": "dug", "do": "did",
	"draw": "drew", "dream": "dreamt", "drink": "drank", "drive": "drove", "eat": "ate", "fall": "fell", "feed": "fed",
	"feel": "felt", "fight": "fought", "find": "found", "flee": "fled", "fling": "flung", "fly": "flew",
	"forbid": "forbade", "foresee": "foresaw", "forget": "forgot", "forgive": "forgave", "freeze": "froze", "get": "got",
	"give": "gave", "go": "went", "grind": "ground", "grow": "grew", "hang": "hung", "have": "had", "hear": "heard",
	"hide": "hid", "hold": "held", "keep": "kept", "kneel": "knelt", "know": "knew", "lay": "laid", "lead": "led",
	"leap": "leapt", "learn": "learnt", "leave": "left", "lend": "lent", "lie": "lay", "light": "lit", "lose": "lost",
	"make": "made", "mean": "meant", "meet": "met", "mistake": "mistook", "overcome": "overcame", "oversleep": "overslept",
	"overtake": "overtook", "pay": "paid", "read": "read", "rebuild": "rebuilt", "redo": "redid", "ride": "rode",
	"ring": "rang", "rise": "rose", "run": "ran", "say": "said", "see": "saw", "seek": "sought", "sell": "sold",
	"send": "sent", "shake": "shook", "shine": "shone", "shoot": "shot", "shrink": "shrank", "sing": "sang",
	"sink": "sank", "sit": "sat", "sleep": "slept", "slide": "slid", "speak": "spoke", "speed": "sped", "spend": "spent",
	"spin": "spun", "spit": "spat", "stand": "stood", "steal": "stole", "stick": "stuck", "sting": "stung",
	"stink": "stank", "stride": "strode", "strike": "struck", "strive": "strove", "swear": "swore", "sweep": "swept",
	"swim": "swam", "swing": "swung", "take": "took", "teach": "taught", "tear": "tore", "tell": "told",
	"think": "thought", "throw": "threw", "tread": "trod", "understand": "understood", "undo": "undid",
	"wake": "woke", "wear": "wore", "weave": "wove", "weep": "wept", "win": "won", "wind": "wound",
	"withdraw": "withdrew", "write": "wrote"}

// reIrregularPast: the irregular pasts that tell a past action (hasPastCue), but those
// spelled as another word ("a rose", "a bit", "fed up", "laid-back", "Drew") and those of a
// verb of saying or of mind, which tell when something was said or thought, not when what
// it tells is ("Tom said he'd come on Friday").
var reIrregularPast = func() *regexp.Regexp {
	notActions := setOf(`bore bound bit bent burnt drew fed ground laid lay led rose shot spat stuck wound
said heard thought knew felt meant understood`)
	var pasts []string
	for _, p := range irregularPast {
		if !notActions[p] {
			pasts = append(pasts, p)
		}
	}
	return regexp.MustCompile(`(?i)\b(?:` + strings.Join(pasts, "|") + `)\b`)
}()

// adjectivesInEd are "-ed" words that are not actions.
var adjectivesInEd = setOf(`excited interested inspired tired bored amazed stressed overwhelmed scared worried
surprised pleased thrilled blessed motivated determined committed related supposed used talented
dedicated interested relaxed prepared stoked involved concerned red bed need feed seed speed indeed
shed proceed exceed succeed agreed beloved naked wicked sacred kindred hundred animated`)

// reIntentCue: an intention, a plan or a want, said in the present, speaks of the future
// ("I want to book flights in March", "he wants a demo in May", "they are planning a
// rollout for May", "she asks for a quote by June": the coming month).
var reIntentCue = regexp.MustCompile(`(?i)\b(wants?|needs?|expects?|asks? for|asking for|plans? to|planning|hopes? to|hoping to|would like|'d like|intends? to|looking forward to|can't wait to)\b`)

// reArrangement: an arrangement said in the present progressive speaks of the future
// ("Ana is getting married on June 14th", "I'm flying out on Friday"); its participle
// after "getting" is no past. Verbs of mind and feeling say nothing of when ("I'm still
// thinking about our trip in March").
var (
	reArrangement = regexp.MustCompile(`(?i)\b(?:is|are|am|i'm|we're|you're|they're|he's|she's) (?:\w+ )?(\w+ing)\b`)
	reGettingDone = regexp.MustCompile(`(?i)\bgetting (\w+ed)\b`)
	notArranged   = setOf(`thinking remembering missing feeling loving enjoying hoping wondering looking reading watching
trying having being doing saying talking telling`)
)

// reOnDay: what is on a weekday, said with no past word (tenseOf is asked first), is the
// coming one: "the release is on Thursday", "I have a dentist appointment on Thursday",
// "Piano lesson for Mia on Friday", said on a Saturday; "I saw the dentist on Thursday" is
// past. Something of its sentence comes first: "On Friday" alone, the phrase of "On
// Friday, I got great news", tells no tense of its own.
var reOnDay = regexp.MustCompile(`(?i)\w[^.!?;,]* on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`)

// datesTense is the tense that places s's bare weekdays and months: tenseOf's, else the
// past for a gauge's reading (isReading: "Disk at 81% on Monday" was measured), else the
// future when s says an intention, an arrangement or what is on a weekday. Neither changes s's type (tenseOf).
// A date something slipped, moved, was pushed or postponed to ("the beta slipped to
// December 4") lies ahead: the move is past, not where it leads. Another change of date
// (brought forward, changed to) is the nearest.
func datesTense(s string) int {
	if reMovedToDay.MatchString(s) {
		return text.TenseFuture
	}
	if reReschedule.MatchString(s) {
		return text.TenseUnknown
	}
	s = reGettingDone.ReplaceAllString(s, "getting")
	s = rePlanState.ReplaceAllString(s, "is")
	if reSignedUp.MatchString(s) && !hasPastCue(reSignedUp.ReplaceAllString(s, "")) {
		return text.TenseFuture
	}
	if t := tenseOf(s); t != text.TenseUnknown {
		return t
	}
	if isReading(s) {
		return text.TensePast
	}
	if reIntentCue.MatchString(s) || reOnDay.MatchString(s) || reAppointment.MatchString(s) || reStartsOn.MatchString(s) {
		return text.TenseFuture
	}
	for _, m := range reArrangement.FindAllStringSubmatch(s, -1) {
		if !notArranged[strings.ToLower(m[1])] {
			return text.TenseFuture
		}
	}
	return text.TenseUnknown
}

// reStartsOn: a start said with no past word, its day or month next, is ahead ("Offer
// approved at $131,500, start in January", said in October: the coming January; "Start
// date January 12"); "I started in January" is past (tenseOf is asked first).
var reStartsOn = regexp.MustCompile(`(?i)\b(?:start(?:s|ing)?(?: date)?|begins?|beginning)(?: is)?:?(?: (?:in|on|from))? (?:the )?(?:\d|(?-i:` + text.MonthNames + `))`)

// rePlanState: a plan's state as it is now ("is cancelled", "is confirmed", "has been
// booked", a heading's "Launch date confirmed: May 6"): the participle is no past action
// (datesTense).
var rePlanState = regexp.MustCompile(`(?i)\b(?:(?:is|are|'s|'re|has been|have been)\s+(?:now\s+|just\s+|already\s+)?(?:cancell?ed|confirmed|booked|called off)\b|(?:cancell?ed|confirmed|booked|called off):)`)

// reAppointment: what is said of an appointment, a booking or a meeting without a word of
// the past is ahead ("My physio appointment on April 3 is cancelled", said in March: this
// April); "I had my check-up in March" is past.
var reAppointment = regexp.MustCompile(`(?i)\b(?:appointments?|appt|check-?ups?|consultations?|surgery|procedure|reservations?|bookings?|meetings?|interviews?)\b`)

// reSignedUp: what one signed up, registered or enrolled for, or got tickets for, is ahead
// ("I signed up for the half marathon in November", said in June: this November); the
// sign-up is past, not what it is for. Another past word keeps the text past ("I signed up
// for a pottery class in March and loved it").
var reSignedUp = regexp.MustCompile(`(?i)\b(?:just |already |finally )?(?:signed(?: \w+)? up for|registered for|enrolled (?:for|in (?:a|an|the))|(?:bought|got|booked) (?:\w+ )?tickets? (?:for|to))\b`)

// reMovedToDay: something moved to a later day, that day named ("slipped to December 4",
// "moved the review from May 2 to May 9", "pushed back to Friday", "the launch moves from
// April 15 to May 6").
var reMovedToDay = regexp.MustCompile(`(?i)\b(?:slipped|slips|slid|slides|moved|moves|rescheduled|postponed|pushed(?: back| out)?|bumped|delayed)(?: [\w']+){0,3}? (?:to|until|till) (?:the |next |this )?((?:\d{1,2}(?:st|nd|rd|th)?(?: of)? (?-i:` +
	text.MonthNames + `)|(?-i:` + text.MonthNames + `)|(?:19|20)\d{2}-\d\d-\d\d|monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b`)

// whenOf is the date of s that places it: the first, or the day something was moved to
// ("moved from December 1 to December 8": the 8th).
func whenOf(s string, dates []text.Mention) text.Mention {
	if ix := reMovedToDay.FindStringSubmatchIndex(s); ix != nil {
		for _, m := range dates {
			if m.End > ix[2] {
				return m
			}
		}
	}
	return dates[0]
}

// reAcknowledgement: a reply's "got it", or "noted" or "confirmed" standing as a sentence
// or clause of its own, says nothing of when ("Got it, dentist on June 9", "Dentist on
// March 2 at 3 pm, noted."); "I noted the date" is past.
var reAcknowledgement = regexp.MustCompile(`(?i)\b(?:got it|gotcha|got you)\b|(?:^|[,;:.!]\s*)(?:noted|confirmed)\s*(?:[,;:.!]|$)`)

// rePartOfMonth: the "last" of "the last week of December" places the week in its month,
// not in the past ("Deploy freezes happen during the last week of December").
var rePartOfMonth = regexp.MustCompile(`(?i)\bthe last (?:week|day) of\b`)

// reScheduled: what is expected, planned, scheduled, due, set, booked or arranged for a
// time lies ahead ("Your delivery is expected on March 20", "Your subscription is scheduled
// to renew on January 5"): the participle is no past action. Group 1 is the word before it.
var reScheduled = regexp.MustCompile(`(?i)(?:\b([\p{L}']+)\s+)?\b(?:(?:expected|scheduled|booked|arranged|planned)\s+(?:to|for|on|in|by|at)|due\s+(?:on|for|by|in|at)|set\s+for|supposed\s+to)\b`)

// notScheduledAfter: after these the arrangement is over ("I was supposed to fly on May 3",
// "it had been scheduled for June") or an action of its subject ("I planned for May").
var notScheduledAfter = setOf(`was were had been i we he she they you`)

// hasFutureCue: s speaks of what is ahead ("will", "next", "soon", "is scheduled for"…).
func hasFutureCue(s string) bool {
	if reFutureCue.MatchString(s) {
		return true
	}
	for _, m := range reScheduled.FindAllStringSubmatch(s, -1) {
		if !notScheduledAfter[strings.ToLower(m[1])] {
			return true
		}
	}
	return false
}

// tenseOf says whether s speaks of the past, the future or neither.
func tenseOf(s string) int {
	s = reAcknowledgement.ReplaceAllString(s, "")
	s = rePartOfMonth.ReplaceAllString(s, "")
	if hasFutureCue(s) {
		return text.TenseFuture
	}
	if hasPastCue(s) {
		return text.TensePast
	}
	return text.TenseUnknown
}

// hasPastCue: text tells of the past: a word of the past ("yesterday", "was"), the past
// of an irregular verb (reIrregularPast) or a regular one's ("-ed", but adjectivesInEd).
func hasPastCue(text string) bool {
	if rePastCue.MatchString(text) || reIrregularPast.MatchString(text) {
		return true
	}
	for _, w := range reRegularPast.FindAllString(strings.ToLower(text), -1) {
		if !adjectivesInEd[w] {
			return true
		}
	}
	return false
}

// fact slots: "X lives in Y", "X works as Y", "X's favourite Z is Y" … (see OFFLINE.md).
type factSlot struct {
	subject, attribute, value string
}

// slotName is a slot's subject: a name, or a chat role as texts are rewritten ("user").
const slotName = `([A-Z][\p{L}\-]*(?: [A-Z][\p{L}\-]*)?|user|assistant)`
const slotValue = `([^.,;!?()]+?)`
const slotEnd = `(?:\s+(?:and|but|because|since|with|for|now|for now|these days|too)\b|[.,;!?()]|$)`

var slotPatterns = []struct {
	re        literalPattern
	attribute string // "" takes it from the second group ("favourite <group>")
}{
	{mustPattern(slotName + ` (?:now |currently |still )?(?:lives|live|is living|has lived) in ` + slotValue + slotEnd), "lives in"},
	{mustPattern(slotName + ` (?:has |just |recently )?(?:moved|relocated) to ` + slotValue + slotEnd), "lives in"},
	{mustPattern(slotName + ` (?:now |currently |still )?(?:works|is working) as (?:an? )?` + slotValue + slotEnd), "works as"},
	{mustPattern(slotName + ` (?:now |currently |still )?(?:works|is working) (?:at|for) ` + slotValue + slotEnd), "works at"},
	{mustPattern(slotName + `'s (?:job|profession|occupation) is (?:an? )?` + slotValue + slotEnd), "works as"},
	{mustPattern(slotName + ` is (?:originally )?from ` + slotValue + slotEnd), "is from"},
	{mustPattern(slotName + ` is (\d{1,3}) years old`), "age"},
	{mustPattern(slotName + ` is (?:now |currently )?(single|married|divorced|engaged|dating someone|in a relationship|widowed)\b`), "relationship status"},
}

var reFavourite = mustPattern(slotName + `'s (?:all-time |new |current )?favou?rite ([\p{L} ]{2,30}?) (?:is|are|has to be|would be) (?:probably |definitely |still |now )?` + slotValue + slotEnd)

// factSlots finds the fact slots of a (pronoun-rewritten) text.
func factSlots(text string) []factSlot {
	var out []factSlot
	for _, p := range slotPatterns {
		for _, m := range p.re.findAll(text) {
			if nonName[strings.ToLower(m[1])] || p.attribute == "lives in" && strings.Contains(m[2], ":") {
				continue // "moved to stage: screened": a label's value, no home (stateClaims)
			}
			out = append(out, factSlot{subject: m[1], attribute: p.attribute, value: strings.TrimSpace(m[2])})
		}
	}
	for _, m := range reFavourite.findAll(text) {
		if nonName[strings.ToLower(m[1])] {
			continue
		}
		out = append(out, factSlot{subject: m[1], attribute: "favourite " + strings.ToLower(strings.TrimSpace(m[2])), value: strings.TrimSpace(m[3])})
	}
	return out
}

// normValue compares slot values: lowercase, articles and punctuation dropped.
func normValue(v string) string {
	var parts []string
	for _, w := range wordsOf(v) {
		if w.lower == "a" || w.lower == "an" || w.lower == "the" {
			continue
		}
		parts = append(parts, w.lower)
	}
	return strings.Join(parts, " ")
}

// markup is an HTML or XML tag, as a chat client may leave around a name ("<b>Mallory</b>").
var markup = regexp.MustCompile(`</?[A-Za-z][^<>]*>`)

// plainName is a speaker's name as words: without markup, and without the emoji and
// symbols that hold no letter or digit ("Zoë 🦄" is "Zoë"); "" when nothing is left.
func plainName(speaker string) string {
	var words []string
	for _, f := range strings.Fields(markup.ReplaceAllString(speaker, " ")) {
		if strings.IndexFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			words = append(words, f)
		}
	}
	return strings.Join(words, " ")
}

// normName is the comparison form of an entity name or alias; its hyphens are spaces, so
// that the words of "Jean-Luc" are "jean" and "luc", as wordsOf finds them.
func normName(n string) string {
	n = strings.TrimSpace(strings.ReplaceAll(strings.ToLower(n), "-", " "))
	n = strings.TrimSuffix(strings.TrimSuffix(n, "'s"), "’s")
	n = strings.TrimPrefix(n, "the ")
	return strings.Join(strings.Fields(n), " ")
}

// containsName reports whether name occurs in text as whole words (case-insensitive).
func containsName(text, name string) bool {
	if name == "" {
		return false
	}
	for range wholeWords(strings.ToLower(text), strings.ToLower(name)) {
		return true
	}
	return false
}

// wholeWords yields the start and end of each occurrence of word in text that no letter,
// combining mark or digit adjoins, left to right, none overlapping.
func wholeWords(text, word string) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for from := 0; ; {
			i := strings.Index(text[from:], word)
			if i < 0 {
				return
			}
			s, e := from+i, from+i+len(word)
			before, _ := utf8.DecodeLastRuneInString(text[:s])
			after, _ := utf8.DecodeRuneInString(text[e:])
			if isWordRune(before) || isWordRune(after) {
				from = s + 1
				continue
			}
			if !yield(s, e) {
				return
			}
			from = e
		}
	}
}

// shortName is the first words of a content, for a node's name. A content in a script
// written without spaces between words (isUnspaced) is cut after as many characters as
// maxWords words of English take, or its first "word" could be a whole paragraph.
func shortName(content string, maxWords int) string {
	const charsPerWord = 5
	name, cut := strings.TrimRight(content, " "), false
	if f := strings.Fields(content); len(f) > maxWords {
		name, cut = strings.Join(f[:maxWords], " "), true
	}
	if r := []rune(name); len(r) > maxWords*charsPerWord && strings.ContainsFunc(name, isUnspaced) {
		name, cut = strings.TrimRight(string(r[:maxWords*charsPerWord]), " "), true
	}
	if cut {
		name += "…"
	}
	return name
}
