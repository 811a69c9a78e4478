package retrieval

import (
	"cmp"
	"context"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/internal/text"
)

// Options are the read path's settings; DefaultOptions gives REALM.md §3's values.
// Per-request settings (K, depth, beam, caps) override the first six within the bounds
// of realm.RecallRequest.Validate.
type Options struct {
	K                int // nodes returned (REALM.md §3.3: 10)
	MaxDepth         int // loop iterations and node depth (paper: 3 for LoCoMo)
	BeamWidth        int // subgraph_beam: new nodes kept per hop (ours: 8)
	PathMaxDepth     int // hops one expansion step searches (ours: 3)
	PathTopK         int // path_search: paths kept per frontier node (ours: 5)
	SubgraphMaxNodes int // subgraph_beam: nodes admitted per seed (ours: 20)

	SeedsPerPlan   int     // seeds one plan contributes
	SeedCandidates int     // candidates fetched per signal (vector, keyword) and plan
	SeedMinScore   float64 // the score threshold of the soft type filter's first step
	FrontierMax    int     // nodes expanded per iteration (REALM.md §3.2: ≤ 5)
	PathCandidates int     // paths the path query returns before exact scoring

	// ExactScanMax: spaces with at most this many memories are searched by an exact
	// cosine scan instead of the vector index; so are spaces whose index over-fetch
	// (SeedCandidates × total/space × 2) would exceed IndexFetchMax. See DefaultOptions.
	ExactScanMax  int64
	IndexFetchMax int

	// Names of entities derived from at least CommonNameShare of a space's observations,
	// and at least CommonNameMin of them, are left out of the query (see focus).
	CommonNameShare float64
	CommonNameMin   int
	// WholeQuery is the weight of the whole question's embedding added to its focus's
	// (see embedFocus).
	WholeQuery float64

	WSuppress      float64 // edges below this weight are not traversed (ours: 0.1)
	HybridVector   float64 // 0.6
	HybridKeyword  float64 // 0.4
	EdgeSimilarity float64 // 0.6
	EdgeWeight     float64 // 0.4
	HopPenalty     float64 // 0.03 per extra hop
	DecayStep      float64 // 0.05 per delta_t beyond the window
	DecayCap       float64 // 0.3
	Alpha          float64 // 0.8
	Beta           float64 // 0.6

	// SupersededFactor multiplies the score of a superseded node asked about in the
	// present (validity.go; 0 turns validity off); SuccessorShare of a superseded node's
	// score goes to its newer version when the question is about the past.
	SupersededFactor float64
	SuccessorShare   float64
	// IdentifierMiss lowers, when the question names an identifier's number ("T-7788")
	// that some gathered memory names, each memory naming none (identifiers.go; 0: off).
	IdentifierMiss float64
	// SubjectMiss lowers, when the question asks about the asker or a relative of someone
	// ("What am I allergic to?", "What is my mother allergic to?") and a gathered memory is
	// of that subject, each memory of another (subjects.go; 0: off).
	SubjectMiss float64
	// RecencyRange lowers, when a plan asks for the latest (realm.Plan.Latest), the
	// matching events and facts by their age: the newest keeps its score, the oldest loses
	// RecencyRange of it (recency.go; 0: off).
	RecencyRange float64

	// Scorer ranks the gathered nodes: ScorerOurs, ScorerPaper or ScorerSimilarity.
	Scorer string
	// PathExponent softens the path strength (product of edge weights) in ours: 0.5.
	PathExponent float64
	// SeedShare is the share of a seed's relevance taken from its seed score in ours, the
	// rest from its similarity to the query (score.go): 0.25.
	SeedShare float64
	// ReachBonus lifts a node reached by expansion in ours, its score times 1 + ReachBonus: 0.
	ReachBonus float64
	// Query-conditioned consolidation (consolidate.go): a learned link acts on a query
	// whose cosine with the link's query is at least LearnedClose, fully from LearnedFull
	// on; at full weight it multiplies its key-evidence end's score by 1 + LearnedBoost and
	// its misleading end's by 1 − LearnedDrop. Defaults 0.7, 1, 1, 0.5: LearnedClose 0.7 was
	// chosen on LoCoMo's tuning split, where feedback lost with 0.5 on both splits
	// (docs/benchmarks/locomo-feedback.md).
	LearnedClose, LearnedFull, LearnedBoost, LearnedDrop float64
	// LearnedWalk 1 lets expansion cross key-evidence learned links like any edge, whatever
	// the query; 0 leaves them to consolidate.go alone (expand.go, walks).
	LearnedWalk float64
	// LearnedNearest 1 lets the key-evidence links of the earlier query closest to this
	// one act alone: a query close to several earlier ones is on the topic they share,
	// and their answers, lifted together, push its own evidence out (consolidate.go).
	LearnedNearest float64
	// LearnedRelevance ρ₀ (0: off) lets a key-evidence link act on a node only as far as the
	// node's similarity to this query is at least ρ₀ times its similarity to the link's
	// query (consolidate.go, relevanceFit).
	LearnedRelevance float64
	// LearnedMismatch (0: off) multiplies by 1 − LearnedMismatch the score of a node
	// confirmed as key evidence for another query (a key-evidence learned link leads to it
	// and none acted for this one) when it shares no content word with this query's focus:
	// it is that query's answer, not this one's (consolidate.go, mismatched).
	LearnedMismatch float64
	// LearnedHalfLife (hours; 0: off) is the anti-lock-in decay of REALM.md §4: a learned
	// link not confirmed again for that long acts with half its weight (consolidate.go).
	LearnedHalfLife float64
	// Explore (0: off) is the exploration of REALM.md §4: each hop of subgraph_beam also
	// admits this share of the beam width (at least one) of the lowest-weight neighbours
	// the beam left out (expand.go).
	Explore float64
	// HubDegree is the most memory edges a memory may have for a subgraph_beam hop to
	// score all its neighbours; of one with more (a hub), the cypher.HubBranch heaviest
	// edges are scored (cypher.Hop). See DefaultOptions.
	HubDegree int
	// Zone is where the memory's days are (nil: UTC), as construction.Options.Zone: a
	// question's time is read in it, unless it was given with another UTC offset, read
	// in that (realm.LocalTime), so "yesterday" and "on Monday" are the asker's days.
	Zone *time.Location
}

