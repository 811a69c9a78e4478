package offline

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/internal/text"
)

// Options are the thresholds of the offline agent. Zero values take the defaults
// noted; OFFLINE.md explains each rule.
type Options struct {
	// SkipSimilarity: a candidate is skipped when a neighbour is at least this similar and
	// the candidate adds no content word. Default 0.95.
	SkipSimilarity float64
	// MergeSimilarity: an event or fact merges into a neighbour of its type at least this
	// similar (with MergeCoverage, same time, no conflicting slot). Default 0.90.
	MergeSimilarity float64
	// MergeCoverage is the share of the neighbour's content words the candidate must
	// repeat for a merge, so that merging loses nothing. Default 0.8.
	MergeCoverage float64
	// CorrelateSimilarity: neighbours at least this similar get a correlates edge, weight
	// 0.5 at the threshold rising to 0.8 at similarity 1. Default 0.75.
	CorrelateSimilarity float64
	// MaxCorrelates bounds the correlates edges of one candidate. Default 3.
	MaxCorrelates int
	// MinContentWords: a turn with fewer content words (stopwords, greetings and names
	// removed) is a filler and yields no event or fact, unless it states something of its
	// own (a state, a correction, a short fact of the speaker's: isContentful). Default 2.
	MinContentWords int
	// MaxClauses bounds the clause candidates of one turn, beside the whole-turn one. Default 3.
	MaxClauses int
	// MaxPartChars: a turn longer than this is split into parts of at most this many
	// characters, each its own memory, so that the embedder reads each whole (it cuts a
	// text after 256 word pieces). Default 1000.
	MaxPartChars int
	// SummaryWords bounds the running summary. Default 200.
	SummaryWords int
	// SummaryTopics is how many recent topics the summary keeps. Default 6.
	SummaryTopics int

	// GapEnough: a recall is enough when, besides covering the query's terms, its best
	// node leads the K-th by at least this much. Default 0.1.
	GapEnough float64
	// MaxKeywords bounds a seed plan's keywords. Default 8.
	MaxKeywords int
	// TimeLag: a question's time window shorter than a week (a day, a weekend) also
	// admits memories dated up to this long after it, told after the fact. Default 3 days.
	TimeLag time.Duration
	// Audit tunes the auditor.
	Audit AuditOptions
}

func (o Options) withDefaults() Options {
	def := func(v *float64, d float64) {
		if *v <= 0 {
			*v = d
		}
	}
	defInt := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.SkipSimilarity, 0.95)
	def(&o.MergeSimilarity, 0.90)
	def(&o.MergeCoverage, 0.8)
	def(&o.CorrelateSimilarity, 0.75)
	defInt(&o.MaxCorrelates, 3)
	defInt(&o.MinContentWords, 2)
	defInt(&o.MaxClauses, 3)
	defInt(&o.MaxPartChars, 1000)
	defInt(&o.SummaryWords, 200)
	defInt(&o.SummaryTopics, 6)
	def(&o.GapEnough, 0.1)
	defInt(&o.MaxKeywords, 8)
	if o.TimeLag <= 0 {
		o.TimeLag = 3 * 24 * time.Hour
	}
	defInt(&o.Audit.KeyTop, 3)
	def(&o.Audit.MisleadingShare, 0.2)
	defInt(&o.Audit.MaxAdds, 3)
	def(&o.Audit.ConfidenceFeedback, 0.9)
	def(&o.Audit.ConfidenceCited, 0.75)
	def(&o.Audit.ConfidenceOverlap, 0.6)
	return o
}

// Agent is the deterministic agent: rules and embeddings, no network (REALM.md §5).
// It is safe for concurrent use; it holds no mutable state.
type Agent struct {
	opts Options
}

var _ agent.Agent = (*Agent)(nil)

// New returns an offline agent with opts, zero fields taking their defaults.
func New(opts Options) *Agent { return &Agent{opts: opts.withDefaults()} }

// Options returns the thresholds in use, defaults filled in.
func (o *Agent) Options() Options { return o.opts }

// Extract segments the observation into typed candidates (OFFLINE.md, "Extract") and
// updates the running summary. It fails only on a cancelled context.
func (o *Agent) Extract(ctx context.Context, in agent.ExtractInput) (agent.Extraction, realm.Usage, error) {
	if err := ctx.Err(); err != nil {
		return agent.Extraction{}, realm.Usage{}, err
	}
	obs := in.Observation
	speaker := strings.TrimSpace(obs.Speaker)
	text := strings.TrimSpace(obs.Content)
	firstOfSession := obs.Session() != ""
	for _, r := range in.Recent {
		if r.Session() == obs.Session() && r.ID != obs.ID {
			firstOfSession = false
		}
	}
	prev := parseSummary(in.Summary)
	known := map[string]string{} // normalised name → category of names known to be people
	for _, p := range prev.participants {
		known[strings.ToLower(p)] = "person"
	}
	for _, r := range in.Recent {
		if s := strings.TrimSpace(r.Speaker); s != "" && !noPerson(r) {
			known[strings.ToLower(s)] = "person"
		}
	}
	if speaker != "" && !noPerson(obs) {
		known[strings.ToLower(speaker)] = "person"
	}
	// A speaker telling their own name ("My name is Alice Nguyen") names a person, the
	// speaker: an alias of the speaker's entity, not an entity apart (entities.go).
	selfName := selfIntroduction(text, firstOfSession)
	if speaker == "" || strings.EqualFold(selfName, speaker) {
		selfName = ""
	}
	if selfName != "" {
		known[strings.ToLower(selfName)] = "person"
	}
	var authors []string
	for _, q := range authoredQuotes(text, speaker) {
		known[strings.ToLower(q.author)] = "person" // "email from Amelia Novak:" is no place
		authors = append(authors, q.author)
	}
	addressee := addresseeOf(in.Recent, obs, speaker, text, known)
	if slices.ContainsFunc(authors, func(a string) bool { return strings.EqualFold(a, addressee) }) {
		addressee = "" // "Emma wrote: …" pasted quotes Emma, it calls no one
	}
	if selfName != "" && slices.ContainsFunc([]string{selfName, strings.Fields(selfName)[0]}, func(n string) bool { return strings.EqualFold(n, addressee) }) {
		addressee = "" // "Hi, Alice Nguyen here" greets no Alice: Alice is speaking
	}
	if addressee != "" {
		known[strings.ToLower(addressee)] = "person"
	} else if s := openingSubject(text, speaker); s != "" && !namesNoPerson(strings.ToLower(s)) && thingCategory(text, wordsOf(text), s) == "" {
		known[strings.ToLower(s)] = "person"
	}

	var cands []agent.Candidate
	if firstOfSession {
		cands = append(cands, episodeCandidate(obs, speaker, addressee))
	}

	you := addressee
	if you == "" {
		you = chatCounterpart[cmp.Or(machineRole(obs), strings.ToLower(speaker))]
	}
	if you == chatCounterpart["assistant"] {
		you = cmp.Or(sessionUser(in.Recent, obs), sessionUser(in.Session, obs), you)
	}
	rewritten := rewritePronouns(text, speaker, you)
	for _, c := range teamClaims(rewritten) {
		if c.slot == "owner" { // an owner is a person, also at a sentence start: "Jonas took over the billing service from Priya"
			known[strings.ToLower(c.value)] = "person"
		}
	}
	names := findNames(rewritten, known)
	if machineRole(obs) == "tool" {
		names = noGuessedPersons(names, known)
	}
	names = noThingPersons(rewritten, names, known)
	var nameList, people, persons []string
	for _, n := range names {
		nameList = append(nameList, n.name)
		if n.category == "person" && !strings.EqualFold(n.name, addressee) {
			persons = append(persons, n.name) // told of, not spoken to (clauseSubject)
		}
		// The speaker's own name, told, is news ("My name is Alice Nguyen"), not a name of
		// the people talking.
		if n.category == "person" && known[strings.ToLower(n.name)] == "person" && !strings.EqualFold(n.name, selfName) {
			people = append(people, n.name)
		}
	}
	// Names of the people talking do not make a turn contentful ("Thanks, Mel!"); a place
	// or a thing named does ("I moved to Lisbon", "We deploy to Fly"), and so does a name
	// only guessed to be a person's, which is as often a tool's ("Sprint 42 ends on 11/27").
	// The addressee is one also as the rewrite wrote "you": "How was user's day?".
	contentful := o.isContentful(obs, rewritten, append(people, you), speaker)
	// A short answer says something with the question it answers ("No, never." to "Do
	// you smoke?"): a memory of the two (replies.go).
	var question string
	short := false
	if !contentful {
		question, short = shortAnswerTo(in.Recent, obs, speaker, addressee, rewritten)
	}
	var topic string
	if contentful || short {
		// A long turn is said in parts, each its own memory (parts.go); the first stands
		// for the turn in an exchange.
		spans := partsOf(rewritten, o.opts.MaxPartChars, headRoom(rewritten))
		parts, clauseCands := o.turnCandidates(obs, speaker, rewritten, spans, nameList, persons, in.Recent)
		turn := parts[0]
		turn.InReplyTo = questionAnswered(in.Recent, obs, speaker, addressee)
		alone := turn
		if prev, ok := repliedTo(in.Recent, obs, speaker, addressee); ok {
			turn = withPrompt(turn, prev, speaker)
		}
		if short {
			turn = answered(turn, question, rewritten, speaker, nameList)
		}
		cands = append(cands, turn)
		if turn.Content != alone.Content && turn.InReplyTo == "" && isNews(rewritten[spans[0].start:spans[0].end], speaker) {
			// News told after the other speaker's statement, not in answer to a question,
			// is a memory of its own as well: "Priya owns the billing service." after an
			// assistant's "Got it: pnpm for all packages." is found, and changed, alone.
			cands = append(cands, alone)
		}
		cands = append(cands, parts[1:]...)
		cands = append(cands, clauseCands...)
		topic = topicOf(speaker, turn.Keywords)
	}
	// Entities: the speaker of a turn with content or telling their name, and every name
	// mentioned.
	seen := map[string]bool{}
	if (contentful || short || selfName != "") && speaker != "" && machineRole(obs) == "" {
		seen[normName(speaker)] = true
		category := "person"
		if strings.EqualFold(speaker, chatCounterpart["user"]) {
			category = "concept" // a chat's assistant is no one; its user is a person, who may tell their name
		} else if deviceName(speaker) {
			category = "object" // "thermostat", "db-primary": a device reporting, no one
		}
		e := entityCandidate(speaker, category, "a participant of the conversation", speaker)
		if plain := plainName(speaker); plain != "" && plain != speaker {
			// "Zoë 🦄" is Zoë wherever her words say "Zoë": no second person.
			seen[normName(plain)] = true
			e = calledToo(e, plain)
		}
		if selfName != "" {
			seen[normName(selfName)] = true
			e = calledToo(e, selfName)
		}
		cands = append(cands, e)
	}
	nicks := nicknames(rewritten, names)
	for _, nick := range nicks {
		seen[normName(nick)] = true // an alias of the person it names, no entity of its own
	}
	for first := range shortFirstNames(names) {
		seen[first] = true // the one person of the message whose full name it opens
	}
	for _, n := range names {
		k := normName(n.name)
		if seen[k] || k == "" {
			continue
		}
		seen[k] = true
		desc := "mentioned by " + speaker
		if speaker == "" {
			desc = "mentioned in the conversation"
		}
		e := toldEntity(rewritten, n, desc, speaker)
		if nick := nicks[n.name]; nick != "" {
			e = calledToo(e, nick)
		}
		cands = append(cands, e)
	}

	participant := speaker
	if noPerson(obs) {
		participant = "" // a tool or a device is no participant whom a later turn names as a person
	}
	summary := prev.update(participant, addressee, obs, firstOfSession, topic, o.opts)
	return agent.Extraction{Candidates: cands, Summary: summary}, realm.Usage{}, nil
}

