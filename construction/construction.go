package construction

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/cypher"
)

// Options tune the pipeline. Zero fields take the defaults of DefaultOptions.
type Options struct {
	RecentObservations int // c_t: observations shown to the extractor (REALM.md §2 step 2)
	NeighbourK         int // N_sim: similar memories per candidate, by vector and by keywords each
	RecentWindow       int // N_recent: memories derived from this many last observations
	MaxBatch           int // observations per Ingest call
	MaxContent         int // bytes of one observation's content
	MaxAttempts        int // failed integrations before an observation is failed for good
	// MaxDecisions bounds how often one attempt decides an observation's integration
	// again because the neighbourhood changed before the decision was applied, and how
	// often it extracts the observation again because the space forgot a message meanwhile.
	MaxDecisions  int
	MinEdgeWeight float64       // edges weaker than this are not written (REALM.md §1: below 0.3 don't write it)
	MaxKeywords   int           // keywords kept on a merged node (REALM.md §1: ≤ 3–5)
	Owner         string        // lease owner: "host/pid/nonce" by default (see owner.go for who takes over whose leases)
	Lease         time.Duration // how long a claimed observation is reserved for this owner
	ResumeBatch   int           // observations claimed at a time by ResumePending
	// ResumeInterval is how often Resume runs ResumePending again after its first run at
	// start; 0 (the default here; realm serve sets REALM_RESUME_INTERVAL) runs it once.
	// A job's error says when its pending observations are retried from it.
	ResumeInterval time.Duration
	// Zone is where the memory's days are (UTC by default): an observation's time is read
	// in it, unless it was sent with another UTC offset, read in that
	// (realm.Observation.Local), so the day of a chat without session ids and the dates
	// its words name ("tomorrow", "on Monday") are the speaker's, not UTC's.
	Zone *time.Location
	// ExtractRoles are the chat roles (realm.ChatRoles) whose messages are extracted into
	// memories; nil: DefaultExtractRoles. The others' are stored and not extracted.
	ExtractRoles []string
	// OnJob, when set, learns of the asynchronous jobs of this pipeline: JobStarted when
	// one's background work begins, then how it ended (JobDone, JobFailed, JobPending,
	// JobInterrupted), or JobDeferred alone for one accepted while closing. It is how cmd keeps metrics of jobs; it must be cheap.
	OnJob func(event string)
}

// Job events of Options.OnJob.
const (
	JobStarted = "started"
	JobDone    = "done"   // every observation of the job handled, none failed
	JobFailed  = "failed" // some observations failed for good (MaxAttempts failed attempts)
	// JobPending: the job's run ended with observations pending: left by a failed attempt
	// (Neo4j away, the model failing), which Resume integrates, or leased to another
	// process when the batch came, which integrates them; the job ends then.
	JobPending = "pending"
	// JobInterrupted: Close stopped the job; its pending observations are integrated by
	// ResumePending at the next start.
	JobInterrupted = "interrupted"
	// JobDeferred: the job was accepted while closing and never started (no JobStarted
	// before it); ResumePending integrates its observations at the next start.
	JobDeferred = "deferred"
)

// DefaultOptions are the defaults; Owner defaults to this process's "host/pid/nonce".
func DefaultOptions() Options {
	return Options{
		RecentObservations: 6, NeighbourK: 8, RecentWindow: 3, MaxBatch: 1000, MaxContent: 20000,
		MaxAttempts: 3, MaxDecisions: 3, MinEdgeWeight: 0.3, MaxKeywords: 5, Owner: defaultOwner(), Lease: 10 * time.Minute,
		ResumeBatch: 100, ExtractRoles: DefaultExtractRoles,
	}
}

func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.RecentObservations <= 0 {
		o.RecentObservations = d.RecentObservations
	}
	if o.NeighbourK <= 0 {
		o.NeighbourK = d.NeighbourK
	}
	if o.RecentWindow <= 0 {
		o.RecentWindow = d.RecentWindow
	}
	if o.MaxBatch <= 0 {
		o.MaxBatch = d.MaxBatch
	}
	if o.MaxContent <= 0 {
		o.MaxContent = d.MaxContent
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = d.MaxAttempts
	}
	if o.MaxDecisions <= 0 {
		o.MaxDecisions = d.MaxDecisions
	}
	if o.MinEdgeWeight <= 0 {
		o.MinEdgeWeight = d.MinEdgeWeight
	}
	if o.MaxKeywords <= 0 {
		o.MaxKeywords = d.MaxKeywords
	}
	if o.Owner == "" {
		o.Owner = d.Owner
	}
	if o.Lease <= 0 {
		o.Lease = d.Lease
	}
	if o.ResumeBatch <= 0 {
		o.ResumeBatch = d.ResumeBatch
	}
	if o.Zone == nil {
		o.Zone = time.UTC
	}
	if o.ExtractRoles == nil {
		o.ExtractRoles = d.ExtractRoles
	}
	return o
}