// DefaultOptions returns REALM.md §3's values.
//
// HubDegree is 200 by measurement (docs/benchmarks/read-path.md, sixth step): in the
// LoCoMo dev graphs only the speakers' entities have more memory edges (343–660, all
// instantiates of one weight; the next memory has 92), and scoring 100 of them instead of
// all left recall@10 unchanged on the validation split and 0.003 lower on tuning.
//
// ExactScanMax is 500 by measurement (BenchmarkSeedMethods; Neo4j 5.26 community, 2
// cores, 384 dims, 50 candidates returned with their embeddings): the exact scan costs
// about 30–50 µs per memory of the space (16 ms at 250, 50 ms at 1k, 330 ms at 10k) while
// the index answers in 10–25 ms whatever the size; they cross between 250 and 1,000
// memories. Above 500 the index runs, unless the space is under 1% of the database
// (over-fetch SeedCandidates × total/space × 2 > IndexFetchMax = 10,000): then the index
// could not be trusted to hold the space's neighbours among its results and the exact
// scan runs anyway, slower but complete.
func DefaultOptions() Options {
	return Options{
		K: realm.DefaultRecallK, MaxDepth: realm.DefaultMaxDepth, BeamWidth: realm.DefaultBeamWidth,
		PathMaxDepth: realm.DefaultPathDepth, PathTopK: realm.DefaultPathTopK, SubgraphMaxNodes: realm.DefaultSubgraphMax,
		SeedsPerPlan: 10, SeedCandidates: 50, SeedMinScore: 0.2, FrontierMax: 5, PathCandidates: 200,
		ExactScanMax: 500, IndexFetchMax: 10000, CommonNameShare: 0.1, CommonNameMin: 20, WholeQuery: 0.5,
		WSuppress: 0.1, HybridVector: 0.6, HybridKeyword: 0.4, EdgeSimilarity: 0.6, EdgeWeight: 0.4,
		HopPenalty: 0.03, DecayStep: 0.05, DecayCap: 0.3, Alpha: 0.8, Beta: 0.6,
		SupersededFactor: 0.5, SuccessorShare: 0.95, IdentifierMiss: 0.5, SubjectMiss: 0.3, RecencyRange: 0.5,
		Scorer: ScorerOurs, PathExponent: 0.5, SeedShare: 0.25, LearnedClose: 0.7, LearnedFull: 1, LearnedWalk: 0, LearnedBoost: 1, LearnedDrop: 0.5,
		HubDegree: 200,
	}
}

// Retriever runs recalls on one store. It is safe for concurrent use.
type Retriever struct {
	store *cypher.Store
	emb   realm.Embedder
	ag    agent.Agent
	opts  Options
	log   zerolog.Logger
	// timings, when set, learns the stage timings of every recall (ObserveTimings).
	timings func(map[string]float64)
	names   *nameCache   // per space, its common names (focus)
	kept    *vectorCache // the expansion's texts' embeddings (embedKept)
}

// New returns a Retriever; a zero Options means DefaultOptions().
func New(store *cypher.Store, emb realm.Embedder, ag agent.Agent, opts Options, logger zerolog.Logger) *Retriever {
	if opts == (Options{}) {
		opts = DefaultOptions()
	}
	return &Retriever{store: store, emb: emb, ag: ag, opts: opts, log: logger, names: &nameCache{spaces: map[string]focusNames{}}, kept: &vectorCache{vecs: map[string][]float32{}}}
}

// ObserveTimings returns a Retriever like r that calls fn with the stage timings of every
// recall that succeeds (milliseconds by Stage*; the map is the result's, not to be
// changed). It is how cmd turns them into metrics without this package knowing of any.
func (r *Retriever) ObserveTimings(fn func(timings map[string]float64)) *Retriever {
	c := *r
	c.timings = fn
	return &c
}

