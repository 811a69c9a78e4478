package construction_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// nthExtraction names the n-th extraction (from 1) of an observation.
type nthExtraction struct {
	id string
	n  int
}

// gate holds one extraction: entered closes when it starts, and it waits until open.
type gate struct {
	name                string
	entered, release    chan struct{}
	enterOnce, openOnce sync.Once
}

func (g *gate) open() { g.openOnce.Do(func() { close(g.release) }) }

// wait waits until the gated extraction runs (bounded, so that a broken test fails
// instead of hanging; no timing is asserted).
func (g *gate) wait(t *testing.T) {
	t.Helper()
	select {
	case <-g.entered:
	case <-time.After(time.Minute):
		t.Fatalf("extraction %s never started", g.name)
	}
}

// countingAgent is scriptAgent counting the extractions of each observation of one
// space: one integration attempt of an observation is one extraction (but for a retry on
// the extraction of a failed attempt). The test gates some extractions (they wait until
// opened) and fails some (after their gate, if any), and fails some decisions.
type countingAgent struct {
	*scriptAgent
	space string

	mu            sync.Mutex
	extracts      map[string]int
	gates         map[nthExtraction]*gate
	fails         map[nthExtraction]error
	decisions     map[string]int
	decisionFails map[nthExtraction]bool // the n-th decision of an observation
}

func newCountingAgent(space string) *countingAgent {
	return &countingAgent{scriptAgent: &scriptAgent{}, space: space,
		extracts: map[string]int{}, gates: map[nthExtraction]*gate{}, fails: map[nthExtraction]error{},
		decisions: map[string]int{}, decisionFails: map[nthExtraction]bool{}}
}

// failDecision makes the n-th decision on id's candidates fail, after its extraction.
func (a *countingAgent) failDecision(id string, n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.decisionFails[nthExtraction{id, n}] = true
}

// Integrate is scriptAgent's, but for the decisions the test fails.
func (a *countingAgent) Integrate(ctx context.Context, in agent.IntegrateInput) ([]agent.Integration, realm.Usage, error) {
	if in.Observation.Space == a.space {
		a.mu.Lock()
		a.decisions[in.Observation.ID]++
		fail := a.decisionFails[nthExtraction{in.Observation.ID, a.decisions[in.Observation.ID]}]
		a.mu.Unlock()
		if fail {
			return nil, nil, errors.New("scripted decision failure")
		}
	}
	return a.scriptAgent.Integrate(ctx, in)
}

// gate makes the n-th extraction of id wait until the returned gate is opened.
func (a *countingAgent) gate(id string, n int) *gate {
	a.mu.Lock()
	defer a.mu.Unlock()
	g := &gate{name: id, entered: make(chan struct{}), release: make(chan struct{})}
	a.gates[nthExtraction{id, n}] = g
	return g
}

// fail makes the n-th extraction of id fail.
func (a *countingAgent) fail(id string, n int) {
	a.failWith(id, n, errors.New("scripted extraction failure"))
}

// failWith makes the n-th extraction of id fail with err.
func (a *countingAgent) failWith(id string, n int, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.fails[nthExtraction{id, n}] = err
}

func (a *countingAgent) openAll() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, g := range a.gates {
		g.open()
	}
}

func (a *countingAgent) Extract(ctx context.Context, in agent.ExtractInput) (agent.Extraction, realm.Usage, error) {
	if in.Observation.Space == a.space {
		a.mu.Lock()
		a.extracts[in.Observation.ID]++
		this := nthExtraction{in.Observation.ID, a.extracts[in.Observation.ID]}
		g, err := a.gates[this], a.fails[this]
		a.mu.Unlock()
		if g != nil {
			g.enterOnce.Do(func() { close(g.entered) })
			select {
			case <-g.release:
			case <-ctx.Done():
				return agent.Extraction{}, nil, ctx.Err()
			}
		}
		if err != nil {
			return agent.Extraction{}, nil, err
		}
	}
	return a.scriptAgent.Extract(ctx, in)
}

func (a *countingAgent) count(id string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.extracts[id]
}

// checkExtracts checks how many times each observation was extracted.
func (a *countingAgent) checkExtracts(t *testing.T, want map[string]int) {
	t.Helper()
	for o, n := range want {
		if got := a.count(o); got != n {
			t.Errorf("observation %s extracted %d times, want %d", o, got, n)
		}
	}
}

