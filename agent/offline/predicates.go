package offline

import (
	"regexp"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// Discourse predicates (OFFLINE.md, "Relate"): a reply that says outright how it relates
// to the turn it replies to. Only the words that say so draw an edge, between the
// previous turn's node and this turn's; a reply without them draws none of these.
var discourseCues = []struct {
	re        *regexp.Regexp
	predicate realm.Predicate
	forward   bool // previous turn → this one; else this one → previous
	desc      string
}{
	{regexp.MustCompile(`(?i)^\W*(?:(?:well|yeah|yes|and|oh)\W+)?(?:that's why|that is why|which is why|as a result|because of (?:that|this|it)|(?:that|this|it) led (?:me |us |to)|(?:that|this) is what made)`), realm.ResultsIn, true, "led to this"},
	{regexp.MustCompile(`(?i)^\W*(?:(?:well|yeah|yes|and|oh)\W+)?(?:thanks to (?:that|this|it|you|your)|that's how|this is how|(?:that|this|it) (?:made it possible|allowed|let) )`), realm.Enables, true, "made this possible"},
	{regexp.MustCompile(`(?i)^\W*(?:(?:well|yeah|yes|oh)\W+)?(?:that means|which means|this means|so that means|(?:that|this) must mean)\b`), realm.Implies, true, "means this"},
	{regexp.MustCompile(`(?i)^\W*(?:(?:well|yeah|yes|oh)\W+)?(?:i can confirm|(?:that's|that is|it's|it is) (?:true|correct)|confirmed|i checked|here's (?:the )?proof|here is (?:the )?proof)\b`), realm.Verifies, false, "confirms it"},
	{regexp.MustCompile(`(?i)^\W*(?:(?:well|yeah|yes|oh)\W+)?(?:in short|to sum up|in summary|all in all|long story short|in a nutshell|to summari[sz]e)\b`), realm.Summarizes, false, "sums it up"},
	{regexp.MustCompile(`(?i)^\W*(?:(?:well|yeah|yes|oh|haha|lol)\W+)?(?:me too|same here|same with me|me as well|so did i|so do i|i did too|i do too|i did the same|same thing happened to me|that happened to me too)\b`), realm.AnalogousTo, false, "the same happened to both"},
}

// reWhy: a question asking for a reason, which a reply opening with "because" answers.
var (
	reWhy      = regexp.MustCompile(`(?i)\bwhy\b`)
	reBecause  = regexp.MustCompile(`(?i)^\W*(?:(?:well|yeah|oh)\W+)?(?:because|'cause|cause)\b`)
	weightCued = 0.7
)

// discourseEdges draws the edges a reply's opening words state, between the node of the
// turn it replies to (its other source: an exchange; or the turn whose question it
// answers, which it does not quote when the question is phatic: "I adopted a dog. How are
// you?" — "Me too!…") and this turn's.
func (r *relater) discourseEdges(edges []agent.EdgeOp, i int, c agent.Candidate) []agent.EdgeOp {
	replied := c.InReplyTo
	if len(c.AlsoFrom) > 0 {
		replied = c.AlsoFrom[0]
	}
	if replied == "" {
		return edges
	}
	prev, prevText := questionNode(r.byID[i], replied)
	if prev == "" {
		return edges
	}
	said := r.in.Observation.Content
	for _, cue := range discourseCues {
		if !cue.re.MatchString(said) {
			continue
		}
		if cue.forward {
			return r.emit(edges, i, prev, agent.Self, cue.predicate, weightCued, "the turn before "+cue.desc)
		}
		return r.emit(edges, i, agent.Self, prev, cue.predicate, weightCued, "this turn "+cue.desc)
	}
	// "Why did you move?" — "Because I got a job there": the reason results in what was asked about.
	if reWhy.MatchString(prevText) && reBecause.MatchString(said) {
		return r.emit(edges, i, agent.Self, prev, realm.ResultsIn, weightCued, "the reason for what was asked")
	}
	return edges
}
