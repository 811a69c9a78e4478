package offline

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/internal/text"
)

// The read path's decisions without an LLM (REALM.md §5): plans from keywords and the
// question's time window, sufficiency from score gaps and coverage of the query terms,
// subgraph_beam by default and path_search for why/how/what-led-to questions.

// PlanSeeds returns one hybrid plan: the query, its keywords, and the time window it
// names, if any (see window), and for a question about what was said then, that time
// (SaidIn, asksWhatWasSaid). A query with no keyword left is a query_match plan; when it
// names a time, the memories told then (SaidIn) or dated then (DatedIn), or over a longer
// time, or ahead (a time to come, what one has then: asksWhatIsOn), a hybrid plan.
// A question about what was planned for a time ("Where were we going in May?") asks of a
// plan told before it, for a time past or to come: asked in December, of last May's or of
// the coming May's, each a plan of its own when they differ.
func (o *Agent) PlanSeeds(ctx context.Context, in agent.PlanInput) ([]realm.Plan, realm.Usage, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	now := in.Time
	if now.IsZero() {
		now = time.Now().UTC()
	}
	has := asksWhatIsOn.MatchString(in.Query)
	tense := text.TensePast
	switch {
	case has:
		tense = text.TenseFuture
	case plannedThen.MatchString(in.Query): // a plan told then, of a day that may lie ahead
		tense = text.TenseUnknown
	}
	plans := []realm.Plan{o.plan(in.Query, now, tense, has)}
	if tense == text.TenseUnknown && plannedBefore.MatchString(in.Query) {
		if last := o.plan(in.Query, now, text.TensePast, has); !reflect.DeepEqual(last, plans[0]) {
			plans = append(plans, last)
		}
	}
	return plans, nil, nil
}

// plan is the plan of query asked at now, the times it names placed by tense; has: it
// asks what one has then (asksWhatIsOn).
func (o *Agent) plan(query string, now time.Time, tense int, has bool) realm.Plan {
	plan := realm.Plan{Query: query, Mode: realm.HybridMatch}
	words := query
	ahead := false                 // of a time to come, or of what one has then
	var asked *realm.TimeRange     // the time the question names, without the window's lag
	dateWords := map[string]bool{} // the keywords that are the words of the time it names
	m, rest, named := text.QuestionTime(query, now, tense)
	plan.Latest = !named && asksLatest(query)
	if named {
		asked = &realm.TimeRange{From: m.From, To: m.To}
		ahead = has || m.From.After(now)
		plan.TimeRange = o.window(m, ahead)
		if countsBack(query, m, now, tense) {
			plan.TimeRange.From = time.Time{}
		}
		if m.Label == "" || m.Relative {
			words = rest
		} else {
			for _, k := range text.Keywords(query[m.Start:m.End], o.opts.MaxKeywords) {
				dateWords[k] = true // "october" of "October 13"
			}
		}
		if asksWhatWasSaid.MatchString(query) && m.To.Sub(m.From) <= agent.MaxSaidIn {
			plan.SaidIn = asked
		}
	}
	// An identifier is looked up whole ("10.1057/s41562.2017.10.791"), not as the parts
	// other identifiers share.
	ids := text.Identifiers(words)
	for _, id := range ids {
		words = replaceWord(words, id, " ")
	}
	// "et al." follows a name in every citation: no keyword of any of them.
	words = reEtAl.ReplaceAllString(words, " ")
	plan.Keywords = text.Keywords(words, o.opts.MaxKeywords)
	if plan.Latest {
		// "last" and "latest" say which of the memories asked about, not what they say.
		plan.Keywords = slices.DeleteFunc(plan.Keywords, func(k string) bool { return latestWords[k] })
	}
	if ahead && has {
		// What one has then asks of every memory of then: the words it asks with ("doing",
		// "anything planned") are not what the memories say.
		plan.Keywords = slices.DeleteFunc(plan.Keywords, func(k string) bool { return asksWithWhatIsOn[k] })
	}
	// The number of an identifier: keywords drop bare numbers, the full-text index holds
	// "T-7788" as the terms "t" and "7788"; a number written in groups, whole as well; a
	// part of a document by its number ("Section 7.2": the term "7.2").
	var sections []string
	for _, ref := range text.Sections(words) {
		sections = append(sections, ref[strings.LastIndexByte(ref, ' ')+1:])
	}
	for _, n := range slices.Concat(ids, sections, text.IDNumbers(words), groupedNumbers(words), citedYears(words)) {
		if !slices.Contains(plan.Keywords, n) {
			plan.Keywords = append(plan.Keywords, n)
		}
	}
	// Nothing but a time is asked about ("What did I do last weekend?", "What happened
	// yesterday?"): what is remembered of then is what was told then (or, the window says,
	// shortly after) and what is dated then, told before ("This weekend I'm visiting the
	// MoMA") or since, by similarity to the question, rather than every memory without a
	// time that the window lets through. Not of a time to come, nor what one has then
	// ("What do I have tomorrow?", "What's on today?"): what is remembered of it is what
	// was planned for it, dated then, and what has no time of its own, as "every Tuesday"
	// has not: the window's hybrid plan below.
	// So is what we did then ("What did we do last Friday?", "What did we do on October
	// 13?", whose "october" stays a keyword), besides what was said then: "We flew to Rome
	// on Friday", told on Monday.
	onlyTime := plan.TimeRange != nil && !slices.ContainsFunc(plan.Keywords, func(k string) bool { return !framesTime[k] && !dateWords[k] })
	switch {
	case onlyTime && plan.SaidIn != nil:
		plan.DatedIn = asked
	case onlyTime && !ahead && plan.TimeRange.To.Sub(plan.TimeRange.From) <= agent.MaxSaidIn:
		said := *plan.TimeRange
		plan.SaidIn, plan.DatedIn = &said, asked
	case onlyTime && len(plan.Keywords) == 0:
		// Too long a time for that ("What did I do over the summer?"): a hybrid plan, for
		// its window to filter the seeds (a query_match plan's does not, REALM.md §3.1), of
		// the query without the time, which its keywords are taken from when it has none:
		// neither "summer" nor its meaning draws the memories that say it.
		plan.Query = words
		return plan
	}
	if len(plan.Keywords) == 0 {
		plan.Mode = realm.QueryMatch
	}
	return plan
}