// Pipeline turns observations into memories. It is safe for concurrent use; writes of
// one space are serialized by Neo4j, so several pipelines (replicas) may share a database.
type Pipeline struct {
	store *cypher.Store
	agent agent.Agent
	emb   realm.Embedder
	opts  Options
	log   zerolog.Logger

	spaces   spaceLocks      // one integration of a space at a time (spacelock.go)
	embeds   embedCache      // vectors of recent texts (embedcache.go)
	kept     keptExtractions // extractions of failed attempts, for their retries (kept.go)
	stop     chan struct{}   // closed by Close: background work stops
	stopOnce sync.Once
	bg       sync.WaitGroup
}

// New returns a pipeline writing to store, deciding with ag and embedding with emb.
func New(store *cypher.Store, ag agent.Agent, emb realm.Embedder, opts Options, logger zerolog.Logger) *Pipeline {
	return &Pipeline{
		store: store, agent: ag, emb: emb, opts: opts.withDefaults(),
		log: logger.With().Str("component", "construction").Logger(), stop: make(chan struct{}),
	}
}

// Statuses of a Result.
const (
	StatusIntegrated        = "integrated"         // integrated by this call
	StatusAlreadyIntegrated = "already_integrated" // integrated before (a repeated observation): nothing added
	StatusPending           = "pending"            // stored, not integrated yet: retried later (see Error)
	StatusFailed            = "failed"             // integration failed MaxAttempts times (see Error)
	StatusForgotten         = "forgotten"          // deleted (DELETE …/observations/{id}) while it was integrated: nothing of it written
	StatusErased            = "erased"             // its space erased (DELETE /v1/spaces/{space}) while it was integrated: nothing of it kept
)

// errBeingIntegrated is the Error of a pending observation another request (or another
// process) was integrating when a call met it: the same batch sent again before the first
// answered. It is not Neo4j or a model away, which a pending status otherwise says.
const errBeingIntegrated = "being integrated by another request: its status is final once that one is done (GET …/observations/{id})"

// Result is what became of one observation.
type Result struct {
	ObservationID string       `json:"id"`
	Seq           int64        `json:"seq"`
	Status        string       `json:"status"`
	Added         []string     `json:"added"`   // ids of the memories added
	Merged        []string     `json:"merged"`  // ids of the memories merged into
	Skipped       []string     `json:"skipped"` // names of the candidates skipped: a neighbour already held them
	Edges         []realm.Edge `json:"edges"`   // edges written (a symmetric one both ways)
	// Superseded names the memories whose newer version the observation said ("we moved
	// to Berlin" ends "I live in Lisbon"): a client learns that a fact it may hold changed.
	Superseded []string    `json:"superseded"` // ids of the ends of the supersedes edges written, once each
	Usage      realm.Usage `json:"usage"`
	Error      string      `json:"error,omitempty"`
	// unrecorded: the failed attempt could not be recorded on the observation (Neo4j
	// away), so a job records Error on it when it ends.
	unrecorded bool
	// unavailable: the attempt met Neo4j or a model away (EUnavailable); the rest of its
	// batch is left pending for the resumption rather than each meeting it in turn.
	unavailable bool
	// busy: what the attempt met was Neo4j busy (cypher.Busy), there but waiting for a
	// lock another transaction holds: the resumption sets the space aside and goes on.
	busy bool
}

// MarshalJSON writes a list left nil as [], so that a client reads lists whoever asks
// (ingestView empties them for a key without read) and whatever became of the message.
func (r Result) MarshalJSON() ([]byte, error) {
	type fields Result // without this method
	f := fields(r)
	for _, list := range []*[]string{&f.Added, &f.Merged, &f.Skipped, &f.Superseded} {
		if *list == nil {
			*list = []string{}
		}
	}
	if f.Edges == nil {
		f.Edges = []realm.Edge{}
	}
	return json.Marshal(f)
}

// Ingest stores every observation of the batch, then integrates the new ones (and
// pending ones not leased elsewhere) in order, and reports one Result per observation.
// An observation without an id gets one derived from its session, speaker, time and
// content, so a repeated batch is idempotent either way. Nothing is stored when the batch
// is invalid. An integration failure does not fail the call: the observation stays
// pending (Result.Error says why) and is retried by ResumePending.
// Errors: EInvalid (with field errors), EUnavailable, a cancelled context.
func (p *Pipeline) Ingest(ctx context.Context, space string, obs []realm.Observation) ([]Result, error) {
	c := heldObservations.claim(p.opts.Owner) // before the store claims the batch (held.go)
	defer c.end()
	saved, win, err := p.save(ctx, c, space, obs, p.window())
	if err != nil {
		return nil, err
	}
	results, err := p.integrateSaved(ctx, c, saved, win, false)
	if err != nil {
		return nil, err
	}
	for i := range results {
		results[i].Superseded = superseded(results[i].Edges)
	}
	return results, nil
}

// superseded are the ends of the supersedes edges among edges, once each.
func superseded(edges []realm.Edge) []string {
	out := []string{}
	for _, e := range edges {
		if e.Predicate == realm.Supersedes && !slices.Contains(out, e.To) {
			out = append(out, e.To)
		}
	}
	return out
}

