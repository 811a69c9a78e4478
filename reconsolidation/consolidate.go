package reconsolidation

import (
	"slices"

	"github.com/realm-memory/realm"
)

// Predicates of learned links (REALM.md §4 "ours"): co-useful nodes of one query are
// correlated (symmetric: each end is key evidence); a node labelled alone is linked from
// an anchor, the best-ranked other recalled node, which it contextualizes for the query.
const (
	coUsefulPredicate = realm.Correlates
	anchorPredicate   = realm.Contextualizes
)

// learnedLinks proposes the query-conditioned consolidation of one reconsolidation whose
// labels come from the client or the answer's citations (REALM.md §3.3 "Ours" 2, §4
// "ours"): links that carry the query and the label of their end, so that they act only
// on later queries close to this one (retrieval/consolidate.go).
//
//   - Co-useful: every two key nodes no edge joins get a correlates link (at most
//     maxLinks links in all, key nodes in their given order).
//   - A key node left without a co-useful link, found directly or not, gets a link from
//     its anchor: the best-ranked recalled node that is neither key nor misleading (a
//     seed the query matched), else another key node.
//   - A misleading node gets a link from its anchor: the best-ranked key node, else the
//     best-ranked node not misleading.
//
// A link that exists already, with the same label, is strengthened instead; a pair joined
// by another edge of the link's predicate gets none. nodes are best first.
func learnedLinks(in AuditInput, g subgraph, key []string, misleading map[string]bool, confidence func(id string) float64, maxLinks int) []realm.EditProposal {
	var out []realm.EditProposal
	linked := map[string]bool{}
	propose := func(from, to string, p realm.Predicate, label realm.NodeLabel) bool {
		c := confidence(to)
		if e, ok := g.edge(from, to, p); ok {
			if e.Query == "" || e.Label != label {
				return false
			}
			out = append(out, realm.EditProposal{From: e.From, To: e.To, Action: realm.EditStrengthen, Predicate: p, Confidence: c,
				Reason: "confirmed again for a query close to the one it was learned for"})
			return true
		}
		if g.connected(from, to) && p == coUsefulPredicate {
			return false // co-useful: only nodes not yet linked (REALM.md §4 "ours")
		}
		if len(out) >= maxLinks {
			return false
		}
		out = append(out, realm.EditProposal{From: from, To: to, Action: realm.EditAdd, Predicate: p, Confidence: c,
			Query: in.Query, Label: label})
		g.join(from, to)
		return true
	}
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
			id := n.Node.ID
			if id != target && !misleading[id] && !slices.Contains(key, id) {
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
		if linked[k] {
			continue
		}
		if a := anchor(k, nil); a != "" {
			propose(a, k, anchorPredicate, realm.KeyEvidence)
		}
	}
	for _, n := range in.Nodes {
		m := n.Node.ID
		if !misleading[m] {
			continue
		}
		if a := anchor(m, key); a != "" {
			propose(a, m, anchorPredicate, realm.Misleading)
		}
	}
	return out
}

// edge returns the edge from → to of predicate p among the recalled nodes (either
// direction for a symmetric predicate).
func (g subgraph) edge(from, to string, p realm.Predicate) (realm.Edge, bool) {
	if e, ok := g.edges[from+" "+to+" "+string(p)]; ok {
		return e, true
	}
	e, ok := g.edges[to+" "+from+" "+string(p)]
	return e, ok && p.Symmetric()
}

// join records that an edge now joins a and b.
func (g subgraph) join(a, b string) { g.joined[pairKey(a, b)] = true }