// isNews: text states something that holds until it changes — a slot that holds one
// value, an ended state, a team's decision, a plan moved or called off ("The release moved
// to Friday the 18th") — and asks nothing ("Does Nate use that computer for gaming?" is
// no statement of what Nate uses).
func isNews(text, speaker string) bool {
	return !strings.Contains(text, "?") && (slices.ContainsFunc(stateClaims(text, speaker), func(c stateClaim) bool {
		return c.ended || c.decision() || exclusive(c.slot)
	}) || len(planAlterations(text, speaker)) > 0)
}

// questionAnswered is the id of the turn obs replies to (repliedTo) when it asks a
// question: obs is most likely its answer.
func questionAnswered(recent []realm.Observation, obs realm.Observation, speaker, addressee string) string {
	if prev, ok := repliedTo(recent, obs, speaker, addressee); ok && strings.Contains(prev.Content, "?") {
		return prev.ID
	}
	return ""
}

// repliedTo is the turn just before obs in time (heardBefore) when it is another
// speaker's in the same session, not long before it (replyGap): what obs replies to. A
// tool's output, a device's report and a system prompt are answered by no one (noPerson), nor
// do they answer anyone: a system prompt's "you" is the assistant, not who spoke before
// it, and a tool's output is what the assistant's call returned, its facts its own. A
// turn speaking to someone else (addressee) answers not the turn before: "Dave, you own
// the release notes" after Bob's "I'll review it after lunch".
func repliedTo(recent []realm.Observation, obs realm.Observation, speaker, addressee string) (realm.Observation, bool) {
	recent = heardBefore(recent, obs)
	if len(recent) == 0 {
		return realm.Observation{}, false
	}
	prev := recent[len(recent)-1]
	if prev.ID == obs.ID || prev.Session() != obs.Session() || strings.EqualFold(strings.TrimSpace(prev.Speaker), speaker) ||
		obs.ObservedAt.Sub(prev.ObservedAt) > replyGap(obs) ||
		noPerson(prev) || noPerson(obs) ||
		addressee != "" && !strings.EqualFold(addressee, strings.TrimSpace(prev.Speaker)) {
		return realm.Observation{}, false
	}
	return prev, true
}

// heardBefore is recent in the order the turns were said, by time, then as they came
// (recent is in the order they came), without those said after obs: messages sent late
// or a batch sent in reverse come after the turns they preceded, and a turn replies to
// none said after it.
func heardBefore(recent []realm.Observation, obs realm.Observation) []realm.Observation {
	out := slices.DeleteFunc(slices.Clone(recent), func(r realm.Observation) bool {
		return r.ObservedAt.After(obs.ObservedAt) && !obs.ObservedAt.IsZero()
	})
	slices.SortStableFunc(out, func(a, b realm.Observation) int { return a.ObservedAt.Compare(b.ObservedAt) })
	return out
}

// replyGap is how long after the turn before it a turn still replies to it. Without
// session ids (one session a day), an hour: an assistant's suggestion of the morning is
// not the prompt of the user's news of the evening. Within a session, whose turns the
// client says belong to one conversation, longer, for a reply after a meeting or a meal;
// but an acknowledgement sent six hours after the user's message, or a chat resumed the
// next day, answers nothing said before the pause.
func replyGap(obs realm.Observation) time.Duration {
	if obs.SessionID == "" {
		return time.Hour
	}
	return 3 * time.Hour
}

// minSaidWords: the last sentence of a turn that asks nothing is the context of a reply
// when it has at least this many content words.
const minSaidWords = 3