// integrateSaved integrates the observations of a stored batch that it claimed, and
// reports one Result per observation of the batch; win is the extraction window read
// with the batch, if any (cypher.Window). It holds all the claimed ones at once
// (held.go), then integrates in order those it holds; one that another worker of this
// process holds is not integrated again: with wait (a job) its result is the other
// worker's, waited for once this call holds nothing more (and integrated by this call
// when that worker left it pending); without (Ingest) it is
// reported pending, as one leased to another process. One that another worker
// integrated or failed after c began (c follows this call's claim from before the batch
// was stored) has that worker's result. A cancelled context lets go of
// what is held, left pending, and returns the context's error.
func (p *Pipeline) integrateSaved(ctx context.Context, c *claim, saved []cypher.SavedObservation, win cypher.Window, wait bool) ([]Result, error) {
	owner := p.opts.Owner
	results := make([]Result, len(saved))
	first := map[string]int{}        // id → index of its first claimed occurrence (an id may repeat in a batch)
	others := map[int]*holding{}     // index → another worker's holding
	mine := make([]bool, len(saved)) // held by this call, until integrated
	defer func() {
		for i, held := range mine {
			if held {
				o := saved[i].Observation
				heldObservations.release(owner, o.Space, o.ID, Result{ObservationID: o.ID, Seq: o.Seq, Status: StatusPending})
			}
		}
	}()
	c.onlyClaimed(saved)
	for i, s := range saved {
		if !s.Claimed {
			results[i] = unclaimedResult(s)
			c.letGo(s.Observation.Space, s.Observation.ID)
			continue
		}
		o := s.Observation
		if _, seen := first[o.ID]; seen {
			continue
		}
		first[o.ID] = i
		if h, ok := c.take(o.Space, o.ID); ok {
			mine[i] = true
		} else {
			others[i] = h
		}
	}
	var run []int // the held observations, integrated as one run (run.go)
	for i := range saved {
		if mine[i] {
			run = append(run, i)
		}
	}
	obs := make([]realm.Observation, len(run))
	for k, i := range run {
		obs[k] = saved[i].Observation
	}
	stop := p.renewing(ctx, obs)
	done := p.integrateRun(ctx, obs, win)
	stop()
	for k, res := range done {
		i := run[k]
		results[i] = res
		mine[i] = false
		heldObservations.release(owner, obs[k].Space, obs[k].ID, res)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i, h := range others {
		o := saved[i].Observation
		if !wait {
			results[i] = Result{ObservationID: o.ID, Seq: o.Seq, Status: StatusPending, Error: errBeingIntegrated}
			if h.settled() {
				results[i] = othersResult(h)
			}
			continue
		}
		res, err := p.awaitOther(ctx, c, o, h)
		if err != nil {
			return nil, err
		}
		results[i] = res
	}
	for i, s := range saved {
		if j, ok := first[s.Observation.ID]; ok && j != i && s.Claimed {
			results[i] = repeatedResult(results[j])
		}
	}
	return results, nil
}

// renewing renews, every half lease until the returned stop is called, the leases of
// those of obs still pending and this process's: a batch integrated for longer than a
// lease (a slow model) keeps what it has yet to integrate from being taken up, and
// extracted again, by another process. The resumption renews its own (resumeBatch).
func (p *Pipeline) renewing(ctx context.Context, obs []realm.Observation) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	refs := refsOf(obs) // named now: the run reads obs's times in their zone meanwhile (inZone)
	go func() {
		defer close(done)
		tick := time.NewTicker(p.opts.Lease / 2)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if _, err := p.store.RenewLeases(ctx, p.lease(), refs); err != nil && ctx.Err() == nil {
				p.log.Warn().Err(err).Int("observations", len(obs)).Msg("renewing the leases of a batch being integrated")
			}
		}
	}()
	return func() { cancel(); <-done }
}

// awaitOther waits for the worker of this process that holds o to let go of it, and
// returns what that worker made of it. When it left o pending (it was stopped, or its
// attempt failed), this worker integrates o in turn, holding it, unless another worker
// took it first. The caller holds nothing else meanwhile.
func (p *Pipeline) awaitOther(ctx context.Context, c *claim, o realm.Observation, h *holding) (Result, error) {
	for {
		select {
		case <-h.done:
		case <-ctx.Done():
			return Result{}, ctx.Err()
		}
		if h.settled() {
			return othersResult(h), nil
		}
		other, ok := c.hold(o.Space, o.ID)
		if !ok {
			h = other // taken again meanwhile: wait for that one
			continue
		}
		res := p.integrate(ctx, o)
		heldObservations.release(p.opts.Owner, o.Space, o.ID, res)
		return res, ctx.Err()
	}
}

// othersResult is the result another worker let go of an observation with.
func othersResult(h *holding) Result {
	res := h.res
	res.Usage = realm.Usage{} // spent by the other worker
	return res
}

// repeatedResult is the result of an observation repeated in a batch, after the first
// occurrence's: what that one added is not added again.
func repeatedResult(r Result) Result {
	out := Result{ObservationID: r.ObservationID, Seq: r.Seq, Status: r.Status, Error: r.Error}
	if r.Status == StatusIntegrated {
		out.Status = StatusAlreadyIntegrated
	}
	return out
}

// unclaimedResult reports an observation this call does not integrate: done before,
// failed, or leased to another worker.
func unclaimedResult(s cypher.SavedObservation) Result {
	r := Result{ObservationID: s.Observation.ID, Seq: s.Observation.Seq, Status: s.Observation.Status, Error: s.Error}
	switch {
	case r.Status == realm.ObservationIntegrated:
		r.Status, r.Error = StatusAlreadyIntegrated, ""
	case r.Status == StatusPending && r.Error == "": // leased to another process
		r.Error = errBeingIntegrated
	}
	return r
}

