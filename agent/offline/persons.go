package offline

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