func newCountingPipeline(t *testing.T, opts construction.Options) (*construction.Pipeline, *countingAgent, *cypher.Store, string) {
	t.Helper()
	store := cyphertest.MustOpen(t)
	space := cyphertest.NewSpace(t)
	ag := newCountingAgent(space)
	opts.Owner = "test-" + space
	p := construction.New(store, ag, bowEmbedder{}, opts, zerolog.Nop())
	t.Cleanup(func() { p.Close(context.Background()) })
	t.Cleanup(ag.openAll) // runs first: a failed test leaves no extraction waiting
	return p, ag, store, space
}

// savePending stores observations pending and free, as a restart finds what was stored
// before it.
func savePending(t *testing.T, store *cypher.Store, space string, obs ...realm.Observation) {
	t.Helper()
	for i := range obs {
		obs[i].Space = space
	}
	if _, err := store.SaveObservations(context.Background(), space, "test:bow", cyphertest.Dims, obs, cypher.Lease{}); err != nil {
		t.Fatal(err)
	}
}

// checkJobDone checks that the job ended done, n of n, none failed, and that the space
// holds memories memories and nothing pending.
func checkJobDone(t *testing.T, p *construction.Pipeline, store *cypher.Store, space, id string, n int, memories int64) {
	t.Helper()
	j, err := p.Job(context.Background(), space, id)
	if err != nil || j.Status != cypher.JobDone || j.Done != n || j.Failed != 0 {
		t.Errorf("job %+v %v, want done %d/%d", j, err, n, n)
	}
	if st := mustStats(t, store, space); st.Memories != memories || st.ObservationsPending != 0 {
		t.Errorf("stats %+v, want %d memories, none pending", st, memories)
	}
}