// Stages of a recall, the keys of the timings (milliseconds).
const (
	StagePlan      = "plan"
	StageSeed      = "seed"
	StageExpand    = "expand"
	StageAggregate = "aggregate" // consolidation, validity, the top K
	StageRecord    = "record"    // trace and access stats, and the edges among the top K
	StageTotal     = "total"
)

// Recall finds the evidence for req.Query in the space (REALM.md §3) and stores its
// trace. Errors: EInvalid (space or request, with field names), EUnavailable (Neo4j or
// the embedder).
func (r *Retriever) Recall(ctx context.Context, space string, req realm.RecallRequest) (realm.RecallResult, error) {
	if !realm.ValidSpace(space) {
		return realm.RecallResult{}, &realm.Error{Code: realm.EInvalid, Message: "invalid space id", Fields: map[string]string{"space": "must match [A-Za-z0-9_-]{1,64}"}}
	}
	if err := req.Validate(); err != nil {
		return realm.RecallResult{}, err
	}
	ctx = agent.WithRecallScope(ctx) // a decision stage whose model failed is not asked again in this recall
	started := time.Now()
	run := r.newRun(space, req)
	log := r.log.With().Str("space", space).Str("trace_id", run.trace.ID).Logger()

	stage := time.Now()
	var err error
	if run.counts, err = r.store.SpaceCounts(ctx, space); err != nil {
		return realm.RecallResult{}, err
	}
	r.store.Recalling(space, run.counts)
	if err := r.asOf(ctx, run); err != nil {
		return realm.RecallResult{}, err
	}
	if err := r.applyFilters(ctx, run, req.Filters); err != nil {
		return realm.RecallResult{}, err
	}
	focus, err := r.focus(ctx, space, req.Query, run.counts)
	if err != nil {
		return realm.RecallResult{}, err
	}
	if focus != req.Query {
		run.query, run.trace.Focus = focus, focus
	}
	plans, usage, err := r.ag.PlanSeeds(ctx, agent.PlanInput{Query: run.query, Time: run.now})
	if err != nil {
		return realm.RecallResult{}, err
	}
	run.usage.Add(usage)
	run.plans = validPlans(plans, req.Query)
	run.trace.Plans = run.plans
	run.timing(StagePlan, stage)

	stage = time.Now()
	if err := r.seed(ctx, run); err != nil {
		return realm.RecallResult{}, err
	}
	run.timing(StageSeed, stage)

	stage = time.Now()
	if err := r.expand(ctx, run); err != nil {
		return realm.RecallResult{}, err
	}
	run.timing(StageExpand, stage)

	stage = time.Now()
	if err := r.consolidate(ctx, run); err != nil {
		return realm.RecallResult{}, err
	}
	if err := r.applyValidity(ctx, run); err != nil {
		return realm.RecallResult{}, err
	}
	if err := r.applyComing(ctx, run); err != nil {
		return realm.RecallResult{}, err
	}
	r.applyIdentifiers(run)
	r.applySubjects(run)
	r.applyRecency(run)
	matching, err := r.matching(ctx, run, run.ranked())
	if err != nil {
		return realm.RecallResult{}, err
	}
	top, replaced := selectTop(run.keepRarest(run.ofThen(run.saidThen(matching))), run.set.K)
	run.trace.Replaced = replaced
	run.trace.NotYetLearned = len(run.unlearned.ids)
	run.trace.FilteredOut = len(run.filter.out.ids)
	top = run.aboveMinScore(top)
	ids := make([]string, len(top))
	res := realm.RecallResult{TraceID: run.trace.ID, Usage: run.usage, Nodes: make([]realm.RecalledNode, len(top))}
	for i, c := range top {
		ids[i] = c.Node.ID
		res.Nodes[i] = realm.RecalledNode{Node: c.Node, Score: c.Score, Depth: c.Depth}
		run.trace.Scores = append(run.trace.Scores, realm.ScoredID{ID: c.Node.ID, Score: c.Score})
	}
	run.timing(StageAggregate, stage)

	// The trace and the accesses are written while the subgraph the top K induce is read
	// (all edges among them, REALM.md §3.3): both need only the top K, and each is one
	// statement, so the recall waits for the slower instead of their sum. The trace
	// carries the timings up to its write.
	stage = time.Now()
	run.trace.Usage = run.usage
	run.timing(StageRecord, stage)
	run.timing(StageTotal, started)
	trace := run.trace
	trace.Timings = maps.Clone(run.trace.Timings)
	recorded := make(chan error, 1)
	go func() { recorded <- r.store.RecordRecall(ctx, trace, ids, run.started) }()
	res.Edges, err = r.store.InducedEdges(ctx, space, ids)
	if recordErr := <-recorded; err == nil {
		err = recordErr
	}
	if err != nil {
		return realm.RecallResult{}, err
	}
	if res.Edges == nil {
		res.Edges = []realm.Edge{}
	}
	run.timing(StageRecord, stage)
	run.timing(StageTotal, started)
	res.Timings = run.trace.Timings
	if r.timings != nil {
		r.timings(res.Timings)
	}
	log.Debug().Int("nodes", len(res.Nodes)).Float64("ms", run.trace.Timings[StageTotal]).Msg("recall")
	return res, nil
}

