package offline

import (
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/realm-memory/realm/internal/text"
)

// Pasted text — an email forwarded or copied in, the quoted lines of a reply, the words a
// message quotes after "said" — was written by someone else to someone else: its "I" is
// its author and its "you" whoever it was written to, often but not always the speaker who
// pastes it ("here is what I sent my landlord: Dear Mr. Byrne, your boiler…"). The message
// does not say which, so the rewrite leaves pasted text as written: kept, its meaning
// stays; rewritten by the chat's speakers, "your Visa card" would become the assistant's.
// A quotation whose author is named before it is rewritten in the author's voice
// (authoredQuotes).

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

// quoteVerbs introduce the words a quotation marks as someone's: "she said "call me"",
// "my landlord told me 'the rent goes up'".
var quoteVerbs = setOf(`say says said write writes wrote ask asks asked reply replies replied text texts texted
tell tells told email emails emailed message messages messaged`)

// signatureWords: a line under a sign-off of at most this many words is the signature
// ("Jonas Weber", "Customer Care, Acme"); a longer one is the speaker's own again.
const signatureWords = 6

// pasted is one part of a text pasted from elsewhere, with the day it was written when it
// says so (an email's Date: header, the date of its "On … wrote:" line), zero otherwise.
type pasted struct {
	segment
	at time.Time
}

// pastedSpans are the parts of text pasted from elsewhere (pastedParts).
func pastedSpans(text, speaker string) []segment {
	var out []segment
	for _, p := range pastedParts(text, speaker) {
		out = append(out, p.segment)
	}
	return out
}

// pastedParts are the parts of text pasted from elsewhere: lines quoted with ">"; a
// header line alone (that line only); an email from its header (two header lines or more
// together), its forwarded- or original-message marker, or its "On … wrote:" line (alone
// when "> " lines follow it); a letter from its greeting line, when a body and a sign-off
// follow, unless it is the speaker's own (ownLetter); each of these to the end of the
// sign-off's signature, or of the text when none follows; and a quotation after a verb of
// speech.
func pastedParts(text, speaker string) []pasted {
	lines := linesOf(text)
	var out []pasted
	var letters [][3]int   // greeting, sign-off and last line of each letter
	var quotedAt time.Time // the date of the "On … wrote:" line the quoted lines below answer
	for i := 0; i < len(lines); i++ {
		l := text[lines[i].start:lines[i].end]
		switch {
		case reQuoteLine.MatchString(l):
			out = append(out, pasted{lines[i], quotedAt})
		case reWroteLine.MatchString(l) && nextQuoted(text, lines, i):
			quotedAt = dateIn(l)
			out = append(out, pasted{lines[i], time.Time{}})
		case reMailHeader.MatchString(l) && !reMailHeader.MatchString(lineAt(text, lines, i+1)):
			out = append(out, pasted{lines[i], time.Time{}}) // "Date: Friday" in one's notes is no email
		case reMailHeader.MatchString(l), reMailMarker.MatchString(l), reWroteLine.MatchString(l):
			_, end, ok := letterEnd(text, lines, i+1)
			if !ok {
				end = len(lines) - 1
			}
			out = append(out, pasted{segment{lines[i].start, lines[end].end}, mailDate(text, lines, i)})
			i = end
		case reGreeting.MatchString(l):
			signOff, end, ok := letterEnd(text, lines, i+1)
			if ok && strings.TrimSpace(text[lines[i].end:lines[signOff].start]) != "" {
				letters = append(letters, [3]int{i, signOff, end})
				i = end
			}
		default:
			if strings.TrimSpace(l) != "" {
				quotedAt = time.Time{}
			}
		}
	}
	quoting := len(out) > 0 || len(letters) > 0 && reQuotingCue.MatchString(text)
	for _, lt := range letters {
		if !ownLetter(text, lines, lt[0], lt[1], lt[2], speaker, quoting) {
			out = append(out, pasted{segment{lines[lt[0]].start, lines[lt[2]].end}, time.Time{}})
		}
	}
	for _, q := range reportedSpeech(text) {
		out = append(out, pasted{q, time.Time{}})
	}
	return out
}

