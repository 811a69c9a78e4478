package offline

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"unicode"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/internal/text"
)

// AuditOptions tune the offline auditor. Zero values take the defaults noted (ours):
// with c_min = 0.5 every add passes; with γ = 0.8 an add from overlap weighs 0.48, a
// "weak" relation in REALM.md §1's scale.
type AuditOptions struct {
	KeyTop          int     // key evidence by word overlap: at most this many best-scoring nodes. Default 3.
	MisleadingShare float64 // an expanded node sharing less than this share of its words with the key nodes (and none with the query) is misleading. Default 0.2.
	MaxAdds         int     // at most this many adds per audit. Default 3.

	// Confidence of an edit by where its labels come from: the client's feedback, the
	// answer's citations, or word overlap. Defaults 0.9, 0.75, 0.6.
	ConfidenceFeedback, ConfidenceCited, ConfidenceOverlap float64
}

// Audit labels the nodes and proposes edits by the rules of OFFLINE.md ("Audit"): rules on
// ids, words, depths and times. It never fails.
func (o *Agent) Audit(ctx context.Context, in agent.AuditInput) (agent.AuditOutput, realm.Usage, error) {
	out := agent.AuditOutput{Labels: map[string]realm.NodeLabel{}}
	if len(in.Nodes) == 0 {
		return out, realm.Usage{}, nil
	}
	byID := map[string]realm.RecalledNode{}
	words := map[string]map[string]bool{}
	for _, n := range in.Nodes {
		byID[n.Node.ID] = n
		words[n.Node.ID] = auditWords(n.Node.Name, n.Node.Content, n.Node.Description, strings.Join(n.Node.Keywords, " "))
	}
	allQueryWords := auditWords(in.Query)
	queryWords := specificWords(allQueryWords, words)
	// The auditor's rules walk the graph as recall built it: a learned link is a label for
	// its query, not a path, and weakening a misleading one would raise its end.
	g, full := agent.NewSubgraph(withoutLearnedLinks(in)), agent.NewSubgraph(in)

	ev := o.keyEvidence(in, byID, queryWords, words)
	key := ev.key
	keyWords := map[string]bool{}
	for _, id := range key {
		for w := range words[id] {
			keyWords[w] = true
		}
	}
	misleading, misleadingConfidence := o.misleading(in, ev, byID, allQueryWords, keyWords, words)
	for _, n := range in.Nodes {
		id := n.Node.ID
		switch {
		case slices.Contains(key, id):
			out.Labels[id] = realm.KeyEvidence
		case misleading[id]:
			out.Labels[id] = realm.Misleading
		case ev.related[id] || touchesAny(g, id, key):
			out.Labels[id] = realm.SupportingContext
		default:
			out.Labels[id] = realm.Unrelated
		}
	}

	// Strengthen the edges on a shortest path from a seed to each key node, and those
	// between two key nodes.
	strengthened := map[string]bool{}
	strengthen := func(e realm.Edge) {
		p := realm.EditProposal{From: e.From, To: e.To, Action: realm.EditStrengthen, Predicate: e.Predicate, Confidence: ev.confidence, Reason: "leads to key evidence"}
		if k := agent.ProposalKey(p); !strengthened[k] {
			strengthened[k] = true
			out.Edits = append(out.Edits, p)
		}
	}
	var seeds []string
	for _, n := range in.Nodes {
		if n.Depth == 0 {
			seeds = append(seeds, n.Node.ID)
		}
	}
	for _, k := range key {
		for _, e := range shortestPath(g, seeds, k, misleading) {
			strengthen(e)
		}
	}
	for _, k := range key {
		for _, e := range sortedEdges(g.Touching(k)) {
			if slices.Contains(key, agent.OtherEnd(e, k)) {
				strengthen(e)
			}
		}
	}

	// Add an edge between key nodes no edge joins.
	adds := 0
	for i, a := range key {
		for _, b := range key[i+1:] {
			if adds >= o.opts.Audit.MaxAdds || full.Connected(a, b) {
				continue
			}
			from, to, p := relationOf(byID[a].Node, byID[b].Node)
			out.Edits = append(out.Edits, realm.EditProposal{From: from, To: to, Action: realm.EditAdd, Predicate: p, Confidence: ev.confidence, Reason: "both are key evidence of one query"})
			adds++
		}
	}

	// Weaken the edges into misleading nodes.
	weakened := map[string]bool{}
	for _, n := range in.Nodes {
		m := n.Node.ID
		if !misleading[m] {
			continue
		}
		for _, e := range sortedEdges(g.Touching(m)) {
			if e.To != m && !e.Predicate.Symmetric() {
				continue
			}
			p := realm.EditProposal{From: e.From, To: e.To, Action: realm.EditWeaken, Predicate: e.Predicate, Confidence: misleadingConfidence[m], Reason: "leads to a misleading node"}
			if k := agent.ProposalKey(p); !weakened[k] && !strengthened[k] {
				weakened[k] = true
				out.Edits = append(out.Edits, p)
			}
		}
	}
	return out, realm.Usage{}, nil
}