// focus is the query as the read path uses it: without the names of the space's
// participants. A name that occurs in most memories cannot tell them apart; kept, it pulls
// to the top the short turns that say little beyond the names (a query naming both
// speakers of a conversation matches "Gina: Remember Jon, just do it!" best). A name that
// shares a word with another participant's keeps the words only it has: "Anna Schmidt",
// beside an Anna Weber, leaves "Schmidt", which tells whose memories are asked about. The
// query is kept whole when fewer than two content words would remain.
func (r *Retriever) focus(ctx context.Context, space, query string, counts cypher.SpaceCounts) (string, error) {
	if r.opts.CommonNameShare <= 0 {
		return query, nil
	}
	names, err := r.commonNames(ctx, space, counts)
	if err != nil || names.named == nil {
		return query, err
	}
	focus := strings.Join(strings.Fields(names.named.ReplaceAllStringFunc(query, names.own)), " ")
	if len(text.Keywords(focus, 2)) < 2 {
		return query, nil
	}
	return focus, nil
}

// nameCache keeps, per space, the pattern of its common names (see focus) with the
// counts it was read at: finding them reads every entity of the space and counts its
// observations, too slow to do on every recall of a large space (36–120 ms at 100,000
// memories), and they change only with a new observation or a memory added or removed
// (cypher.Store.SpaceCounts).
type nameCache struct {
	mu      sync.Mutex
	spaces  map[string]focusNames
	reading map[string]bool // spaces whose names are being read in the background
}

// focusNames is a space's common names as a pattern (nil: none), the words found in the
// names of more than one of its entities, and when they were read.
type focusNames struct {
	inSpace, seq int64
	named        *regexp.Regexp
	shared       map[string]bool
}

// own is what the focus keeps of a common name found in a query: the fields holding a
// word no other common entity's name holds, when one of its words is another's too
// (nothing otherwise: the name does not tell participants apart).
func (c focusNames) own(name string) string {
	var kept []string
	fields := strings.Fields(name)
	for _, f := range fields {
		if slices.ContainsFunc(text.Words(f), func(w string) bool { return !c.shared[w] }) {
			kept = append(kept, f)
		}
	}
	if len(kept) == len(fields) {
		return ""
	}
	return strings.Join(kept, " ")
}

// nameCacheMax bounds the spaces remembered; past it, the cache starts over.
const nameCacheMax = 4096

// A space's names read at seq are served after the space moved on, while they are read
// again in the background, when the space had at least namesStaleFrom observations then
// and has at most 1/namesStaleShare more now, none of its memories gone. The names are
// the entities in at least CommonNameShare of the observations (and CommonNameMin): d new
// observations move that bar by CommonNameShare·d and an entity's count by at most d, so
// with d ≤ 1% of the observations only a name within 1% of the bar can change sides,
// for as long as the read in the background takes. A smaller space (LoCoMo's hold
// 400–700), a larger move or a deletion is read at once, as before: the recall waits.
// The read in the background starts once the space has 1/namesReadShare more
// observations than at the names' read (at least one more): each read costs Neo4j a pass
// over the space's entities (36–120 ms at 100,000 memories), which an agent writing one
// observation per recall would otherwise pay at every recall, beside it.
// A variable so that tests can shrink it.
var namesStaleFrom int64 = 2000

const (
	namesStaleShare = 100
	namesReadShare  = 1000
)

// servesStale reports whether names read at c may stand for the space as counts find it
// while they are read again (see namesStaleFrom).
func (c focusNames) servesStale(counts cypher.SpaceCounts) bool {
	moved := counts.Seq - c.seq
	return c.seq >= namesStaleFrom && moved >= 0 && moved <= c.seq/namesStaleShare && counts.InSpace >= c.inSpace
}

// commonNames returns the space's common names (see focusNames), from the cache while
// counts say the space has not changed, or has changed little since (servesStale: then
// they are read again in the background, see namesReadShare).
func (r *Retriever) commonNames(ctx context.Context, space string, counts cypher.SpaceCounts) (focusNames, error) {
	r.names.mu.Lock()
	c, ok := r.names.spaces[space]
	r.names.mu.Unlock()
	if ok && c.inSpace == counts.InSpace && c.seq == counts.Seq {
		return c, nil
	}
	if ok && c.servesStale(counts) {
		if counts.Seq-c.seq >= max(1, c.seq/namesReadShare) {
			r.readNamesInBackground(space, counts)
		}
		return c, nil
	}
	return r.readNames(ctx, space, counts)
}