// withPrompt makes the whole-turn unit of a reply the exchange it completes: what the
// other speaker asked (the sentences of their turn that ask) or else said last (when it
// says something: minSaidWords), in their words with "you" and "I" resolved, then the
// reply, derived from both turns. "Yes, last year!" is a memory only with "Did you paint
// the sunrise?" before it, and a query asking it again finds the two together.
func withPrompt(turn agent.Candidate, prev realm.Observation, speaker string) agent.Candidate {
	other := strings.TrimSpace(prev.Speaker)
	talking := map[string]bool{normName(other): true, normName(speaker): true}
	var asked []string
	segs := sentences(prev.Content)
	for _, s := range segs {
		if part := prev.Content[s.start:s.end]; strings.Contains(part, "?") && asksSomething(part, talking) {
			asked = append(asked, part)
		}
	}
	verb := "asked"
	if len(asked) == 0 && len(segs) > 0 {
		last := segs[len(segs)-1]
		said := prev.Content[last.start:last.end]
		if len(toldWords(said, talking)) < minSaidWords {
			// A greeting, a nod or a question back ("Hey Caroline!", "That's great.",
			// "How was your day?") says nothing to keep, nor is the reply derived from it.
			return turn
		}
		asked, verb = []string{said}, "said"
	}
	prompt, to := quotedPrompt(strings.Join(asked, " "), other, speaker)
	if to != "" {
		verb += " " + to
	}
	turn.Content = fmt.Sprintf("%s %s: %q %s", orSomeone(other), verb, prompt, turn.Content)
	turn.Description = strings.TrimSuffix(turn.Description, ".") + ", in reply to " + orSomeone(other) + "."
	turn.AlsoFrom = []string{prev.ID}
	return turn
}

// asksSomething: a question is more than a phatic one ("How are you?", "Hey Mel, what's
// up?"): a word of it is left that is no greeting, no name of the people talking (talking,
// normalised), nor the name a greeting calls. "How was it?" asks something.
func asksSomething(question string, talking map[string]bool) bool {
	ws := wordsOf(phaticFree(question, talking))
	for i, w := range ws {
		if !greetings[w.lower] && !talking[normName(w.text)] && !(i > 0 && greetings[ws[i-1].lower] && isNameWord(w)) {
			return true
		}
	}
	return false
}

// toldWords are the content words of a turn's text but for its phatic phrases
// (phaticFree) and the names of the people talking.
func toldWords(s string, talking map[string]bool) []string {
	return slices.DeleteFunc(contentWords(phaticFree(s, talking)), func(w string) bool { return talking[w] })
}

// addresseeOf names "you": a known person the turn calls by name, or anyone it calls by
// a handle (calledName); else the latest other speaker, no device or tool (noPerson), said before it (heardBefore), of
// the same session, unless the session is a group's (two other speakers or more) and the
// turn calls someone by name, then of another session the speaker spoke in with that
// one alone; else a name the turn opens by addressing ("Hey Mel!").
func addresseeOf(recent []realm.Observation, obs realm.Observation, speaker, text string, known map[string]string) string {
	if machineRole(obs) == "system" {
		return "" // a system prompt speaks to the assistant (chatCounterpart), whoever spoke before
	}
	recent = slices.DeleteFunc(heardBefore(recent, obs), noPerson)
	called, sure := calledName(text, speaker, known)
	called = spokenAs(called, speaker, recent)
	var talking []string // the other speakers of the session, latest first
	for i := len(recent) - 1; i >= 0; i-- {
		s := strings.TrimSpace(recent[i].Speaker)
		if s != "" && !strings.EqualFold(s, speaker) && recent[i].Session() == obs.Session() && !slices.Contains(talking, s) {
			talking = append(talking, s)
		}
	}
	// In a group the latest other speaker is only a guess: a name called is surer.
	if sure || called != "" && len(talking) > 1 {
		return called
	}
	if len(talking) > 0 {
		return talking[0]
	}
	// Another session's speaker only when this one spoke there too, with that one alone:
	// the same two's earlier conversation ("Did you finish the class?" opening the next),
	// not another chat of the space, whose speakers this one never spoke with, nor a
	// group's meeting, whose next one this speaker opens answering none of them.
	spokeIn := map[string]bool{}
	others := map[string][]string{} // session → its other speakers
	for _, r := range recent {
		s := strings.TrimSpace(r.Speaker)
		switch {
		case strings.EqualFold(s, speaker):
			spokeIn[r.Session()] = true
		case s != "" && !slices.Contains(others[r.Session()], s):
			others[r.Session()] = append(others[r.Session()], s)
		}
	}
	for i := len(recent) - 1; i >= 0; i-- {
		if s := strings.TrimSpace(recent[i].Speaker); s != "" && !strings.EqualFold(s, speaker) && spokeIn[recent[i].Session()] {
			if len(others[recent[i].Session()]) == 1 {
				return s
			}
			break
		}
	}
	return called
}

// spokenAs is the other speaker of recent a name called is: "@dave" is Dave as he is
// written, and "Mel", when no speaker is called so, Melanie, the first letters of whose
// name it is (three or more).
func spokenAs(name, speaker string, recent []realm.Observation) string {
	for _, short := range []bool{false, true} {
		for i := len(recent) - 1; i >= 0; i-- {
			s := strings.TrimSpace(recent[i].Speaker)
			if strings.EqualFold(s, speaker) {
				continue
			}
			if !short && strings.EqualFold(s, name) ||
				short && utf8.RuneCountInString(name) >= 3 && len(name) < len(s) && strings.HasPrefix(strings.ToLower(s), strings.ToLower(name)) {
				return s
			}
		}
	}
	return name
}

// calledName is the name text calls someone by, and whether that is sure: a handle
// opening it ("@dave you own…", "Thanks @dave"), sure, and none for one that calls
// everyone ("@here"); a name opening it, after a
// greeting or a word of assent ("Hey Mel!", "OK Dave, …", "Thank you, Dave"), or alone
// and then known or set apart as a call is ("Mel, are you in?"), sure when known; a known
// name closing it after a comma ("Can you take it, Dave?"), sure. Known names are the
// people of the conversation (known), the speaker aside.
func calledName(text, speaker string, known map[string]string) (string, bool) {
	isKnown := func(name string) bool {
		return known[strings.ToLower(name)] == "person" && !strings.EqualFold(name, speaker)
	}
	ws := wordsOf(text)
	code := codeBlocks(text)
	for i := 0; i < len(ws) && i < 3; i++ {
		handle := reHandle.FindStringSubmatch(text[max(0, ws[i].start-1):])
		name, last := calledAs(text, ws, i)
		// A greeting calls no one: "Evening!", "Morning, all". Nor does a place, a language
		// or a product ("Italy, third week of May, noted."), nor a word in code.
		if handle == nil && (!isNameWord(ws[i]) || opensCall(ws, i) || replyWords[ws[i].lower] || namesNoPerson(strings.ToLower(name))) ||
			strings.EqualFold(name, speaker) || inSpans(code, ws[i].start, ws[i].end) {
			continue
		}
		if i > 0 && !opensCall(ws, i-1) {
			break
		}
		if handle != nil && groupHandles[strings.ToLower(handle[1])] {
			return "", true // "@here, can you review it?" asks everyone: "you" is no one person
		}
		if handle != nil {
			return handle[1], true
		}
		// Without a greeting before it, a first word calls someone only when it is a
		// known name or set apart as a call is ("Mel, are you in?"): "Design notes: …",
		// "Tests pass now", "Builds run on Kubernetes." open with a common word, "Cancel my
		// subscription.", "Moved to Denver." with a verb.
		if i == 0 && known[strings.ToLower(name)] == "" && !reVocative.MatchString(text[ws[last].end:]) {
			break
		}
		name = strings.TrimSuffix(name, "'s")
		return name, isKnown(name)
	}
	if n := len(ws); n > 1 {
		w := ws[n-1]
		if isNameWord(w) && isKnown(w.text) && strings.TrimSpace(text[ws[n-2].end:w.start]) == "," &&
			!strings.ContainsFunc(text[w.end:], isWordRune) && !inSpans(code, w.start, w.end) {
			return w.text, true
		}
	}
	return "", false
}

// replyWords open a reply set apart as a call would be, and call no one: "Perfect, you
// nailed it", "Exactly, you said so", "Understood, Italy is now in June".
var replyWords = setOf(`perfect exactly right alright fine agreed seriously true correct done noted understood fair
lovely brilliant excellent indeed interesting wonderful fantastic super totally basically literally
obviously clearly enough`)

// reHandle: a handle calling someone, "@dave", "@dave.k", "@jean-luc", from its "@".
var reHandle = regexp.MustCompile(`^@([\p{L}\p{N}_][\p{L}\p{N}_.-]*[\p{L}\p{N}_]|[\p{L}\p{N}_])`)

