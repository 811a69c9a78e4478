package agent

import (
	"context"
	"strconv"
	"time"

	"github.com/realm-memory/realm"
)

// Agent takes every decision the method gives to an LLM (REALM.md §5): extract,
// integrate and relate (one call: Integrate), plan seeds, sufficiency, expansion policy,
// audit and answer. A pipeline asks the agent; it does not decide. Each method returns
// the LLM usage it incurred (empty for the offline agent). Errors are returned only for
// a cancelled context or invalid input, and by Answer when no answer can be written; a
// failing LLM falls back to the offline decision.
type Agent interface {
	// Extract turns one observation into typed candidates and the updated summary.
	Extract(ctx context.Context, in ExtractInput) (Extraction, realm.Usage, error)
	// Integrate decides add / merge / skip for every candidate of one observation and
	// the edges each added or merged node gets (integrate and relate, REALM.md §2 steps 4–5).
	Integrate(ctx context.Context, in IntegrateInput) ([]Integration, realm.Usage, error)
	// PlanSeeds turns the query into 1..P seed plans.
	PlanSeeds(ctx context.Context, in PlanInput) ([]realm.Plan, realm.Usage, error)
	// Sufficiency says whether the nodes so far are enough, and if not which (≤ 5) to expand.
	Sufficiency(ctx context.Context, in SufficiencyInput) (Sufficiency, realm.Usage, error)
	// ExpansionPolicy picks the atom and a reasoning text for one frontier node.
	ExpansionPolicy(ctx context.Context, in PolicyInput) (Policy, realm.Usage, error)
	// Audit labels the nodes of one recall and proposes edits of the edges among them
	// (REALM.md §4.1–4.2). Its proposals are validated by the caller, so it may propose
	// nonsense.
	Audit(ctx context.Context, in AuditInput) (AuditOutput, realm.Usage, error)
	// Answer writes the answer to a question from the evidence of one recall alone. It
	// returns EUnavailable when the agent cannot write answers (the offline agent) or the
	// model gives none.
	Answer(ctx context.Context, in AnswerInput) (Answer, realm.Usage, error)
}

// ExtractInput is what the extractor sees.
type ExtractInput struct {
	Observation realm.Observation
	Summary     string              // the space's running summary before this observation
	Recent      []realm.Observation // the last few observations of the space, oldest first
	// Session is the first messages of the observation's session said by its user, when
	// the observation is an assistant's and Recent holds none: whom its "you" names. They
	// may have been stored after it (a chat sent out of order), and are shown for that.
	Session []realm.Observation
}

// Extraction is the extractor's output.
type Extraction struct {
	Candidates []Candidate
	Summary    string // the updated running summary (≤ 200 words, no pronouns)
}

// Candidate is a memory unit proposed from one observation, not yet integrated.
type Candidate struct {
	Type         realm.NodeType
	Name         string
	Content      string // self-contained, fully qualified names, no pronouns
	Description  string
	Keywords     []string
	TStart       *time.Time // resolved to absolute dates against the observation time
	TEnd         *time.Time
	Aliases      []string // entity
	Category     string   // entity: person / object / place / concept
	Role         string   // entity
	Participants []string // event: entity names
	// Subject and Attribute identify the slot a fact or an event states a value of
	// ("Caroline", "lives in"), so that a later one about the same slot with another value
	// supersedes it: construction reads the slot's current holders with the neighbourhood,
	// whatever the size of the space. Optional.
	Subject   string
	Attribute string
	// InReplyTo is the id of the observation this unit answers: the turn just before it,
	// by another speaker, that asked a question. The relate step links the two (OFFLINE.md).
	InReplyTo string
	// AlsoFrom are observations besides the one extracted that the unit derives from: an
	// answer's question, which the answer means nothing without ("Yes, last year!").
	// Construction keeps those among the recent observations and adds them to Sources.
	AlsoFrom []string
	// Part is the place (1, 2, …) of the unit among the parts a long observation was
	// split into, each short enough for the embedder to read whole; 0 for a unit of a
	// whole observation. The relate step links each part to the next (precedes).
	Part int
}

// Neighbour is an existing node near a candidate: N_sim ∪ N_recent (REALM.md §2 step 3).
type Neighbour struct {
	Node       realm.Node
	Similarity float64 // cosine between the candidate and the node, 0 when unknown
	Similar    bool    // found by the similarity search
	Recent     bool    // created from one of the last observations
}

// IntegrateInput is one observation's candidates, each with its neighbourhood, plus the
// candidate embeddings (same order) for similarity-based decisions.
type IntegrateInput struct {
	Observation realm.Observation
	Candidates  []CandidateContext
}

// CandidateContext is one candidate with what the integrator may relate it to.
type CandidateContext struct {
	Candidate  Candidate
	Embedding  []float32
	Neighbours []Neighbour
}

// Integration actions.
const (
	ActionAdd   = "add"
	ActionMerge = "merge"
	ActionSkip  = "skip"
)

// Integration is the decision for the candidate at the same index of IntegrateInput.
type Integration struct {
	Action string // add | merge | skip
	// MergeInto is the neighbour id: the one merged into, or for a skip the one that
	// already holds all the candidate says. A skip without it is taken as an add:
	// nothing said may be lost (construction checks it whatever the agent).
	MergeInto string
	// Reason says why a merge or a skip loses nothing: what the neighbour already holds.
	Reason string
	// Merged is the content of the merged node when Action is merge (the neighbour's
	// content completed with the candidate's detail); empty keeps the neighbour's content.
	Merged string
	Edges  []EdgeOp
}

// Edge operations of the relate step.
const (
	EdgeAdd    = "add"
	EdgeModify = "modify"
	EdgeDelete = "delete"
)

// EdgeOp is one relation to write for an added or merged node. From and To are node ids
// of neighbours, or Self for the node this integration adds or merges into, or
// CandidateRef(i) for the node another candidate of the same observation becomes.
type EdgeOp struct {
	Op          string // add | modify | delete
	From        string
	To          string
	Predicate   realm.Predicate
	Weight      float64
	Description string
	// ValidUntil, for a supersedes edge, is when the old node (To) stopped holding; nil
	// leaves it to the write path (the newer node's start, else the observation's time).
	ValidUntil *time.Time
}

// Self refers, in an EdgeOp, to the node of the integration that carries the op.
const Self = "$self"

// CandidateRef refers, in an EdgeOp, to the node of the i-th candidate of the observation.
func CandidateRef(i int) string { return "$cand:" + strconv.Itoa(i) }