// readNames reads the space's common names, as of counts or later, and keeps them
// labelled with counts unless names of later counts are kept meanwhile.
func (r *Retriever) readNames(ctx context.Context, space string, counts cypher.SpaceCounts) (focusNames, error) {
	entities, err := r.store.CommonNames(ctx, space, r.opts.CommonNameShare, r.opts.CommonNameMin)
	if err != nil {
		return focusNames{}, err
	}
	c := focusNames{inSpace: counts.InSpace, seq: counts.Seq, shared: map[string]bool{}}
	var alts []string
	seen := map[string]bool{} // the words of the names of the entities before
	for _, entity := range entities {
		words := map[string]bool{}
		for _, n := range entity {
			if n != "" {
				alts = append(alts, regexp.QuoteMeta(n))
			}
			for _, w := range text.Words(n) {
				words[w] = true
			}
		}
		for w := range words {
			if seen[w] {
				c.shared[w] = true
			}
			seen[w] = true
		}
	}
	if len(alts) > 0 {
		c.named = regexp.MustCompile(`(?i)\b(?:` + strings.Join(alts, "|") + `)(['’]s)?\b`)
	}
	r.names.mu.Lock()
	defer r.names.mu.Unlock()
	if len(r.names.spaces) >= nameCacheMax {
		r.names.spaces = map[string]focusNames{}
	}
	if held, ok := r.names.spaces[space]; !ok || held.seq <= c.seq {
		r.names.spaces[space] = c
	}
	return c, nil
}

// namesReadTimeout bounds a read of a space's names in the background.
const namesReadTimeout = time.Minute

// readNamesInBackground reads the space's names in a goroutine, unless a read of them is
// under way.
func (r *Retriever) readNamesInBackground(space string, counts cypher.SpaceCounts) {
	r.names.mu.Lock()
	defer r.names.mu.Unlock()
	if r.names.reading[space] {
		return
	}
	if r.names.reading == nil {
		r.names.reading = map[string]bool{}
	}
	r.names.reading[space] = true
	go func() {
		bg, cancel := context.WithTimeout(context.Background(), namesReadTimeout) // not the recall's: it may end first
		defer cancel()
		if _, err := r.readNames(bg, space, counts); err != nil {
			r.log.Warn().Err(err).Str("space", space).Msg("common names not read again; the ones held stay")
		}
		r.names.mu.Lock()
		delete(r.names.reading, space)
		r.names.mu.Unlock()
	}()
}

// settings are one request's resolved bounds.
type settings struct {
	K, MaxDepth, BeamWidth, PathMaxDepth, PathTopK, SubgraphMaxNodes int
	Strategy                                                         realm.Strategy
	MinScore                                                         float64
}

func (r *Retriever) settings(req realm.RecallRequest) settings {
	pick := func(v, def int) int {
		if v > 0 {
			return v
		}
		return def
	}
	s := settings{
		K: pick(req.K, r.opts.K), MaxDepth: r.opts.MaxDepth, BeamWidth: pick(req.BeamWidth, r.opts.BeamWidth),
		PathMaxDepth: min(pick(req.PathMaxDepth, r.opts.PathMaxDepth), realm.MaxPathDepth), PathTopK: pick(req.PathTopK, r.opts.PathTopK),
		SubgraphMaxNodes: pick(req.SubgraphMaxNodes, r.opts.SubgraphMaxNodes), Strategy: req.Strategy, MinScore: req.MinScore,
	}
	if req.MaxDepth != nil {
		s.MaxDepth = *req.MaxDepth
	}
	if s.Strategy == "" {
		s.Strategy = realm.Adaptive
	}
	return s
}

// candidate is a node gathered by a recall.
type candidate struct {
	Node     realm.Node
	Arrival  arrival // how the best-scoring arrival got here
	Score    float64 // final score
	Depth    int     // first reached at
	Root     string  // the seed it was reached from (itself for a seed)
	Expanded bool
	// Newer: a newer version of another candidate (a supersedes edge to it, applyValidity).
	// A client's correction keeps the provenance of the memory it corrects, yet says what
	// those observations did not (redundant).
	Newer bool
}

// run is the state of one recall.
type run struct {
	space    string
	query    string
	now      time.Time // the question's time
	started  time.Time
	set      settings
	plans    []realm.Plan
	usage    realm.Usage
	trace    realm.Trace
	cands    map[string]*candidate
	perRoot  map[string]int        // nodes admitted by subgraph_beam per seed
	vectors  map[string][]float32  // text → embedding
	nodes    map[string]realm.Node // id → node, as read during this recall
	qvec     []float32             // the request query's embedding
	counts   cypher.SpaceCounts    // the space's size, read once per recall
	partial  []string              // candidates admitted by expansion without their sources
	graph    cypher.Expander       // what expansion reads the graph through, chosen at its first hop
	saidIn   map[string]bool       // with a SaidIn plan (else nil): the events and facts said in its window (or dated in its DatedIn), the SeedCandidates most similar (seed)
	saidWhen []realm.TimeRange     // the SaidIn plans' windows and their DatedIn
	// learnedBy, for a question asked as of a time before now when the space learned
	// memories after it, is that time (else nil): those memories are left out (asOf).
	learnedBy *time.Time
	unlearned leftOut // the memories met and left out as learned after learnedBy
	filter    filter  // the request's filters (filter.go)
	seedLimit int     // the candidates a seed search returns (asOf, filter)
}

// leftOut is a set of memories a recall met and left out; seed searches add to it at once.
type leftOut struct {
	mu  sync.Mutex
	ids map[string]bool
}

func (l *leftOut) add(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ids == nil {
		l.ids = map[string]bool{}
	}
	l.ids[id] = true
}