// groupHandles are the handles that call everyone in a chat.
var groupHandles = setOf(`here channel everyone all team`)

// opensCall: ws[i] is a word a call may follow, a greeting, a courtesy or a word of
// assent ("Hey Mel!", "OK Dave, I'll take it", "Thank you, Dave").
func opensCall(ws []wordSpan, i int) bool {
	w := ws[i].lower
	return greetings[w] || foreignCourtesies[w] || assents[w] || w == "you" && i > 0 && ws[i-1].lower == "thank"
}

// assents are the words of assent a call may follow: "Sure Alice, I'll review it".
var assents = setOf(`ok okay sure yes yeah yep yup sorry`)

// openingSubject is the first word of a first message when it reads as a person doing
// something, not a common word opening a note: a capitalised word, not a stop word or a
// verb, then a verb of the past ("Alice moved to Lisbon"), an auxiliary ("Alice has
// moved") or a verb in -s not ending a heading ("Alice lives in Porto"; not "Design
// notes: …", "Use tabs"). It calls no one; it is a name of the turn. A message in another
// language has none: "Odio los lunes", "Hoy es lunes" do not read as English does.
func openingSubject(msg, speaker string) string {
	ws := wordsOf(msg)
	if len(ws) < 2 || !isNameWord(ws[0]) || strings.EqualFold(ws[0].text, speaker) || text.IsStopword(ws[0].lower) ||
		presentVerbs[ws[0].lower] || !gapIsSpace(msg, ws[0].end, ws[1].start) || len(codeBlocks(msg)) > 0 || readsForeign(ws) {
		return ""
	}
	next := ws[1].lower
	heading := len(ws) > 2 && strings.Contains(msg[ws[1].end:ws[2].start], ":")
	if commonWord(msg, ws, 0) || passiveFor(ws) || doneWithoutObject(msg, ws) {
		return ""
	}
	if subjectVerbs[next] || strings.HasSuffix(next, "ed") || strings.HasSuffix(next, "s") && !strings.HasSuffix(next, "ss") && !heading {
		return strings.TrimSuffix(ws[0].text, "'s")
	}
	return ""
}

// commonWord: the message writes the word ws[k] in lower case elsewhere, so it is a common
// word, no name: a name is capitalised wherever it stands ("Offer approved for Amelia
// Novak … waiting for the offer letter").
func commonWord(msg string, ws []wordSpan, k int) bool {
	return slices.ContainsFunc(ws, func(w wordSpan) bool { return w.start != ws[k].start && w.text == ws[k].lower })
}

// passiveFor: the message opens with a thing done for or by someone named, a passive
// heading: "Offer approved for Emma Dubois", "Contract signed by Tom". Its first word is
// what was done, no person doing it.
func passiveFor(ws []wordSpan) bool {
	return len(ws) > 3 && strings.HasSuffix(ws[1].lower, "ed") && (ws[2].lower == "for" || ws[2].lower == "by") && isNameWord(ws[3]) && !text.IsStopword(ws[3].lower)
}

// doneWithoutObject: the message opens with a thing done, a verb of a task (doneVerbs)
// with nothing done to after it, the clause ending or a time told: "Offer signed
// yesterday", "Contract signed.", "Invoice paid, thanks". Its first word is what was done;
// a common given name stays one doing it ("Emma signed yesterday").
func doneWithoutObject(msg string, ws []wordSpan) bool {
	if !doneVerbs[ws[1].lower] || firstNames[ws[0].lower] {
		return false
	}
	return len(ws) == 2 || !gapIsSpace(msg, ws[1].end, ws[2].start) || doneWhen[ws[2].lower]
}

// doneVerbs are the tasks done to a thing a note opens with ("Offer signed", "Invoice
// paid"), and doneWhen the words telling when, right after them.
var (
	doneVerbs = setOf(`signed approved sent booked confirmed cancelled canceled scheduled submitted merged shipped deployed fixed paid rejected filed renewed received`)
	doneWhen  = setOf(`yesterday today tonight this last earlier`)
)

// subjectVerbs are the auxiliaries a name opening a statement is followed by.
var subjectVerbs = setOf(`is was has had will would can could did does just never always also`)

// reVocative: what follows a name that calls someone: a comma or an exclamation mark.
var reVocative = regexp.MustCompile(`^\s*[,!]`)

// chatCounterpart: a chat role's "you" is the other role ("I want you to keep this
// style", said by the user, asks the assistant), when no one else is addressed; a system
// prompt's is the assistant ("You are a travel agent"). It is not made a participant: the
// assistant may not have spoken yet.
var chatCounterpart = map[string]string{"user": "assistant", "assistant": "user", "system": "assistant"}

// sessionUser is the name the user of obs's session speaks under ("Kenji" for the role
// "user"): the speaker of any of its messages in recent, said before obs or after it
// (a batch sent in reverse order stores the user's turn after the assistant's answer), who
// is no chat role. "" when none is. Construction shows the first messages of the user of
// the session beside recent when recent holds none (agent.ExtractInput.Session).
func sessionUser(recent []realm.Observation, obs realm.Observation) string {
	for i := len(recent) - 1; i >= 0; i-- {
		s := strings.TrimSpace(recent[i].Speaker)
		if recent[i].Session() == obs.Session() && s != "" && chatCounterpart[strings.ToLower(s)] == "" && machineRole(recent[i]) == "" {
			return s
		}
	}
	return ""
}

// unaddressed are the chat roles no one speaks to: a tool's output and a system prompt
// are read, not answered; a user's "you" after a tool's output is the assistant's. Nor is
// either a person: neither is an entity of the conversation.
var unaddressed = setOf(`tool system`)

// machineRole is the chat role of o that is no one (unaddressed), "" for another: its
// role when sent with one, whatever name it was sent under ("thermostat-3" as tool, whose
// name says who said it, not a person), else its speaker when that is the role itself.
func machineRole(o realm.Observation) string {
	role := strings.ToLower(strings.TrimSpace(cmp.Or(o.Role, o.Speaker)))
	if unaddressed[role] {
		return role
	}
	return ""
}

// noPerson: o's speaker is no person: a chat role that is no one (machineRole), or a
// device named (deviceName) sent without a role.
func noPerson(o realm.Observation) bool {
	return machineRole(o) != "" || deviceName(o.Speaker)
}

// deviceName: a speaker's name names a device or a service reporting, not a person: a
// word of it, its parts split at what is no letter ("thermostat-3", "db-primary", "Weather
// API"), is one of devices.
func deviceName(name string) bool {
	return slices.ContainsFunc(strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return !unicode.IsLetter(r) }), func(w string) bool { return devices[w] })
}

// devices are the words that name what reports readings and events to an agent.
var devices = setOf(`thermostat thermometer sensor gauge meter probe monitor camera router gateway server
db database cron daemon api webhook scanner printer hygrometer barometer alarm dishwasher washer dryer
oven fridge refrigerator freezer boiler heater furnace kettle doorbell vacuum appliance`)

// noGuessedPersons is names without the persons only guessed (no person known by that
// name): a tool's output names services, fields and errors far more often than people
// ("Error: DeadlockDetected from Neo4j (Errno 11)"); they are concepts.
func noGuessedPersons(names []nameMention, known map[string]string) []nameMention {
	for i, n := range names {
		if n.category == "person" && known[strings.ToLower(n.name)] != "person" {
			names[i].category = "concept"
		}
	}
	return names
}

var greetings = setOf(`hey hi hello thanks thank congrats congratulations wow dear yo morning evening oh`)

// rePleasantry: courtesies whose words are not what a turn is about ("You're welcome,
// Alice. Have a good shift!", as rewritten: "user is welcome, Alice. …"), and greetings
// and wishes ("Happy birthday!", "Merry Christmas!").
var rePleasantry = regexp.MustCompile(`(?i)\b(?:(?:you're|you are|\S+ is|\S+ are) (?:very |so |most )?welcome|have an? (?:good|great|nice|lovely|wonderful|fun|safe|relaxing) \w+|` +
	`happy (?:belated )?(?:birthday|bday|anniversary|holidays|new year|easter|thanksgiving|(?:mother|father|valentine)'s day)|merry christmas|season's greetings|best wishes|many happy returns|good luck|take care|see you(?: soon| later| tomorrow)?|talk (?:soon|later)|glad (?:I could|to) help|happy to help|my pleasure|no (?:problem|worries|rush|pressure|biggie|big deal|offen[cs]e|doubt|idea|kidding|way)|never mind|any ?time|sounds good|will do)\b`)

