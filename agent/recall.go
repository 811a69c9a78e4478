package agent

import (
	"time"

	"github.com/realm-memory/realm"
)

// PlanInput is what the planner sees.
type PlanInput struct {
	Query string
	Time  time.Time // the question's "now": relative time expressions resolve against it
}

// MaxSaidIn is the longest window a planner gives a plan as SaidIn (every memory said in
// it is scored): a month. "What did we discuss in 2023?" is an ordinary plan.
const MaxSaidIn = 31 * 24 * time.Hour

// Gathered is a node a recall has gathered so far, with its current final score.
type Gathered struct {
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
	K        int        // how many nodes the recall returns
	Nodes    []Gathered // best first
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
	Node  Gathered
}

// Policy is the atom for one frontier node and what it is looking for; the reasoning
// text r enters the edge score sim(r, v).
type Policy struct {
	Atom      realm.Atom
	Reasoning string
}
