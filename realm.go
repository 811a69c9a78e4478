package realm

import (
	"context"
	"encoding/json"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/realm-memory/realm/internal/vec"
)

// NodeType is the kind of a memory unit (REALM.md §1).
type NodeType string

const (
	Entity  NodeType = "entity"  // a person, object, place or concept
	Event   NodeType = "event"   // something that happened or will happen
	Episode NodeType = "episode" // a longer stretch of activity with a why and an outcome
	Fact    NodeType = "fact"    // a stable statement: preference, attribute, belief, plan
)

// NodeTypes lists every node type.
var NodeTypes = []NodeType{Entity, Event, Episode, Fact}

// Valid reports whether t is one of the four node types.
func (t NodeType) Valid() bool {
	switch t {
	case Entity, Event, Episode, Fact:
		return true
	}
	return false
}

// Label is the Neo4j label beside :Memory, e.g. "Event".
func (t NodeType) Label() string {
	switch t {
	case Entity:
		return "Entity"
	case Event:
		return "Event"
	case Episode:
		return "Episode"
	case Fact:
		return "Fact"
	}
	return ""
}

// Predicate is the type of a directed memory edge (REALM.md §1).
type Predicate string

const (
	Contradicts    Predicate = "contradicts"
	Implies        Predicate = "implies"
	Constrains     Predicate = "constrains"
	Verifies       Predicate = "verifies"
	Precedes       Predicate = "precedes"
	Enables        Predicate = "enables"
	Triggers       Predicate = "triggers"
	ResultsIn      Predicate = "results_in"
	Comprises      Predicate = "comprises"
	Instantiates   Predicate = "instantiates"
	Summarizes     Predicate = "summarizes"
	Correlates     Predicate = "correlates"
	Supersedes     Predicate = "supersedes"
	AnalogousTo    Predicate = "analogous_to"
	Contextualizes Predicate = "contextualizes"
)

// CorrectionMark opens the description of a supersedes edge that a correction writes
// ("corrected by ops: …", "corrected Nina's sister: Marina, not Marta"): the memory it
// supersedes said something wrong, which never held, not a state of the world that held
// until it changed ("we moved to Berlin"). Recall ranks such a memory below its correction
// for a question about the past as for one about the present (retrieval/validity.go).
const CorrectionMark = "corrected "

// IsCorrection reports whether a supersedes edge's description marks a correction.
func IsCorrection(description string) bool { return strings.HasPrefix(description, CorrectionMark) }

// ChangeMark opens the description of a supersedes edge that a correction sent with the
// time it holds from writes ("changed by ops as of 2026-06-01T10:00:00Z: …"): a change
// then, no correction of something wrong.
const ChangeMark = "changed by "

// IsClientChange reports whether a supersedes edge's description is one a client's
// correction wrote ("corrected by ops: …", "changed by ops as of …: …"): it names who
// corrected and when, before the old memory's words, no slot of what changed.
func IsClientChange(description string) bool {
	return strings.HasPrefix(description, CorrectionMark+"by ") || strings.HasPrefix(description, ChangeMark)
}

// Predicates lists the fifteen predicates, the whitelist of relationship types.
var Predicates = []Predicate{
	Contradicts, Implies, Constrains, Verifies,
	Precedes, Enables, Triggers, ResultsIn,
	Comprises, Instantiates, Summarizes,
	Correlates, Supersedes, AnalogousTo, Contextualizes,
}

var predicateLayers = map[Predicate]string{
	Contradicts: "logical", Implies: "logical", Constrains: "logical", Verifies: "logical",
	Precedes: "causal", Enables: "causal", Triggers: "causal", ResultsIn: "causal",
	Comprises: "taxonomic", Instantiates: "taxonomic", Summarizes: "taxonomic",
	Correlates: "associative", Supersedes: "associative", AnalogousTo: "associative", Contextualizes: "associative",
}

// Valid reports whether p is in the whitelist.
func (p Predicate) Valid() bool { _, ok := predicateLayers[p]; return ok }