// evidence is what an audit rests on: the key nodes, in a stable order, the confidence of
// the edits they ground, and the nodes related to the question (supporting context when
// not key, never misleading by word overlap).
type evidence struct {
	key        []string
	confidence float64
	related    map[string]bool
}

// keyEvidence finds the key nodes: the client's useful ids, else the answer's citations,
// else the nodes that state the answer (answerKey), else, without an answer, the
// best-scoring nodes that share a specific word with the query; none but the useful ids
// when the client says the answer is wrong.
func (o *Agent) keyEvidence(in agent.AuditInput, byID map[string]realm.RecalledNode, queryWords map[string]bool, words map[string]map[string]bool) evidence {
	fb := realm.Feedback{}
	if in.Feedback != nil {
		fb = *in.Feedback
	}
	ev := evidence{confidence: o.opts.Audit.ConfidenceCited, related: map[string]bool{}}
	for _, n := range in.Nodes {
		ev.related[n.Node.ID] = overlap(words[n.Node.ID], queryWords) > 0
	}
	for _, id := range fb.UsefulNodeIDs {
		if _, ok := byID[id]; ok && !slices.Contains(ev.key, id) && !slices.Contains(fb.MisleadingNodeIDs, id) {
			ev.key = append(ev.key, id)
			ev.confidence = o.opts.Audit.ConfidenceFeedback
		}
	}
	answerWrong := fb.Correct != nil && !*fb.Correct
	answerRight := fb.Correct != nil && *fb.Correct
	if in.Answer != "" && !answerWrong {
		for _, n := range in.Nodes {
			id := n.Node.ID
			cited := slices.Contains(in.Cited, id) || strings.Contains(in.Answer, id)
			if cited && !slices.Contains(ev.key, id) && !slices.Contains(fb.MisleadingNodeIDs, id) {
				ev.key = append(ev.key, id)
				if answerRight {
					ev.confidence = o.opts.Audit.ConfidenceFeedback
				}
			}
		}
	}
	if len(ev.key) > 0 || answerWrong {
		// An answer said wrong, without the nodes that helped, confirms none: the
		// best-scoring nodes, or those stating it, are what it went wrong on as likely as
		// not. No key evidence: no edge is strengthened toward them; those that share the
		// query's words stay supporting context, unconfirmed.
		return ev
	}
	ranked := slices.Clone(in.Nodes)
	slices.SortStableFunc(ranked, func(a, b realm.RecalledNode) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Node.ID, b.Node.ID))
	})
	ranked = slices.DeleteFunc(ranked, func(n realm.RecalledNode) bool { return slices.Contains(fb.MisleadingNodeIDs, n.Node.ID) })
	if in.Answer != "" {
		// The answer tells what the recall was for: the nodes that state it are key, those
		// that hold one of its words related, and a question word ("use" of "which tool
		// do we use?") relates nothing on its own. No node states it: no key evidence.
		ev.confidence = o.opts.Audit.ConfidenceOverlap
		if answerRight {
			ev.confidence = o.opts.Audit.ConfidenceCited
		}
		ev.key, ev.related = answerKey(in.Query, in.Answer, ranked, words, o.opts.Audit.KeyTop)
		return ev
	}
	// Word overlap: the best-scoring nodes that share a content word with the query.
	for _, n := range ranked {
		if len(ev.key) == o.opts.Audit.KeyTop {
			break
		}
		if ev.related[n.Node.ID] {
			ev.key = append(ev.key, n.Node.ID)
		}
	}
	ev.confidence = o.opts.Audit.ConfidenceOverlap
	return ev
}