// countsBack reports whether the question names the time m as the end of what it asks
// about rather than as its time: "How many tournaments has Nate won by July 10, 2022?",
// "What did Maria do the weekend before April 10, 2023?", or after another time it counts
// back from m ("What did Joanna finish last Friday on 23 January, 2022?"). Its window is
// then open at the start: every time up to m's window's end.
// A time that closes a span the question names ("between March 3 and March 9", "from
// May 1 to May 5") ends no such count.
func countsBack(q string, m text.Mention, now time.Time, tense int) bool {
	before := q[:m.Start]
	if closesSpan.MatchString(before) {
		return false
	}
	return endsBefore.MatchString(before) || len(text.Dates(before, now, tense)) > 0
}

// plannedThen: a question about what was or is planned ("Where were we going on April 9?",
// "What was Ana supposed to bring on Friday?", "Is Maya going to Lisbon in May?", "Where
// are we going in May?", "What will Tom do on Friday?"), whose day is the nearest, ahead
// or past; plannedBefore: one about what was planned, of the last such day too.
var (
	plannedThen   = regexp.MustCompile(`(?i)\b(?:was|were|is|are|am)` + planned + `|\bwill\b`)
	plannedBefore = regexp.MustCompile(`(?i)\b(?:was|were)` + planned)
)

const planned = `(?: \w+)? (?:going|planning|supposed to|meant to|due|scheduled)\b`

// endsBefore: the words before a time that make it the end of what is asked about.
var endsBefore = regexp.MustCompile(`(?i)\b(by|before|until|till)\s*$`)

// closesSpan: the words before a time that make it the end of a span the question names.
var closesSpan = regexp.MustCompile(`(?i)\b(?:between|from)\b.*\b(?:and|to|until|till|through)\s*$`)

// reEtAl: "et al." after an author's name.
var reEtAl = regexp.MustCompile(`(?i)\bet\s+al\b\.?`)

// reCitedYear: a year right after a capitalised word, in brackets or after a comma or
// not ("Smith 2021", "Smith et al. (2021)", once "et al." is cut, "Garcia & Lee, 2019").
var reCitedYear = regexp.MustCompile(`(\p{Lu}[\p{L}'’-]+)\s*,?\s*\(?((?:1[5-9]|20)\d\d)\b`)