// TestNoObservationWorkedTwice: the workers of one process (an asynchronous job, the
// start-up ResumePending, a synchronous Ingest) share one lease owner, yet one
// observation is attempted (extracted) by one of them at a time, and not again once
// integrated: resumption leaves alone what a job holds, an Ingest reports such an
// observation pending, a job waits for what the resumption holds, and none integrates
// an observation another finished since it claimed it.
func TestNoObservationWorkedTwice(t *testing.T) {
	ctx := context.Background()
	t.Run("ResumeBesideJob", func(t *testing.T) {
		p, ag, store, space := newCountingPipeline(t, construction.Options{})
		j1 := ag.gate("j1", 1)
		id, err := p.IngestAsync(ctx, space, []realm.Observation{
			msg("j1", "home: Ann lives in Paris"), msg("j2", "drink: Ann likes tea"),
			msg("j3", "pet: Ann has a dog"), msg("j4", "event/hike: Ann hiked on Sunday"),
		})
		if err != nil {
			t.Fatal(err)
		}
		j1.wait(t) // the job extracts j1; j2..j4 are leased to this process, waiting their turn
		if _, err := p.ResumePending(ctx); err != nil {
			t.Fatal(err)
		}
		res, err := p.Ingest(ctx, space, []realm.Observation{msg("j3", "pet: Ann has a dog")})
		if err != nil {
			t.Fatal(err)
		}
		if res[0].Status != construction.StatusPending || ag.count("j3") != 0 || !strings.Contains(res[0].Error, "being integrated by another request") {
			t.Errorf("Ingest of an observation the job holds: %+v, %d extractions; want pending, being integrated by another request, none", res[0], ag.count("j3"))
		}
		// Another process (another owner of leases) is told the same of one leased here.
		other := construction.New(store, ag, bowEmbedder{}, construction.Options{Owner: "other-" + space}, zerolog.Nop())
		defer other.Close(ctx)
		res, err = other.Ingest(ctx, space, []realm.Observation{msg("j4", "event/hike: Ann hiked on Sunday")})
		if err != nil {
			t.Fatal(err)
		}
		if res[0].Status != construction.StatusPending || ag.count("j4") != 0 || !strings.Contains(res[0].Error, "being integrated by another request") {
			t.Errorf("Ingest by another process of an observation leased here: %+v, %d extractions; want pending, being integrated by another request, none", res[0], ag.count("j4"))
		}
		j1.open()
		p.Wait()
		ag.checkExtracts(t, map[string]int{"j1": 1, "j2": 1, "j3": 1, "j4": 1})
		checkJobDone(t, p, store, space, id, 4, 4)
	})
	for _, tc := range []struct {
		name     string
		failGate bool
		extracts map[string]int
	}{
		{"JobWaitsForResume", false, map[string]int{"r1": 1, "r2": 1}},
		// The resumption's attempt fails: r1 stays pending, and the job integrates it;
		// the resumption does not attempt it again meanwhile, nor after.
		{"JobTakesOverWhatResumeLeftPending", true, map[string]int{"r1": 2, "r2": 1}},
	} {
		t.Run(tc.name, func(t *testing.T) { resumeThenJob(t, tc.failGate, tc.extracts) })
	}

	// The job takes over r1 after the resumption's failed attempt, between the
	// resumption's claim of its retry and that retry: the resumption leaves r1 to the job.
	// Gates order it: the resumption's round 1 fails x, then r1 (while the job, holding
	// y, waits for r1); its round 2 claims x and r1 again and extracts x, held until the
	// job (y, then r1) is done; then it comes to r1, integrated since its claim.
	t.Run("JobTakesOverBetweenResumeClaimAndRetry", func(t *testing.T) {
		p, ag, store, space := newCountingPipeline(t, construction.Options{})
		savePending(t, store, space, msg("x", "home: Ann lives in Paris"), msg("r1", "job: Ann works at Acme"))
		ag.fail("x", 1)
		ag.fail("r1", 1)
		r1, y, x2 := ag.gate("r1", 1), ag.gate("y", 1), ag.gate("x", 2)
		resumed := make(chan error, 1)
		go func() { _, err := p.ResumePending(ctx); resumed <- err }()
		r1.wait(t) // round 1: x failed, r1 being extracted
		id, err := p.IngestAsync(ctx, space, []realm.Observation{msg("r1", "job: Ann works at Acme"), msg("y", "city: Ann visits Rome")})
		if err != nil {
			t.Fatal(err)
		}
		y.wait(t)  // the job holds y, extracting it, and waits for r1 next
		r1.open()  // the resumption's attempt at r1 fails
		x2.wait(t) // round 2 claimed x and r1: x is being extracted
		y.open()   // the job integrates y, then takes over r1 and integrates it
		p.Wait()
		x2.open()
		if err := <-resumed; err != nil {
			t.Fatal(err)
		}
		ag.checkExtracts(t, map[string]int{"x": 2, "r1": 2, "y": 1})
		checkJobDone(t, p, store, space, id, 2, 3)
	})

	// The resumption integrates r1 and r2 between the job's storing (and claiming) them
	// and its holding them: the job takes the resumption's results, without extracting
	// them again. OnJob(JobStarted) runs after the job stored its batch and before its
	// work starts: there the test lets the resumption finish.
	t.Run("ResumeFinishesWhatJobClaimed", func(t *testing.T) {
		var whileStarting func()
		p, ag, store, space := newCountingPipeline(t, construction.Options{OnJob: func(event string) {
			if event == construction.JobStarted && whileStarting != nil {
				whileStarting()
			}
		}})
		savePending(t, store, space, msg("r1", "job: Ann works at Acme"))
		r1 := ag.gate("r1", 1)
		resumed := make(chan error, 1)
		go func() { _, err := p.ResumePending(ctx); resumed <- err }()
		r1.wait(t)
		var resumeErr error
		whileStarting = func() { r1.open(); resumeErr = <-resumed }
		id, err := p.IngestAsync(ctx, space, []realm.Observation{msg("r1", "job: Ann works at Acme"), msg("r2", "city: Ann visits Rome")})
		if err != nil {
			t.Fatal(err)
		}
		if resumeErr != nil {
			t.Fatal(resumeErr)
		}
		p.Wait()
		ag.checkExtracts(t, map[string]int{"r1": 1, "r2": 1})
		checkJobDone(t, p, store, space, id, 2, 2)
	})
}