// asOf prepares a question asked as of a time before now (REALM.md §2 "Ours": validity is
// bi-temporal, when it was true and when the space learned it): it is answered with what
// the space knew then, so every memory learned after it (realm.Node.LearnedAt) is left out
// wherever a recall would take it in (seeds, expansion, newer versions, learned links).
// When the space learned nothing after it (a question asked after the conversation it is
// about), nothing is left out and the recall is one of now at that time. Seed searches ask
// for more candidates in proportion to the share of the space left out (at most four
// times as many), so that about as many remain.
func (r *Retriever) asOf(ctx context.Context, run *run) error {
	if !run.now.Before(run.started) || run.counts.InSpace == 0 {
		return nil
	}
	later, err := r.store.LearnedAfter(ctx, run.space, run.now)
	if err != nil || later == 0 {
		return err
	}
	by := run.now
	run.learnedBy = &by
	run.seedLimit = max(run.seedLimit, r.seedsAmong(run.counts.InSpace, run.counts.InSpace-later))
	return nil
}

// seedsAmong is the candidates a seed search returns when kept of the space's inSpace
// memories may be taken: SeedCandidates in proportion to the share left out, so that
// about as many remain, at most four times as many.
func (r *Retriever) seedsAmong(inSpace, kept int64) int {
	kept = max(1, kept)
	return int(min(4*int64(r.opts.SeedCandidates), (int64(r.opts.SeedCandidates)*inSpace+kept-1)/kept))
}

// known reports whether the space had learned n by the question's time, and records n
// as left out when not.
func (run *run) known(n realm.Node) bool {
	if run.learnedBy == nil || n.KnownAt(*run.learnedBy) {
		return true
	}
	run.unlearned.add(n.ID)
	return false
}

func (r *Retriever) newRun(space string, req realm.RecallRequest) *run {
	now := time.Now().UTC()
	qtime := now
	if req.Time != nil {
		qtime = *req.Time
	}
	_, offset := qtime.Zone()
	qtime = realm.LocalTime(qtime, offset, cmp.Or(r.opts.Zone, time.UTC))
	set := r.settings(req)
	return &run{
		space: space, query: req.Query, now: qtime, started: now, set: set, usage: realm.Usage{},
		trace: realm.Trace{
			ID: uuid.NewString(), Space: space, Query: req.Query, Time: qtime, Strategy: set.Strategy,
			FirstDepth: map[string]int{}, Timings: map[string]float64{}, CreatedAt: now,
			Seeds: []realm.ScoredID{}, Scores: []realm.ScoredID{},
		},
		cands: map[string]*candidate{}, perRoot: map[string]int{}, seedLimit: r.opts.SeedCandidates,
		vectors: map[string][]float32{}, nodes: map[string]realm.Node{},
	}
}

func (run *run) timing(stage string, since time.Time) {
	run.trace.Timings[stage] = float64(time.Since(since).Microseconds()) / 1000
}

// ranked returns the candidates best first (ties: shallower, then for a question about
// the latest the newer, then by id).
func (run *run) ranked() []*candidate {
	out := make([]*candidate, 0, len(run.cands))
	for _, c := range run.cands {
		out = append(out, c)
	}
	latest := run.asksLatest()
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		if out[i].Depth != out[j].Depth {
			return out[i].Depth < out[j].Depth
		}
		if latest {
			// Alike for a question about the latest: the newer first, expanded first.
			ti, _ := run.timeOf(out[i].Node)
			tj, _ := run.timeOf(out[j].Node)
			if !ti.Equal(tj) {
				return ti.After(tj)
			}
		}
		return out[i].Node.ID < out[j].Node.ID
	})
	return out
}

// asksLatest: a plan of the run asks for the latest of what it matches (realm.Plan.Latest).
func (run *run) asksLatest() bool {
	return slices.ContainsFunc(run.plans, func(p realm.Plan) bool { return p.Latest })
}

// saidThen is ranked without the events and facts said outside the window of a SaidIn
// plan (and not dated in its DatedIn), and without the episodes of other times (what was
// said then is the question); when nothing was said or dated then, nothing is returned.
func (run *run) saidThen(ranked []*candidate) []*candidate {
	switch {
	case run.saidIn == nil:
		return ranked
	case len(run.saidIn) == 0:
		return nil
	}
	return slices.DeleteFunc(ranked, func(c *candidate) bool {
		switch c.Node.Type {
		case realm.Event, realm.Fact:
			return !run.saidIn[c.Node.ID]
		case realm.Episode:
			return !slices.ContainsFunc(run.saidWhen, func(w realm.TimeRange) bool { return overlaps(c.Node, w) })
		}
		return false
	})
}

