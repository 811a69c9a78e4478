package reconsolidation

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/realm-memory/realm"
)

// Auditor labels the nodes of one recall and proposes edits of the edges among them
// (REALM.md §4.1–4.2). Implementations: Offline here; an LLM one in the agent package
// can follow. Audit returns EUnavailable when a remote model cannot be reached; its
// proposals are validated by the caller (Validate), so it may propose nonsense.
type Auditor interface {
	Audit(ctx context.Context, in AuditInput) (AuditOutput, realm.Usage, error)
}

// AuditInput is what an auditor sees: the query, the answer (may be empty or wrong), the
// recalled nodes (Depth 0 is a seed, more is expanded) and the edges among them, and the
// client's feedback when there is some. Cited are the ids of recalled nodes the answer
// cites (an answerer's citations: the answer's evidence, not confirmed feedback).
type AuditInput struct {
	Query    string
	Answer   string
	Cited    []string
	Nodes    []realm.RecalledNode
	Edges    []realm.Edge
	Feedback *realm.Feedback
}

// Confirmed reports whether the input carries confirmed feedback (η rather than η/2).
func (in AuditInput) Confirmed() bool { return in.Feedback != nil && in.Feedback.Confirmed() }

// AuditOutput is an auditor's verdict: a label per recalled node id and the edits it
// proposes.
type AuditOutput struct {
	Labels map[string]realm.NodeLabel
	Edits  []realm.EditProposal
}

// Rejection is a proposed edit that was not applied, and why.
type Rejection struct {
	Edit   realm.EditProposal `json:"edit"`
	Reason string             `json:"reason"`
}

// Validate keeps the proposals that obey REALM.md §4.2: both ends recalled and distinct,
// predicate in the whitelist, confidence in [0, 1], strengthen and weaken only on an
// existing edge (either direction for a symmetric predicate), add only between nodes no
// edge joins, and no edge proposed twice. The others are returned with a reason.
func Validate(in AuditInput, edits []realm.EditProposal) (valid []realm.EditProposal, rejected []Rejection) {
	recalled := map[string]bool{}
	for _, n := range in.Nodes {
		recalled[n.Node.ID] = true
	}
	g := newSubgraph(in)
	seen := map[string]bool{}
	for _, e := range edits {
		reason := ""
		switch {
		case !e.Action.Valid():
			reason = fmt.Sprintf("action %q is not add, strengthen or weaken", e.Action)
		case !e.Predicate.Valid():
			reason = fmt.Sprintf("predicate %q is not in the whitelist", e.Predicate)
		case math.IsNaN(e.Confidence) || e.Confidence < 0 || e.Confidence > 1:
			reason = "confidence is not in [0, 1]"
		case e.From == e.To:
			reason = "an edge needs two nodes"
		case !recalled[e.From] || !recalled[e.To]:
			reason = "an end was not recalled"
		case e.Query != "" && (e.Action != realm.EditAdd || (e.Label != realm.KeyEvidence && e.Label != realm.Misleading)):
			reason = "a learned link is an add labelled key_evidence or misleading"
		case e.Action == realm.EditAdd && e.Query == "" && g.connected(e.From, e.To):
			reason = "add between nodes already joined by an edge"
		case e.Action == realm.EditAdd && e.Query != "" && g.has(e.From, e.To, e.Predicate):
			reason = "a learned link where an edge of its predicate exists"
		case e.Action != realm.EditAdd && !g.has(e.From, e.To, e.Predicate):
			reason = fmt.Sprintf("%s of an edge that does not exist", e.Action)
		case seen[proposalKey(e)]:
			reason = "the same edge is proposed twice"
		}
		if reason != "" {
			rejected = append(rejected, Rejection{Edit: e, Reason: reason})
			continue
		}
		seen[proposalKey(e)] = true
		valid = append(valid, e)
	}
	return valid, rejected
}

// proposalKey names the edge an edit touches: adds by their unordered pair, the others
// by direction and predicate, a symmetric predicate by its unordered pair.
func proposalKey(e realm.EditProposal) string {
	a, b := e.From, e.To
	if (e.Action == realm.EditAdd || e.Predicate.Symmetric()) && b < a {
		a, b = b, a
	}
	if e.Action == realm.EditAdd {
		return "add " + a + " " + b
	}
	return a + " " + b + " " + string(e.Predicate)
}