// citedYears are the years of s that stand after a name, as a citation's does: the year
// is what tells "Smith 2021" from Smith's other papers, a keyword as the name is. A
// month's or a weekday's year ("May 2023") is a time, and a stop word's ("In 2021") too.
func citedYears(s string) []string {
	var out []string
	for _, m := range reCitedYear.FindAllStringSubmatch(s, -1) {
		if w := strings.ToLower(m[1]); !nonName[w] && !text.IsStopword(w) {
			out = append(out, m[2])
		}
	}
	return out
}

// numberGroups: a number written in groups of digits, each after a space, a point, a
// hyphen or a slash ("0088 412 390", "4417-203-998").
var numberGroups = regexp.MustCompile(`\b\d+(?:[ .\-/]\d+)+\b`)

// groupedNumbers are the numbers of s written in groups, with their digits joined, of six
// digits or more (fewer are a time or a range: "14-18"): the index holds a number written
// whole ("0088412390") as one term, which the groups do not match, and which is no
// longer number's.
func groupedNumbers(s string) []string {
	var out []string
	for _, m := range numberGroups.FindAllString(s, -1) {
		if n := strings.Map(func(r rune) rune {
			if '0' <= r && r <= '9' {
				return r
			}
			return -1
		}, m); len(n) >= 6 {
			out = append(out, n)
		}
	}
	return out
}

// asksWhatWasSaid: a question about what was said, told or shared, which with a time
// ("What did we talk about yesterday?", "What did Tim say about his injury on 16 November,
// 2023?") asks for the memories said then, whatever they say of their own time; so does a
// question about what we (the speakers together) or you (the assistant) did, worked on or
// decided then ("What did we do last Tuesday?", "What did we decide last week?"), and any
// question of what we or you did then, whatever the verb ("What did we cover in
// October?", "What topics did we go over yesterday?", "What were we reviewing?"): their
// work together is their conversation. What I or someone named did then ("What did
// Caroline do last weekend?") happened in the world, and is often told days later: its
// time is the event's, the plan's ordinary window. A relative time ("yesterday") counts
// from the question's time here, as a live agent asks.
var asksWhatWasSaid = regexp.MustCompile(`(?i)\b(talk(ed|ing)? about|discuss(ed|ing)?|chat(ted|ting)? about|conversation|say|said|tell|told|mention(ed)?|share[sd]?|spoke|speak)\b|` +
	`\bwhat( \w+)? (did|were) (we|you)\b|\b(did (we|you) (do|work on|decide|agree on|plan|fix|build|change)|were (we|you) (doing|working on))\b`)

// asksLatest reports whether question q asks for the last, latest or most recent of
// something ("What was Ana's last quiz score?", "When did I last go for a run?", "the
// last time", "her most recent job"): its answer is the newest of the memories that match
// it (realm.Plan.Latest). "last" followed by a word of a time ("the last week", "the last
// two weeks") or a last name is not (notLatest). A question that names a time ("last
// Friday", "their latest project in July 2023") asks for the memories of then, which
// were the latest then (PlanSeeds does not ask this).
func asksLatest(q string) bool {
	for _, at := range latest.FindAllStringSubmatchIndex(q, -1) {
		next := ""
		if at[2] >= 0 {
			next = strings.ToLower(q[at[2]:at[3]])
		}
		if !notLatest.MatchString(next) {
			return true
		}
	}
	return false
}

// latest: "latest", "newest" and "most recent", and "last" after a possessive or "the"
// ("Ana's last quiz", "the last time") or as an adverb after a subject of up to three
// words ("did I last go", "When was the front door last left open?"), with the word after
// it, if any.
var latest = regexp.MustCompile(`(?i)\b(?:latest|newest|most recent(?:ly)?|(?:my|our|your|his|her|their|its|the|\w+(?:'|’)s) last|(?:did|do|does|have|has|had|was|were)(?: [\w'’]+){1,3} last)\b(?:\s+(\w+))?`)

// notLatest: the words after "last" that make it a time ("the last week", "the last few
// days", "his last summer") or a name ("Caroline's last name").
var notLatest = regexp.MustCompile(`^(names?|night|morning|evening|days?|weeks?|weekend|fortnight|months?|years?|decade|season|summer|winter|spring|fall|autumn|few|couple|several|\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december)$`)

// latestWords: the keywords a question of asksLatest may ask with.
var latestWords = map[string]bool{"last": true, "latest": true, "newest": true, "recent": true, "recently": true}

