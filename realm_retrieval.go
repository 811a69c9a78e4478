package realm

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Retrieval types: plans, atoms, recall requests and results, traces (REALM.md §3).

// MatchMode is how a seed plan finds its nodes (REALM.md §3.1).
type MatchMode string

const (
	QueryMatch    MatchMode = "query_match"    // embed Q, cosine on the vector index
	KeywordsMatch MatchMode = "keywords_match" // K on the full-text index only
	HybridMatch   MatchMode = "hybrid_match"   // 0.6·vector + 0.4·normalised keyword, with τ
)

// Valid reports whether m is one of the three modes.
func (m MatchMode) Valid() bool {
	return m == QueryMatch || m == KeywordsMatch || m == HybridMatch
}

// TimeRange is a closed interval [From, To]; a zero end is open.
type TimeRange struct {
	From time.Time `json:"from,omitzero"`
	To   time.Time `json:"to,omitzero"`
}

// Plan is one seed plan p = (Q, K, T, τ, mode) (REALM.md §3.1).
type Plan struct {
	Query     string     `json:"query"`
	Keywords  []string   `json:"keywords,omitempty"`
	Types     []NodeType `json:"types,omitempty"`      // soft filter; empty is any type
	TimeRange *TimeRange `json:"time_range,omitempty"` // enforced in hybrid_match only: on the seeds, and on every memory returned when every plan has one
	Mode      MatchMode  `json:"mode"`
	// SaidIn, when set, makes the plan's seeds the events and facts said in that window
	// (those its conversations' episodes contextualize), by similarity to Query, whatever
	// Mode says: "What did we talk about yesterday?".
	SaidIn *TimeRange `json:"said_in,omitempty"`
	// DatedIn, with SaidIn, adds to its seeds the events and facts whose own time meets
	// that window, whenever they were said: "What did I do last weekend?" asks for what
	// was told then and for what was planned for then, or told of it since.
	DatedIn *TimeRange `json:"dated_in,omitempty"`
	// Latest, when set, asks for the most recent of what it matches ("What was Ana's last
	// quiz score?", "When did I last go for a run?"): the recall ranks the newer of the
	// memories that match it first.
	Latest bool `json:"latest,omitempty"`
}

// ExpansionMode is the strategy of an atom (REALM.md §3.2).
type ExpansionMode string

const (
	PathSearch   ExpansionMode = "path_search"
	SubgraphBeam ExpansionMode = "subgraph_beam"
)

// Valid reports whether m is path_search or subgraph_beam.
func (m ExpansionMode) Valid() bool { return m == PathSearch || m == SubgraphBeam }

// Decay modes and missing-time policies of a TemporalDecay.
const (
	DecayHard = "hard" // drop nodes outside the window
	DecaySoft = "soft" // subtract a penalty growing with the distance to the window

	MissingTimeKeep = "keep"
	MissingTimeDrop = "drop"
)

// TemporalDecay scores nodes by their distance to the window [Time − DeltaT, Time + DeltaT].
type TemporalDecay struct {
	Time        time.Time     `json:"time"`
	DeltaT      time.Duration `json:"delta_t"`      // nanoseconds in JSON
	Mode        string        `json:"mode"`         // hard | soft
	MissingTime string        `json:"missing_time"` // keep | drop
}

// Atom is what the expansion policy picks for one frontier node (REALM.md §3.2).
type Atom struct {
	Mode            ExpansionMode  `json:"mode"`
	Predicates      []Predicate    `json:"predicates,omitempty"` // allowed; empty is all fifteen
	Decay           *TemporalDecay `json:"decay,omitempty"`
	ConflictInhibit bool           `json:"conflict_inhibit"` // ignore contradicts edges
}

// Strategy is how a recall expands: adaptive lets the expansion policy pick each atom's
// mode; the other two force it.
type Strategy string

const (
	Adaptive     Strategy = "adaptive"
	StrategyPath Strategy = "path_search"
	StrategyBeam Strategy = "subgraph_beam"
)

// Defaults of the per-request settings (REALM.md §3; the ones marked "ours" there).
const (
	DefaultRecallK     = 10
	DefaultMaxDepth    = 3
	DefaultBeamWidth   = 8
	DefaultPathDepth   = 3
	DefaultPathTopK    = 5
	DefaultSubgraphMax = 20
)

