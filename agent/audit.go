package agent

import (
	"fmt"
	"math"

	"github.com/realm-memory/realm"
)

// AuditInput is what the auditor sees: the query, the answer (may be empty or wrong), the
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
	// Judged: the labels are a model's judgement of what each node says for the query
	// (the LLM auditor), not word overlap; reconsolidation learns links from its
	// key_evidence and misleading labels as it does from feedback and citations.
	Judged bool
}

// Rejection is a proposed edit that was not applied, and why.
type Rejection struct {
	Edit   realm.EditProposal `json:"edit"`
	Reason string             `json:"reason"`
}

// ValidateEdits keeps the proposals that obey REALM.md §4.2: both ends recalled and distinct,
// predicate in the whitelist, confidence in [0, 1], strengthen and weaken only on an
// existing edge (either direction for a symmetric predicate), add only between nodes no
// edge joins — a learned link (Query set, labelled key_evidence or misleading) only where
// no edge of its predicate does —, no weakening of a misleading learned link (it would
// raise the node it lowers) and no edge proposed twice. The others are returned with a reason.
func ValidateEdits(in AuditInput, edits []realm.EditProposal) (valid []realm.EditProposal, rejected []Rejection) {
	recalled := map[string]bool{}
	for _, n := range in.Nodes {
		recalled[n.Node.ID] = true
	}
	g := NewSubgraph(in)
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
		case e.Action == realm.EditAdd && e.Query == "" && g.Connected(e.From, e.To):
			reason = "add between nodes already joined by an edge"
		case e.Action == realm.EditAdd && e.Query != "" && g.Has(e.From, e.To, e.Predicate):
			reason = "a learned link where an edge of its predicate exists"
		case e.Action != realm.EditAdd && !g.Has(e.From, e.To, e.Predicate):
			reason = fmt.Sprintf("%s of an edge that does not exist", e.Action)
		case e.Action == realm.EditWeaken && misleadingLink(g, e):
			reason = "weakening a misleading link would raise the node it lowers"
		case seen[ProposalKey(e)]:
			reason = "the same edge is proposed twice"
		}
		if reason != "" {
			rejected = append(rejected, Rejection{Edit: e, Reason: reason})
			continue
		}
		seen[ProposalKey(e)] = true
		valid = append(valid, e)
	}
	return valid, rejected
}

// misleadingLink reports whether the edge e addresses is a learned link labelled
// misleading: its weight is how much it lowers its end for queries close to its own.
func misleadingLink(g Subgraph, e realm.EditProposal) bool {
	l, ok := g.Edge(e.From, e.To, e.Predicate)
	return ok && l.Learned() && l.Label == realm.Misleading
}

// ProposalKey names the edge an edit touches: adds by their unordered pair, the others
// by direction and predicate, a symmetric predicate by its unordered pair.
func ProposalKey(e realm.EditProposal) string {
	a, b := e.From, e.To
	if (e.Action == realm.EditAdd || e.Predicate.Symmetric()) && b < a {
		a, b = b, a
	}
	if e.Action == realm.EditAdd {
		return "add " + a + " " + b
	}
	return a + " " + b + " " + string(e.Predicate)
}

// Subgraph indexes the edges among the recalled nodes of an audit.
type Subgraph struct {
	edges     map[string]realm.Edge   // "from to predicate" → edge
	joined    map[string]bool         // unordered pair → some edge joins them
	neighbors map[string][]realm.Edge // id → edges touching it, either direction
}

// NewSubgraph indexes the edges of in that join two distinct recalled nodes.
func NewSubgraph(in AuditInput) Subgraph {
	recalled := map[string]bool{}
	for _, n := range in.Nodes {
		recalled[n.Node.ID] = true
	}
	g := Subgraph{edges: map[string]realm.Edge{}, joined: map[string]bool{}, neighbors: map[string][]realm.Edge{}}
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

// Connected reports whether some edge joins a and b, in either direction.
func (g Subgraph) Connected(a, b string) bool { return g.joined[pairKey(a, b)] }

// Has reports whether the edge from → to with predicate p exists (either direction for a
// symmetric predicate).
func (g Subgraph) Has(from, to string, p realm.Predicate) bool {
	_, ok := g.Edge(from, to, p)
	return ok
}

// Edge returns the edge from → to of predicate p (either direction for a symmetric
// predicate).
func (g Subgraph) Edge(from, to string, p realm.Predicate) (realm.Edge, bool) {
	if e, ok := g.edges[from+" "+to+" "+string(p)]; ok {
		return e, true
	}
	e, ok := g.edges[to+" "+from+" "+string(p)]
	return e, ok && p.Symmetric()
}

// Join records that an edge now joins a and b (an add proposed).
func (g Subgraph) Join(a, b string) { g.joined[pairKey(a, b)] = true }

// Touching is the edges touching id, either direction.
func (g Subgraph) Touching(id string) []realm.Edge { return g.neighbors[id] }

// OtherEnd is the end of e that is not id.
func OtherEnd(e realm.Edge, id string) string {
	if e.From == id {
		return e.To
	}
	return e.From
}
