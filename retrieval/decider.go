package retrieval

import (
	"context"
	"time"

	"github.com/realm-memory/realm"
)

// Decider takes the three decisions of the read path (REALM.md §5: plan seeds,
// sufficiency, expansion policy). Implementations: OfflineDecider here; an LLM one in
// the agent package. Each returns the LLM usage it incurred; an error only for a
// cancelled context (an LLM failing falls back to the offline decision).
type Decider interface {
	// PlanSeeds turns the query into 1..P seed plans.
	PlanSeeds(ctx context.Context, in PlanInput) ([]realm.Plan, realm.Usage, error)
	// Sufficiency says whether the nodes so far are enough, and if not which (≤ 5) to expand.
	Sufficiency(ctx context.Context, in SufficiencyInput) (Sufficiency, realm.Usage, error)
	// ExpansionPolicy picks the atom and a reasoning text for one frontier node.
	ExpansionPolicy(ctx context.Context, in PolicyInput) (Policy, realm.Usage, error)
}

// PlanInput is what the planner sees.
type PlanInput struct {
	Query string
	Time  time.Time // the question's "now": relative time expressions resolve against it
}

// Candidate is a node gathered so far, with its current final score.
type Candidate struct {
	Node     realm.Node
	Score    float64
	Depth    int
	Expanded bool
}

// SufficiencyInput is what the sufficiency controller sees.
type SufficiencyInput struct {
	Query    string
	Plans    []realm.Plan
	Depth    int // the loop iteration about to run, from 1
	MaxDepth int
	K        int         // how many nodes the recall returns
	Nodes    []Candidate // best first
}

// Sufficiency is the controller's answer. Empty or invalid NodesToExpand means the
// best-scoring unexpanded nodes.
type Sufficiency struct {
	IsEnough      bool
	NodesToExpand []string
	Reason        string
}

// PolicyInput is what the expansion policy sees for one frontier node.
type PolicyInput struct {
	Query string
	Time  time.Time
	Plans []realm.Plan
	Node  Candidate
}

// Policy is the atom for one frontier node and what it is looking for; the reasoning
// text r enters the edge score sim(r, v).
type Policy struct {
	Atom      realm.Atom
	Reasoning string
}