// asksWhatIsOn: a question about what one has, does or has planned at a time ("What do
// I have on Tuesday?", "What's on today?", "What am I doing this weekend?", "Do I have
// anything on the 1st?"), which asks of the events of then, planned before, not of what
// was said then, and of the coming Tuesday rather than the last.
var asksWhatIsOn = regexp.MustCompile(`(?i)\b(do|does) \w+ have\b|\bhave (i|we|you) got\b|\bwhat(?:'|’)?s on\b|\bwhat is on\b|` +
	`\b(am|are|is) \w+ (doing|up to)\b|\b(what(?:'|’)?s|what is|what are|anything|something) (planned|scheduled)\b`)

// asksWithWhatIsOn: the keywords a question of asksWhatIsOn may ask with.
var asksWithWhatIsOn = map[string]bool{"anything": true, "doing": true, "planned": true, "scheduled": true}

// framesTime: the words a question about nothing but a time may ask with besides the
// stop words ("What happened last week?").
var framesTime = map[string]bool{"happen": true, "happened": true, "happens": true, "happening": true}

// window is the seeds' hard time filter for the question's time expression m. A memory
// is dated by what it says happened when it says so, else by when it was told, which may
// be days after the fact ("we met up, they gave me a jersey", told two days later): a
// window shorter than a week (a day, a weekend) therefore also admits memories dated up to
// TimeLag after it, unless the question is ahead, of a time to come or of what one has
// then ("What do I have tomorrow?"): what is planned is dated by the day it is planned
// for, and a day's window is that day. A relative expression ("yesterday", "last
// weekend", "two days ago", "last week", "last summer") counts from the question's time,
// the asker's now: pass the time of the question when it is not now. Its words leave the keywords (PlanSeeds): they
// say when, not what, and "weekend" would match every memory that says "this weekend". So
// do the words of an expression that spells out its year (QuestionTime's Label is empty):
// the window says all they say. A named date without its year keeps its words: the year is
// the planner's guess, and the words keep ranking the memories that name that time ("the
// second week of November" keeps "second" and "november").
func (o *Agent) window(m text.Mention, ahead bool) *realm.TimeRange {
	if !ahead && m.To.Add(time.Second).Sub(m.From) < 7*24*time.Hour {
		return &realm.TimeRange{From: m.From, To: m.To.Add(o.opts.TimeLag)}
	}
	return &realm.TimeRange{From: m.From, To: m.To}
}

// Sufficiency is enough when every query keyword appears in the top K nodes and the best
// node leads the K-th by GapEnough; a causal question (why/how/what led to) is never
// enough before one expansion, nor is a top K that holds an unexpanded seed asking a
// question: a question matches the query well but its answer lies beyond it. Otherwise
// it expands the best unexpanded nodes: questions first, then those holding an
// uncovered keyword.
func (o *Agent) Sufficiency(ctx context.Context, in agent.SufficiencyInput) (agent.Sufficiency, realm.Usage, error) {
	if err := ctx.Err(); err != nil {
		return agent.Sufficiency{}, nil, err
	}
	terms := queryTerms(in)
	top := in.Nodes
	if in.K > 0 && len(top) > in.K {
		top = top[:in.K]
	}
	covered := map[string]bool{}
	for _, c := range top {
		text := nodeTerms(c.Node)
		for _, t := range terms {
			if text[t] {
				covered[t] = true
			}
		}
	}
	coverage := 1.0
	if len(terms) > 0 {
		coverage = float64(len(covered)) / float64(len(terms))
	}
	gap := 0.0
	if len(top) > 1 {
		gap = top[0].Score - top[len(top)-1].Score
	}
	causal := IsCausal(in.Query)
	reason := fmt.Sprintf("coverage %.2f of %d terms, gap %.2f", coverage, len(terms), gap)
	// Seeds among the top K that ask a question, to be expanded first, toward their
	// answers. A question reached by expansion is not followed: an answer that asks back
	// leads from one exchange to the next, away from the query.
	var questions []string
	for _, c := range top {
		if !c.Expanded && c.Depth == 0 && isQuestion(c.Node.Content) {
			questions = append(questions, c.Node.ID)
		}
	}
	if len(top) > 0 && coverage >= 1 && gap >= o.opts.GapEnough && !(causal && in.Depth == 1) {
		if len(questions) == 0 {
			return agent.Sufficiency{IsEnough: true, Reason: reason}, nil, nil
		}
		return agent.Sufficiency{NodesToExpand: questions, Reason: reason + ", questions to follow to their answers"}, nil, nil
	}
	// Then nodes that hold an uncovered term, then by score.
	var holding, rest []string
	for _, c := range in.Nodes {
		if c.Expanded || c.Depth >= in.MaxDepth || slices.Contains(questions, c.Node.ID) || (c.Depth > 0 && isQuestion(c.Node.Content)) {
			continue
		}
		text := nodeTerms(c.Node)
		holds := false
		for _, t := range terms {
			if !covered[t] && text[t] {
				holds = true
			}
		}
		if holds {
			holding = append(holding, c.Node.ID)
		} else {
			rest = append(rest, c.Node.ID)
		}
	}
	ids := append(append(questions, holding...), rest...)
	if len(ids) > 5 {
		ids = ids[:5]
	}
	return agent.Sufficiency{NodesToExpand: ids, Reason: reason}, nil, nil
}