// subgraph indexes the edges among the recalled nodes.
type subgraph struct {
	edges     map[string]realm.Edge   // "from to predicate" → edge
	joined    map[string]bool         // unordered pair → some edge joins them
	neighbors map[string][]realm.Edge // id → edges touching it, either direction
}

func newSubgraph(in AuditInput) subgraph {
	recalled := map[string]bool{}
	for _, n := range in.Nodes {
		recalled[n.Node.ID] = true
	}
	g := subgraph{edges: map[string]realm.Edge{}, joined: map[string]bool{}, neighbors: map[string][]realm.Edge{}}
	for _, e := range in.Edges {
		if !recalled[e.From] || !recalled[e.To] || e.From == e.To {
			continue
		}
		g.edges[e.From+" "+e.To+" "+string(e.Predicate)] = e
		g.joined[pairKey(e.From, e.To)] = true
		g.neighbors[e.From] = append(g.neighbors[e.From], e)
		g.neighbors[e.To] = append(g.neighbors[e.To], e)
	}
	return g
}

func pairKey(a, b string) string {
	if b < a {
		a, b = b, a
	}
	return a + " " + b
}

func (g subgraph) connected(a, b string) bool { return g.joined[pairKey(a, b)] }

func (g subgraph) has(from, to string, p realm.Predicate) bool {
	if _, ok := g.edges[from+" "+to+" "+string(p)]; ok {
		return true
	}
	_, ok := g.edges[to+" "+from+" "+string(p)]
	return ok && p.Symmetric()
}

// other is the end of e that is not id.
func other(e realm.Edge, id string) string {
	if e.From == id {
		return e.To
	}
	return e.From
}

// OfflineConfig tunes the offline auditor.
type OfflineConfig struct {
	KeyTop          int     // key evidence by word overlap: at most this many best-scoring nodes
	MisleadingShare float64 // an expanded node sharing less than this share of its words with the key nodes (and none with the query) is misleading
	MaxAdds         int     // at most this many adds per audit
	// MaxLinks bounds the learned links of one audit whose labels come from the client or
	// the answer's citations (consolidate.go).
	MaxLinks int

	// Confidence of an edit by where its labels come from: the client's feedback, the
	// answer's citations, or word overlap.
	ConfidenceFeedback, ConfidenceCited, ConfidenceOverlap float64
}

// DefaultOfflineConfig: three key nodes by overlap, 0.2 share, three adds, confidences
// 0.9 / 0.75 / 0.6 (ours). With c_min = 0.5 every add passes; with γ = 0.8 an add from
// overlap weighs 0.48, a "weak" relation in REALM.md §1's scale.
func DefaultOfflineConfig() OfflineConfig {
	return OfflineConfig{KeyTop: 3, MisleadingShare: 0.2, MaxAdds: 3, MaxLinks: 6,
		ConfidenceFeedback: 0.9, ConfidenceCited: 0.75, ConfidenceOverlap: 0.6}
}

// Offline is the deterministic auditor of doc.go: rules on ids, words, depths and
// times, no network.
type Offline struct {
	cfg OfflineConfig
}

// NewOffline returns the offline auditor.
func NewOffline(cfg OfflineConfig) *Offline { return &Offline{cfg: cfg} }