// save validates and stores the batch before anything else (REALM.md §2 step 1), its
// observations held for the worker following c from before they are stored (held.go),
// and reads in the same transaction the extraction window of window observations of
// those it claimed (none when 0): a request of one message needs no transaction for it.
func (p *Pipeline) save(ctx context.Context, c *claim, space string, obs []realm.Observation, window int) ([]cypher.SavedObservation, cypher.Window, error) {
	if err := p.validate(space, obs); err != nil {
		return nil, cypher.Window{}, err
	}
	batch := make([]realm.Observation, len(obs))
	ids := make([]string, len(obs))
	for i, o := range obs {
		o.Space = space
		o.ObservedAt = o.ObservedAt.UTC()
		if o.ID == "" {
			o.ID = contentID(o)
		}
		batch[i], ids[i] = o, o.ID
	}
	c.holdAhead(space, ids)
	return p.store.SaveObservationsWindow(ctx, space, p.emb.ID(), p.emb.Dim(), batch, p.lease(), window)
}

func (p *Pipeline) lease() cypher.Lease {
	return cypher.Lease{Owner: p.opts.Owner, Until: time.Now().Add(p.opts.Lease)}
}

// validate names every field that fails, as "messages[i].field", the API's field names.
func (p *Pipeline) validate(space string, obs []realm.Observation) error {
	fe := realm.FieldErrors{}
	if !realm.ValidSpace(space) {
		fe.Add("space", "must match [A-Za-z0-9_-]{1,64}")
	}
	switch {
	case len(obs) == 0:
		fe.Add("messages", "at least one message is required")
	case len(obs) > p.opts.MaxBatch:
		fe.Add("messages", fmt.Sprintf("at most %d messages per batch, got %d", p.opts.MaxBatch, len(obs)))
		return fe.Err() // do not list the fields of a batch we refuse anyway
	}
	for i, o := range obs {
		field := func(name string) string { return fmt.Sprintf("messages[%d].%s", i, name) }
		if msg := p.contentErr(o.Content); msg != "" {
			fe.Add(field("content"), msg)
		}
		if o.ObservedAt.IsZero() {
			fe.Add(field("timestamp"), "required")
		}
		if len(o.ID) > realm.MaxIDLen {
			fe.Add(field("id"), fmt.Sprintf("at most %d bytes", realm.MaxIDLen))
		}
		switch {
		case len(o.Replaces) > realm.MaxIDLen:
			fe.Add(field("replaces"), fmt.Sprintf("at most %d bytes", realm.MaxIDLen))
		case o.Replaces != "" && o.Replaces == o.ID:
			fe.Add(field("replaces"), "names the message itself: a message replaces an earlier one, sent under another id")
		case o.Replaces != "":
			if j := slices.IndexFunc(obs[i+1:], func(l realm.Observation) bool { return l.ID == o.Replaces }); j >= 0 {
				fe.Add(field("replaces"), fmt.Sprintf("names messages[%d], which comes after it: a message replaces one sent before it", i+1+j))
			}
		}
	}
	return fe.Err()
}

// contentErr says why content may not be an observation's (or a correction's), or "".
func (p *Pipeline) contentErr(content string) string {
	switch {
	case strings.TrimSpace(content) == "":
		return "required"
	case len(content) > p.opts.MaxContent:
		return fmt.Sprintf("at most %d bytes", p.opts.MaxContent)
	case !utf8.ValidString(content):
		return "must be UTF-8"
	}
	return ""
}

// contentID is the id of an observation sent without one: the same message sent twice
// gets the same id, so it is stored once.
func contentID(o realm.Observation) string {
	h := sha256.Sum256([]byte(strings.Join([]string{o.SessionID, o.Speaker, o.ObservedAt.UTC().Format(time.RFC3339Nano), o.Content}, "\x00")))
	return "sha256-" + hex.EncodeToString(h[:16])
}

// integrate runs REALM.md §2 steps 2–5 for one stored, claimed observation. Failures are
// recorded on the observation (which stays pending, up to MaxAttempts) and in the Result.
func (p *Pipeline) integrate(ctx context.Context, o realm.Observation) Result {
	return p.integrateExtracted(ctx, o, nil, 0, nil)
}

