package construction

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/internal/ctxtime"
)

// ResumePending integrates pending observations of every space until none is left that
// this owner may take: those never leased, leased to this owner, whose lease expired (a
// dead replica's work), or leased to a process of this host that is gone (the work of a
// killed or crashed `realm serve` before its restart, taken over at once; see owner.go),
// but never one that a job or an Ingest of this process is integrating (held.go).
// Resume calls it at start and then periodically. A failing observation is retried up
// to MaxAttempts and then failed, so the loop ends; one that meets Neo4j or a model away
// ends it (EUnavailable), the rest of what it claimed handed back unattempted. One that
// meets Neo4j busy (cypher.Busy: there, but waiting for a lock another transaction holds,
// most likely its space's) sets its space aside instead: after a pause, doubled at each
// busy answer, the pass goes on with the other spaces, and the observations of those set
// aside are left to the next pass (EUnavailable once the rest is done). It returns how
// many observations it integrated. Errors: EUnavailable, a cancelled context.
func (p *Pipeline) ResumePending(ctx context.Context) (int, error) {
	return p.ResumePendingSpace(ctx, "")
}

// ResumePendingSpace is ResumePending for the pending observations of one space ("":
// of every space); the leases of dead processes are taken over in every space. The jobs
// of the spaces it integrated or failed observations of are then settled: those with no
// observation pending left are recorded done or failed (a job whose own run was killed,
// or left observations pending for this to integrate). Last, once none is left, it
// derives again the memories a forget left to (RederivePending).
func (p *Pipeline) ResumePendingSpace(ctx context.Context, space string) (int, error) {
	integrated := 0
	seen := map[string]int{}     // guards against an observation that can neither succeed nor fail
	touched := map[string]bool{} // the spaces of the observations integrated or failed
	aside := busySpaces{spaces: map[string]bool{}}
	if err := p.takeOverDead(ctx); err != nil {
		return 0, err
	}
	defer p.settleJobs(ctx, touched)
	for {
		n, claimed, err := p.resumeBatch(ctx, space, seen, touched, &aside)
		integrated += n
		switch {
		case err != nil:
			return integrated, err
		case claimed == 0 && len(aside.spaces) > 0:
			return integrated, realm.Errorf(realm.EUnavailable, "resume: neo4j was busy with %d of the spaces: their pending observations are left to the next pass", len(aside.spaces))
		case claimed == 0:
			return integrated, p.rederivePending(ctx, space)
		}
		// The pass's total is Resume's line; a batch's is detail.
		p.log.Debug().Int("claimed", claimed).Int("integrated", n).Msg("resumed a batch of pending observations")
	}
}

// rederivePending runs RederivePending, once the pass left no observation pending: the
// memories a forget left to derive again are made anew of what stays.
func (p *Pipeline) rederivePending(ctx context.Context, space string) error {
	n, err := p.RederivePending(ctx, space)
	if n > 0 {
		p.log.Info().Int("memories", n).Msg("derived again the memories a forget left without an embedding")
	}
	return err
}

// busySpaces are the spaces a pass of ResumePendingSpace set aside, Neo4j busy with them.
type busySpaces struct {
	spaces map[string]bool
	// left are their observations the pass claimed, not claimed again by the pass: those
	// it left unattempted, handed back, and those whose attempt met Neo4j busy, still
	// leased to this process.
	left []cypher.ObservationRef
	// pause is how long the pass waited after its last busy answer; it waits twice as
	// long after the next: a Neo4j busy with locks is not sent the next statement at once.
	pause time.Duration
}

// busyPause is the pause after a pass's first busy answer (busySpaces), doubled at each
// one after, up to busyPauseMax.
const (
	busyPause    = time.Second
	busyPauseMax = time.Minute
)

// setAside sets space aside for the rest of the pass, then waits out the pause.
func (b *busySpaces) setAside(ctx context.Context, space string) error {
	b.spaces[space] = true
	b.pause = min(max(2*b.pause, busyPause), busyPauseMax)
	return ctxtime.Sleep(ctx, b.pause)
}

