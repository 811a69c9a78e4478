package reconsolidation

import (
	"slices"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// Predicates of learned links (REALM.md §4 "ours"): co-useful nodes of one query are
// correlated (symmetric: each end is key evidence); a node labelled alone is linked from
// an anchor, the best-ranked other recalled node, which it contextualizes for the query.
const (
	coUsefulPredicate = realm.Correlates
	anchorPredicate   = realm.Contextualizes
)

// Confidence of a learned link by where its end's label comes from: the client's
// feedback, the answer's citations, or the LLM auditor's judgement (unconfirmed, and a
// model's word: just above c_min).
const (
	linkConfidenceFeedback = 0.9
	linkConfidenceCited    = 0.75
	linkConfidenceJudged   = 0.6
)

// groundedLabels are the recalled nodes labelled key evidence or misleading by a signal
// other than word overlap (the offline self-audit's, which learns no link: it would be a
// popularity prior fed by the system's own guesses), each with the confidence of its
// source: the client's useful and misleading ids, the answer's citations and the key
// evidence of an auditor that judged the nodes (the LLM one) unless the client says the
// answer is wrong, and that auditor's misleading nodes. key is in the order of in.Nodes
// (best first); the client outranks the rest.
func groundedLabels(in agent.AuditInput, out agent.AuditOutput) (key []string, misleading map[string]bool, confidence map[string]float64) {
	misleading, confidence = map[string]bool{}, map[string]float64{}
	fb := realm.Feedback{}
	if in.Feedback != nil {
		fb = *in.Feedback
	}
	answerWrong := fb.Correct != nil && !*fb.Correct
	for _, n := range in.Nodes {
		id := n.Node.ID
		switch {
		case slices.Contains(fb.MisleadingNodeIDs, id):
			misleading[id], confidence[id] = true, linkConfidenceFeedback
		case slices.Contains(fb.UsefulNodeIDs, id):
			key, confidence[id] = append(key, id), linkConfidenceFeedback
		case slices.Contains(in.Cited, id) && !answerWrong:
			key, confidence[id] = append(key, id), linkConfidenceCited
		case out.Judged && out.Labels[id] == realm.KeyEvidence && !answerWrong:
			key, confidence[id] = append(key, id), linkConfidenceJudged
		case out.Judged && out.Labels[id] == realm.Misleading:
			misleading[id], confidence[id] = true, linkConfidenceJudged
		}
	}
	return key, misleading, confidence
}

// learnedLinks proposes the query-conditioned consolidation of one reconsolidation
// (REALM.md §3.3 "Ours" 2, §4 "ours"): links that carry the query and the label of their
// end, so that they act only on later queries close to this one (retrieval/consolidate.go),
// from the grounded labels (groundedLabels):
//
//   - Co-useful: every two key nodes no edge joins get a correlates link.
//   - A key node left without a co-useful link, found directly or not, gets a link from
//     its anchor: the best-ranked recalled node that is neither key nor misleading (a
//     seed the query matched), else another key node.
//   - A misleading node gets a link from its anchor: the best-ranked key node, else the
//     best-ranked node not misleading.
//
// At most maxLinks adds in all. A link that exists already with the same label is
// strengthened instead; a pair joined by another edge of the link's predicate gets none.
// grounded reports that there were grounded labels to learn from (and maxLinks > 0), even
// when every link they call for exists already under another label.
func learnedLinks(in agent.AuditInput, out agent.AuditOutput, maxLinks int) (links []realm.EditProposal, grounded bool) {
	key, misleading, confidence := groundedLabels(in, out)
	if maxLinks == 0 || len(key)+len(misleading) == 0 {
		return nil, false
	}
	g := agent.NewSubgraph(in)
	var edits []realm.EditProposal
	adds := 0
	propose := func(from, to string, p realm.Predicate, label realm.NodeLabel) bool {
		if e, ok := g.Edge(from, to, p); ok {
			if !e.Learned() || e.Label != label {
				return false
			}
			edits = append(edits, realm.EditProposal{From: e.From, To: e.To, Action: realm.EditStrengthen, Predicate: p,
				Confidence: confidence[to], Reason: "confirmed again for a query close to the one it was learned for"})
			return true
		}
		if (p == coUsefulPredicate && g.Connected(from, to)) || adds >= maxLinks {
			return false
		}
		edits = append(edits, realm.EditProposal{From: from, To: to, Action: realm.EditAdd, Predicate: p,
			Confidence: confidence[to], Query: in.Query, Label: label})
		g.Join(from, to)
		adds++
		return true
	}
	linked := map[string]bool{}
	for i, a := range key {
		for _, b := range key[i+1:] {
			if propose(a, b, coUsefulPredicate, realm.KeyEvidence) {
				linked[a], linked[b] = true, true
			}
		}
	}
	anchor := func(target string, prefer []string) string {
		for _, id := range prefer {
			if id != target {
				return id
			}
		}
		for _, n := range in.Nodes {
			if id := n.Node.ID; id != target && !misleading[id] && !slices.Contains(key, id) {
				return id
			}
		}
		for _, id := range key {
			if id != target {
				return id
			}
		}
		return ""
	}
	for _, k := range key {
		if a := anchor(k, nil); !linked[k] && a != "" {
			propose(a, k, anchorPredicate, realm.KeyEvidence)
		}
	}
	for _, n := range in.Nodes {
		if m := n.Node.ID; misleading[m] {
			if a := anchor(m, key); a != "" {
				propose(a, m, anchorPredicate, realm.Misleading)
			}
		}
	}
	return edits, true
}

// withLearnedLinks puts the learned links before the auditor's edits. When the labels were
// grounded (learnedLinks), the auditor's adds and strengthens that carry no query are
// dropped: the learned links replace them. The paper's add between key nodes and its
// strengthening of the path from a seed to key evidence are edges every later query walks,
// so a node confirmed useful for one question would rise for any question reaching it
// over that path (TestFeedbackLeavesOtherQueries). The weakening of the edges into a
// misleading node stays: it can only lower what leads there.
func withLearnedLinks(links []realm.EditProposal, grounded bool, edits []realm.EditProposal) []realm.EditProposal {
	if !grounded {
		return edits
	}
	out := slices.Clone(links)
	for _, e := range edits {
		if e.Action == realm.EditWeaken || e.Query != "" {
			out = append(out, e)
		}
	}
	return out
}