// resumeThenJob: ResumePending takes a pending observation r1; while it extracts it, a
// job is posted with r1 and r2. Each is extracted as often as extracts says, and the job
// ends done.
func resumeThenJob(t *testing.T, failGate bool, extracts map[string]int) {
	ctx := context.Background()
	p, ag, store, space := newCountingPipeline(t, construction.Options{})
	savePending(t, store, space, msg("r1", "job: Ann works at Acme"))
	r1 := ag.gate("r1", 1)
	if failGate {
		ag.fail("r1", 1)
	}
	resumed := make(chan error, 1)
	go func() { _, err := p.ResumePending(ctx); resumed <- err }()
	r1.wait(t) // the resumption extracts r1
	id, err := p.IngestAsync(ctx, space, []realm.Observation{msg("r1", "job: Ann works at Acme"), msg("r2", "city: Ann visits Rome")})
	if err != nil {
		t.Fatal(err)
	}
	r1.open()
	if err := <-resumed; err != nil {
		t.Fatal(err)
	}
	p.Wait()
	ag.checkExtracts(t, extracts)
	checkJobDone(t, p, store, space, id, 2, 2)
}

// summaryAgent is countingAgent recording the summary each observation's extraction saw.
type summaryAgent struct {
	*countingAgent
	mu   sync.Mutex
	seen map[string]string
	next func(id string) // called at each extraction, before it runs
}

func (a *summaryAgent) Extract(ctx context.Context, in agent.ExtractInput) (agent.Extraction, realm.Usage, error) {
	a.mu.Lock()
	a.seen[in.Observation.ID] = in.Summary
	a.mu.Unlock()
	a.next(in.Observation.ID)
	return a.countingAgent.Extract(ctx, in)
}

// TestResumeLeavesAStoredBatchToItsWorker: a batch is held from before it is stored, so
// that a resumption of the same process, which may claim what that process leased,
// claims none of it between its storing and its integration. Before, it claimed the
// batch, took its first observation, and the job integrated the others meanwhile, out
// of order: the second one's extraction missed what the first had said.
func TestResumeLeavesAStoredBatchToItsWorker(t *testing.T) {
	ctx := context.Background()
	store := cyphertest.MustOpen(t)
	space := cyphertest.NewSpace(t)
	ag := &summaryAgent{countingAgent: newCountingAgent(space), seen: map[string]string{}}
	first := ag.gate("a1", 1)
	ag.next = func(id string) {
		if id != "a1" {
			first.open() // the job went on without a1: let the resumption finish it
		}
	}
	t.Cleanup(ag.openAll)
	var p *construction.Pipeline
	resumed := make(chan int, 1)
	opts := construction.Options{Owner: "test-" + space, OnJob: func(event string) {
		if event != construction.JobStarted {
			return
		}
		// The job's batch is stored, leased to this process, its integration not begun.
		go func() {
			n, err := p.ResumePendingSpace(ctx, space)
			if err != nil {
				t.Error(err)
			}
			resumed <- n
		}()
		select {
		case <-first.entered: // the resumption took a1: the job goes on without it
		case n := <-resumed:
			resumed <- n
			first.open()
		case <-time.After(time.Minute):
			t.Error("the resumption neither took a1 nor returned")
		}
	}}
	p = construction.New(store, ag, bowEmbedder{}, opts, zerolog.Nop())
	t.Cleanup(func() { p.Close(context.Background()) })

	a1, a2 := msg("a1", "home: Ann lives in Paris"), msg("a2", "pet: a grey cat named Tom")
	if _, err := p.IngestAsync(ctx, space, []realm.Observation{a1, a2, msg("a3", "job: Ann is a baker")}); err != nil {
		t.Fatal(err)
	}
	p.Wait()
	select {
	case n := <-resumed:
		if n != 0 {
			t.Errorf("the resumption integrated %d of the job's observations, want 0", n)
		}
	case <-time.After(time.Minute):
		t.Fatal("the resumption did not return")
	}
	if want := "Last said: " + a1.Content; ag.seen["a2"] != want {
		t.Errorf("a2's extraction saw the summary %q, want %q: a2 was integrated before a1", ag.seen["a2"], want)
	}
	ag.checkExtracts(t, map[string]int{"a1": 1, "a2": 1, "a3": 1})
	if st := mustStats(t, store, space); st.ObservationsPending != 0 || st.Memories != 3 {
		t.Errorf("stats %+v, want 3 memories and nothing pending", st)
	}
}