// Resume runs ResumePending now and then every Options.ResumeInterval (0: once) until
// ctx ends or Close is called, so that what a failed attempt left pending (Neo4j away,
// the model failing) is integrated without a restart. Each pass claims only what no other
// process holds a live lease on, and the write of an integration checks that its
// observation is still pending, so that replicas running it side by side never integrate
// one observation twice. A pass that fails (Neo4j still away) is tried again at the next.
func (p *Pipeline) Resume(ctx context.Context) {
	ctx, cancel := p.untilClose(ctx)
	defer cancel()
	every := p.opts.ResumeInterval
	for {
		n, err := p.ResumePending(ctx)
		switch {
		case ctx.Err() != nil:
			p.log.Info().Int("observations", n).Msg("resuming pending observations stopped by shutdown; the rest at next start")
			return
		case err != nil && every > 0:
			p.log.Warn().Err(err).Int("observations", n).Dur("again_in", every).Msg("resuming pending observations")
		case err != nil:
			p.log.Error().Err(err).Int("observations", n).Msg("resuming pending observations; the rest at next start")
		case n > 0:
			p.log.Info().Int("observations", n).Msg("resumed pending observations")
		}
		if every <= 0 || ctxtime.Sleep(ctx, every) != nil {
			return
		}
	}
}

