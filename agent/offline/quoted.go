package offline

import (
	"regexp"
	"strings"

	"github.com/realm-memory/realm/internal/text"
)

// Pasted text — an email forwarded or copied in, the quoted lines of a reply, the words a
// message quotes after "said" — was written by someone else to someone else: its "I" is
// its author and its "you" whoever it was written to, often but not always the speaker who
// pastes it ("here is what I sent my landlord: Dear Mr. Byrne, your boiler…"). The message
// does not say which, so the rewrite leaves pasted text as written: kept, its meaning
// stays; rewritten by the chat's speakers, "your Visa card" would become the assistant's.

var (
	// reQuoteLine: a line quoted in a reply ("> your order shipped").
	reQuoteLine = regexp.MustCompile(`^\s*>`)
	// Lines that begin a pasted email: a header ("Subject: Re: your refund"), the marker
	// of a forwarded or original message, the line that introduces a reply's quotation.
	reMailHeader = regexp.MustCompile(`^\s*(?:From|To|Cc|Sent|Date|Subject):\s`)
	reMailMarker = regexp.MustCompile(`(?i)^\s*(?:-{2,}\s*(?:original|forwarded) message\s*-{2,}|begin forwarded message:)\s*$`)
	reWroteLine  = regexp.MustCompile(`^\s*On\s.+\swrote:\s*$`)
	// reGreeting: a line that opens a letter ("Dear Ana,", "Hi team,").
	reGreeting = regexp.MustCompile(`^\s*(?:Dear|Hi|Hello|Hey)\b[^,\n]{0,40},\s*$`)
	// reSignOff: a line that closes one, with the name signed on it or not ("Kind
	// regards,", "Best, Jonas"); "Thanks, I'll try that" is not one.
	reSignOff = regexp.MustCompile(`^\s*(?i:(?:kind |best |warm |warmest )?regards|best(?: wishes)?|all the best|cheers|many thanks|thanks|thank you|(?:yours )?sincerely|yours(?: truly| faithfully)?|take care)[,.!]?(?:\s+\p{Lu}[\p{L}.'-]*){0,3}\s*$`)
)

// quoteVerbs introduce the words a quotation marks as someone's: "she said "call me"".
var quoteVerbs = setOf(`say says said write writes wrote ask asks asked reply replies replied text texts texted`)

// signatureWords: a line under a sign-off of at most this many words is the signature
// ("Jonas Weber", "Customer Care, Acme"); a longer one is the speaker's own again.
const signatureWords = 6

// pastedSpans are the parts of text pasted from elsewhere: lines quoted with ">"; an email
// from its first header line, its forwarded- or original-message marker, or its "On …
// wrote:" line (alone when "> " lines follow it); a letter from its greeting line, when a
// body and a sign-off follow; each of these to the end of the sign-off's signature, or of
// the text when none follows; and a quotation after a verb of speech.
func pastedSpans(text string) []segment {
	lines := linesOf(text)
	var out []segment
	for i := 0; i < len(lines); i++ {
		l := text[lines[i].start:lines[i].end]
		switch {
		case reQuoteLine.MatchString(l), reWroteLine.MatchString(l) && nextQuoted(text, lines, i):
			out = append(out, lines[i])
		case reMailHeader.MatchString(l), reMailMarker.MatchString(l), reWroteLine.MatchString(l):
			_, end, ok := letterEnd(text, lines, i+1)
			if !ok {
				end = len(lines) - 1
			}
			out = append(out, segment{lines[i].start, lines[end].end})
			i = end
		case reGreeting.MatchString(l):
			signOff, end, ok := letterEnd(text, lines, i+1)
			if ok && strings.TrimSpace(text[lines[i].end:lines[signOff].start]) != "" {
				out = append(out, segment{lines[i].start, lines[end].end})
				i = end
			}
		}
	}
	return append(out, reportedSpeech(text)...)
}

// linesOf splits text at line breaks.
func linesOf(text string) []segment {
	var out []segment
	start := 0
	for i := 0; i <= len(text); i++ {
		if i == len(text) || text[i] == '\n' {
			out = append(out, segment{start, i})
			start = i + 1
		}
	}
	return out
}

// nextQuoted: the first non-blank line after line i is quoted with ">".
func nextQuoted(text string, lines []segment, i int) bool {
	for _, l := range lines[i+1:] {
		if s := text[l.start:l.end]; strings.TrimSpace(s) != "" {
			return reQuoteLine.MatchString(s)
		}
	}
	return false
}

// letterEnd finds the end of a letter: its sign-off, the first at or after line from, and
// its last line, the last of the short lines right under the sign-off (the signature, up
// to a blank line). ok is false without a sign-off.
func letterEnd(text string, lines []segment, from int) (signOff, end int, ok bool) {
	for k := from; k < len(lines); k++ {
		if !reSignOff.MatchString(text[lines[k].start:lines[k].end]) {
			continue
		}
		end = k
		for end+1 < len(lines) {
			next := strings.Fields(text[lines[end+1].start:lines[end+1].end])
			if len(next) == 0 || len(next) > signatureWords {
				break
			}
			end++
		}
		return k, end, true
	}
	return 0, 0, false
}

// reWordBefore: the word that ends a text, a comma or colon after it or not.
var reWordBefore = regexp.MustCompile(`(\p{L}+)[ \t]*[,:]?[ \t]*$`)

// reportedSpeech are the quotations of text that follow a verb of speech, a colon or a
// comma between them or not: `she said "I'll call you"`, `the email says: "your card…"`.
func reportedSpeech(text string) []segment {
	var out []segment
	for _, ix := range reQuoted.FindAllStringIndex(text, -1) {
		if !quoteOpens(text, ix[0]) {
			continue
		}
		if m := reWordBefore.FindStringSubmatch(text[:ix[0]]); m != nil && quoteVerbs[strings.ToLower(m[1])] {
			out = append(out, segment{ix[0], ix[1]})
		}
	}
	return out
}

// foreignFunctionWords are function words of Spanish, German, French, Portuguese and
// Italian that English does not use as words ("die", "me", "no", "as", "e" of "e.g.", "im"
// — "I'm" in a hurry — are left out).
var foreignFunctionWords = setOf(`el la los las del que y en un una por para es está pero como muy su sus lo le les se mi
mis tu te nos yo él ella más también porque cuando hay estoy tengo der das dem und ist nicht ich du sie wir ihr
sie mit auf für von zu ein eine einen einem sind auch aber oder wenn dass wie noch schon nur sehr mein meine dein
des du de à et une je il nous vous ils pas avec dans sur qui ce cette mais au aux mes très suis o os uma dos
das não é são mas mais muito eu você ele ela meu minha seu sua isso di della gli che è non sono anche molto
questo questa noi voi`)

// readsForeign: the words are clearly not English: two function words of another
// language or more, and more of them than English stop words ("Prefiero que me llamen por
// la tarde"). Such a message is not rewritten: its "me" is Spanish.
func readsForeign(ws []wordSpan) bool {
	foreign, english := 0, 0
	for _, w := range ws {
		switch {
		case foreignFunctionWords[w.lower]:
			foreign++
		case text.IsStopword(w.lower):
			english++
		}
	}
	return foreign >= 2 && foreign > english
}