// rePhatic: what keeps a conversation going without telling or asking anything: an
// acknowledgement ("That makes sense", "Tell me more", "I love that!", "I'm glad you
// shared that with me", "I'm here for you") or a question back that asks about nothing in
// particular ("How are you?", "What's new?", "How was your day?", "How did that make you
// feel?", "How can I help?"). Each group is a person the phrase names (W); it is phatic
// only when all of them are people talking or pronouns (phaticFree): "How is Mochi?" asks
// about someone. It reads a turn as said and as rewritten ("How is user?").
var rePhatic = regexp.MustCompile(`(?i)\b(?:` + strings.ReplaceAll(strings.Join([]string{
	`(?:that |this |it )?makes? (?:total |perfect )?sense`,
	`(?:that's|that is|sounds|how|so|very|really) interesting`,
	`tell (W) (?:more|a bit more|all about it)`,
	`(?:good|nice|great|lovely) to (?:hear(?: from (W))?|see (W)|meet (W))`,
	`(?:(?:(W) (?:is|am|are)|i'm) (?:so |really )?glad|glad|thanks for|thank (W) for) (?:(W) )?(?:sharing|shared)(?: that| this| it)?(?: with (W))?`,
	`(?:(W) (?:is|am|are)|i'm) (?:always )?here for (W)`,
	`how (?:can|may|could) (W) help(?: (W))?`,
	`what can (W) do for (W)`,
	`how (?:are|is|am|have|has) (W)(?: been)?(?: doing| feeling| holding up)?(?: today| lately| about (?:it|that|this|everything))?`,
	`how (W) been`,
	`how was (W) (?:day|evening|weekend|night|morning|week)`,
	`how(?:'s| is| are) (?:it|everything|life|things)(?: going)?`,
	`what's (?:new|up|going on)(?: with (W))?`,
	`anything (?:new|exciting|interesting)(?: going on| happening)?(?: with (W))?`,
	`(?:how|what) about (W)`,
	`how (?:did|does) (?:that|it|this) make (W) feel|how do (W) feel about (?:it|that|this)`,
	`(?:is there )?(?:anything|something) on (W) mind(?: for (?:today|tonight|tomorrow))?`,
	`be (?:gentle|kind|easy) (?:with|on) (W)`,
	`(W) handled (?:that|it|this)(?: really| so)? well`,
}, `\b|`)+`\b|`+
	`(?:(W) loves?|i love) (?:that|this|it)(?: so much)?!`, // "I love that!", not "I love that song"
	"(W)", `([\w'-]+)`) + `)`)

// phaticFree is s without its pleasantries (rePleasantry) and its phatic phrases
// (rePhatic) that name only people talking (drop, normalised) or pronouns: what is left
// is what s is about.
func phaticFree(s string, drop map[string]bool) string {
	s = rePleasantry.ReplaceAllString(s, " ")
	var b strings.Builder
	last := 0
	for _, m := range rePhatic.FindAllStringSubmatchIndex(s, -1) {
		phatic := true
		for g := 2; g+1 < len(m); g += 2 {
			if m[g] >= 0 {
				who := normName(s[m[g]:m[g+1]])
				phatic = phatic && (drop[who] || personPronouns[who])
			}
		}
		if phatic {
			b.WriteString(s[last:m[0]] + " ")
			last = m[1]
		}
	}
	return b.String() + s[last:]
}

// personPronouns are the words a phatic phrase names the people talking by.
var personPronouns = setOf(`i me my myself you your yourself ya u`)

// isContentful: rewritten, the turn obs of speaker as rewritten, tells something: it has
// MinContentWords content words or more, the names of the people talking (names, and the
// speaker) aside, or states something of its own in fewer. A device's or a tool's name is
// no person's: it is what its status line is about ("Dishwasher finished").
func (o *Agent) isContentful(obs realm.Observation, rewritten string, names []string, speaker string) bool {
	now := obs.ObservedAt
	drop := map[string]bool{}
	if !noPerson(obs) {
		drop[normName(speaker)] = true
	}
	for _, n := range names {
		for _, p := range strings.Fields(normName(n)) {
			drop[p] = true
		}
	}
	rewritten = phaticFree(rewritten, drop)
	var told []string
	for _, w := range contentWords(rewritten) {
		if !drop[w] && !foreignCourtesies[w] {
			told = append(told, w)
		}
	}
	// A state said in few words is still a memory: "I'm 29 years old", and so are a
	// correction, "Her name is Marina, not Marta", a plan called off, "It's off.", a short
	// fact of the speaker's own and an amount of something.
	return len(told) >= o.opts.MinContentWords || amountOfSomething(rewritten, speaker) || len(stateClaims(rewritten, speaker)) > 0 || len(correctionsOf(rewritten)) > 0 ||
		len(planAlterations(rewritten, speaker)) > 0 || ownShortFact(rewritten, speaker, told, now) || isHardlyEnglish(rewritten, drop)
}

// amountOfSomething: an amount with its unit and a word of what it is of ("Gas was
// $52.33.", "Netflix €13.99.", "rent: $2,100"), which is that word even when the rewrite
// guesses it a name: an expense or a price noted, however short. Not an amount alone
// ("$20?").
func amountOfSomething(rewritten, speaker string) bool {
	if strings.Contains(rewritten, "?") || !slices.ContainsFunc(amountsOf(rewritten), func(a amount) bool { return a.unit != "" }) {
		return false
	}
	return slices.ContainsFunc(contentWords(rewritten), func(w string) bool { return w != normName(speaker) && !foreignCourtesies[w] })
}

// ownShortFact: a statement of one content word or more, asking nothing, that the speaker
// makes of themselves — a negation ("I don't smoke", as rewritten "user doesn't smoke";
// "No allergies.") or an amount with its unit ("I weigh 72.5 kg") — is a fact however
// short, and so is when a thing of the speaker's is ("My birthday is tomorrow", as
// rewritten "user's birthday is tomorrow"; "Our anniversary is next week"; "Friday is my
// last day"). A reaction is
// none: its words (told) are verbs of the mind ("I can't believe it!", "I don't blame
// you") or a pleasantry ("No worries!", rePleasantry).
func ownShortFact(rewritten, speaker string, told []string, now time.Time) bool {
	if strings.Contains(rewritten, "?") || !slices.ContainsFunc(told, func(w string) bool { return !reactionVerbs[w] }) {
		return false
	}
	if reNoneOf.MatchString(rewritten) {
		return true
	}
	rest := strings.TrimSpace(rewritten)
	thing := reWeekdayIsOpening.ReplaceAllString(strings.ToLower(rest), "")
	if speaker != "" && reOwnThing.MatchString(strings.TrimPrefix(thing, strings.ToLower(speaker))) && len(text.Dates(rest, now, text.TenseUnknown)) > 0 {
		return true
	}
	if speaker == "" || len(rest) <= len(speaker) || !strings.EqualFold(rest[:len(speaker)+1], speaker+" ") {
		return false
	}
	rest = rest[len(speaker)+1:]
	if reNegated.MatchString(rest) {
		return true
	}
	for _, m := range reMeasure.FindAllStringSubmatch(rest, -1) {
		if u := strings.ToLower(m[1]); !text.IsStopword(u) && !dateWords[u] && !notAUnit[u] {
			return true
		}
	}
	return false
}