// untilClose is ctx, cancelled too when Close is called.
func (p *Pipeline) untilClose(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-p.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// settleJobs records the end of the jobs of spaces none of whose observations is
// pending any more. Not recorded (Neo4j away), a job still reads as ended: Job counts its
// progress from its observations.
func (p *Pipeline) settleJobs(ctx context.Context, spaces map[string]bool) {
	if len(spaces) == 0 || ctx.Err() != nil {
		return
	}
	n, err := p.store.SettleJobs(ctx, slices.Sorted(maps.Keys(spaces)))
	if err != nil {
		p.log.Warn().Err(err).Msg("recording the end of jobs whose last pending observations were integrated")
		return
	}
	if n > 0 {
		p.log.Info().Int("jobs", n).Msg("recorded the end of jobs whose last pending observations were integrated")
	}
}

// resumeBatch claims pending observations and integrates them, one at a time, but for
// those another worker of this process holds or integrated since the claim (held.go),
// and those of the spaces set aside in aside. It returns how many it integrated and
// claimed, and adds to touched the spaces of those it integrated or failed. An attempt
// that meets Neo4j or a model away ends it with EUnavailable: the rest of the batch,
// unattempted (each would wait out the same outage in turn), is handed back. One that
// meets Neo4j busy sets its space aside (busySpaces), keeping its lease as any failed
// attempt does; the batch's observations of the spaces set aside, unattempted, are
// handed back. The leases of the batch are renewed once half their time has passed, so
// that they do not expire while the batch is worked on.
func (p *Pipeline) resumeBatch(ctx context.Context, space string, seen map[string]int, touched map[string]bool, aside *busySpaces) (integrated, claimed int, err error) {
	c := heldObservations.claim(p.opts.Owner)
	defer c.end()
	leased := time.Now()
	// Not those a job or an Ingest of this process holds: they are being integrated
	// (held.go); nor those of the spaces set aside, claimed before.
	batch, err := p.store.ClaimPending(ctx, space, p.lease(), p.opts.ResumeBatch, append(heldObservations.refs(p.opts.Owner), aside.left...))
	if err != nil {
		return 0, 0, err
	}
	c.only(refsOf(batch))
	var left []cypher.ObservationRef // of the spaces set aside
	defer func() {
		if len(left) > 0 {
			aside.left = append(aside.left, left...)
			p.handBack(ctx, left)
		}
	}()
	for rest := batch; len(rest) > 0; {
		if time.Since(leased) > p.opts.Lease/2 {
			// A long pass (a slow model) renews the leases of what it has yet to integrate
			// before they expire, and leaves what another process took up once one expired.
			leased = time.Now()
			if rest, err = p.store.RenewLeases(ctx, p.lease(), refsOf(rest)); err != nil {
				return integrated, len(batch), err
			}
			continue
		}
		o := rest[0]
		rest = rest[1:]
		if aside.spaces[o.Space] {
			left = append(left, cypher.ObservationRef{Space: o.Space, ID: o.ID})
			continue
		}
		key := o.Space + "/" + o.ID
		if seen[key]++; seen[key] > p.opts.MaxAttempts+1 {
			return integrated, len(batch), fmt.Errorf("resume: observation %s keeps coming back pending", key)
		}
		if _, ok := c.hold(o.Space, o.ID); !ok {
			continue // a job or an Ingest of this process holds it, or integrated it, since the claim
		}
		res := p.integrate(ctx, o)
		heldObservations.release(p.opts.Owner, o.Space, o.ID, res)
		if err := ctx.Err(); err != nil {
			return integrated, len(batch), err
		}
		if res.Status == StatusIntegrated {
			integrated++
		}
		if res.Status != StatusPending {
			touched[o.Space] = true
		}
		if res.busy {
			p.log.Warn().Str("space", o.Space).Str("observation", o.ID).Msg("neo4j busy with the space: its pending observations are left to the next pass")
			// Not handed back: as any failed attempt's, its lease stays this process's, which
			// retries it on the extraction it made; another would extract it again.
			aside.left = append(aside.left, cypher.ObservationRef{Space: o.Space, ID: o.ID})
			if err := aside.setAside(ctx, o.Space); err != nil {
				return integrated, len(batch), err
			}
			continue
		}
		if res.unavailable {
			p.handBack(ctx, refsOf(rest))
			return integrated, len(batch), realm.Errorf(realm.EUnavailable, "resume: observation %s: %s", key, res.Error)
		}
	}
	return integrated, len(batch), nil
}

// refsOf names the observations of obs.
func refsOf(obs []realm.Observation) []cypher.ObservationRef {
	refs := make([]cypher.ObservationRef, len(obs))
	for i, o := range obs {
		refs[i] = cypher.ObservationRef{Space: o.Space, ID: o.ID}
	}
	return refs
}

// handBack ends the leases of claimed observations left unattempted, but for those
// another worker of this process holds meanwhile and those an attempt failed on (this
// process retries them: kept.go), so that any process may take them up at once. Not handed back (Neo4j away), they are this process's next pass's, or
// another's once they expire.
func (p *Pipeline) handBack(ctx context.Context, refs []cypher.ObservationRef) {
	held := heldObservations.refs(p.opts.Owner)
	refs = slices.DeleteFunc(slices.Clone(refs), func(r cypher.ObservationRef) bool { return slices.Contains(held, r) })
	if _, err := p.store.ReleaseLeasesOf(ctx, p.opts.Owner, refs); err != nil {
		p.log.Warn().Err(err).Int("observations", len(refs)).Msg("handing back the leases of pending observations left unattempted")
	}
}

// takeOverDead leases to this owner, all at once, the pending work of the processes of
// this host that are gone (see owner.go), so that it is resumed now rather than when
// their leases expire, and by this process alone.
func (p *Pipeline) takeOverDead(ctx context.Context) error {
	owners, err := p.store.LeaseOwners(ctx)
	if err != nil {
		return err
	}
	var dead []string
	for _, o := range owners {
		if ownerDead(o, p.opts.Owner) {
			dead = append(dead, o)
		}
	}
	n, err := p.store.TakeOverLeases(ctx, p.lease(), dead)
	if err != nil {
		return err
	}
	if n > 0 {
		p.log.Info().Strs("owners", dead).Int("observations", n).Msg("took over the leases of dead processes of this host")
	}
	return nil
}

// IngestAsync validates and stores the batch like Ingest, records a Job over it and
// returns the job's id at once; the integration runs in the background, independent of
// ctx's cancellation (the request ends, the work does not) but stopped by Close. Job
// reports the progress. After a crash the observations are still pending and
// ResumePending integrates them; the job's progress, counted from them, follows.
// Errors: EInvalid (with field errors), EUnavailable.
func (p *Pipeline) IngestAsync(ctx context.Context, space string, obs []realm.Observation) (string, error) {
	return p.IngestAsyncThen(ctx, space, obs, func() {})
}

// IngestAsyncThen is IngestAsync calling ended once, when the job's background work has
// ended, or on return when it started none (an error, a shutdown): a caller bounding the
// jobs it runs at once knows when one has stopped running.
func (p *Pipeline) IngestAsyncThen(ctx context.Context, space string, obs []realm.Observation, ended func()) (string, error) {
	c := heldObservations.claim(p.opts.Owner) // before the store claims the batch (held.go)
	started := false
	defer func() {
		if !started {
			c.end()
			ended()
		}
	}()
	// No extraction window with the save: the job may run after others of the space.
	saved, _, err := p.save(ctx, c, space, obs, 0)
	if err != nil {
		return "", err
	}
	id := uuid.NewString()
	ids := make([]string, len(saved))
	for i, s := range saved {
		ids[i] = s.Observation.ID
	}
	if err := p.store.CreateJob(ctx, space, id, ids); err != nil {
		return "", err
	}
	select {
	case <-p.stop:
		// Shutting down: the observations are stored and pending; the next start resumes them.
		p.jobEvent(JobDeferred)
		return id, nil
	default:
	}
	p.jobEvent(JobStarted)
	p.bg.Add(1)
	started = true
	go func() {
		defer p.bg.Done()
		defer ended()
		defer c.end()
		bctx, cancel := p.untilClose(context.WithoutCancel(ctx))
		defer cancel()
		p.runJob(bctx, id, c, saved)
	}()
	return id, nil
}

// runJob integrates a job's claimed observations in order and records how it ended.
func (p *Pipeline) runJob(ctx context.Context, id string, c *claim, saved []cypher.SavedObservation) {
	log := p.log.With().Str("job", id).Logger()
	results, err := p.integrateSaved(ctx, c, saved, cypher.Window{}, true)
	if err != nil {
		log.Info().Msg("job interrupted by shutdown; its pending observations are resumed at next start")
		p.jobEvent(JobInterrupted)
		return
	}
	failed, pending := 0, 0
	unrecorded := map[string]cypher.LeftPending{} // what a pending one met, not recorded on it
	for i, res := range results {
		if !saved[i].Claimed {
			continue
		}
		switch res.Status {
		case StatusFailed:
			failed++
		case StatusPending:
			pending++
			if res.unrecorded {
				unrecorded[res.ObservationID] = cypher.LeftPending{Error: res.Error, Usage: res.Usage}
			}
		}
	}
	status, errText := cypher.JobEnded(len(saved), failed)
	event := JobDone
	if status == cypher.JobFailed {
		event = JobFailed
	}
	if pending > 0 {
		// Not failed: they are integrated later, and the job ends then (ResumePendingSpace).
		status, event = cypher.JobRunning, JobPending
		errText = fmt.Sprintf("%d of %d observations met an error and stay pending (see their errors): %s", pending, len(saved), p.retriedWhen())
	}
	// The error a pending observation met is recorded with it when its failed attempt
	// could not (Neo4j was away), so that the job says why it is pending, and so is what
	// the run spent on it. What it spent on the others was recorded as their attempts
	// ended (JobResult.Usage).
	recorded, err := p.store.FinishJob(ctx, id, status, errText, unrecorded)
	if err != nil {
		log.Error().Err(err).Msg("recording the end of the job")
	}
	if recorded == cypher.JobRunning {
		// Observations of the batch leased to another process when it came are pending
		// still: the job ends when that process has integrated them, not now.
		event = JobPending
	}
	// This run may have integrated observations that the runs of other jobs left to it.
	p.settleJobs(ctx, map[string]bool{saved[0].Observation.Space: true})
	p.jobEvent(event)
}

// retriedWhen says when the pending observations are integrated again.
func (p *Pipeline) retriedWhen() string {
	if p.opts.ResumeInterval > 0 {
		return fmt.Sprintf("they are retried within %s", p.opts.ResumeInterval)
	}
	return "they are retried when the server starts again"
}

func (p *Pipeline) jobEvent(event string) {
	if p.opts.OnJob != nil {
		p.opts.OnJob(event)
	}
}

// Job reports an asynchronous ingestion's progress; space "" finds it in any space.
// Errors: ENotFound, EUnavailable.
func (p *Pipeline) Job(ctx context.Context, space, id string) (cypher.Job, error) {
	return p.store.Job(ctx, space, id)
}

// Wait blocks until every background job has ended.
func (p *Pipeline) Wait() { p.bg.Wait() }

// Close stops background work and waits for it, and for the Ingests in flight, or until
// ctx ends. What is not integrated stays pending, and its leases are handed back so that
// another process (of any host) resumes it at once rather than when they expire; a
// restart of this one takes it back as well. Not while an Ingest of this process still
// works on its batch (a server draining its requests): another process would integrate
// what it is integrating. When ctx ends first, nothing is handed back; call Close again
// once the Ingests have returned.
func (p *Pipeline) Close(ctx context.Context) error {
	p.stopOnce.Do(func() { close(p.stop) })
	done := make(chan struct{})
	go func() { p.bg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		return ctx.Err()
	}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for heldObservations.claimed(p.opts.Owner) {
		select {
		case <-tick.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	n, err := p.store.ReleaseLeases(rctx, p.opts.Owner)
	if err != nil {
		// Not lost: the leases expire and the work is resumed then.
		p.log.Warn().Err(err).Msg("handing back the leases of pending observations")
		return nil
	}
	if n > 0 {
		p.log.Info().Int("observations", n).Msg("handed back the leases of pending observations")
	}
	return nil
}