// integrateExtracted is integrate on an extraction of o already made (nil: the one a
// failed attempt of this process kept, else extracted here) from a context read when the
// space's forget count was forgotten (cypher.Window.Forgotten): a run that could not be
// applied decides its observations again one by one on their extractions, and a retry
// decides again on the extraction of the attempt that failed (kept.go), not paying for
// them twice. spent is what the attempt spent on o before (a run's extraction and
// decisions): its Result's usage, recorded with the attempt's end, counts it.
func (p *Pipeline) integrateExtracted(ctx context.Context, o realm.Observation, ext *agent.Extraction, forgotten int64, spent realm.Usage) Result {
	ref := cypher.ObservationRef{Space: o.Space, ID: o.ID}
	if ext == nil {
		ext, forgotten = p.kept.take(ref)
	}
	o.ObservedAt = o.Local(p.opts.Zone)
	res := Result{ObservationID: o.ID, Seq: o.Seq, Status: StatusIntegrated, Usage: realm.Usage{}}
	res.Usage.Add(spent)
	log := p.log.With().Str("space", o.Space).Str("observation", o.ID).Logger()
	ext, forgotten, err := p.construct(ctx, o, ext, forgotten, &res)
	if err == nil {
		log.Debug().Int("added", len(res.Added)).Int("merged", len(res.Merged)).Int("skipped", len(res.Skipped)).
			Int("edges", len(res.Edges)).Msg("observation integrated")
		return res
	}
	p.failed(ctx, o, err, &res)
	if ext != nil && res.Status == StatusPending {
		p.kept.keep(ref, *ext, forgotten, time.Now().Add(p.opts.Lease))
	}
	return res
}

// failed records a failed integration attempt of o on the observation (which stays
// pending, up to MaxAttempts) and in res. An attempt that failed because Neo4j or a model
// was away (EUnavailable) does not count: a flapping database must not fail a message for
// good; it is retried until it integrates.
func (p *Pipeline) failed(ctx context.Context, o realm.Observation, err error, res *Result) {
	log := p.log.With().Str("space", o.Space).Str("observation", o.ID).Logger()
	res.Added, res.Merged, res.Skipped, res.Edges = nil, nil, nil, nil
	res.Status, res.Error = StatusPending, realm.ErrorMessage(err)
	if ctx.Err() != nil {
		return // not an attempt that failed: the observation is resumed later
	}
	log.Warn().Err(err).Msg("integration failed; the observation stays pending")
	res.unavailable = realm.ErrorCode(err) == realm.EUnavailable
	res.busy = cypher.Busy(err)
	counts := !res.unavailable
	status, markErr := p.store.MarkObservationError(context.WithoutCancel(ctx), o.Space, o.ID, err.Error(), p.opts.MaxAttempts, counts, res.Usage)
	if markErr != nil {
		log.Error().Err(markErr).Msg("recording the integration failure")
		res.unrecorded = true
	}
	if status == realm.ObservationFailed {
		res.Status = StatusFailed
		log.Error().Err(err).Int("attempts", p.opts.MaxAttempts).Msg("observation failed for good")
	}
}

// errForgot says that the space forgot a message after the extraction being applied
// read its context (cypher.Applied.Forgot): that extraction may quote the message.
var errForgot = errors.New("the space forgot a message since the extraction read its context")

// construct integrates o from its extraction ext, made here when nil, from a context
// read when the space's forget count was forgotten. When the space forgets a message
// before the write (DeleteObservation), whatever the extraction read may quote it: the
// summary, the recent messages. It then extracts o again from the context as it is now,
// MaxDecisions rounds at most; past them, o stays pending (EConflict), retried as any
// failed attempt. On an error it returns the extraction it last decided on and its
// context's forget count, for a retry to decide on again (nil when there is none, or
// the space forgot a message since it was read).
func (p *Pipeline) construct(ctx context.Context, o realm.Observation, ext *agent.Extraction, forgotten int64, res *Result) (*agent.Extraction, int64, error) {
	for round := 1; ; round++ {
		if ext == nil {
			win, err := p.store.ExtractionContext(ctx, o.Space, o.Seq, p.opts.RecentObservations)
			if err != nil {
				return nil, 0, err
			}
			p.inZone(win.Observations)
			// Extraction reads no memories, so it runs outside the space lock; only integrate and
			// relate, which decide against the graph, run under it.
			e, err := p.extract(ctx, o, win.Summary, win.Observations, res)
			if err != nil {
				return nil, 0, err
			}
			ext, forgotten = &e, win.Forgotten
		}
		err := p.apply(ctx, o, *ext, forgotten, res)
		switch {
		case !errors.Is(err, errForgot):
			return ext, forgotten, err
		case round >= p.opts.MaxDecisions:
			return nil, 0, realm.Errorf(realm.EConflict, "the space forgot a message during each of the last %d extractions of this one", round)
		}
		p.log.Debug().Str("space", o.Space).Str("observation", o.ID).Int("round", round).
			Msg("the space forgot a message since the extraction read its context; extracting again")
		ext = nil
	}
}

// slotOf is the slot whose value candidate c states ("Nora lives in"; agent.Candidate's
// Subject and Attribute), "" when it names none: its current holders are read with its
// neighbourhood (cypher: slotHolders), for a change to supersede them however many
// memories of the space are more similar.
func slotOf(c agent.Candidate) string {
	if c.Subject == "" || c.Attribute == "" {
		return ""
	}
	return c.Subject + " " + c.Attribute
}