// answerKey returns the nodes of ranked (best first) that state the answer, at most
// limit, and the nodes that hold one of its distinctive words: its words that are not the
// query's, held by at most half of the nodes (specificWords). A node states the answer
// when it holds the most distinctive words of any node and, among those, the most of the
// query's specific words: "We use pnpm, not npm." to "Which package manager do we use?"
// is stated by "We use pnpm for all JavaScript packages", not by "pnpm install fails on
// Node 18", which only names pnpm, nor by "We use TypeScript", which only shares the
// question's words. Words are compared stemmed.
func answerKey(query, answer string, ranked []realm.RecalledNode, words map[string]map[string]bool, limit int) (key []string, related map[string]bool) {
	stems := map[string]map[string]bool{}
	for id, ws := range words {
		stems[id] = stemmed(ws)
	}
	queryStems := stemmed(auditWords(query))
	distinct := map[string]bool{}
	for w := range stemmed(auditWords(answer)) {
		if !queryStems[w] {
			distinct[w] = true
		}
	}
	distinct = specificWords(distinct, stems)
	specificQuery := specificWords(queryStems, stems)
	type rank struct{ answer, query int }
	ranks := map[string]rank{}
	best := rank{}
	related = map[string]bool{}
	for _, n := range ranked {
		id := n.Node.ID
		r := rank{overlap(stems[id], distinct), overlap(stems[id], specificQuery)}
		ranks[id], related[id] = r, r.answer > 0
		if r.answer > best.answer || (r.answer == best.answer && r.query > best.query) {
			best = r
		}
	}
	for _, n := range ranked {
		if best.answer > 0 && len(key) < limit && ranks[n.Node.ID] == best {
			key = append(key, n.Node.ID)
		}
	}
	return key, related
}

// stemmed is the stems of words (text.Stem).
func stemmed(words map[string]bool) map[string]bool {
	out := map[string]bool{}
	for w := range words {
		out[text.Stem(w)] = true
	}
	return out
}

// misleading returns the misleading nodes and the confidence of weakening each.
func (o *Agent) misleading(in agent.AuditInput, ev evidence, byID map[string]realm.RecalledNode, queryWords, keyWords map[string]bool, words map[string]map[string]bool) (map[string]bool, map[string]float64) {
	out, confidence := map[string]bool{}, map[string]float64{}
	if in.Feedback != nil {
		for _, id := range in.Feedback.MisleadingNodeIDs {
			if _, ok := byID[id]; ok {
				out[id], confidence[id] = true, o.opts.Audit.ConfidenceFeedback
			}
		}
	}
	if len(ev.key) == 0 {
		return out, confidence // nothing to measure "little in common" against
	}
	useful := map[string]bool{}
	if in.Feedback != nil {
		for _, id := range in.Feedback.UsefulNodeIDs {
			useful[id] = true
		}
	}
	for _, n := range in.Nodes {
		id := n.Node.ID
		if n.Depth == 0 || out[id] || useful[id] || ev.related[id] || slices.Contains(ev.key, id) {
			continue
		}
		w := words[id]
		if overlap(w, queryWords) == 0 && len(w) > 0 && float64(overlap(w, keyWords))/float64(len(w)) < o.opts.Audit.MisleadingShare {
			out[id], confidence[id] = true, o.opts.Audit.ConfidenceOverlap
		}
	}
	return out, confidence
}