var (
	// reNoneOf: a turn opening with what the speaker has none of ("No allergies.", "Never
	// smoked.").
	reNoneOf = regexp.MustCompile(`(?i)^\W*(?:no|never) \pL`)
	// reOwnThing: the opening, its speaker cut, of a turn about a thing of the speaker's
	// ("user's birthday", "our anniversary").
	reOwnThing = regexp.MustCompile(`^(?:'s|our) `)
	// reWeekdayIsOpening: a weekday opening a turn as the day a thing is, before the thing
	// ("Friday is my last day", as rewritten "Friday is user's last day").
	reWeekdayIsOpening = regexp.MustCompile(`^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday) is `)
	// reNegated: the words after a subject that negate what it is, has or does; not what
	// it will or would do ("I won't be long").
	reNegated = regexp.MustCompile(`(?i)^(?:\S+ ){0,2}?(?:not|never|no|(?:do|does|did|is|are|was|were|has|have|had|ca)n['’]t)\b`)
	// reMeasure: a number, decimals and all, and the word after it, its unit if any
	// ("72.5 kg", "500 mg", "2 kids").
	reMeasure = regexp.MustCompile(`\b\d+(?:[.,]\d+)?\s?([\pL%]+)`)
	notAUnit  = setOf(`st nd rd th am pm`)
	// reactionVerbs: what a short negation of a reaction says ("I can't imagine").
	reactionVerbs = setOf(`believe imagine agree disagree blame mind remember recall understand care doubt wonder
expect complain judge bother worry`)
)

// isHardlyEnglish: three words or more (names of people and courtesies of other languages
// aside) with at most one English stop word among them. The rules read English only; such
// a turn ("Je vis à Nice.") is kept whole rather than dropped as filler, since an English
// turn of three words with fewer than two content words is made of stop words. A "word"
// of a script written without spaces is a phrase or a sentence ("我对花生过敏"): each of
// its characters counts as a word.
func isHardlyEnglish(s string, drop map[string]bool) bool {
	words, stop := 0, 0
	for _, w := range wordsOf(s) {
		l := strings.TrimSuffix(w.lower, "'s")
		if drop[l] || foreignCourtesies[l] || !unicode.IsLetter([]rune(l)[0]) {
			continue
		}
		if strings.ContainsFunc(l, isUnspaced) {
			words += utf8.RuneCountInString(l)
			continue
		}
		words++
		if text.IsStopword(l) {
			stop++
		}
	}
	return words >= 3 && stop <= 1
}

// foreignCourtesies are the thanks and greetings of other languages: "Merci beaucoup !",
// "谢谢！", "ありがとうございます。".
var foreignCourtesies = setOf(`merci beaucoup bonjour bonsoir salut coucou gracias muchas hola adiós adios danke schön schon
vielen dank bitte hallo tschüss obrigado obrigada olá ola grazie mille ciao buongiorno buenos días dias buenas noches
tardes bonne journée soirée nuit gute tag muy amable très gentil
谢谢 谢谢你 谢谢您 多谢 你好 您好 早上好 晚上好 晚安 再见 好的 不客气 没关系
ありがとう ありがとうございます ありがとうございました どうも こんにちは こんばんは おはよう おはようございます
おやすみ おやすみなさい さようなら よろしく よろしくお願いします どういたしまして`)

func episodeCandidate(obs realm.Observation, speaker, addressee string) agent.Candidate {
	var who string
	switch {
	case speaker != "" && addressee != "":
		who = "between " + speaker + " and " + addressee
	case speaker != "":
		who = "with " + speaker
	}
	content := "Conversation " + who
	c := agent.Candidate{
		Type:     realm.Episode,
		Name:     obs.Session(),
		Keywords: namesOf(speaker, addressee, "conversation"),
	}
	if !obs.ObservedAt.IsZero() {
		content += " on " + text.FormatDay(obs.ObservedAt) + ", " + obs.ObservedAt.Format("3:04 pm")
		from, to := text.DaySpan(obs.ObservedAt)
		c.TStart, c.TEnd = &from, &to
	}
	c.Content = strings.Join(strings.Fields(content), " ") + " (session " + obs.Session() + ")."
	c.Description = "session " + obs.Session()
	c.Participants = namesOf(speaker, addressee)
	return c
}

func entityCandidate(name, category, description, speaker string) agent.Candidate {
	if category == "" {
		category = "concept"
	}
	return agent.Candidate{
		Type:        realm.Entity,
		Name:        name,
		Content:     name + " (" + category + "), " + description + ".",
		Description: description,
		Keywords:    []string{name},
		Category:    category,
	}
}

// toldEntity is the entity candidate of a name the turn mentions, with what the turn tells
// of it beside the name: a relation is an alias (a later "user's sister Kat" may be the
// same person, integrate.go; a memory saying "user's sister" mentions her) and the
// entity's role; an animal makes a pet.
func toldEntity(text string, n nameMention, description, speaker string) agent.Candidate {
	relation, animal := toldOf(text, n.name)
	if relation == "" {
		relation = pronounKin(text, n.name, speaker)
	}
	switch {
	case n.category == "person" && relation != "":
		e := entityCandidate(n.name, n.category, relation+", "+description, speaker)
		e.Aliases, e.Role = []string{relation}, relation
		return e
	case n.category == "object" && animal != "":
		e := entityCandidate(n.name, n.category, "a pet "+animal+", "+description, speaker)
		e.Role = "pet"
		return e
	}
	return entityCandidate(n.name, n.category, description, speaker)
}