// apply embeds the candidates of ext, reads their neighbourhoods, decides and writes,
// deciding again when the neighbourhood changed before the write. errForgot: the space
// forgot a message since ext's context was read (forgotten), nothing written.
func (p *Pipeline) apply(ctx context.Context, o realm.Observation, ext agent.Extraction, forgotten int64, res *Result) error {
	texts := make([]string, len(ext.Candidates))
	// The keyword half of N_sim (REALM.md §2 step 3) searches a candidate's name and
	// keywords, not its whole text: common words of the content would match much of the
	// space.
	keywords := make([]string, len(ext.Candidates))
	slots := make([]string, len(ext.Candidates))
	for i, c := range ext.Candidates {
		keywords[i] = strings.Join(append([]string{c.Name}, c.Keywords...), " ")
		texts[i] = embedText(c.Name, c.Content)
		slots[i] = slotOf(c)
	}
	var embs [][]float32
	if len(texts) > 0 {
		var err error
		if embs, err = p.embed(ctx, texts); err != nil {
			return fmt.Errorf("embed candidates: %w", err)
		}
	}
	// Read, decide, then apply (ARCHITECTURE.md, Layout): the agent and the embedder
	// are asked outside any transaction; the apply transaction checks, under the space
	// lock, that the neighbourhood decided on is still the space's, and otherwise the
	// integration is decided again on the new one.
	unlock, err := p.spaces.lock(ctx, o.Space)
	if err != nil {
		return err
	}
	defer unlock()
	q := cypher.NeighbourQuery{Space: o.Space, Embeddings: embs, Texts: keywords, K: p.opts.NeighbourK, Recent: p.opts.RecentWindow, BeforeSeq: o.Seq, Slots: slots}
	hoods, err := p.store.Neighbourhoods(ctx, q)
	if err != nil {
		return err
	}
	eps, err := p.storedEpisodes(ctx, o, ext)
	if err != nil {
		return err
	}
	freeIDs := false // whether the memories' ids avoid those other spaces' memories hold
	for round := 1; ; round++ {
		in, err := p.decide(ctx, o, ext, embs, withEpisodes(hoods, eps), res, freeIDs)
		if err != nil {
			return err
		}
		in.Forgotten, in.Usage, in.Saved = forgotten, res.Usage, o.Saved
		applied, err := p.store.ApplyIntegration(ctx, o.Space, o.ID, q, hoods, in)
		switch {
		case errors.Is(err, cypher.ErrMemoryIDHeld) && !freeIDs:
			// Only an import that kept its file's ids can have given another space one:
			// decided again, under ids no other space holds (FreeMemoryIDs), not asked for
			// on every decision.
			freeIDs = true
			continue
		case err != nil:
			return err
		case applied.Gone, applied.Erased:
			res.Status, res.Added, res.Merged, res.Skipped = StatusForgotten, nil, nil, nil
			if applied.Erased {
				res.Status = StatusErased
			}
			return nil
		case applied.Forgot:
			res.Added, res.Merged, res.Skipped = nil, nil, nil
			return errForgot
		case applied.Changed && round < p.opts.MaxDecisions:
			p.log.Debug().Str("space", o.Space).Str("observation", o.ID).Int("round", round).
				Msg("the neighbourhood changed before the integration was applied; deciding again")
			hoods = applied.Neighbourhoods
			continue
		case applied.Changed:
			return realm.Errorf(realm.EConflict, "the neighbourhood changed under each of %d decisions", round)
		case !applied.Applied:
			res.Status, res.Added, res.Merged, res.Skipped = StatusAlreadyIntegrated, nil, nil, nil
			return nil
		}
		res.Edges = applied.Edges
		return nil
	}
}

// embedText is what a node or candidate is embedded as: its name gives a short content
// its subject.
func embedText(name, content string) string {
	if name == "" || strings.HasPrefix(strings.ToLower(content), strings.ToLower(name)) {
		return content
	}
	return name + ": " + content
}

// keepRecentSources keeps, of each candidate's other sources (agent.Candidate.AlsoFrom),
// the recent observations the extractor was shown: a unit derives from what was said,
// never from an id an agent made up.
func keepRecentSources(cands []agent.Candidate, recent []realm.Observation) {
	for i := range cands {
		cands[i].AlsoFrom = slices.DeleteFunc(cands[i].AlsoFrom, func(id string) bool {
			return !slices.ContainsFunc(recent, func(o realm.Observation) bool { return o.ID == id })
		})
	}
}

