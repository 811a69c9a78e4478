package offline

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/realm-memory/realm/internal/text"
)

// Persons in an exchange's prompt (OFFLINE.md, "Reply"): the other speaker's words are
// quoted with "I" and "you" resolved, unless a resolution could say something else.
// "yours" and "mine" stand for a thing named elsewhere ("How did you get yours?" is not
// "How did Audrey get Audrey's?"), "you know" and a generic "you" are no person at all:
// then the words are kept as they were said and the frame names who asked whom.

// ambiguousPersons are the words whose rewrite is ambiguous.
var ambiguousPersons = setOf(`mine yours ours theirs hers`)

// quotedPrompt returns the prompt as it is quoted, and the addressee to name in the frame
// ("" when the prompt was rewritten and names both itself).
func quotedPrompt(words, asker, replier string) (prompt, addressee string) {
	ws := wordsOf(words)
	for i, w := range ws {
		generic := w.lower == "you" && i+1 < len(ws) && ws[i+1].lower == "know"
		if ambiguousPersons[w.lower] || generic {
			return words, replier
		}
	}
	return rewritePronouns(words, asker, replier), ""
}

// billNouns are what is paid for, month after month: a name that is one of them is a bill,
// not a person, also opening a sentence ("Gas was $52.33.", "Internet is $60 a month").
var billNouns = setOf(`gas electricity power water internet wifi broadband phone rent groceries insurance utilities heating petrol fuel`)

// billWords after a name make it the account's or the payee's: "the Amex bill".
var billWords = setOf(`bill bills statement statements payment payments loan mortgage`)

// accountNouns in a clause make what they are "with" a provider: "I bank with Ally", "my
// mortgage with Nationwide", "my phone plan is with Verizon".
var accountNouns = setOf(`bank banks banking mortgage loan insurance electricity broadband internet savings plan`)

// noThingPersons is names with the persons only guessed (no person known by that name)
// that where they stand are no person's (thingCategory) given their category.
func noThingPersons(text string, names []nameMention, known map[string]string) []nameMention {
	ws := wordsOf(text)
	for i, n := range names {
		if n.category == "person" && known[strings.ToLower(n.name)] != "person" {
			if c := thingCategory(text, ws, n.name); c != "" {
				names[i].category = c
			}
		}
	}
	return names
}

// thingCategory is the category of the one-word name where it stands in text when that is
// no person's, "" otherwise: a concept for an account's or a bill's name (accountName), a
// diet ("Vegan noted."), a firm written with a capital inside the word ("GetYourGuide",
// "PayPal"; not "McDonald", "LeBron", "MacArthur": a name's own prefix is shorter, or
// Mac), the code of an airline that opens a flight number of the text ("BA changed our
// flight to BA115"), or a name after "the" ("we cancelled the Hoxton": a hotel, a bar, a
// ship; a person takes no article); a place for a name before a trip's noun ("the Sintra
// day tour") or listed after a known place that a place's preposition opens ("we went to
// Croatia, Split and Hvar").
func thingCategory(text string, ws []wordSpan, name string) string {
	if strings.Contains(name, " ") {
		return ""
	}
	lower := strings.ToLower(name)
	switch {
	case accountName(text, ws, name), diets[lower], firmCased(name), airlineCode(ws, name):
		return "concept"
	}
	for k, w := range ws {
		switch {
		case strings.TrimSuffix(w.text, "'s") != name:
		case k+1 < len(ws) && tripNouns[ws[k+1].lower], k+2 < len(ws) && ws[k+1].lower == "day" && tripNouns[ws[k+2].lower]:
			return "place"
		case k > 0 && ws[k-1].lower == "the":
			return "concept"
		case listedPlace(text, ws, k):
			return "place"
		}
	}
	return ""
}

// diets are what one eats, or does not: a word of them is no person, also opening a
// sentence.
var diets = setOf(`vegan vegetarian pescatarian keto paleo kosher halal`)

// tripNouns after a name make it the place of a trip: "the Sintra day tour", "our Hvar
// trip".
var tripNouns = setOf(`trip trips tour tours excursion excursions cruise`)

// firmCased: name holds a capital after three letters or more that are not Mac: a firm's
// name written as one word ("GetYourGuide", "PayPal", "YouTube").
func firmCased(name string) bool {
	rs := []rune(name)
	for p := 3; p < len(rs); p++ {
		if unicode.IsUpper(rs[p]) && unicode.IsLower(rs[p-1]) {
			return !strings.EqualFold(string(rs[:p]), "mac")
		}
	}
	return false
}