func namesOf(xs ...string) []string {
	var out []string
	for _, x := range xs {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}

// turnCandidates builds the whole-turn candidate, or one candidate per part of a long
// turn (spans, in order: more than one), and the clause candidates that carry a fact slot
// or a time expression of their own. names are the names of the turn, persons those of
// them that are people told of, the addressee aside.
func (o *Agent) turnCandidates(obs realm.Observation, speaker, rewritten string, spans []segment, names, persons []string, recent []realm.Observation) ([]agent.Candidate, []agent.Candidate) {
	now := obs.ObservedAt
	// A clause may be the whole turn or a whole part (a turn of one sentence, a long one
	// without a sentence end): its dates, read over all its text, are worked out once.
	dated := map[string][]text.Mention{}
	datesIn := func(s string) []text.Mention {
		d, ok := dated[s]
		if !ok {
			d = correctedDays(datesOf(s, speaker, now), s, speaker, recent)
			dated[s] = d
		}
		return d
	}
	slots := factSlots(rewritten)
	var parts []agent.Candidate
	if len(spans) == 1 {
		parts = append(parts, o.unit(obs, speaker, speaker, rewritten, datesIn(rewritten), tenseOf(rewritten), names, slots))
	} else {
		// Each part is what was told then, dated as an event when it tells no time of its
		// own: a pasted paper's methods are not a lasting fact that every time question
		// returns. A part after the first is named by the message's title and read with
		// its table's header row (titleOf, tableHeader): it says which document it is of.
		for i, s := range spans {
			said := rewritten[s.start:s.end]
			if head := tableHeader(rewritten, s.start); i > 0 && head != "" {
				said = head + "\n" + said
			}
			partNames := namesIn(said, names)
			c := told(o.unit(obs, speaker, speaker, said, datesIn(said), tenseOf(said), partNames, factSlots(said)), obs, speaker, partNames)
			if i > 0 {
				c.Name = titleOf(rewritten)
			}
			c.Part = i + 1
			c.Description += fmt.Sprintf(" Part %d of %d.", i+1, len(spans))
			parts = append(parts, c)
		}
	}
	turn := parts[0]

	segs, cutFrom := byDate(rewritten, bySlot(rewritten, speaker, clauses(rewritten)), datesIn)
	pasted := pastedSpans(rewritten, speaker)
	var out []agent.Candidate
	for i, s := range segs {
		if len(out) >= o.opts.MaxClauses {
			break
		}
		if inSpans(pasted, s.start, s.end) {
			continue // pasted text's clause, alone, would read as the speaker's: the turn carries it
		}
		part := strings.TrimSpace(rewritten[s.start:s.end])
		partSlots := factSlots(part)
		partDates := datesIn(part)
		if c, ok := cutFrom[s]; ok {
			partDates = datesWithin(datesIn(rewritten[c.start:c.end]), s.start-c.start, s.end-c.start)
		}
		hasOwnDate := len(partDates) > 0 && len(segs) > 1
		// The whole turn already carries its first slot when it is a single-clause fact.
		needsSlot := len(partSlots) > 0 && !(turn.Type == realm.Fact && len(segs) == 1 && len(slots) == 1)
		// A clause stating a value among other clauses is a memory of its own, so that a
		// change of that value supersedes the clause, not the whole turn with what else
		// it says ("my email is …" beside the home that changed). A question states none.
		hasClaim := len(segs) > 1 && !strings.HasSuffix(part, "?") && len(changeableClaims(part, speaker)) > 0
		if !hasOwnDate && !needsSlot && !hasClaim {
			continue
		}
		if !o.isContentful(obs, part, names, speaker) {
			continue
		}
		about, partNames := speaker, namesIn(part, names)
		if who := clauseSubject(rewritten, segs, i, names, persons, speaker); who != "" {
			about, partNames = who, append(partNames, who)
		}
		c := o.unit(obs, speaker, about, part, partDates, tenseOf(part), partNames, partSlots)
		if len(partSlots) > 0 || hasClaim && !hasOwnDate {
			c.Type = realm.Fact
			c.Participants = nil
			if len(partDates) == 0 {
				c.TStart, c.TEnd = nil, nil
			}
		}
		if slices.ContainsFunc(parts, func(p agent.Candidate) bool { return sameStatement(c.Content, p.Content) }) {
			continue // the turn (or a part of it) is this one clause: "Alice moved to Lisbon in May;"
		}
		out = append(out, c)
	}
	return parts, out
}

// byDate cuts each clause of text at a comma between two of its dates when the words on
// either side of it tell something besides their dates ("Offer signed yesterday, start
// date January 12"): each part is then a clause of its own, dated by its date, as two
// sentences are ("Offer signed yesterday. Start date January 12."). cutFrom is the clause
// each such part was cut from, which places its dates (datesWithin): a part alone may
// lack the words that do ("We landed on March 14, and the talks started on the 21st").
func byDate(s string, segs []segment, datesIn func(string) []text.Mention) (out []segment, cutFrom map[segment]segment) {
	cutFrom = map[segment]segment{}
	for _, c := range segs {
		clause := s[c.start:c.end]
		ms := datesIn(clause)
		bare := []byte(clause) // the clause without its dates
		for _, m := range ms {
			copy(bare[m.Start:m.End], strings.Repeat(" ", m.End-m.Start))
		}
		var parts []segment
		start := 0
		for i := 1; i < len(ms); i++ {
			k := strings.LastIndexByte(clause[ms[i-1].End:ms[i].Start], ',')
			if k < 0 {
				continue
			}
			cut, end := ms[i-1].End+k, len(clause)
			if j := strings.IndexByte(clause[ms[i].End:], ','); j >= 0 {
				end = ms[i].End + j
			}
			if len(contentWords(string(bare[start:cut]))) > 0 && len(contentWords(string(bare[cut+1:end]))) > 0 {
				parts = append(parts, trimmed(s, segment{c.start + start, c.start + cut}))
				start = cut + 1
			}
		}
		if parts == nil {
			out = append(out, c)
			continue
		}
		parts = append(parts, trimmed(s, segment{c.start + start, c.end}))
		for _, p := range parts {
			cutFrom[p] = c
		}
		out = append(out, parts...)
	}
	return out, cutFrom
}

// trimmed is seg of s without the spaces around it.
func trimmed(s string, seg segment) segment {
	t := s[seg.start:seg.end]
	lead := len(t) - len(strings.TrimLeft(t, " \t\n"))
	return segment{seg.start + lead, seg.start + len(strings.TrimRight(t, " \t\n"))}
}

// datesWithin are the dates of ms (of a text) between from and to, counted from from.
func datesWithin(ms []text.Mention, from, to int) []text.Mention {
	var out []text.Mention
	for _, m := range ms {
		if m.Start >= from && m.End <= to {
			m.Start, m.End = m.Start-from, m.End-from
			out = append(out, m)
		}
	}
	return out
}

// clauseSubject is the person the clause segs[i] of text tells of when it names nothing
// (of names) and says no "we" or "you", its subject left unsaid ("Start date January 12"
// after "Emma signed the offer."): the person of persons, not the speaker, that the clause
// before it opens with. Said by the speaker, it is that person's, not the speaker's; ""
// when there is none.
func clauseSubject(text string, segs []segment, i int, names, persons []string, speaker string) string {
	if i == 0 {
		return ""
	}
	part := text[segs[i].start:segs[i].end]
	if containsName(part, speaker) || len(namesIn(part, names)) > 0 ||
		slices.ContainsFunc(wordsOf(part), func(w wordSpan) bool { return ownVoiceWords[w.lower] }) {
		return ""
	}
	before := strings.TrimSpace(text[segs[i-1].start:segs[i-1].end])
	for _, p := range persons {
		rest, opens := strings.CutPrefix(before, p)
		if r, _ := utf8.DecodeRuneInString(rest); opens && !isWordRune(r) && !strings.EqualFold(p, speaker) {
			return p
		}
	}
	return ""
}

// ownVoiceWords speak of the speaker or whom they speak to, not of a person told of.
var ownVoiceWords = setOf(`we us our ours you your yours`)

// namesIn are the names of names that part of a turn says.
func namesIn(part string, names []string) []string {
	var out []string
	for _, n := range names {
		if containsName(part, n) {
			out = append(out, n)
		}
	}
	return out
}

// bySlot splits each clause of text that states two values or more (fact slots, or the
// claims a change can end: a home, a plan, an email, a partner or a pet…) at its "and"s,
// and at a comma followed by a claim's subject, each part its own value ("user lives in
// Lisbon, user is on the Basic plan, and user's email is …", "… with user's boyfriend
// Daniel and our cat Mochi"): a change of one then leaves the others standing.
func bySlot(text, speaker string, segs []segment) []segment {
	var out []segment
	for _, s := range segs {
		part := text[s.start:s.end]
		if len(factSlots(part)) < 2 && len(changeableClaims(part, speaker)) < 2 {
			out = append(out, s)
			continue
		}
		start := s.start
		for _, ix := range reAnd.FindAllStringIndex(part, -1) {
			left, right := text[start:s.start+ix[0]], text[s.start+ix[1]:s.end]
			if statesValue(left, speaker) && statesValue(right, speaker) && (strings.Contains(part[ix[0]:ix[1]], "and") || opensClaim(right, speaker)) {
				out = append(out, segment{start, s.start + ix[0]})
				start = s.start + ix[1]
			}
		}
		out = append(out, segment{start, s.end})
	}
	return out
}

// statesValue: a part of a clause states a fact slot or a claim a change can end.
func statesValue(part, speaker string) bool {
	return len(factSlots(part)) > 0 || len(changeableClaims(part, speaker)) > 0
}

// opensClaim: text starts with the subject of one of its claims ("user is on the Basic
// plan") or a card's label ("phone +1 415 555 0101" after "Email …"), not with the rest
// of a value ("Portugal, and …" after "lives in Lisbon").
func opensClaim(text, speaker string) bool {
	if opensCardDetail(text) {
		return true
	}
	first := strings.ToLower(strings.TrimSuffix(firstWord(text), "'s"))
	for _, c := range changeableClaims(text, speaker) {
		if first == strings.ToLower(firstWord(c.subject)) || first == "we" || first == "our" {
			return true
		}
	}
	for _, f := range factSlots(text) {
		if first == strings.ToLower(firstWord(f.subject)) {
			return true
		}
	}
	return false
}

// changeableClaims are the values text states of a subject that hold one at a time, so
// that a later one ends them without a word of change (update.go: a home, a job, a plan, an
// email…), how to reach the subject, a contact detail of sorts ("contact me by email
// only"), and whom the subject holds, which a parting or a death ends (a partner, a pet). Not the claims that many texts make in passing ("Caroline's courage is
// inspiring", "Melanie plays the clarinet"): their clauses are no memories apart.
func changeableClaims(text, speaker string) []stateClaim {
	return slices.DeleteFunc(stateClaims(text, speaker), func(c stateClaim) bool { return !changeable(c) })
}

// changeable: a claim that makes a clause a memory apart (changeableClaims).
func changeable(c stateClaim) bool {
	return !c.plan && !c.ended && (exclusive(c.slot) || c.label || c.slot == "contacted by" || slices.Contains(heldSlots, c.slot))
}

var reAnd = regexp.MustCompile(`,? and |, `)

// sameStatement reports whether two contents differ at most in their closing punctuation.
func sameStatement(a, b string) bool {
	const closing = " .,;:!?…–-"
	return strings.TrimRight(a, closing) == strings.TrimRight(b, closing)
}

// unit types one text (a whole turn or a clause) and fills its candidate; a text that does
// not name about, whom it tells of (the speaker, or the person a clause goes on about:
// clauseSubject), opens with that name.
func (o *Agent) unit(obs realm.Observation, speaker, about, said string, dates []text.Mention, tense int, names []string, slots []factSlot) agent.Candidate {
	content := annotateDates(said, dates)
	if about != "" && !containsName(content, about) {
		content = about + ": " + content
	}
	typ := realm.Fact
	switch {
	case len(dates) > 0:
		typ = realm.Event
	case reFactCue.MatchString(said) || saysHowOften(said) || len(slots) > 0:
		typ = realm.Fact
	case tense != text.TenseUnknown:
		typ = realm.Event
	}
	c := agent.Candidate{
		Type:     typ,
		Name:     shortName(content, 8),
		Content:  content,
		Keywords: keywordsOf(said, names, speaker),
	}
	if !obs.ObservedAt.IsZero() {
		c.Description = "Said by " + orSomeone(speaker) + " on " + text.FormatDay(obs.ObservedAt)
	} else {
		c.Description = "Said by " + orSomeone(speaker)
	}
	if obs.SessionID != "" {
		c.Description += " in session " + obs.SessionID
	}
	c.Description += "."
	if len(dates) > 0 {
		when := whenOf(said, dates)
		c.TStart, c.TEnd = &when.From, &when.To
	}
	if typ == realm.Event {
		c = told(c, obs, speaker, names)
	}
	if typ == realm.Fact || typ == realm.Event {
		if len(slots) > 0 {
			c.Subject, c.Attribute = slots[0].subject, slots[0].attribute
		} else if held := heldClaims(said, speaker); len(held) > 0 {
			c.Subject, c.Attribute = held[0].subject, held[0].slot // "we moved to Berlin", "now I prefer coffee"
		}
	}
	return c
}

// told makes c an event of what speaker told in obs, with the names as participants,
// dated the day it was told unless it tells a time of its own.
func told(c agent.Candidate, obs realm.Observation, speaker string, names []string) agent.Candidate {
	c.Type = realm.Event
	if c.TStart == nil && !obs.ObservedAt.IsZero() {
		from, to := text.DaySpan(obs.ObservedAt)
		c.TStart, c.TEnd = &from, &to
	}
	c.Participants = namesOf(speaker)
	for _, n := range names {
		if !strings.EqualFold(n, speaker) {
			c.Participants = append(c.Participants, n)
		}
	}
	return c
}

func orSomeone(s string) string {
	if s == "" {
		return "someone"
	}
	return s
}

func topicOf(speaker string, keywords []string) string {
	var ks []string
	for _, k := range keywords {
		if !strings.EqualFold(k, speaker) && len(ks) < 3 {
			ks = append(ks, k)
		}
	}
	if len(ks) == 0 {
		return ""
	}
	if speaker == "" {
		return strings.Join(ks, " ")
	}
	return speaker + " " + strings.Join(ks, " ")
}

// runningSummary is the parsed form of the offline summary:
//
//	Participants: A, B. Sessions: 3, latest s3 on 8 May 2023, also s1, s2. Recent topics: t1; t2.
type runningSummary struct {
	participants []string
	sessions     int    // the distinct sessions seen
	latest       string // the session of the latest message, and the day it was said
	// earlier are the sessions seen before latest, the most recent first, at most
	// summarySessions-1: a message of one of them (conversations that interleave) is
	// no new session.
	earlier []string
	topics  []string
}

const (
	sumParticipants = "Participants: "
	sumSessions     = "Sessions: "
	sumLatest       = ", latest "
	sumEarlier      = ", also "
	sumTopics       = "Recent topics: "
)

// summarySessions is how many sessions the summary names, the latest and those seen
// before it: a session that comes back after more others than that is counted again.
const summarySessions = 12

// latestSession is the session of r.latest, without its day.
func (r runningSummary) latestSession() string {
	if i := strings.LastIndex(r.latest, " on "); i >= 0 {
		return r.latest[:i]
	}
	return r.latest
}

// parseSummary reads a summary written by update; anything else starts afresh.
func parseSummary(s string) runningSummary {
	var r runningSummary
	for _, part := range strings.Split(s, ". ") {
		part = strings.TrimSuffix(strings.TrimSpace(part), ".")
		switch {
		case strings.HasPrefix(part, sumParticipants):
			for _, p := range strings.Split(strings.TrimPrefix(part, sumParticipants), ", ") {
				if p = strings.TrimSpace(p); p != "" {
					r.participants = append(r.participants, p)
				}
			}
		case strings.HasPrefix(part, sumSessions):
			rest := strings.TrimPrefix(part, sumSessions)
			n, latest, _ := strings.Cut(rest, sumLatest)
			latest, earlier, _ := strings.Cut(latest, sumEarlier)
			r.sessions, _ = strconv.Atoi(n)
			r.latest = latest
			if earlier != "" {
				r.earlier = strings.Split(earlier, ", ")
			}
		case strings.HasPrefix(part, sumTopics):
			for _, t := range strings.Split(strings.TrimPrefix(part, sumTopics), "; ") {
				if t = strings.TrimSpace(t); t != "" {
					r.topics = append(r.topics, t)
				}
			}
		}
	}
	return r
}

func (r runningSummary) update(speaker, addressee string, obs realm.Observation, firstOfSession bool, topic string, opts Options) string {
	for _, p := range namesOf(speaker, addressee) {
		found := false
		for _, q := range r.participants {
			if strings.EqualFold(p, q) {
				found = true
			}
		}
		if !found && len(r.participants) < 10 {
			r.participants = append(r.participants, p)
		}
	}
	// A session counts once: not when its messages interleave with another's, which the
	// recent messages (firstOfSession) may not show.
	if session := obs.Session(); session != "" && session != r.latestSession() {
		if firstOfSession && !slices.Contains(r.earlier, session) {
			r.sessions++
		}
		if r.latest != "" {
			r.earlier = append([]string{r.latestSession()}, slices.DeleteFunc(r.earlier, func(e string) bool { return e == session })...)
			r.earlier = r.earlier[:min(len(r.earlier), summarySessions-1)]
		}
		r.latest = session
		if !obs.ObservedAt.IsZero() {
			r.latest += " on " + text.FormatDay(obs.ObservedAt)
		}
	}
	if topic != "" {
		r.topics = append(r.topics, topic)
	}
	if len(r.topics) > opts.SummaryTopics {
		r.topics = r.topics[len(r.topics)-opts.SummaryTopics:]
	}
	for {
		s := r.String()
		if len(strings.Fields(s)) <= opts.SummaryWords || len(r.topics) == 0 {
			return s
		}
		r.topics = r.topics[1:]
	}
}

func (r runningSummary) String() string {
	var parts []string
	if len(r.participants) > 0 {
		parts = append(parts, sumParticipants+strings.Join(r.participants, ", "))
	}
	if r.sessions > 0 {
		s := sumSessions + strconv.Itoa(r.sessions)
		if r.latest != "" {
			s += sumLatest + r.latest
		}
		if len(r.earlier) > 0 {
			s += sumEarlier + strings.Join(r.earlier, ", ")
		}
		parts = append(parts, s)
	}
	if len(r.topics) > 0 {
		parts = append(parts, sumTopics+strings.Join(r.topics, "; "))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, ". ") + "."
}

// sameDay reports whether a and b fall on the same calendar day.
func sameDay(a, b time.Time) bool {
	ya, ma, da := a.Date()
	yb, mb, db := b.Date()
	return ya == yb && ma == mb && da == db
}