// Audit labels the nodes and proposes edits by the rules of doc.go. It never fails.
func (o *Offline) Audit(ctx context.Context, in AuditInput) (AuditOutput, realm.Usage, error) {
	out := AuditOutput{Labels: map[string]realm.NodeLabel{}}
	if len(in.Nodes) == 0 {
		return out, realm.Usage{}, nil
	}
	byID := map[string]realm.RecalledNode{}
	words := map[string]map[string]bool{}
	for _, n := range in.Nodes {
		byID[n.Node.ID] = n
		words[n.Node.ID] = contentWords(n.Node.Name, n.Node.Content, n.Node.Description, strings.Join(n.Node.Keywords, " "))
	}
	queryWords := contentWords(in.Query)
	g := newSubgraph(in)

	key, keyConfidence := o.keyEvidence(in, byID, queryWords, words)
	keyWords := map[string]bool{}
	for _, id := range key {
		for w := range words[id] {
			keyWords[w] = true
		}
	}
	misleading, misleadingConfidence := o.misleading(in, key, byID, queryWords, keyWords, words)
	for _, n := range in.Nodes {
		id := n.Node.ID
		switch {
		case slices.Contains(key, id):
			out.Labels[id] = realm.KeyEvidence
		case misleading[id]:
			out.Labels[id] = realm.Misleading
		case overlap(words[id], queryWords) > 0 || overlap(words[id], keyWords) > 0 || touchesAny(g, id, key):
			out.Labels[id] = realm.SupportingContext
		default:
			out.Labels[id] = realm.Unrelated
		}
	}

	// Strengthen the edges on a shortest path from a seed to each key node, and those
	// between two key nodes.
	strengthened := map[string]bool{}
	strengthen := func(e realm.Edge) {
		p := realm.EditProposal{From: e.From, To: e.To, Action: realm.EditStrengthen, Predicate: e.Predicate, Confidence: keyConfidence, Reason: "leads to key evidence"}
		if k := proposalKey(p); !strengthened[k] {
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
		for _, e := range sortedEdges(g.neighbors[k]) {
			if slices.Contains(key, other(e, k)) {
				strengthen(e)
			}
		}
	}

	// Labels from the client or the answer's citations: learned links, which act only on
	// later queries close to this one (consolidate.go). Labels from word overlap: the
	// paper's adds, between key nodes no edge joins.
	if named := o.namedMisleading(in, byID); keyConfidence != o.cfg.ConfidenceOverlap || len(named) > 0 {
		conf := func(id string) float64 {
			if named[id] {
				return misleadingConfidence[id]
			}
			return keyConfidence
		}
		if keyConfidence == o.cfg.ConfidenceOverlap {
			key = nil // labelled by overlap, not by the client: no learned key evidence
		}
		out.Edits = append(out.Edits, learnedLinks(in, g, key, named, conf, o.cfg.MaxLinks)...)
		key = nil // no paper adds as well
	}
	adds := 0
	for i, a := range key {
		for _, b := range key[i+1:] {
			if adds >= o.cfg.MaxAdds || g.connected(a, b) {
				continue
			}
			from, to, p := relationOf(byID[a].Node, byID[b].Node)
			out.Edits = append(out.Edits, realm.EditProposal{From: from, To: to, Action: realm.EditAdd, Predicate: p, Confidence: keyConfidence, Reason: "both are key evidence of one query"})
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
		for _, e := range sortedEdges(g.neighbors[m]) {
			if e.To != m && !e.Predicate.Symmetric() {
				continue
			}
			p := realm.EditProposal{From: e.From, To: e.To, Action: realm.EditWeaken, Predicate: e.Predicate, Confidence: misleadingConfidence[m], Reason: "leads to a misleading node"}
			if k := proposalKey(p); !weakened[k] && !strengthened[k] {
				weakened[k] = true
				out.Edits = append(out.Edits, p)
			}
		}
	}
	return out, realm.Usage{}, nil
}

// namedMisleading is the recalled nodes the client marked misleading.
func (o *Offline) namedMisleading(in AuditInput, byID map[string]realm.RecalledNode) map[string]bool {
	out := map[string]bool{}
	if in.Feedback != nil {
		for _, id := range in.Feedback.MisleadingNodeIDs {
			if _, ok := byID[id]; ok {
				out[id] = true
			}
		}
	}
	return out
}

// keyEvidence returns the key nodes, in a stable order, and the confidence of the edits
// they ground.
func (o *Offline) keyEvidence(in AuditInput, byID map[string]realm.RecalledNode, queryWords map[string]bool, words map[string]map[string]bool) ([]string, float64) {
	fb := realm.Feedback{}
	if in.Feedback != nil {
		fb = *in.Feedback
	}
	var key []string
	confidence := o.cfg.ConfidenceCited
	for _, id := range fb.UsefulNodeIDs {
		if _, ok := byID[id]; ok && !slices.Contains(key, id) && !slices.Contains(fb.MisleadingNodeIDs, id) {
			key = append(key, id)
			confidence = o.cfg.ConfidenceFeedback
		}
	}
	answerWrong := fb.Correct != nil && !*fb.Correct
	if in.Answer != "" && !answerWrong {
		for _, n := range in.Nodes {
			id := n.Node.ID
			cited := slices.Contains(in.Cited, id) || strings.Contains(in.Answer, id)
			if cited && !slices.Contains(key, id) && !slices.Contains(fb.MisleadingNodeIDs, id) {
				key = append(key, id)
				if fb.Correct != nil && *fb.Correct {
					confidence = o.cfg.ConfidenceFeedback
				}
			}
		}
	}
	if len(key) > 0 {
		return key, confidence
	}
	// Word overlap: the best-scoring nodes that share a content word with the query.
	ranked := slices.Clone(in.Nodes)
	slices.SortStableFunc(ranked, func(a, b realm.RecalledNode) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Node.ID, b.Node.ID))
	})
	for _, n := range ranked {
		if len(key) == o.cfg.KeyTop {
			break
		}
		if overlap(words[n.Node.ID], queryWords) > 0 && !slices.Contains(fb.MisleadingNodeIDs, n.Node.ID) {
			key = append(key, n.Node.ID)
		}
	}
	return key, o.cfg.ConfidenceOverlap
}