// airlineCode: name is two or three capitals that open a flight number of ws: "BA" of
// "BA115" or "BA 115".
func airlineCode(ws []wordSpan, name string) bool {
	if !isAcronym(name) || len(name) > 3 {
		return false
	}
	for k, w := range ws {
		number, ok := strings.CutPrefix(w.text, name)
		if ok && number == "" && k+1 < len(ws) {
			number = ws[k+1].text
		}
		if ok && len(number) >= 2 && len(number) <= 4 && strings.Trim(number, "0123456789") == "" {
			return true
		}
	}
	return false
}

// listedPlace: ws[k] is a one-word name in a list (joined by commas, "and" or "or") that a
// known place after a place's preposition opens, and that ends the phrase: "we went to
// Croatia, Split and Hvar", not "we moved to Lisbon, Ana and Rui stayed".
func listedPlace(text string, ws []wordSpan, k int) bool {
	first := k
	for p := listedBefore(text, ws, first); p >= 0; p = listedBefore(text, ws, first) {
		first = p
	}
	last := k
	for n := last + 1; n <= last+2 && n < len(ws); n++ {
		if listedBefore(text, ws, n) == last {
			last = n
		}
	}
	return first < k && places[ws[first].lower] && placeCued(ws, first) && endsPhrase(text, ws, last)
}

// listedBefore is the index of the name listed right before the name ws[k] ("Croatia, Split",
// "Split and Hvar"), -1 when there is none.
func listedBefore(text string, ws []wordSpan, k int) int {
	if k < 1 || !isNameWord(ws[k]) {
		return -1
	}
	if isNameWord(ws[k-1]) && strings.TrimSpace(text[ws[k-1].end:ws[k].start]) == "," {
		return k - 1
	}
	if k >= 2 && coordinators[ws[k-1].lower] && isNameWord(ws[k-2]) && gapIsSpace(text, ws[k-1].end, ws[k].start) &&
		strings.Trim(text[ws[k-2].end:ws[k-1].start], ", ") == "" {
		return k - 2
	}
	return -1
}

// accountName: the one-word name is one of billNouns, or where it stands it is the object
// of a pay verb ("paid Verizon $70"; not "paid Tom back"), before a word of bills, or
// after "with" in a clause of an account noun ("I bank with Ally"; not "went to the bank
// with Kat", where it follows a place's "to the bank").
func accountName(text string, ws []wordSpan, name string) bool {
	if strings.Contains(name, " ") {
		return false
	}
	if billNouns[strings.ToLower(name)] {
		return true
	}
	for k, w := range ws {
		if strings.TrimSuffix(w.text, "'s") != name {
			continue
		}
		next := ""
		if k+1 < len(ws) {
			next = ws[k+1].lower
		}
		switch {
		case billWords[next]:
			return true
		case k > 0 && payVerbs[ws[k-1].lower] && next != "back" && !phrasalParticle[next]:
			return true
		case k > 0 && ws[k-1].lower == "with" && accountBefore(text, ws, k):
			return true
		}
	}
	return false
}

// accountBefore: the clause of ws[k] has an account noun before it, not a place gone to
// ("went to the bank with Kat").
func accountBefore(text string, ws []wordSpan, k int) bool {
	c := clauseAt(text, ws[k].start)
	for j := k - 1; j >= 0 && ws[j].start >= c.start; j-- {
		if accountNouns[ws[j].lower] && !(j >= 2 && ws[j-1].lower == "the" && placePrepositions[ws[j-2].lower]) {
			return true
		}
	}
	return false
}

// pronounKin is what the one-word name is to someone when a possessive pronoun and a word
// of kin stand before it: the speaker's for "our" ("our son Haru", the speaker's "my" is
// rewritten already), the person named last before it for "his", "her" or "their" ("my
// sister Ana is coming, her husband Rui too": Ana's husband); "" when none is told.
func pronounKin(text, name, speaker string) string {
	ws := wordsOf(text)
	for k := 2; k < len(ws); k++ {
		if ws[k].text != name || !relationNouns[ws[k-1].lower] || !gapIsSpace(text, ws[k-2].end, ws[k-1].start) ||
			!gapIsSpace(text, ws[k-1].end, ws[k].start) {
			continue
		}
		switch ws[k-2].lower {
		case "our":
			if speaker != "" {
				return speaker + "'s " + ws[k-1].text
			}
		case "his", "her", "their":
			for p := k - 3; p >= 0; p-- {
				if isNameWord(ws[p]) && !isOwner(ws[p]) && !relationNouns[ws[p].lower] {
					return ws[p].text + "'s " + ws[k-1].text
				}
			}
		}
	}
	return ""
}