// Bounds of the per-request settings; zero means the server's default.
const (
	MaxRecallK        = 100
	MaxRecallDepth    = 6
	MaxBeamWidth      = 64
	MaxPathDepth      = 3 // the path query enumerates at most three hops
	MaxPathTopK       = 50
	MaxSubgraphNodes  = 200
	MaxRecallQueryLen = 4000
)

// RecallRequest asks for the evidence of one query (REALM.md §3). Zero numbers take
// the server's defaults.
type RecallRequest struct {
	Query string `json:"query"`
	// Time is the "now" of the question: relative times resolve against it, validity is
	// judged at it, and, before now, memories learned after it are left out (as of then).
	Time     *time.Time `json:"time,omitempty"`
	K        int        `json:"k,omitempty"`
	MaxDepth *int       `json:"max_depth,omitempty"` // 0 is seeds only; nil is the default
	Strategy Strategy   `json:"strategy,omitempty"`  // adaptive when empty

	BeamWidth        int `json:"beam_width,omitempty"`
	PathMaxDepth     int `json:"path_max_depth,omitempty"`
	PathTopK         int `json:"path_top_k,omitempty"`
	SubgraphMaxNodes int `json:"subgraph_max_nodes,omitempty"`

	// MinScore (0: off) leaves out of the top K the nodes whose final score is below it, so
	// that a small memory does not fill K with what the query is not about. A score is a
	// relevance in [0, 1] times factors of at most 1, but for what reconsolidation learned
	// (up to 1 + learned_boost) and reach_bonus, so a cut-off above 1 would keep only what
	// those lifted: the bound is 1.
	MinScore float64 `json:"min_score,omitempty"`

	// Filters (nil or empty: none) narrow what the recall returns.
	Filters *RecallFilters `json:"filters,omitempty"`
}

// RecallFilters narrow a recall to the memories that match every filter set: only they
// are returned and count toward K, and the seeds are drawn among them; expansion may pass
// through other memories but never returns them. A memory is said in a session, or at a
// time, when one of the messages it derives from (its provenance) was: an episode is said
// in its session. The time is the message's own (its timestamp), not the time the memory
// speaks of (t_start): what was said in a week, whatever it was about. A memory derived
// from no message matches neither.
type RecallFilters struct {
	Types      []NodeType `json:"types,omitempty"`       // of these types
	SessionIDs []string   `json:"session_ids,omitempty"` // said in one of these sessions (as sent)
	SaidSince  *time.Time `json:"said_since,omitempty"`  // said at or after it
	SaidUntil  *time.Time `json:"said_until,omitempty"`  // said at or before it
}

// MaxFilterItems bounds each list of RecallFilters; MaxSessionIDLen a session id, in
// characters, as a message's is bounded.
const (
	MaxFilterItems  = 100
	MaxSessionIDLen = 256
)

// Set reports whether f filters anything (a nil f, or {}, does not).
func (f *RecallFilters) Set() bool {
	return f != nil && (f.Types != nil || f.SessionIDs != nil || f.SaidSince != nil || f.SaidUntil != nil)
}

// BySaying reports whether f filters by the messages memories derive from (their
// session or time), which only the graph can tell.
func (f *RecallFilters) BySaying() bool {
	return f != nil && (f.SessionIDs != nil || f.SaidSince != nil || f.SaidUntil != nil)
}

// validate adds f's failures to fe, under filters.
func (f *RecallFilters) validate(fe FieldErrors) {
	if f == nil {
		return
	}
	list := func(field string, n int) bool {
		switch {
		case n == 0:
			fe.Add(field, "must not be empty: leave the field out instead")
		case n > MaxFilterItems:
			fe.Add(field, fmt.Sprintf("at most %d items", MaxFilterItems))
		default:
			return true
		}
		return false
	}
	if f.Types != nil && list("filters.types", len(f.Types)) {
		for i, t := range f.Types {
			if !t.Valid() {
				fe.Add(fmt.Sprintf("filters.types[%d]", i), "must be event, fact, entity or episode")
			}
		}
	}
	if f.SessionIDs != nil && list("filters.session_ids", len(f.SessionIDs)) {
		for i, id := range f.SessionIDs {
			switch {
			case id == "":
				fe.Add(fmt.Sprintf("filters.session_ids[%d]", i), "must not be empty")
			case utf8.RuneCountInString(id) > MaxSessionIDLen:
				fe.Add(fmt.Sprintf("filters.session_ids[%d]", i), fmt.Sprintf("longer than %d characters", MaxSessionIDLen))
			}
		}
	}
	if f.SaidSince != nil && f.SaidUntil != nil && f.SaidSince.After(*f.SaidUntil) {
		fe.Add("filters.said_until", "must not be before said_since")
	}
}