// ofThen is ranked without the memories of another time than the one the question names:
// when every plan is a hybrid one with a time range (whose seeds the range filters,
// REALM.md §3.1), a memory whose own time (its start to its end) meets none of them, and
// that was not told in one either, is left out however it was reached (expansion, a newer
// version, the repeats that fill K); a memory with no time of its own (a fact, an entity)
// stays. One told then of another time stays: "What setback did Melanie face in October?"
// asks about what she told in October of her fall in September. So does a newer version of
// another candidate, which tells what became of it ("Is Maya going to Lisbon in October?":
// the trip cancelled in September). Its validity is no time of its own: a memory that held
// then, though superseded since, stays when its own time meets the range (applyValidity
// judges it). As with the filters, expansion may pass through the others. A SaidIn plan's
// time is saidThen's.
func (run *run) ofThen(ranked []*candidate) []*candidate {
	var windows []realm.TimeRange
	for _, p := range run.plans {
		if p.Mode != realm.HybridMatch || p.TimeRange == nil || p.SaidIn != nil {
			return ranked
		}
		windows = append(windows, *p.TimeRange)
	}
	if len(windows) == 0 {
		return ranked
	}
	return slices.DeleteFunc(ranked, func(c *candidate) bool {
		return c.Node.TStart != nil && !c.Newer && !slices.ContainsFunc(windows, func(w realm.TimeRange) bool {
			return overlaps(c.Node, w) || c.Node.LearnedAt != nil && within(*c.Node.LearnedAt, w)
		})
	})
}

// within reports whether t lies in w, whose zero ends are open.
func within(t time.Time, w realm.TimeRange) bool {
	return (w.From.IsZero() || !t.Before(w.From)) && (w.To.IsZero() || !t.After(w.To))
}

// overlaps reports whether n's time (its start to its end, or its start) meets w, whose
// zero ends are open.
func overlaps(n realm.Node, w realm.TimeRange) bool {
	if n.TStart == nil {
		return false
	}
	end := *n.TStart
	if n.TEnd != nil {
		end = *n.TEnd
	}
	return (w.From.IsZero() || !end.Before(w.From)) && (w.To.IsZero() || !n.TStart.After(w.To))
}

// selectTop picks the K nodes to return from the ranked candidates (REALM.md §3.3). Three
// refinements keep the context informative: a node whose provenance lies within that of
// a better node already picked repeats what that node was derived from (a clause of a
// turn already returned whole), and is left out; a node whose provenance lies within that
// of a lesser candidate of at most FullerMaxSources observations, which says all it says
// (fuller), gives way to it, in its place and with its score (the question alone to the
// exchange that holds it with its answer), which replaced lists; entities and episodes,
// which gather many observations and say little of each, come after the events and
// facts, filling what is left of K (so the result is best first within each group). When
// fewer than K remain, the candidates left out as repeats fill it, best first, but none
// whose content a node returned says already (a clause beside its whole message), and
// one that says all a node returned of its provenance says, and more (the whole message
// of a clause returned), takes that node's place, with its score, which replaced lists:
// a list of what was said ("how many runs did I log?") counts each thing once.
func selectTop(ranked []*candidate, k int) (top []*candidate, replaced []realm.TraceReplaced) {
	var evidence, hubs, repeats []*candidate
	taken := map[string]bool{}
	for i, c := range ranked {
		if taken[c.Node.ID] {
			continue
		}
		if isHub(c) {
			if redundant(c, evidence) {
				repeats = append(repeats, c)
			} else {
				hubs = append(hubs, c)
			}
			continue
		}
		part := c
		if f := fuller(c, ranked[i+1:], taken); f != nil {
			stand := *f
			stand.Score = c.Score // it answers for c, so it ranks as c did
			c = &stand
		}
		taken[c.Node.ID] = true
		switch {
		case redundant(c, evidence):
			repeats = append(repeats, part)
		case len(evidence) < k:
			evidence = append(evidence, c)
			if part != c {
				replaced = append(replaced, realm.TraceReplaced{ID: part.Node.ID, By: c.Node.ID})
				repeats = append(repeats, part)
			}
		}
	}
	top = append(evidence, hubs[:min(len(hubs), k-len(evidence))]...)
	for _, r := range repeats {
		part := slices.IndexFunc(top, func(p *candidate) bool {
			return !isHub(p) && !isHub(r) && containsAll(p.Node.Sources, r.Node.Sources) && !outlives(p, r) && saysAll(r.Node.Content, p.Node.Content)
		})
		switch {
		case slices.ContainsFunc(top, func(p *candidate) bool { return saysAll(p.Node.Content, r.Node.Content) }):
		case part >= 0: // r says all a node returned says, and more: it stands in its place
			stand := *r
			stand.Score = top[part].Score
			replaced = append(replaced, realm.TraceReplaced{ID: top[part].Node.ID, By: r.Node.ID})
			top[part] = &stand
		case len(top) < k:
			top = append(top, r)
		}
	}
	return top, replaced
}

// aboveMinScore is top without the nodes scoring below the request's min_score, which the
// trace lists. It cuts after the selection of the top K: a recall with a cut-off returns
// what one without returns, less the nodes below it, never more than K.
func (run *run) aboveMinScore(top []*candidate) []*candidate {
	if run.set.MinScore <= 0 {
		return top
	}
	run.trace.MinScore = run.set.MinScore
	return slices.DeleteFunc(top, func(c *candidate) bool {
		if c.Score >= run.set.MinScore {
			return false
		}
		run.trace.BelowMinScore = append(run.trace.BelowMinScore, realm.ScoredID{ID: c.Node.ID, Score: c.Score})
		return true
	})
}

// outlives: c still holds and d was superseded, so d neither stands for c nor repeats it.
func outlives(c, d *candidate) bool { return c.Node.ValidUntil == nil && d.Node.ValidUntil != nil }