// Words quoted with their author named are the author's voice, as an exchange quotes the
// other speaker's (withPrompt): `Pasted email from Maria Chen: "I withdraw my
// application"` is Maria Chen's withdrawal, not the speaker's who pastes it. The author is
// named before the quotation: "email from X:" (or a message, a text, a note, a letter),
// "X wrote:", "X said:", or "X:" opening a sentence.
var reAuthoredQuote = regexp.MustCompile(`(?:\b(?i:e-?mail|message|text|note|letter|reply|voicemail) from (` + quoteAuthor + `)[ \t]*:` +
	`|(` + quoteAuthor + `)[ \t]+(?i:wrote|writes|said|says|replied|texted)[ \t]*:?` +
	`|(?:^|[.!?\n])[ \t]*(` + quoteAuthor + `)[ \t]*:)[ \t]*$`)

// quoteAuthor is a name of one to three capitalised words.
const quoteAuthor = `\p{Lu}[\p{L}'.-]*(?:[ \t]+\p{Lu}[\p{L}'.-]*){0,2}`

// authoredQuote is a quotation's words (inside its marks) and the author it is quoted from.
type authoredQuote struct {
	segment
	author string
}

// authoredQuotes are the quotations of text with their author named before them
// (reAuthoredQuote), speaker's text; a word of no name ("I said:", "Then Maria said:") is no
// author's, or not part of the name.
func authoredQuotes(s, speaker string) []authoredQuote {
	var out []authoredQuote
	for _, q := range reQuoted.FindAllStringIndex(s, -1) {
		m := reAuthoredQuote.FindStringSubmatch(s[max(0, q[0]-wordsBeforeBytes):q[0]])
		if m == nil {
			continue
		}
		author := strings.Join(slices.DeleteFunc(strings.Fields(m[1]+m[2]+m[3]), func(w string) bool {
			return text.IsStopword(strings.ToLower(w)) || reMailHeader.MatchString(w+": ")
		}), " ")
		_, open := utf8.DecodeRuneInString(s[q[0]:])
		_, end := utf8.DecodeLastRuneInString(s[:q[1]])
		if author != "" {
			out = append(out, authoredQuote{segment{q[0] + open, q[1] - end}, author})
		}
	}
	return append(out, authoredLines(s, speaker)...)
}

// Words pasted with no quotation marks are their author's too when a line opens with the
// author: "Emma Dubois: I signed the offer yesterday." or "Emma wrote: I signed …" pasted by
// a recruiter is Emma's signing, not the recruiter's. They run to the next line opening
// with an author (a chat transcript, "Tom: …" then "Ana: …") or to the end of the text. A
// name alone before the colon is an author when it opens with a common given name
// (firstNames) or a title ("Ms. Rivera:"), or in a transcript, two lines or more opening
// with a name and a colon, one of them such a name or the speaker's ("Tom: …" then
// "Marcus: …"): "Update:" or "Counter-Strike: Global Offensive" open no one's words, nor
// "Breakfast: I had eggs." then "Lunch: I skipped it.".
var reAuthorLine = regexp.MustCompile(`(?m)^[ \t]*(` + quoteAuthor + `)[ \t]*(?:((?i:wrote|writes|said|says|replied|texted))[ \t]*)?:[ \t]*[^\s"“'‘]`)

// authoredLines are the words of text pasted without quotation marks after a line that
// opens with their author (reAuthorLine), speaker's text.
func authoredLines(s, speaker string) []authoredQuote {
	lines := slices.DeleteFunc(reAuthorLine.FindAllStringSubmatchIndex(s, -1), func(m []int) bool {
		first := strings.ToLower(strings.Fields(s[m[2]:m[3]])[0])
		return text.IsStopword(first) || nonName[first] || reMailHeader.MatchString(s[m[2]:m[3]]+": ")
	})
	given := func(m []int) bool {
		first := strings.ToLower(strings.Fields(s[m[2]:m[3]])[0])
		return firstNames[first] || titles[strings.TrimSuffix(first, ".")]
	}
	transcript := len(lines) >= 2 && slices.ContainsFunc(lines, func(m []int) bool { return given(m) || strings.EqualFold(s[m[2]:m[3]], speaker) })
	var out []authoredQuote
	for _, m := range lines {
		if m[4] < 0 && !given(m) && !transcript {
			continue
		}
		if n := len(out); n > 0 {
			out[n-1].end = strings.LastIndexByte(s[:m[0]+1], '\n') // the line before this author's
		}
		out = append(out, authoredQuote{segment{m[1] - 1, len(s)}, s[m[2]:m[3]]})
	}
	return out
}