// lineAt is line i of text, "" past its end.
func lineAt(text string, lines []segment, i int) string {
	if i >= len(lines) {
		return ""
	}
	return text[lines[i].start:lines[i].end]
}

// mailDate is the day an email was written: the date of its "On … wrote:" line, else of
// its Date: or Sent: header, read among the header lines at its top (from line i, past its
// marker line). Zero when it says none.
func mailDate(text string, lines []segment, i int) time.Time {
	if l := lineAt(text, lines, i); reWroteLine.MatchString(l) {
		return dateIn(l)
	}
	if reMailMarker.MatchString(lineAt(text, lines, i)) {
		i++
	}
	for ; i < len(lines) && reMailHeader.MatchString(lineAt(text, lines, i)); i++ {
		if m := reDateHeader.FindStringSubmatch(lineAt(text, lines, i)); m != nil {
			return dateIn(m[1])
		}
	}
	return time.Time{}
}

// reDateHeader: the header that dates an email ("Date: Tue, 3 Nov 2026 09:14"); 1 the date.
var reDateHeader = regexp.MustCompile(`^\s*(?:Date|Sent):\s+(.+)$`)

// dateIn is the first date with its year that s names ("Tue, 3 Nov 2026"), zero when none.
func dateIn(s string) time.Time {
	for _, m := range text.Dates(s, time.Time{}, text.TenseUnknown) {
		return m.From
	}
	return time.Time{}
}

// reQuotingCue: words of a message that say it quotes what follows ("see below", "I'm
// forwarding this", "here is the email they sent").
var reQuotingCue = regexp.MustCompile(`(?i)\b(?:see below|below:|forward(?:ed|ing)\b|fwd?:|this came from|here(?:'s| is) (?:the |an? |his |her |their |my )?(?:[a-z]+ ){0,2}(?:e-?mail|letter|message|reply|response|note)\b|here(?:'s| is) what \S+(?: \S+)? (?:wrote|sent|said))`)

// groupGreeted: a greeting ending with one of these names no one ("Hi team,", "Dear
// Acme support,", "Hello everyone,", "Dear Sir or Madam,").
var groupGreeted = setOf(`team all everyone everybody there folks guys support service services care desk helpdesk sir madam colleagues friends`)

// ownLetter: the letter from line greeting to line end, signed at line signOff, is the
// speaker's own message, read like any other: its greeting names no one ("Hi team,",
// "Hello,"; "Dear Mr. Byrne," writes to someone, often not the one the chat speaks to), and
// it is signed with the speaker's name, or it is the whole message and nothing in the
// message says it quotes (quoting: another pasted part, a quoting cue).
func ownLetter(text string, lines []segment, greeting, signOff, end int, speaker string, quoting bool) bool {
	called := strings.Fields(strings.TrimRight(strings.TrimSpace(lineAt(text, lines, greeting)), ","))[1:]
	if len(called) > 0 && !groupGreeted[strings.ToLower(called[len(called)-1])] {
		return false
	}
	whole := strings.TrimSpace(text[:lines[greeting].start]) == "" && strings.TrimSpace(text[lines[end].end:]) == ""
	return signedBy(text, lines, signOff, end, speaker) || whole && !quoting
}

// signedBy: the sign-off at line signOff, or the first line of its signature, names the
// speaker ("Best, Ana", "Thanks,\nAna Costa" by Ana).
func signedBy(text string, lines []segment, signOff, end int, speaker string) bool {
	first := firstWord(speaker)
	if first == "" {
		return false
	}
	name := ""
	if m := reSignedName.FindStringSubmatch(lineAt(text, lines, signOff)); m != nil {
		name = m[1]
	} else if signOff < end {
		name = firstWord(lineAt(text, lines, signOff+1))
	}
	return strings.EqualFold(strings.Trim(name, ".,"), first)
}

// reSignedName: the name signed on a sign-off line ("Best, Lena"): 1 its first word.
var reSignedName = regexp.MustCompile(`[,.!]\s+(\p{Lu}[\p{L}.'-]*)`)

