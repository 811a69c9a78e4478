package retrieval

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/realm-memory/realm"
)

// OfflineDecider takes the read path's decisions without an LLM (REALM.md §5): plans from
// keywords and the question's time window, sufficiency from score gaps and coverage of
// the query terms, subgraph_beam by default and path_search for why/how/what-led-to
// questions. It is deterministic and does no I/O.
type OfflineDecider struct {
	// GapEnough: the best node must lead the K-th by at least this much to stop.
	GapEnough float64
	// MaxKeywords bounds a plan's keywords.
	MaxKeywords int
}

// NewOfflineDecider returns an OfflineDecider with our defaults.
func NewOfflineDecider() OfflineDecider { return OfflineDecider{GapEnough: 0.1, MaxKeywords: 8} }

// PlanSeeds returns one hybrid plan: the query, its keywords, and the time window it
// names, if any. A query with no keyword left is a query_match plan.
func (d OfflineDecider) PlanSeeds(ctx context.Context, in PlanInput) ([]realm.Plan, realm.Usage, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	now := in.Time
	if now.IsZero() {
		now = time.Now().UTC()
	}
	window, rest := ParseTimeWindow(in.Query, now)
	plan := realm.Plan{Query: in.Query, Keywords: Keywords(rest, d.maxKeywords()), TimeRange: window, Mode: realm.HybridMatch}
	if len(plan.Keywords) == 0 {
		plan.Mode = realm.QueryMatch
	}
	return []realm.Plan{plan}, nil, nil
}

// Sufficiency is enough when every query keyword appears in the top K nodes and the best
// node leads the K-th by GapEnough; a causal question (why/how/what led to) is never
// enough before one expansion, nor is a top K that holds an unexpanded seed asking a
// question: a question matches the query well but its answer lies beyond it. Otherwise
// it expands the best unexpanded nodes: questions first, then those holding an
// uncovered keyword.
func (d OfflineDecider) Sufficiency(ctx context.Context, in SufficiencyInput) (Sufficiency, realm.Usage, error) {
	if err := ctx.Err(); err != nil {
		return Sufficiency{}, nil, err
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
	if len(top) > 0 && coverage >= 1 && gap >= d.GapEnough && !(causal && in.Depth == 1) {
		if len(questions) == 0 {
			return Sufficiency{IsEnough: true, Reason: reason}, nil, nil
		}
		return Sufficiency{NodesToExpand: questions, Reason: reason + ", questions to follow to their answers"}, nil, nil
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
	return Sufficiency{NodesToExpand: ids, Reason: reason}, nil, nil
}

// ExpansionPolicy follows a node that asks a question to its answers only (subgraph_beam
// over triggers, the construction's question → answer edges); otherwise it picks
// path_search for causal questions and subgraph_beam for the rest, over all predicates.
// contradicts edges are ignored unless the question asks about a change or a conflict; a
// time window of the plans becomes a soft decay around it.
func (d OfflineDecider) ExpansionPolicy(ctx context.Context, in PolicyInput) (Policy, realm.Usage, error) {
	if err := ctx.Err(); err != nil {
		return Policy{}, nil, err
	}
	atom := realm.Atom{Mode: realm.SubgraphBeam, ConflictInhibit: !asksAboutChange(in.Query)}
	reasoning := in.Query
	switch {
	case isQuestion(in.Node.Node.Content):
		// A node that asks leads to what answered it, and only there.
		atom.Predicates = []realm.Predicate{realm.Triggers}
		reasoning = "the answer to: " + in.Node.Node.Content
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
	return Policy{Atom: atom, Reasoning: reasoning}, nil, nil
}

func (d OfflineDecider) maxKeywords() int {
	if d.MaxKeywords > 0 {
		return d.MaxKeywords
	}
	return 8
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

// isStopword reports function words, question words, auxiliaries and time words (the
// time window carries those), which make poor keywords.
func isStopword(w string) bool {
	switch w {
	case "a", "an", "the", "and", "or", "but", "if", "of", "to", "in", "on", "at", "by", "for", "with",
		"about", "from", "into", "over", "after", "before", "during", "as", "than", "then", "so",
		"is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "done", "have",
		"has", "had", "having", "will", "would", "shall", "should", "can", "could", "may", "might", "must",
		"what", "which", "who", "whom", "whose", "when", "where", "why", "how", "that", "this", "these",
		"those", "there", "here", "it", "its", "i", "me", "my", "we", "our", "you", "your", "he", "him",
		"his", "she", "her", "they", "them", "their", "not", "no", "any", "some", "all", "each", "both",
		"other", "such", "own", "same", "too", "very", "just", "also", "ever", "s", "t", "kind", "like",
		"get", "got", "go", "went", "make", "made", "thing", "things", "one", "up", "out", "ago", "last",
		"next", "week", "month", "year", "yesterday", "today", "tomorrow", "day", "days", "weeks", "months",
		"years", "tell", "know", "think", "much", "many", "often", "long":
		return true
	}
	return false
}

// Keywords extracts up to n content words of text, lower-cased, in order, without
// duplicates; stop words, question words and bare numbers are dropped.
func Keywords(text string, n int) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range words(text) {
		if len(out) == n {
			break
		}
		if isStopword(w) || seen[w] || isNumber(w) || len([]rune(w)) < 2 {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// words splits text into lower-cased words of letters and digits; a possessive 's is
// dropped.
func words(text string) []string {
	f := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
	var out []string
	for _, w := range f {
		w = strings.TrimSuffix(strings.Trim(w, "'"), "'s")
		w = strings.ReplaceAll(w, "'", "")
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

func isNumber(w string) bool {
	for _, r := range w {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// stem is a crude suffix stripper so that "moved" covers "move" and "parties" "party".
func stem(w string) string {
	for _, suf := range []string{"ies", "ing", "ed", "es", "s", "e"} {
		if len(w) > len(suf)+2 && strings.HasSuffix(w, suf) {
			w = strings.TrimSuffix(w, suf)
			if suf == "ies" {
				w += "y"
			}
			break
		}
	}
	return w
}

// isQuestion: the text asks something.
func isQuestion(text string) bool { return strings.Contains(text, "?") }

// queryTerms are the stemmed keywords of the plans, or of the query.
func queryTerms(in SufficiencyInput) []string {
	var kws []string
	for _, p := range in.Plans {
		kws = append(kws, p.Keywords...)
	}
	if len(kws) == 0 {
		kws = Keywords(in.Query, 8)
	}
	var out []string
	seen := map[string]bool{}
	for _, k := range kws {
		for _, w := range words(k) {
			if s := stem(w); !seen[s] && !isStopword(w) {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

func nodeTerms(n realm.Node) map[string]bool {
	out := map[string]bool{}
	text := n.Name + " " + n.Content + " " + strings.Join(n.Keywords, " ")
	for _, w := range words(text) {
		out[stem(w)] = true
	}
	return out
}