// decide asks the agent to integrate and relate every candidate against its
// neighbourhood and turns the decisions into writes; it runs outside any transaction
// and again when the neighbourhood changed before the writes were applied.
// Decisions that do not fit the graph are corrected, not trusted: a merge into a node
// that is not a neighbour becomes an add; edges to unknown nodes, with invalid
// predicates or too weak are dropped. With freeIDs, the new memories' ids avoid those
// that other spaces' memories hold (a trusted import may have planted them).
func (p *Pipeline) decide(ctx context.Context, o realm.Observation, ext agent.Extraction, embs [][]float32, hoods [][]cypher.CandidateNeighbour, res *Result, freeIDs bool) (cypher.Integration, error) {
	res.Added, res.Merged, res.Skipped = nil, nil, nil // decided again when the neighbourhood changed
	in := agent.IntegrateInput{Observation: o, Candidates: make([]agent.CandidateContext, len(ext.Candidates))}
	known := map[string]realm.Node{} // every neighbour, by id
	for i, c := range ext.Candidates {
		cc := agent.CandidateContext{Candidate: c, Embedding: embs[i]}
		for _, n := range hoods[i] {
			cc.Neighbours = append(cc.Neighbours, agent.Neighbour{
				Node: n.Node, Similarity: realm.Cosine(embs[i], n.Node.Embedding), Similar: n.Similar, Recent: n.Recent,
			})
			known[n.Node.ID] = n.Node
		}
		in.Candidates[i] = cc
	}
	out := cypher.Integration{Summary: ext.Summary}
	if len(ext.Candidates) == 0 {
		return out, p.endReplaced(ctx, o, &out, nil, nil)
	}
	decisions, usage, err := p.agent.Integrate(ctx, in)
	res.Usage.Add(usage)
	if err != nil {
		return out, fmt.Errorf("integrate: %w", err)
	}
	if len(decisions) != len(ext.Candidates) {
		return out, fmt.Errorf("integrate: %d decisions for %d candidates", len(decisions), len(ext.Candidates))
	}

	ids := make([]string, len(decisions)) // the id of the memory each candidate would add
	for i := range ids {
		ids[i] = cypher.MemoryID(o.Space, cypher.ObservationKey(o.ID, o.Generation), i)
	}
	if freeIDs {
		if ids, err = p.store.FreeMemoryIDs(ctx, o.Space, ids); err != nil {
			return out, err
		}
	}
	now := time.Now().UTC()
	nodeIDs := make([]string, len(decisions)) // the node each candidate became, "" when skipped
	merges := map[string]int{}                // merge target id → index in out.Merges
	var remerge []int                         // merges whose content changed: re-embedded below
	for i, d := range decisions {
		c := ext.Candidates[i]
		target, isNeighbour := known[d.MergeInto]
		switch {
		case d.Action == agent.ActionSkip && isNeighbour:
			res.Skipped = append(res.Skipped, c.Name)
			out.Skipped++
			// The neighbour derives from the message too (cypher.Integration.Repeats): it
			// stays when another message that said it is forgotten.
			if !slices.Contains(out.Repeats, target.ID) {
				out.Repeats = append(out.Repeats, target.ID)
			}
			continue
		case d.Action == agent.ActionSkip:
			// Nothing said is lost: a skip must name the neighbour that holds it.
			p.log.Warn().Str("observation", o.ID).Str("holder", d.MergeInto).Msg("a skip names no neighbour holding the candidate; adding instead")
		case d.Action == agent.ActionMerge && isNeighbour:
			nodeIDs[i] = target.ID
			j, seen := merges[target.ID]
			if !seen {
				j = len(out.Merges)
				merges[target.ID] = j
				out.Merges = append(out.Merges, cypher.Merge{ID: target.ID, Keywords: target.Keywords})
				res.Merged = append(res.Merged, target.ID)
			}
			m := &out.Merges[j]
			m.Keywords = union(m.Keywords, c.Keywords, p.opts.MaxKeywords)
			renamed := false
			if target.Type == realm.Entity && c.Type == realm.Entity {
				name, held := cmp.Or(m.Name, target.Name), target.Aliases
				if m.Aliases != nil {
					held = m.Aliases // a candidate of this observation gave it a name already
				}
				if full, a := calledAlso(name, held, c); a != nil {
					if full != name {
						m.Name, renamed = full, true
					}
					m.Aliases = a
					m.Keywords = union(a, m.Keywords, p.opts.MaxKeywords) // found by its names
				}
			}
			changed := d.Merged != "" && d.Merged != target.Content
			if changed {
				m.Content = d.Merged
			}
			if (changed || renamed) && !slices.Contains(remerge, j) {
				remerge = append(remerge, j) // its text is its name and content (embedText)
			}
			continue
		case d.Action == agent.ActionMerge:
			p.log.Warn().Str("observation", o.ID).Str("merge_into", d.MergeInto).Msg("merge target is not a neighbour; adding instead")
		}
		// add, and anything unknown: "when unsure: add" (REALM.md §2 step 4). An entity's
		// aliases lead its keywords: the full-text index finds it by any of its names.
		n := realm.Node{
			ID: ids[i], Space: o.Space, Type: c.Type, Name: c.Name, Content: c.Content,
			Description: c.Description, Keywords: union(c.Aliases, c.Keywords, p.opts.MaxKeywords), TStart: c.TStart, TEnd: c.TEnd,
			Aliases: c.Aliases, Category: c.Category, Role: c.Role, Participants: c.Participants,
			Sources: append(slices.Clone(c.AlsoFrom), o.ID), Embedding: embs[i], CreatedAt: now, UpdatedAt: now,
		}
		nodeIDs[i] = n.ID
		out.Adds = append(out.Adds, n)
		res.Added = append(res.Added, n.ID)
	}
	if err := p.embedMerges(ctx, out.Merges, remerge, known); err != nil {
		return out, err
	}
	for _, n := range out.Adds {
		known[n.ID] = n
	}
	for i, d := range decisions {
		if nodeIDs[i] == "" {
			continue
		}
		for _, op := range d.Edges {
			if e, ok := p.edgeWrite(op, nodeIDs[i], nodeIDs, known); ok {
				out.Edges = append(out.Edges, e)
				if end, ok := validityEnd(op, e, known, o.ObservedAt); ok {
					out.Ends = append(out.Ends, end)
				}
			}
		}
	}
	return out, p.endReplaced(ctx, o, &out, in.Candidates, nodeIDs)
}