// Layer is the predicate's layer: logical, causal, taxonomic or associative.
func (p Predicate) Layer() string { return predicateLayers[p] }

// Symmetric predicates are written in both directions.
func (p Predicate) Symmetric() bool {
	return p == Contradicts || p == Correlates || p == AnalogousTo
}

// RelType is the Neo4j relationship type of p, e.g. "RESULTS_IN". Only whitelisted
// predicates have one; callers check Valid first.
func (p Predicate) RelType() string {
	if !p.Valid() {
		return ""
	}
	b := []byte(p)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// PredicateOfRelType is the inverse of RelType.
func PredicateOfRelType(rel string) Predicate {
	b := []byte(rel)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c - 'A' + 'a'
		}
	}
	return Predicate(b)
}

// SpacePattern is the syntax of a space id.
const SpacePattern = `^[A-Za-z0-9_-]{1,64}$`

// MaxIDLen is the most bytes of an id a request names: a message's, a memory's, a trace's.
const MaxIDLen = 256

var spaceID = regexp.MustCompile(SpacePattern)

// ValidSpace reports whether s is a valid space id: [A-Za-z0-9_-]{1,64}.
func ValidSpace(s string) bool { return spaceID.MatchString(s) }

// ChatRoles are the chat roles a message may be sent with (Observation.Role). A message
// sent with a role and no speaker is said by its role; a speaker that names no chat role
// is a person's name.
var ChatRoles = []string{"user", "assistant", "system", "tool"}

// Observation is one raw message as it arrived, stored before anything else.
type Observation struct {
	ID        string `json:"id"`
	Space     string `json:"space"`
	SessionID string `json:"session_id,omitempty"`
	Speaker   string `json:"speaker"`
	// Role is the chat role it was sent with (one of ChatRoles), "" for none: with a
	// speaker's name ("Ops bot" as "system"), it is the role that says whether the message
	// is extracted and whether its speaker may be a person (package construction).
	Role       string    `json:"role,omitempty"`
	Content    string    `json:"content"`
	ObservedAt time.Time `json:"timestamp"`
	// Offset is the UTC offset, in seconds east, of the timestamp as it was sent
	// ("+01:00": 3600), kept beside ObservedAt, which is stored as an instant (in UTC):
	// the message's days are read in it (Local).
	Offset int    `json:"-"`
	Seq    int64  `json:"seq"`
	Status string `json:"status,omitempty"` // pending | integrated | failed
	// SentBy is the name of the API key that first stored the message ("" on a server
	// without keys, whose every caller is the same): sent again by another key, it keeps
	// the first, as it keeps its seq.
	SentBy string `json:"sent_by,omitempty"`
	// Replaces is the id of the message of the space it is a new version of ("" for
	// none): an edited note sent again under a new id. What the replaced message said and
	// this one does not say any more ends when this one is said (package construction);
	// the replaced message stays stored, as history.
	Replaces string `json:"replaces,omitempty"`
	// Generation is how many messages its space had forgotten when it was stored (0
	// before any), or when forgetting another one marked it to integrate again: a
	// message forgotten, then sent again under its id, or integrated again, derives other
	// ids for what it adds than it did the first time, some of which may stay.
	Generation int64 `json:"-"`
	// Saved is when it was stored: a space created after it is not the one it was stored
	// in (construction tells a message erased with its space from one forgotten).
	Saved time.Time `json:"-"`
}

// Session is the conversation o belongs to: its session id, or, sent without one, the
// day it was said in the zone of its time (construction reads it where its sender's days
// are: Local), so that a chat without session ids still has an episode a day. The
// observation's id is derived from its session id as sent, never from this.
func (o Observation) Session() string {
	if o.SessionID != "" || o.ObservedAt.IsZero() {
		return o.SessionID
	}
	return o.ObservedAt.Format(time.DateOnly)
}

// Local is when o was said, read where its sender's days are (LocalTime): "tomorrow",
// said at 00:30 on 20 January +01:00, is the 21st, whatever the memory's zone.
func (o Observation) Local(zone *time.Location) time.Time {
	return LocalTime(o.ObservedAt, o.Offset, zone)
}