// Validate returns an EInvalid *Error naming every field out of bounds, or nil.
func (r RecallRequest) Validate() error {
	f := FieldErrors{}
	switch {
	case r.Query == "":
		f.Add("query", "required")
	case strings.TrimSpace(r.Query) == "": // as a message's content: nothing to look for
		f.Add("query", "required: not only white space")
	case len(r.Query) > MaxRecallQueryLen:
		f.Add("query", fmt.Sprintf("longer than %d bytes", MaxRecallQueryLen))
	}
	bound := func(field string, v, max int) {
		if v < 0 || v > max {
			f.Add(field, fmt.Sprintf("must be between 1 and %d (0 or absent: the default)", max))
		}
	}
	bound("k", r.K, MaxRecallK)
	if r.MaxDepth != nil && (*r.MaxDepth < 0 || *r.MaxDepth > MaxRecallDepth) {
		f.Add("max_depth", fmt.Sprintf("must be between 0 and %d", MaxRecallDepth))
	}
	switch r.Strategy {
	case "", Adaptive, StrategyPath, StrategyBeam:
	default:
		f.Add("strategy", "must be adaptive, path_search or subgraph_beam")
	}
	bound("beam_width", r.BeamWidth, MaxBeamWidth)
	bound("path_max_depth", r.PathMaxDepth, MaxPathDepth)
	bound("path_top_k", r.PathTopK, MaxPathTopK)
	bound("subgraph_max_nodes", r.SubgraphMaxNodes, MaxSubgraphNodes)
	if !(r.MinScore >= 0 && r.MinScore <= 1) { // NaN too
		f.Add("min_score", "must be a number between 0 and 1 (0 or absent: no cut-off)")
	}
	r.Filters.validate(f)
	return f.Err()
}

// RecalledNode is one node of a recall with its final score and the depth at which it
// was first reached (0 for a seed).
type RecalledNode struct {
	Node  Node    `json:"node"`
	Score float64 `json:"score"`
	Depth int     `json:"depth"`
}

// RecallResult is the evidence of one recall: the top K nodes and the edges among them.
type RecallResult struct {
	TraceID string             `json:"trace_id"`
	Nodes   []RecalledNode     `json:"nodes"`
	Edges   []Edge             `json:"edges"`
	Usage   Usage              `json:"usage"`
	Timings map[string]float64 `json:"timings"` // milliseconds per stage
}

// Seed methods recorded in a trace: how query_match found its nodes.
const (
	SeedVectorIndex = "vector_index" // the vector index, over-fetched then filtered by space
	SeedExactScan   = "exact_scan"   // vector.similarity.cosine over the space's memories
)

// ScoredID is a node id with a score.
type ScoredID struct {
	ID    string  `json:"id"`
	Score float64 `json:"score"`
}

// TraceStep is one expansion step: an atom applied to a frontier.
type TraceStep struct {
	Depth     int        `json:"depth"` // iteration of the adaptive loop, from 1
	Atom      Atom       `json:"atom"`
	Reasoning string     `json:"reasoning"`
	Frontier  []string   `json:"frontier"`
	Reached   []ScoredID `json:"reached"` // nodes admitted by this step, with their edge or path score
}

// TraceDecision is one answer of the sufficiency controller.
type TraceDecision struct {
	Depth         int      `json:"depth"`
	IsEnough      bool     `json:"is_enough"`
	NodesToExpand []string `json:"nodes_to_expand,omitempty"`
	Reason        string   `json:"reason,omitempty"`
}

// Validity actions of the read path.
const (
	ValidityDemoted   = "demoted"   // superseded, asked about the present: score × factor
	ValidityKept      = "kept"      // superseded, asked about the past or about what did not change: score unchanged
	ValiditySuccessor = "successor" // the newer version of a superseded node, offered beside it
	ValidityComing    = "coming"    // a newer version that begins to hold after the question's time: score × factor, below the older one
	ValidityHolding   = "holding"   // the older version that holds then, offered in the coming one's place
)

// TraceValidity is one validity decision of a recall.
type TraceValidity struct {
	ID     string  `json:"id"`
	Action string  `json:"action"`
	Of     string  `json:"of,omitempty"` // successor: the superseded node it replaces
	Factor float64 `json:"factor"`       // what the node's score was multiplied by
	Score  float64 `json:"score"`        // its score afterwards
}