// calledAlso is the name and aliases of an entity named name and called aliases once
// candidate c merges into it, nil aliases when it learns no new name: c's aliases, and c's
// own name when c is called by one of the entity's names (the speaker, also called "Alice
// Nguyen", merged into an entity "Alice Nguyen": later turns of the speaker then merge into
// it too). When c's name is the full name the entity's one word opens ("Tom Becker" merged
// into "Tom", said before), the entity is Tom Becker's: it takes the full name, which
// recall and the explorer show, and keeps the word as an alias (a later "Tom" joins it, a
// later "Tom Ruiz" is another Tom). When c's one word opens the entity's full name ("Tom"
// merged into "Tom Becker", said before), the word is an alias too: the entity is found by
// it, and forgetting the messages that said the full name leaves it "Tom" (the names a
// message that stays says), not deleted. A merge judged without a name in common ("the
// cafe" into "Blue Bottle") makes no alias of a description.
func calledAlso(name string, aliases []string, c agent.Candidate) (string, []string) {
	full, learned, out := name, c.Aliases, slices.Clone(aliases)
	switch {
	case opensFullName(name, c.Name):
		full, learned = strings.TrimSpace(c.Name), append(slices.Clone(c.Aliases), name)
		// The full name, an alias until now (a merge of before kept the word), is the name.
		out = slices.DeleteFunc(out, func(a string) bool { return strings.EqualFold(a, full) })
	case opensFullName(c.Name, name) || slices.ContainsFunc(c.Aliases, func(a string) bool { return hasName(append([]string{name}, aliases...), a) }):
		learned = append(slices.Clone(c.Aliases), c.Name)
	}
	for _, n := range learned {
		if n = strings.TrimSpace(n); n != "" && !strings.EqualFold(n, full) && !hasName(out, n) {
			out = append(out, n)
		}
	}
	if full == name && len(out) == len(aliases) {
		return name, nil
	}
	return full, out
}

// opensFullName: name is one word, the first of full, a name of more ("Tom", "Tom Becker").
func opensFullName(name, full string) bool {
	first, rest, ok := strings.Cut(strings.TrimSpace(full), " ")
	return ok && strings.TrimSpace(rest) != "" && !strings.Contains(strings.TrimSpace(name), " ") && strings.EqualFold(first, strings.TrimSpace(name))
}

// hasName: n is one of names, whatever the case.
func hasName(names []string, n string) bool {
	return slices.ContainsFunc(names, func(a string) bool { return strings.EqualFold(a, n) })
}

// embedMerges re-embeds the merged nodes whose content or name changed, in one call.
func (p *Pipeline) embedMerges(ctx context.Context, merges []cypher.Merge, changed []int, known map[string]realm.Node) error {
	if len(changed) == 0 {
		return nil
	}
	texts := make([]string, len(changed))
	for k, j := range changed {
		n := known[merges[j].ID]
		texts[k] = embedText(cmp.Or(merges[j].Name, n.Name), cmp.Or(merges[j].Content, n.Content))
	}
	embs, err := p.embed(ctx, texts)
	if err != nil {
		return fmt.Errorf("embed merged nodes: %w", err)
	}
	for k, j := range changed {
		merges[j].Embedding = embs[k]
	}
	return nil
}

// edgeWrite resolves an agent's edge op to node ids and checks it; ok is false for an op
// that must not be written.
func (p *Pipeline) edgeWrite(op agent.EdgeOp, self string, nodeIDs []string, known map[string]realm.Node) (cypher.EdgeWrite, bool) {
	resolve := func(ref string) string {
		if ref == agent.Self {
			return self
		}
		for j, id := range nodeIDs {
			if ref == agent.CandidateRef(j) {
				return id // "" when that candidate was skipped
			}
		}
		if _, ok := known[ref]; ok {
			return ref
		}
		return ""
	}
	from, to := resolve(op.From), resolve(op.To)
	kind := op.Op
	if kind == "" {
		kind = agent.EdgeAdd
	}
	switch {
	case from == "" || to == "" || from == to || !op.Predicate.Valid():
		return cypher.EdgeWrite{}, false
	case kind != agent.EdgeDelete && op.Weight < p.opts.MinEdgeWeight:
		return cypher.EdgeWrite{}, false
	}
	// The agent gives one number per edge: how explicit the relation is (REALM.md §1),
	// which is both its initial weight and our confidence in it.
	return cypher.EdgeWrite{
		Op: kind, From: from, To: to, Predicate: op.Predicate, Weight: op.Weight, Confidence: op.Weight,
		Description: op.Description,
	}, true
}

// union appends the words of add not in base (case-insensitively), keeping at most max.
func union(base, add []string, max int) []string {
	out := make([]string, 0, max)
	seen := map[string]bool{}
	for _, k := range append(append([]string{}, base...), add...) {
		key := strings.ToLower(strings.TrimSpace(k))
		if key == "" || seen[key] || len(out) == max {
			continue
		}
		seen[key] = true
		out = append(out, k)
	}
	return out
}

// Validate checks a batch as Ingest would, without storing anything; the API merges its
// field errors with those of the request's own syntax.
func (p *Pipeline) Validate(space string, obs []realm.Observation) error {
	return p.validate(space, obs)
}