// LocalTime is t read where the days of whoever sent it are: in the UTC offset (seconds
// east) t was sent with, when not 0, else in zone (the memory's, REALM_TIME_ZONE), as for
// a client that sends every time in UTC ("…Z"). zone itself when it has that offset at t,
// so that its daylight saving time holds for the days around.
func LocalTime(t time.Time, offset int, zone *time.Location) time.Time {
	in := t.In(zone)
	if _, off := in.Zone(); offset == 0 || off == offset {
		return in
	}
	return t.In(time.FixedZone("", offset))
}

// Observation statuses.
const (
	ObservationPending    = "pending"
	ObservationIntegrated = "integrated"
	ObservationFailed     = "failed"
)

// Node is a memory unit of the cognitive graph (REALM.md §1).
type Node struct {
	ID             string     `json:"id"`
	Space          string     `json:"space"`
	Type           NodeType   `json:"type"`
	Name           string     `json:"name"`
	Content        string     `json:"content"`
	Description    string     `json:"description,omitempty"`
	Keywords       []string   `json:"keywords,omitempty"`
	TStart         *time.Time `json:"t_start,omitempty"`
	TEnd           *time.Time `json:"t_end,omitempty"`
	Aliases        []string   `json:"aliases,omitempty"`      // entity
	Category       string     `json:"category,omitempty"`     // entity: person/object/place/concept
	Role           string     `json:"role,omitempty"`         // entity
	Participants   []string   `json:"participants,omitempty"` // event
	Sources        []string   `json:"sources,omitempty"`      // ids of the observations its content comes from, the first SourcesMax (not its repeats)
	Embedding      []float32  `json:"-"`
	CreatedAt      time.Time  `json:"created_at"`
	UpdatedAt      time.Time  `json:"updated_at"`
	AccessCount    int64      `json:"access_count"`
	LastAccessedAt *time.Time `json:"last_accessed_at,omitempty"`
	// ValidUntil ends the validity of a superseded node: when its newer version began to
	// hold. SupersededAt is when the space learned it (REALM.md §2 "Ours", bi-temporal).
	ValidUntil   *time.Time `json:"valid_until,omitempty"`
	SupersededAt *time.Time `json:"superseded_at,omitempty"`
	// LearnedAt is when the space learned what the node says: the earliest time of the
	// observations it derives from (a merge keeps the earliest, as does a repeat), for a client's correction
	// its valid_from, else when it was made. A recall as of an earlier time leaves the
	// node out; nil (a node stored before it was kept, with no timed source) is always known.
	LearnedAt *time.Time `json:"learned_at,omitempty"`
	// LastSaidAt is when the node was last said: the latest time of the observations it
	// derives from, its repeats included ("Front door opened" at 08:00, said again at
	// 18:00: 18:00), which no memory of its own records; nil for a node stored before it
	// was kept, or with no timed source.
	LastSaidAt *time.Time `json:"last_said_at,omitempty"`
	// CorrectedBy is the name of the API key that made the node, a client's correction
	// ("" for any other node, and on a server without keys).
	CorrectedBy string `json:"corrected_by,omitempty"`
}

// KnownAt reports whether the space had learned n by t (n.LearnedAt nil: always).
func (n Node) KnownAt(t time.Time) bool { return n.LearnedAt == nil || !n.LearnedAt.After(t) }

// SaidWithin is when n was last said (LastSaidAt) when that lies within the time n tells
// of (TStart to TEnd): the latest time it happened as its messages tell it, surer than
// the span ("Front door opened", an event of 7 December said at 08:00 and again at 18:00:
// 18:00); false when it lies outside (said after it happened: "I ran yesterday") or
// either is unknown.
func (n Node) SaidWithin() (time.Time, bool) {
	if n.LastSaidAt == nil || n.TStart == nil || n.TEnd == nil || n.LastSaidAt.Before(*n.TStart) || n.LastSaidAt.After(*n.TEnd) {
		return time.Time{}, false
	}
	return *n.LastSaidAt, true
}