// theirsInPasted is text with pasted text's "we", "us", "our" and "ours" written "they",
// "them", "their", "theirs": they are the group of whoever wrote it, not the speaker's,
// whose "we" the rules read (stateClaims). A memory's text may open with its speaker's
// name ("Ana: "), which pasted text does not, or with the words of the other speaker it
// replies to (rePrompt), which are theirs, said in the chat.
func theirsInPasted(text, speaker string) string {
	body := text
	if loc := rePrompt.FindStringIndex(body); loc != nil {
		body = body[loc[1]:]
	}
	body = strings.TrimPrefix(body, speaker+": ")
	offset := len(text) - len(body)
	parts := pastedParts(body, speaker)
	slices.SortFunc(parts, func(a, b pasted) int { return a.start - b.start })
	var b strings.Builder
	last := 0
	for _, p := range parts {
		for _, w := range wordsOf(body[p.start:p.end]) {
			they, ok := weAsThey[w.lower]
			if !ok || w.text == "US" {
				continue
			}
			at := offset + p.start + w.start
			if at < last {
				continue // parts may overlap: a quotation within a pasted letter
			}
			b.WriteString(text[last:at])
			b.WriteString(matchCase(w.text, they))
			last = at + len(w.text)
		}
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// weAsThey: the first-person plural and its writing as the third.
var weAsThey = map[string]string{"we": "they", "us": "them", "our": "their", "ours": "theirs", "we're": "they're", "we've": "they've", "we'll": "they'll", "we'd": "they'd"}

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

// reWordsBefore: the last two words of a text, "to" between them or not, a comma or colon
// after them or not: 1 the word before the last ("told" of "told me"), 2 the last.
var reWordsBefore = regexp.MustCompile(`(?:(\p{L}+)[ \t]+(?:to[ \t]+)?)?([\p{L}']+)[ \t]*[,:]?[ \t]*$`)

// quoteMarks open a quotation (reQuoted); reQuotedAt is one that starts a text.
const quoteMarks = "\"“'‘"

var reQuotedAt = regexp.MustCompile(`^(?:` + reQuoted.String() + `)`)

// wordsBeforeBytes: the two words before a quotation lie in this many bytes before it; the
// regexp then reads no more of a long text.
const wordsBeforeBytes = 80

// reportedSpeech are the quotations of text that follow a verb of speech, who it was said
// to, a colon or a comma between them or not: `she said "I'll call you"`, `the email says:
// "your card…"`, `my landlord told me 'the rent goes up'`.
func reportedSpeech(text string) []segment {
	var out []segment
	for at := 0; ; {
		i := strings.IndexAny(text[at:], quoteMarks)
		if i < 0 {
			break
		}
		start := at + i
		ix := reQuotedAt.FindStringIndex(text[start:])
		if ix == nil || !quoteOpens(text, start) {
			_, n := utf8.DecodeRuneInString(text[start:])
			at = start + n // the apostrophe of "Ana's" opens nothing: a quotation may start after it
			continue
		}
		end := start + ix[1]
		before := text[max(0, start-wordsBeforeBytes):start]
		if m := reWordsBefore.FindStringSubmatch(before); m != nil && (quoteVerbs[strings.ToLower(m[2])] || quoteVerbs[strings.ToLower(m[1])]) {
			out = append(out, segment{start, end})
		}
		at = end
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

// bothLanguages are English stop words that Spanish, French, Portuguese or Italian write
// too ("Me gusta", "No me gusta", "Voy a casa"): no sign of English.
var bothLanguages = setOf(`me no a`)

// readsForeign: the words are clearly not English: two function words of another
// language or more, and more of them than English stop words ("Prefiero que me llamen por
// la tarde"), or one and no English stop word beside it, as a short message has ("Me
// gusta el café"; "Me too!" is English). Such a message is not rewritten: its "me" is
// Spanish.
func readsForeign(ws []wordSpan) bool {
	foreign, english := 0, 0
	for _, w := range ws {
		switch {
		case foreignFunctionWords[w.lower]:
			foreign++
		case text.IsStopword(w.lower) && !bothLanguages[w.lower]:
			english++
		}
	}
	return foreign >= 2 && foreign > english || foreign >= 1 && english == 0
}
