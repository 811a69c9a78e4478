package api

import (
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/construction"
)

// The remember and recall tools answer their HTTP routes' results as a model reads them:
// what each memory says, who said it and when, whether it still holds, and its id for
// feedback and forget; not what programs read over HTTP (edge ids and weights, provenance
// beyond a few observations, bookkeeping times and counters, keywords, timings, usage),
// which would fill a model's context (GET …/traces/{id} and …/memories/{id} have it all).

// recallView is what the recall tool answers.
type recallView struct {
	TraceID string         `json:"trace_id" jsonschema:"the recall's trace: pass it to feedback"`
	Nodes   []recalledView `json:"nodes" jsonschema:"the memories found: events and facts best first, then entities and episodes"`
	Edges   []edgeView     `json:"edges" jsonschema:"the links among them"`
}

type recalledView struct {
	Node  nodeView `json:"node"`
	Score float64  `json:"score" jsonschema:"relevance to the query, higher is better"`
	Depth int      `json:"depth" jsonschema:"0: found by the query itself; n: reached over n links"`
}

// viewSources is the most observation ids a nodeView lists.
const viewSources = 3

type nodeView struct {
	ID          string     `json:"id"`
	Type        string     `json:"type" jsonschema:"entity, event, fact or episode"`
	Content     string     `json:"content"`
	Description string     `json:"description,omitempty" jsonschema:"who said it and when, or what the entity is"`
	TStart      *time.Time `json:"t_start,omitempty" jsonschema:"when what it tells began"`
	TEnd        *time.Time `json:"t_end,omitempty" jsonschema:"when what it tells ended"`
	ValidUntil  *time.Time `json:"valid_until,omitempty" jsonschema:"set when a newer memory supersedes it: it no longer holds from then"`
	Sources     []string   `json:"sources,omitempty" jsonschema:"the first observations (message ids) it was derived from, at most 3"`
}

type edgeView struct {
	From        string `json:"from"`
	To          string `json:"to"`
	Predicate   string `json:"predicate"`
	Description string `json:"description,omitempty"`
}

func viewRecall(r realm.RecallResult) recallView {
	v := recallView{TraceID: r.TraceID, Nodes: make([]recalledView, len(r.Nodes)), Edges: make([]edgeView, len(r.Edges))}
	for i, n := range r.Nodes {
		v.Nodes[i] = recalledView{Node: viewNode(n.Node), Score: n.Score, Depth: n.Depth}
	}
	for i, e := range r.Edges {
		v.Edges[i] = edgeView{From: e.From, To: e.To, Predicate: string(e.Predicate), Description: e.Description}
	}
	return v
}

func viewNode(n realm.Node) nodeView {
	return nodeView{
		ID: n.ID, Type: string(n.Type), Content: n.Content, Description: n.Description,
		TStart: n.TStart, TEnd: n.TEnd, ValidUntil: n.ValidUntil, Sources: n.Sources[:min(len(n.Sources), viewSources)],
	}
}

// rememberView is what the remember tool answers.
type rememberView struct {
	Results []ingestedView `json:"results" jsonschema:"one per message, in order"`
}

type ingestedView struct {
	ID      string   `json:"id" jsonschema:"the observation's id"`
	Status  string   `json:"status" jsonschema:"integrated, already_integrated, pending (retried later), failed, forgotten (deleted while it was integrated) or erased (its space erased while it was integrated)"`
	Added   []string `json:"added" jsonschema:"ids of the memories added"`
	Merged  []string `json:"merged" jsonschema:"ids of the memories it was merged into; empty for a key without the read scope"`
	Skipped []string `json:"skipped" jsonschema:"what it said that the space already held; empty for a key without the read scope"`
	// Superseded tells a model that a fact it may hold changed: "we moved to Berlin" ends
	// "I live in Lisbon".
	Superseded []string `json:"superseded" jsonschema:"ids of the memories it superseded: a newer version of what they said, their validity ended (kept for questions about the past); empty for a key without the read scope"`
	Error      string   `json:"error,omitempty"`
}

func viewIngested(results []construction.Result) rememberView {
	v := rememberView{Results: make([]ingestedView, len(results))}
	for i, r := range results {
		v.Results[i] = ingestedView{ID: r.ObservationID, Status: r.Status, Added: nonNil(r.Added), Merged: nonNil(r.Merged), Skipped: nonNil(r.Skipped),
			Superseded: r.Superseded, Error: r.Error}
	}
	return v
}

func nonNil(ids []string) []string {
	if ids == nil {
		return []string{}
	}
	return ids
}