// SourcesMax is the most observation ids a node's Sources lists: the first it derives
// from. A speaker's entity derives from most observations of a conversation (about
// 39,000 at 100,000 memories), and writing that list again with each new one cost Neo4j
// more than the rest of the message. A node stays linked to every observation it derives
// from (DERIVED_FROM edges, which export carries), and to some of those that said again
// what it holds (its repeats, cypher.RepeatsKept), which Sources does not list.
const SourcesMax = 1000

// Edge is a directed, typed, weighted relation between two nodes of one space.
type Edge struct {
	ID          string    `json:"id"`
	From        string    `json:"from"`
	To          string    `json:"to"`
	Predicate   Predicate `json:"predicate"`
	Layer       string    `json:"layer"`
	Description string    `json:"description,omitempty"`
	// Query and Label make the edge a learned link (REALM.md §4 "ours"): reconsolidation
	// added it because To was Label (key evidence or misleading) for Query, recalled with
	// From; it acts only on later queries close to Query (retrieval/consolidate.go).
	// QueryErased: the query's text was erased with the recall's trace, past the trace
	// retention; the link still acts, on queries close to the query as it was embedded
	// then.
	Query         string    `json:"query,omitempty"`
	QueryErased   bool      `json:"query_erased,omitempty"`
	Label         NodeLabel `json:"label,omitempty"`
	Weight        float64   `json:"weight"`
	InitialWeight float64   `json:"initial_weight"`
	Confidence    float64   `json:"confidence"`
	CreatedAt     time.Time `json:"created_at"`
	UpdatedAt     time.Time `json:"updated_at"`
}

// Learned reports whether e is a learned link, its query's text kept or erased.
func (e Edge) Learned() bool { return e.Query != "" || e.QueryErased }

// Embedder turns texts into vectors. Implementations: embed.OpenAI, embed.Local, embed.Hash.
type Embedder interface {
	// ID names the model, e.g. "local:all-MiniLM-L6-v2"; recorded in Neo4j with Dim.
	ID() string
	// Dim is the length of every returned vector.
	Dim() int
	// Embed returns one L2-normalised vector per text, in order. It returns
	// EUnavailable when a remote model cannot be reached.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Cosine is the cosine similarity of two embeddings in [-1, 1]; 0 when their lengths
// differ or either is zero. Its sums are vec's, so that the exact scans of held
// embeddings (cypher) give the same bits.
func Cosine(a, b []float32) float64 {
	if len(a) == 0 || len(a) != len(b) {
		return 0
	}
	dot, na, nb := vec.Cosine(a, b)
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// Usage accounts for LLM calls, by stage (extract, integrate, plan, sufficiency, expand,
// answer, audit, judge).
type Usage map[string]StageUsage

// MarshalJSON writes no usage as {}, never null: a result that cost nothing (the offline
// agent, a message integrated before) reads as one that cost something, with no stage.
func (u Usage) MarshalJSON() ([]byte, error) {
	if u == nil {
		return []byte("{}"), nil
	}
	return json.Marshal(map[string]StageUsage(u))
}

// StageUsage is the cost of one stage.
type StageUsage struct {
	Calls            int     `json:"calls"`
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	LatencyMS        float64 `json:"latency_ms"`
	Failures         int     `json:"failures"`  // calls that failed or returned invalid output
	Fallbacks        int     `json:"fallbacks"` // decisions taken by the offline agent instead
}

// Add merges o into u.
func (u Usage) Add(o Usage) {
	for stage, s := range o {
		u[stage] = u[stage].Plus(s)
	}
}

// Plus is the usage of s and o together.
func (s StageUsage) Plus(o StageUsage) StageUsage {
	s.Calls += o.Calls
	s.PromptTokens += o.PromptTokens
	s.CompletionTokens += o.CompletionTokens
	s.LatencyMS += o.LatencyMS
	s.Failures += o.Failures
	s.Fallbacks += o.Fallbacks
	return s
}
