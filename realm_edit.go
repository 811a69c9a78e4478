package realm

import (
	"fmt"
	"time"
)

// Reconsolidation types: feedback, node labels, edit proposals and the edit log (REALM.md §4).

// Feedback is what a client says about the answer to a traced recall. Confirmed
// feedback counts more than the system's own audit (REALM.md §4, beyond the paper).
type Feedback struct {
	Answer            string   `json:"answer,omitempty"`
	Correct           *bool    `json:"correct,omitempty"`
	UsefulNodeIDs     []string `json:"useful_node_ids,omitempty"`
	MisleadingNodeIDs []string `json:"misleading_node_ids,omitempty"`
}

// Bounds of a Feedback.
const (
	MaxFeedbackAnswerLen = 20000
	MaxFeedbackNodeIDs   = 100
)

// Validate returns an EInvalid *Error naming every field out of bounds, or feedback that
// says nothing, or nil. What it says of the trace's nodes is checked against the trace
// (reconsolidation).
func (f Feedback) Validate() error {
	e := FieldErrors{}
	if f.Correct == nil && f.Answer == "" && len(f.UsefulNodeIDs) == 0 && len(f.MisleadingNodeIDs) == 0 {
		e.Add("correct", "feedback says nothing: give correct, a non-empty answer, useful_node_ids or misleading_node_ids")
	}
	if len(f.Answer) > MaxFeedbackAnswerLen {
		e.Add("answer", fmt.Sprintf("longer than %d bytes", MaxFeedbackAnswerLen))
	}
	if len(f.UsefulNodeIDs) > MaxFeedbackNodeIDs {
		e.Add("useful_node_ids", fmt.Sprintf("more than %d ids", MaxFeedbackNodeIDs))
	}
	if len(f.MisleadingNodeIDs) > MaxFeedbackNodeIDs {
		e.Add("misleading_node_ids", fmt.Sprintf("more than %d ids", MaxFeedbackNodeIDs))
	}
	for field, ids := range map[string][]string{"useful_node_ids": f.UsefulNodeIDs, "misleading_node_ids": f.MisleadingNodeIDs} {
		for i, id := range ids {
			if len(id) > MaxIDLen { // no node has such an id: refused before a lookup that would quote it
				e.Add(fmt.Sprintf("%s[%d]", field, i), fmt.Sprintf("at most %d bytes", MaxIDLen))
			}
		}
	}
	return e.Err()
}

// Confirmed reports whether the client confirmed something: the answer is right, or
// which nodes helped or misled. A bare answer, or "wrong" alone, confirms nothing that
// could be reinforced, so the audit counts as the system's own (η/2, REALM.md §4).
func (f Feedback) Confirmed() bool {
	return (f.Correct != nil && *f.Correct) || len(f.UsefulNodeIDs) > 0 || len(f.MisleadingNodeIDs) > 0
}

// NodeLabel is what an auditor says a recalled node was for the query (REALM.md §4.1).
type NodeLabel string

const (
	KeyEvidence       NodeLabel = "key_evidence"
	SupportingContext NodeLabel = "supporting_context"
	Misleading        NodeLabel = "misleading"
	Unrelated         NodeLabel = "unrelated"
)

// Valid reports whether l is one of the four labels.
func (l NodeLabel) Valid() bool {
	return l == KeyEvidence || l == SupportingContext || l == Misleading || l == Unrelated
}

// EditAction is what an edit does to an edge (REALM.md §4.2).
type EditAction string

const (
	EditAdd        EditAction = "add"
	EditStrengthen EditAction = "strengthen"
	EditWeaken     EditAction = "weaken"
)

// Valid reports whether a is add, strengthen or weaken.
func (a EditAction) Valid() bool { return a == EditAdd || a == EditStrengthen || a == EditWeaken }

// EditProposal is one edit d = (v_i, v_j, action, predicate, c) an auditor proposes
// (REALM.md §4.2). For a symmetric predicate it stands for both directions.
type EditProposal struct {
	From       string     `json:"from"`
	To         string     `json:"to"`
	Action     EditAction `json:"action"`
	Predicate  Predicate  `json:"predicate"`
	Confidence float64    `json:"confidence"`
	Reason     string     `json:"reason,omitempty"`
	// Query, on an add, makes the new edge a learned link: To was Label for this query
	// (Edge.Query); the edge's description is the query, until it is erased (Edge.QueryErased).
	Query string    `json:"query,omitempty"`
	Label NodeLabel `json:"label,omitempty"`
}

// Who asked for a reconsolidation.
const (
	EditSourceAuto     = "auto"     // the system's own audit after an answer
	EditSourceFeedback = "feedback" // client feedback on a trace
)

// Edit is one applied change of one directed edge, as logged (REALM.md §4.4). A
// symmetric predicate's edit is logged once per direction.
type Edit struct {
	ID                string     `json:"id"`
	Space             string     `json:"space"`
	TraceID           string     `json:"trace_id"`
	ReconsolidationID string     `json:"reconsolidation_id"`
	EdgeID            string     `json:"edge_id"`
	From              string     `json:"from"`
	To                string     `json:"to"`
	Predicate         Predicate  `json:"predicate"`
	Action            EditAction `json:"action"`
	Confidence        float64    `json:"confidence"`
	OldWeight         *float64   `json:"old_weight"` // nil for add
	NewWeight         float64    `json:"new_weight"`
	Time              time.Time  `json:"time"`
	Source            string     `json:"source"` // auto | feedback
	Reverted          bool       `json:"reverted"`
	RevertedAt        *time.Time `json:"reverted_at,omitempty"`
	// Query and Label, on an add that wrote a learned link (EditProposal.Query): the end
	// was Label for Query. A misleading link lowers its end for queries close to Query,
	// by more the heavier it is; expansion never crosses it. QueryErased: the query's
	// text was erased with the recall's trace, past the trace retention.
	Query       string    `json:"query,omitempty"`
	QueryErased bool      `json:"query_erased,omitempty"`
	Label       NodeLabel `json:"label,omitempty"`
}

// EditFilter selects logged edits; zero fields select everything.
type EditFilter struct {
	TraceID string
	NodeID  string    // edits whose from or to is this memory
	Since   time.Time // edits at or after
	Limit   int       // at most this many, newest first; 0 is DefaultEditLimit
}

// Bounds of an edit listing.
const (
	DefaultEditLimit = 100
	MaxEditLimit     = 1000
)

// EditStats counts the logged edits of a space, reverted ones apart.
type EditStats struct {
	Reconsolidations int64 `json:"reconsolidations"`
	Added            int64 `json:"added"`
	Strengthened     int64 `json:"strengthened"`
	Weakened         int64 `json:"weakened"`
	Reverted         int64 `json:"reverted"` // edits reverted, of any action, not counted above
}