// TraceReplaced is one candidate, ID, that node By took the place of in the top K
// (Trace.Replaced).
type TraceReplaced struct {
	ID string `json:"id"`
	By string `json:"by"`
}

// TraceLearned is one learned link that acted on a recall: its edge, the node it acted
// on (its end, labelled for the link's query), the cosine of this recall's query with the
// link's query, and the factor it gave the node's score (above 1 for key evidence, below
// for misleading). Injected: the node was not among the candidates; the link brought it.
// It does not copy the link's query: an earlier user's question would outlive its own
// trace in this one (the edge shows it until its trace's retention ends).
type TraceLearned struct {
	EdgeID    string    `json:"edge_id"`
	Node      string    `json:"node"`
	Label     NodeLabel `json:"label"`
	Closeness float64   `json:"closeness"`
	Factor    float64   `json:"factor"`
	Injected  bool      `json:"injected,omitempty"`
}

// Trace records one recall for inspection and reconsolidation (REALM.md §3.3).
type Trace struct {
	ID    string `json:"id"`
	Space string `json:"space"`
	Query string `json:"query"`
	// Focus is the query without the names common to most memories of the space, as the
	// read path embedded and planned it (of such a name sharing a word with another, the
	// words only it has stay); empty when nothing was left out.
	Focus      string     `json:"focus,omitempty"`
	Time       time.Time  `json:"time"` // the question's "now"
	Strategy   Strategy   `json:"strategy"`
	Plans      []Plan     `json:"plans"`
	SeedMethod string     `json:"seed_method,omitempty"` // vector_index | exact_scan
	Seeds      []ScoredID `json:"seeds"`
	// PlanRelaxation says, per plan, how far the soft type filter relaxed:
	// none | threshold | types.
	PlanRelaxation []string        `json:"plan_relaxation,omitempty"`
	Decisions      []TraceDecision `json:"decisions,omitempty"`
	Steps          []TraceStep     `json:"steps,omitempty"`
	FirstDepth     map[string]int  `json:"first_depth"` // node id → depth at which it was first reached
	// Scores are the final scores of the returned nodes, in their order: the evidence best
	// first, then the hubs (entities, episodes) best first, then, when fewer than K were
	// left, the candidates left out as repeats of them best first, but those a node
	// returned says already (a clause beside its whole message).
	Scores []ScoredID `json:"scores"`
	// MinScore is the request's cut-off (0: none); BelowMinScore the nodes of the top K it
	// left out, with their scores, in the order of Scores.
	MinScore      float64    `json:"min_score,omitempty"`
	BelowMinScore []ScoredID `json:"below_min_score,omitempty"`
	// Replaced lists the candidates that gave way to a node of more turns that says all
	// they say (the question to the exchange holding it with its answer), or, when fewer
	// than K were left, to a repeat of them that says all they say and more (a clause to
	// its whole message): it stands where
	// the candidate ranked, with its score, and Scores list it, not the candidate.
	Replaced []TraceReplaced `json:"replaced,omitempty"`
	// Validity says what the read path did with superseded nodes (REALM.md §2 "Ours"):
	// demoted for a question about the present, kept for one about the past, and the
	// newer version offered beside them.
	Validity []TraceValidity `json:"validity,omitempty"`
	// NotYetLearned counts the memories the recall met (found by a seed search, reached by
	// expansion, a newer version or a learned link) and left out because the space learned
	// them after the question's time (Node.LearnedAt).
	NotYetLearned int `json:"not_yet_learned,omitempty"`
	// Identifiers are the numbers of identifiers the question names ("T-7788": 7788) that
	// a gathered memory names; IdentifierMisses counts the memories naming none, lowered.
	Identifiers      []string `json:"identifiers,omitempty"`
	IdentifierMisses int      `json:"identifier_misses,omitempty"`
	// Filters are the request's (absent: none); FilteredOut counts the memories the recall
	// met (found by a seed search, reached by expansion, a newer version or a learned link)
	// and left out because they did not match them.
	Filters     *RecallFilters `json:"filters,omitempty"`
	FilteredOut int            `json:"filtered_out,omitempty"`
	// Learned lists the learned links that acted on this recall (query-conditioned
	// consolidation, REALM.md §4 "ours").
	Learned   []TraceLearned     `json:"learned,omitempty"`
	Timings   map[string]float64 `json:"timings"` // milliseconds per stage
	Usage     Usage              `json:"usage"`
	CreatedAt time.Time          `json:"created_at"`
}
