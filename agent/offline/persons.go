package offline

import "strings"

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

// noAccountPersons is names with the persons only guessed (no person known by that name)
// that are an account's or a bill's made concepts (accountName).
func noAccountPersons(text string, names []nameMention, known map[string]string) []nameMention {
	ws := wordsOf(text)
	for i, n := range names {
		if n.category == "person" && known[strings.ToLower(n.name)] != "person" && accountName(text, ws, n.name) {
			names[i].category = "concept"
		}
	}
	return names
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