// ExpansionPolicy follows a node that asks a question to its answers only (subgraph_beam
// over triggers, the construction's question → answer edges); otherwise it picks
// path_search for causal questions and subgraph_beam for the rest, over all predicates.
// contradicts edges are ignored unless the question asks about a change or a conflict; a
// time window of the plans becomes a soft decay around it.
func (o *Agent) ExpansionPolicy(ctx context.Context, in agent.PolicyInput) (agent.Policy, realm.Usage, error) {
	if err := ctx.Err(); err != nil {
		return agent.Policy{}, nil, err
	}
	atom := realm.Atom{Mode: realm.SubgraphBeam, ConflictInhibit: !asksAboutChange(in.Query)}
	switch {
	case isQuestion(in.Node.Node.Content):
		// A node that asks leads to what answered it, and only there. Its answers are
		// scored by the query, as every other hop is: "the answer to: " the question
		// ranked the same answers on LoCoMo (760 top 10s identical) and cost an embedding
		// of a new text at most recalls.
		atom.Predicates = []realm.Predicate{realm.Triggers}
	case IsCausal(in.Query):
		atom.Mode = realm.PathSearch
	}
	for _, p := range in.Plans {
		if p.TimeRange == nil || p.TimeRange.From.IsZero() || p.TimeRange.To.IsZero() {
			continue
		}
		half := p.TimeRange.To.Sub(p.TimeRange.From) / 2
		atom.Decay = &realm.TemporalDecay{
			Time: p.TimeRange.From.Add(half), DeltaT: max(half, 12*time.Hour),
			Mode: realm.DecaySoft, MissingTime: realm.MissingTimeKeep,
		}
		break
	}
	return agent.Policy{Atom: atom, Reasoning: in.Query}, nil, nil
}

var causalQuestion = regexp.MustCompile(`(?i)\b(why|how (did|does|do|come|was|were|is|are|can|could|has|had)|what (led|leads|caused|causes|made|makes)|led to|lead to|because|reason|result(ed)? in)\b`)

var quantityQuestion = regexp.MustCompile(`(?i)\bhow (many|much|long|often|old|far)\b`)

// IsCausal reports whether a question asks why, how, or what led to something.
func IsCausal(q string) bool {
	if quantityQuestion.MatchString(q) {
		return false
	}
	return causalQuestion.MatchString(q)
}

var changeQuestion = regexp.MustCompile(`(?i)\b(change[ds]?|contradict\w*|differ\w*|still|anymore|no longer|used to|instead|conflict\w*|switch\w*)\b`)

func asksAboutChange(q string) bool { return changeQuestion.MatchString(q) }

// isQuestion: the text asks something.
func isQuestion(s string) bool { return strings.Contains(s, "?") }

// queryTerms are the stemmed keywords of the plans, or of the query.
func queryTerms(in agent.SufficiencyInput) []string {
	var kws []string
	for _, p := range in.Plans {
		kws = append(kws, p.Keywords...)
	}
	if len(kws) == 0 {
		kws = text.Keywords(in.Query, 8)
	}
	var out []string
	seen := map[string]bool{}
	for _, k := range kws {
		for _, w := range text.Words(k) {
			if s := text.Stem(w); !seen[s] && !text.IsQuestionStopword(w) {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

func nodeTerms(n realm.Node) map[string]bool {
	out := map[string]bool{}
	all := n.Name + " " + n.Content + " " + strings.Join(n.Keywords, " ")
	for _, w := range text.Words(all) {
		out[text.Stem(w)] = true
	}
	return out
}