// shortestPath is the edges of a shortest path, over edges among the recalled nodes in
// either direction and avoiding the nodes of avoid, from any seed to target; nil when
// target is a seed or unreachable. Ties go to the lower ids, so the result is stable.
func shortestPath(g agent.Subgraph, seeds []string, target string, avoid map[string]bool) []realm.Edge {
	if slices.Contains(seeds, target) {
		return nil
	}
	via := map[string]realm.Edge{}
	visited := map[string]bool{}
	frontier := slices.Clone(seeds)
	slices.Sort(frontier)
	for _, s := range frontier {
		visited[s] = true
	}
	for len(frontier) > 0 && !visited[target] {
		var next []string
		for _, u := range frontier {
			for _, e := range sortedEdges(g.Touching(u)) {
				v := agent.OtherEnd(e, u)
				if visited[v] || avoid[v] {
					continue
				}
				visited[v], via[v] = true, e
				next = append(next, v)
			}
		}
		frontier = next
	}
	if !visited[target] {
		return nil
	}
	var path []realm.Edge
	for v := target; !slices.Contains(seeds, v); {
		e := via[v]
		path = append(path, e)
		v = agent.OtherEnd(e, v)
	}
	return path
}

// sortedEdges orders edges by weight (strongest first), then ends and predicate.
func sortedEdges(edges []realm.Edge) []realm.Edge {
	out := slices.Clone(edges)
	slices.SortFunc(out, func(a, b realm.Edge) int {
		return cmp.Or(cmp.Compare(b.Weight, a.Weight), cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To), cmp.Compare(a.Predicate, b.Predicate))
	})
	return out
}

// withoutLearnedLinks is in without its learned links (Edge.Query set).
func withoutLearnedLinks(in agent.AuditInput) agent.AuditInput {
	in.Edges = slices.DeleteFunc(slices.Clone(in.Edges), func(e realm.Edge) bool { return e.Learned() })
	return in
}

func touchesAny(g agent.Subgraph, id string, ids []string) bool {
	for _, e := range g.Touching(id) {
		if slices.Contains(ids, agent.OtherEnd(e, id)) {
			return true
		}
	}
	return false
}

// relationOf is the predicate of an edge the auditor adds between a and b: precedes from
// the earlier to the later of two events with different times, else correlates.
func relationOf(a, b realm.Node) (from, to string, p realm.Predicate) {
	if a.Type == realm.Event && b.Type == realm.Event && a.TStart != nil && b.TStart != nil && !a.TStart.Equal(*b.TStart) {
		if a.TStart.Before(*b.TStart) {
			return a.ID, b.ID, realm.Precedes
		}
		return b.ID, a.ID, realm.Precedes
	}
	return a.ID, b.ID, realm.Correlates
}

// specificWords is the query's words that tell the recalled nodes apart: those in at most
// half of them. A word most of them hold (in a conversation, the speakers' names) says
// nothing of what the query asks; found by it, "key evidence" would be the best-ranked
// nodes whatever they say, and the self-audit a popularity prior.
func specificWords(query map[string]bool, words map[string]map[string]bool) map[string]bool {
	out := map[string]bool{}
	for w := range query {
		n := 0
		for _, ws := range words {
			if ws[w] {
				n++
			}
		}
		if 2*n <= len(words) {
			out[w] = true
		}
	}
	return out
}

// auditWords is the set of lower-cased letter/digit runs of three or more characters
// of texts, minus stop words.
func auditWords(texts ...string) map[string]bool {
	out := map[string]bool{}
	for _, t := range texts {
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if len([]rune(w)) >= 3 && !text.IsFunctionWord(w) {
				out[w] = true
			}
		}
	}
	return out
}

func overlap(a, b map[string]bool) int {
	n := 0
	for w := range a {
		if b[w] {
			n++
		}
	}
	return n
}