// FullerMaxSources bounds the provenance of a node that takes the place of a part of it
// (selectTop): a few turns, such as an exchange, not a summary.
const FullerMaxSources = 3

func isHub(c *candidate) bool { return c.Node.Type == realm.Entity || c.Node.Type == realm.Episode }

// fuller returns the first of the lesser candidates, not hubs and not taken, whose
// provenance holds all of c's and more, within FullerMaxSources, and whose content says
// every word c says (saysAll); nil when none does. The provenance alone does not make a
// node a part of another: a correction keeps the provenance of the memory it corrects,
// and a turn that resolved "today" to its date is quoted by the exchange without it;
// the exchange holding either says something else, which would take its place.
func fuller(c *candidate, lesser []*candidate, taken map[string]bool) *candidate {
	if len(c.Node.Sources) == 0 {
		return nil
	}
	for _, d := range lesser {
		if taken[d.Node.ID] || isHub(d) || len(d.Node.Sources) > FullerMaxSources || len(d.Node.Sources) <= len(c.Node.Sources) || outlives(c, d) {
			continue
		}
		if containsAll(d.Node.Sources, c.Node.Sources) && saysAll(d.Node.Content, c.Node.Content) {
			return d
		}
	}
	return nil
}

// saysAll reports whether every content word of part (stemmed; numbers count, stop words
// do not) is a word of whole: whole says what part says, in other words at most around it.
func saysAll(whole, part string) bool {
	said := stems(whole)
	for _, w := range text.Words(part) {
		if !text.IsStopword(w) && !said[text.Stem(w)] {
			return false
		}
	}
	return true
}

// redundant: every source of c is a source of one node already picked, which does not
// end before c (a job told with a home that changed since is not repeated by the turn
// that told both). Where one of them is a newer version (a correction, which keeps the
// sources of what it corrects), c repeats p only when p says all it says.
// A part of a long message repeats no other part of it: each tells what the others do
// not (isPart); nor does it repeat a clause of it unless the clause says all the part
// says (a clause of a 19 KB meeting note, merged with one of an earlier note, does not
// stand for the part holding the note's decision).
func redundant(c *candidate, picked []*candidate) bool {
	if len(c.Node.Sources) == 0 {
		return false
	}
	for _, p := range picked {
		if containsAll(p.Node.Sources, c.Node.Sources) && !outlives(c, p) && !(isPart(c) && isPart(p)) &&
			(!c.Newer && !p.Newer && !isPart(c) || saysAll(p.Node.Content, c.Node.Content)) {
			return true
		}
	}
	return false
}

// rePart is what the description of a part of a long message says ("… Part 2 of 3.").
var rePart = regexp.MustCompile(`\bPart \d+ of \d+\.`)

func isPart(c *candidate) bool { return rePart.MatchString(c.Node.Description) }

func containsAll(set, items []string) bool {
	for _, it := range items {
		if !slices.Contains(set, it) {
			return false
		}
	}
	return true
}

// admit records node v, of similarity simVQ to the query, arrived at as a at depth,
// keeping the best score and the first (smallest) depth of a node reached more than once.
// It reports whether v is new to the recall.
func (r *Retriever) admit(run *run, v realm.Node, a arrival, simVQ float64, depth int, root string) bool {
	if !run.known(v) {
		return false
	}
	score := r.opts.score(a, simVQ, depth == 0)
	c, ok := run.cands[v.ID]
	if !ok {
		run.cands[v.ID] = &candidate{Node: v, Arrival: a, Score: score, Depth: depth, Root: root}
		run.trace.FirstDepth[v.ID] = depth
		return true
	}
	if score > c.Score {
		c.Arrival, c.Score = a, score
	}
	if depth < c.Depth {
		c.Depth = depth
		run.trace.FirstDepth[v.ID] = depth
	}
	return false
}

// embed returns the embedding of each text, embedding only those not seen in this recall.
func (r *Retriever) embed(ctx context.Context, run *run, texts ...string) ([][]float32, error) {
	var missing []string
	seen := map[string]bool{}
	for _, t := range texts {
		if _, ok := run.vectors[t]; !ok && t != "" && !seen[t] {
			missing = append(missing, t)
			seen[t] = true
		}
	}
	if len(missing) > 0 {
		vecs, err := r.emb.Embed(ctx, missing)
		if err != nil {
			return nil, err
		}
		for i, t := range missing {
			run.vectors[t] = vecs[i]
		}
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = run.vectors[t]
	}
	return out, nil
}

// validPlans keeps the well-formed plans; none left is one hybrid plan of the query.
func validPlans(plans []realm.Plan, query string) []realm.Plan {
	var out []realm.Plan
	for _, p := range plans {
		if !p.Mode.Valid() {
			continue
		}
		if p.Query == "" {
			p.Query = query
		}
		var types []realm.NodeType
		for _, t := range p.Types {
			if t.Valid() {
				types = append(types, t)
			}
		}
		p.Types = types
		out = append(out, p)
	}
	if len(out) == 0 {
		out = []realm.Plan{{Query: query, Mode: realm.HybridMatch}}
	}
	return out
}