// misleading returns the misleading nodes and the confidence of weakening each.
func (o *Offline) misleading(in AuditInput, key []string, byID map[string]realm.RecalledNode, queryWords, keyWords map[string]bool, words map[string]map[string]bool) (map[string]bool, map[string]float64) {
	out, confidence := map[string]bool{}, map[string]float64{}
	if in.Feedback != nil {
		for _, id := range in.Feedback.MisleadingNodeIDs {
			if _, ok := byID[id]; ok {
				out[id], confidence[id] = true, o.cfg.ConfidenceFeedback
			}
		}
	}
	if len(key) == 0 {
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
		if n.Depth == 0 || out[id] || useful[id] || slices.Contains(key, id) {
			continue
		}
		w := words[id]
		if overlap(w, queryWords) == 0 && len(w) > 0 && float64(overlap(w, keyWords))/float64(len(w)) < o.cfg.MisleadingShare {
			out[id], confidence[id] = true, o.cfg.ConfidenceOverlap
		}
	}
	return out, confidence
}

// shortestPath is the edges of a shortest path, over edges among the recalled nodes in
// either direction and avoiding the nodes of avoid, from any seed to target; nil when
// target is a seed or unreachable. Ties go to the lower ids, so the result is stable.
func shortestPath(g subgraph, seeds []string, target string, avoid map[string]bool) []realm.Edge {
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
			for _, e := range sortedEdges(g.neighbors[u]) {
				v := other(e, u)
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
		v = other(e, v)
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

func touchesAny(g subgraph, id string, ids []string) bool {
	for _, e := range g.neighbors[id] {
		if slices.Contains(ids, other(e, id)) {
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

// contentWords is the set of lower-cased letter/digit runs of three or more characters
// of texts, minus stop words.
func contentWords(texts ...string) map[string]bool {
	out := map[string]bool{}
	for _, t := range texts {
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if len([]rune(w)) >= 3 && !stopWords[w] {
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

var stopWords = map[string]bool{
	"the": true, "and": true, "for": true, "are": true, "but": true, "not": true, "you": true,
	"all": true, "any": true, "can": true, "had": true, "her": true, "was": true, "one": true,
	"our": true, "out": true, "has": true, "him": true, "his": true, "how": true, "its": true,
	"who": true, "what": true, "when": true, "where": true, "which": true, "why": true,
	"did": true, "does": true, "doing": true, "with": true, "this": true, "that": true,
	"these": true, "those": true, "from": true, "they": true, "them": true, "their": true,
	"there": true, "then": true, "than": true, "have": true, "been": true, "were": true,
	"will": true, "would": true, "could": true, "should": true, "about": true, "into": true,
	"over": true, "after": true, "before": true, "some": true, "such": true, "only": true,
	"other": true, "also": true, "very": true, "just": true, "your": true, "she": true,
	"ever": true, "much": true, "many": true, "more": true, "most": true, "like": true,
	"kind": true, "being": true, "each": true, "both": true, "between": true, "during": true,
}
