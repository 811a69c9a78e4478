package construction_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// resuming runs p.Resume until the test ends, and checks that it returns once its
// context is cancelled (bounded, so that a broken loop fails instead of hanging).
func resuming(t *testing.T, p *construction.Pipeline) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); p.Resume(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(time.Minute):
			t.Error("Resume did not return after its context was cancelled")
		}
	})
}

// pollUntil polls cond until it holds, failing the test after a generous limit (the
// outcome is asserted, not how long it took).
func pollUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 2 minutes", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// derivedFrom counts, per observation of space, the memories whose sources name it.
func derivedFrom(t *testing.T, store *cypher.Store, space string) map[string]int {
	t.Helper()
	out := map[string]int{}
	nodes, _, err := store.ListMemories(context.Background(), space, cypher.MemoryFilter{}, "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes {
		for _, src := range n.Sources {
			out[src]++
		}
	}
	return out
}

// TestResumeRetriesPending: an observation a failed attempt left pending, while the
// server runs on, is integrated by the periodic resumption, without a restart; the job
// it belongs to says why it was pending and that it is retried, then ends done.
func TestResumeRetriesPending(t *testing.T) {
	ctx := context.Background()
	p, ag, store, space := newCountingPipeline(t, construction.Options{ResumeInterval: 200 * time.Millisecond})
	resuming(t, p) // its start-up pass finds nothing of this space
	ag.fail("r2", 1)
	id, err := p.IngestAsync(ctx, space, []realm.Observation{
		msg("r1", "home: Ann lives in Paris"), msg("r2", "drink: Ann likes tea"), msg("r3", "pet: Ann has a cat"),
	})
	if err != nil {
		t.Fatal(err)
	}
	pollUntil(t, "r2 integrated by the resumption", func() bool {
		o, err := store.Observation(ctx, space, "r2")
		return err == nil && o.Status == realm.ObservationIntegrated
	})
	ag.checkExtracts(t, map[string]int{"r1": 1, "r2": 2, "r3": 1})
	// Once seen integrated, r2's memory is listed; polled (a fresh clone's run once listed
	// none right after, not reproduced since), then exactly one.
	pollUntil(t, "a memory derived from r2", func() bool { return derivedFrom(t, store, space)["r2"] > 0 })
	if d := derivedFrom(t, store, space); d["r2"] != 1 {
		t.Errorf("memories derived from r2: %d, want 1", d["r2"])
	}
	pollUntil(t, "the job ended", func() bool {
		j, err := p.Job(ctx, space, id)
		return err == nil && j.Status != cypher.JobRunning
	})
	j, err := p.Job(ctx, space, id)
	if err != nil || j.Status != cypher.JobDone || j.Done != 3 || j.Error != "" {
		t.Errorf("job %+v %v, want done 3/3 without an error", j, err)
	}
}

// jobView is a job as a client reads it (JSON), results with the error of each.
type jobView struct {
	Status    string    `json:"status"`
	Pending   int       `json:"pending"`
	Failed    int       `json:"failed"`
	Error     string    `json:"error"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	Results   []struct {
		ID     string `json:"id"`
		Status string `json:"status"`
		Error  string `json:"error"`
	} `json:"results"`
}

func viewJob(t *testing.T, p *construction.Pipeline, space, id string) jobView {
	t.Helper()
	j, err := p.Job(context.Background(), space, id)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	var v jobView
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestJobSaysWhyPending: a job whose run leaves an observation pending after a failed
// attempt is not failed: it runs on, its error says that the observation is retried,
// and the observation's result says the error it met.
func TestJobSaysWhyPending(t *testing.T) {
	ctx := context.Background()
	p, ag, _, space := newCountingPipeline(t, construction.Options{})
	ag.fail("w2", 1)
	id, err := p.IngestAsync(ctx, space, []realm.Observation{msg("w1", "home: Ann lives in Paris"), msg("w2", "drink: Ann likes tea")})
	if err != nil {
		t.Fatal(err)
	}
	p.Wait()
	j := viewJob(t, p, space, id)
	if j.Status != cypher.JobRunning || j.Pending != 1 || j.Failed != 0 || !strings.Contains(j.Error, "retried") {
		t.Errorf("job %+v, want running with 1 pending and an error saying it is retried", j)
	}
	for _, r := range j.Results {
		switch {
		case r.ID == "w2" && (r.Status != realm.ObservationPending || !strings.Contains(r.Error, "scripted extraction failure")):
			t.Errorf("result of w2 %+v, want pending with the error it met", r)
		case r.ID == "w1" && (r.Status != realm.ObservationIntegrated || r.Error != ""):
			t.Errorf("result of w1 %+v, want integrated without an error", r)
		}
	}
}

// TestResumeSettlesTakenOverJob: the job of a process killed during its run ends, as
// stored and with its updated_at, when another process resumed its observations.
func TestResumeSettlesTakenOverJob(t *testing.T) {
	ctx := context.Background()
	p, _, store, space := newCountingPipeline(t, construction.Options{})
	// What a killed process leaves: its observations stored and pending, its job running.
	savePending(t, store, space, msg("k1", "home: Ann lives in Paris"), msg("k2", "drink: Ann likes tea"))
	id := uuid.NewString()
	if err := store.CreateJob(ctx, space, id, []string{"k1", "k2"}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.ResumePendingSpace(ctx, space); err != nil {
		t.Fatal(err)
	}
	j := viewJob(t, p, space, id)
	if j.Status != cypher.JobDone || j.Pending != 0 || !j.UpdatedAt.After(j.CreatedAt) {
		t.Errorf("job %+v, want done and updated after its creation", j)
	}
}

// TestResumeStopsAtUnavailable: a pass whose attempt meets the model away stops there
// with EUnavailable: the rest of its batch is neither attempted (each would wait out the
// same outage in turn) nor failed, and its leases are handed back, for any process to
// take up at once; the observation attempted stays leased to the process that attempted it.
func TestResumeStopsAtUnavailable(t *testing.T) {
	ctx := context.Background()
	p, ag, store, space := newCountingPipeline(t, construction.Options{})
	savePending(t, store, space, msg("u1", "home: Ann lives in Paris"), msg("u2", "drink: Ann likes tea"), msg("u3", "pet: Ann has a cat"))
	ag.failSpace.Store(space)
	ag.unavailable.Store(true)
	ag.failures.Store(100)
	if _, err := p.ResumePendingSpace(ctx, space); realm.ErrorCode(err) != realm.EUnavailable {
		t.Errorf("resuming while the model is away: %v, want %s", err, realm.EUnavailable)
	}
	ag.checkExtracts(t, map[string]int{"u1": 1, "u2": 0, "u3": 0})
	other, err := store.ClaimPending(ctx, space, cypher.Lease{Owner: "other-" + space, Until: time.Now().Add(time.Hour)}, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, o := range other {
		ids = append(ids, o.ID)
	}
	if strings.Join(ids, ",") != "u2,u3" {
		t.Errorf("another process claims %v, want u2,u3 (handed back; u1 still leased to the process that attempted it)", ids)
	}
}

// TestResumeKeepsWhatItAttempted: a pass that stops at the model away hands back only
// what no attempt failed on: an observation whose attempt failed earlier in the pass stays
// leased to the process that made it, which retries it; another process does not extract
// it again.
func TestResumeKeepsWhatItAttempted(t *testing.T) {
	ctx := context.Background()
	p, ag, store, space := newCountingPipeline(t, construction.Options{})
	savePending(t, store, space, msg("k1", "home: Ann lives in Paris"), msg("k2", "drink: Ann likes tea"))
	ag.fail("k1", 1)
	ag.fail("k2", 1)
	ag.failWith("k1", 2, realm.Errorf(realm.EUnavailable, "scripted: the model cannot be reached"))
	if _, err := p.ResumePendingSpace(ctx, space); realm.ErrorCode(err) != realm.EUnavailable {
		t.Errorf("resuming while the model is away: %v, want %s", err, realm.EUnavailable)
	}
	ag.checkExtracts(t, map[string]int{"k1": 2, "k2": 1})
	other, err := store.ClaimPending(ctx, space, cypher.Lease{Owner: "other-" + space, Until: time.Now().Add(time.Hour)}, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range other {
		t.Errorf("another process claims %s, want it still leased to the process whose attempt failed on it", o.ID)
	}
}

// TestResumeLeavesWhatAnotherTookUp: a pass that works on its batch for longer than half
// its lease renews the leases of what it has yet to integrate, and leaves an observation
// whose lease expired meanwhile and that another process took up: one extraction of it.
func TestResumeLeavesWhatAnotherTookUp(t *testing.T) {
	ctx := context.Background()
	p, ag, store, space := newCountingPipeline(t, construction.Options{Lease: 2 * time.Second, ResumeBatch: 2})
	savePending(t, store, space, msg("x1", "home: Ann lives in Paris"), msg("x2", "drink: Ann likes tea"))
	g := ag.gate("x1", 1)
	done := make(chan error, 1)
	go func() {
		_, err := p.ResumePendingSpace(ctx, space)
		done <- err
	}()
	g.wait(t)
	// x2, leased with x1, is taken up by another process once its lease expired.
	other := cypher.Lease{Owner: "other-" + space, Until: time.Now().Add(time.Hour)}
	pollUntil(t, "x2 taken up by another process", func() bool {
		got, err := store.ClaimPending(ctx, space, other, 10, []cypher.ObservationRef{{Space: space, ID: "x1"}})
		return err == nil && len(got) == 1
	})
	g.open()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	ag.checkExtracts(t, map[string]int{"x1": 1, "x2": 0})
}

// TestTwoResumersIntegrateOnce: two processes resuming the pending observations of one
// database side by side integrate each observation once, one memory derived from each,
// and extract it once (one model call): it is leased to one of them, which keeps the
// lease through an attempt that fails (two writers of one space can make the
// neighbourhood change under each decision, EConflict, on a loaded machine) and retries
// it on the extraction it made.
func TestTwoResumersIntegrateOnce(t *testing.T) {
	resumeSideBySide(t, 60, func(int, string, *countingAgent) int { return 1 })
}

// TestTwoResumersRetryTheirOwn: an attempt that fails leaves its observation leased to
// the replica that made it, which retries it, while the other resumes beside it: each
// observation is extracted by one replica only, once when its decision failed (the retry
// decides again on the extraction made), twice when its extraction failed.
func TestTwoResumersRetryTheirOwn(t *testing.T) {
	resumeSideBySide(t, 60, func(i int, id string, ag *countingAgent) int {
		switch i % 3 {
		case 0:
			ag.failDecision(id, 1)
		case 1:
			ag.fail(id, 1)
			return 2
		}
		return 1
	})
}

// resumeSideBySide stores n pending observations in a new space and has two replicas
// resume them side by side until none is left pending, the agent of each scripted by
// script, which returns how many times the observation i (id) is to be extracted in
// all. It checks that each observation is integrated into one memory, and extracted that
// many times, by one replica only.
func resumeSideBySide(t *testing.T, n int, script func(i int, id string, ag *countingAgent) int) {
	store := cyphertest.MustOpen(t)
	space := cyphertest.NewSpace(t)
	var obs []realm.Observation
	for i := range n {
		obs = append(obs, msg(fmt.Sprintf("t%02d", i), fmt.Sprintf("thing%02d: Ann bought thing number %d", i, i)))
	}
	savePending(t, store, space, obs...)
	var agents []*countingAgent
	want := map[string]int{}
	for r := range 2 {
		ag := newCountingAgent(space)
		for i, o := range obs {
			want[o.ID] = script(i, o.ID, ag)
		}
		agents = append(agents, ag)
		p := construction.New(store, ag, bowEmbedder{}, construction.Options{Owner: fmt.Sprintf("replica%d-%s", r, space),
			ResumeInterval: 100 * time.Millisecond, ResumeBatch: 5}, zerolog.Nop())
		t.Cleanup(func() { p.Close(context.Background()) })
		resuming(t, p)
	}
	pollUntil(t, "every observation integrated", func() bool {
		st := mustStats(t, store, space)
		return st.ObservationsPending == 0
	})
	st := mustStats(t, store, space)
	if st.Observations != int64(n) || st.ObservationsFailed != 0 || st.Memories != int64(n) {
		t.Errorf("stats %+v, want %d observations integrated into %d memories", st, n, n)
	}
	derived := derivedFrom(t, store, space)
	worked := [2]int{}
	for _, o := range obs {
		if derived[o.ID] != 1 {
			t.Errorf("observation %s: %d memories derived, want 1", o.ID, derived[o.ID])
		}
		a, b := agents[0].count(o.ID), agents[1].count(o.ID)
		if a+b != want[o.ID] || a > 0 && b > 0 {
			t.Errorf("observation %s extracted %d times by one replica and %d by the other, want %d by one of them", o.ID, a, b, want[o.ID])
		}
		for r, ag := range agents {
			if ag.count(o.ID) > 0 {
				worked[r]++
			}
		}
	}
	t.Logf("observations extracted by each replica: %v", worked)
}

// TestIngestRenewsItsLeases: an ingestion that works on its batch for longer than a lease
// (a slow model) renews the leases of what it has yet to integrate, so that another
// process does not take it up: one extraction of each.
func TestIngestRenewsItsLeases(t *testing.T) {
	ctx := context.Background()
	const lease = 3 * time.Second
	p, ag, store, space := newCountingPipeline(t, construction.Options{Lease: lease})
	g := ag.gate("r1", 1)
	done := make(chan error, 1)
	go func() {
		_, err := p.Ingest(ctx, space, []realm.Observation{msg("r1", "home: Ann lives in Paris"), msg("r2", "drink: Ann likes tea")})
		done <- err
	}()
	g.wait(t)
	// Another process tries to take up r2 for longer than a lease; without renewal it would once its lease expired.
	other := cypher.Lease{Owner: "other-" + space, Until: time.Now().Add(time.Hour)}
	for end := time.Now().Add(lease * 3 / 2); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		got, err := store.ClaimPending(ctx, space, other, 10, []cypher.ObservationRef{{Space: space, ID: "r1"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) > 0 {
			t.Fatalf("another process took up %s while the ingestion worked on its batch", got[0].ID)
		}
	}
	g.open()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	ag.checkExtracts(t, map[string]int{"r1": 1, "r2": 1})
}

// TestCloseLeavesIngestsTheirLeases: closing the pipeline while an Ingest works on its
// batch (a server draining its requests) hands back no lease of it, or another process
// would integrate what the Ingest is integrating; once the Ingest returned, it hands back
// what is still pending.
func TestCloseLeavesIngestsTheirLeases(t *testing.T) {
	ctx := context.Background()
	p, ag, store, space := newCountingPipeline(t, construction.Options{})
	g := ag.gate("c1", 1)
	done := make(chan error, 1)
	go func() {
		_, err := p.Ingest(ctx, space, []realm.Observation{msg("c1", "home: Ann lives in Paris"), msg("c2", "drink: Ann likes tea")})
		done <- err
	}()
	g.wait(t)
	drain, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if err := p.Close(drain); err == nil {
		t.Fatal("Close returned while an Ingest was still integrating its batch")
	}
	other := cypher.Lease{Owner: "other-" + space, Until: time.Now().Add(time.Hour)}
	if got, err := store.ClaimPending(ctx, space, other, 10, nil); err != nil || len(got) != 0 {
		t.Fatalf("another process claims %d observations (%v) while the Ingest still works on them, want none", len(got), err)
	}
	g.open()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := p.Close(ctx); err != nil {
		t.Fatal(err)
	}
	ag.checkExtracts(t, map[string]int{"c1": 1, "c2": 1})
}

// holdSchemaLock makes Neo4j busy: it creates an index in a transaction of its own, left
// open until release (or the test's end), rolled back then. Meanwhile Neo4j answers
// statements on other connections (awaitAnswer's probes), but the statements of the
// stored labels wait for the schema lock, as for any lock another transaction holds.
func holdSchemaLock(t *testing.T) (release func()) {
	t.Helper()
	cfg := cyphertest.Config()
	driver, err := neo4j.NewDriverWithContext(cfg.URI, neo4j.BasicAuth(cfg.User, cfg.Password, ""))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sess := driver.NewSession(ctx, neo4j.SessionConfig{DatabaseName: cfg.Database, AccessMode: neo4j.AccessModeWrite})
	var once sync.Once
	release = func() {
		once.Do(func() {
			sess.Close(ctx) // rolls back the open transaction
			driver.Close(ctx)
		})
	}
	t.Cleanup(release)
	tx, err := sess.BeginTransaction(ctx)
	if err == nil {
		_, err = tx.Run(ctx, "CREATE INDEX resume_busy_test IF NOT EXISTS FOR (s:Space) ON (s.resume_busy_test)", nil)
	}
	if err != nil {
		t.Fatalf("taking the schema lock: %v", err)
	}
	return release
}

// logLines is a log writer that passes each line, decoded, to fn.
type logLines func(line map[string]any)

func (fn logLines) Write(p []byte) (int, error) {
	var line map[string]any
	if err := json.Unmarshal(p, &line); err != nil {
		return 0, err
	}
	fn(line)
	return len(p), nil
}

// hookedAgent is countingAgent running a hook before the first extraction of some
// observations.
type hookedAgent struct {
	*countingAgent
	mu    sync.Mutex
	hooks map[string]func()
}

func (a *hookedAgent) Extract(ctx context.Context, in agent.ExtractInput) (agent.Extraction, realm.Usage, error) {
	a.mu.Lock()
	hook := a.hooks[in.Observation.ID]
	delete(a.hooks, in.Observation.ID)
	a.mu.Unlock()
	if hook != nil {
		hook()
	}
	return a.countingAgent.Extract(ctx, in)
}

// TestResumeGoesOnWhenNeo4jBusy: a pass that meets Neo4j busy with a space (a lock held
// past RetryTime by another transaction) leaves that space's observations pending,
// attempted once, for the next pass, pauses, and integrates those of the other spaces;
// it says EUnavailable. The one attempted stays leased to it; the next pass integrates
// the rest, that one on the extraction of its attempt.
func TestResumeGoesOnWhenNeo4jBusy(t *testing.T) {
	ctx := context.Background()
	shared := cyphertest.MustOpen(t)
	cfg := cyphertest.Config()
	cfg.AnswerTimeout, cfg.RetryTime = 3*time.Second, 6*time.Second
	store, err := cypher.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close(ctx) })
	// The busy space's observations are claimed first (ordered by space).
	busy, free := cyphertest.NewSpace(t), cyphertest.NewSpace(t)
	if free < busy {
		busy, free = free, busy
	}
	savePending(t, shared, busy, msg("b1", "home: Ann lives in Paris"), msg("b2", "pet: Ann has a cat"))
	savePending(t, shared, free, msg("f1", "drink: Ann likes tea"), msg("f2", "job: Ann is a baker"))
	// Neo4j is busy from b1's extraction (after the claim) until b1's attempt has failed
	// (logged): the pass meets it busy with b1, and goes on to the free space only if it
	// does not stop there.
	var release func()
	ag := &hookedAgent{countingAgent: newCountingAgent(busy), hooks: map[string]func(){
		"b1": func() { release = holdSchemaLock(t) },
	}}
	log := zerolog.New(logLines(func(line map[string]any) {
		if line["observation"] == "b1" && line["message"] == "integration failed; the observation stays pending" {
			release()
		}
	}))
	p := construction.New(store, ag, bowEmbedder{}, construction.Options{Owner: "test-" + busy}, log)
	t.Cleanup(func() { p.Close(ctx) })

	t.Run("Busy", func(t *testing.T) {
		n, err := p.ResumePending(ctx)
		if realm.ErrorCode(err) != realm.EUnavailable || n < 2 {
			t.Errorf("ResumePending: %d integrated, %v; want the free space's 2 at least, and unavailable (a space left)", n, err)
		}
		if st := mustStats(t, store, free); st.ObservationsPending != 0 || st.ObservationsFailed != 0 {
			t.Errorf("the free space: %+v, want its 2 observations integrated (Neo4j busy with another space does not stop the pass)", st)
		}
		if st := mustStats(t, store, busy); st.ObservationsPending != 2 {
			t.Errorf("the busy space: %+v, want its 2 observations pending", st)
		}
		ag.checkExtracts(t, map[string]int{"b1": 1, "b2": 0}) // not retried in the pass, nor the rest of its space attempted
	})
	// b1's attempt keeps its lease, as any failed attempt: another process (a replica
	// resuming beside it) takes up b2, handed back unattempted, not b1, which it would
	// extract again.
	t.Run("LeaseKept", func(t *testing.T) {
		other := cypher.Lease{Owner: "other-" + busy, Until: time.Now().Add(time.Minute)}
		claimed, err := store.ClaimPending(ctx, busy, other, 10, nil)
		var ids []string
		var refs []cypher.ObservationRef
		for _, o := range claimed {
			ids = append(ids, o.ID)
			refs = append(refs, cypher.ObservationRef{Space: o.Space, ID: o.ID})
		}
		if _, err := store.ReleaseLeasesOf(ctx, other.Owner, refs); err != nil {
			t.Fatal(err)
		}
		if err != nil || !slices.Equal(ids, []string{"b2"}) {
			t.Errorf("another process claims %v (%v), want b2 only", ids, err)
		}
	})
	t.Run("Next", func(t *testing.T) {
		if n, err := p.ResumePending(ctx); err != nil || n < 2 {
			t.Errorf("ResumePending: %d integrated, %v; want the busy space's 2 at least", n, err)
		}
		if st := mustStats(t, store, busy); st.ObservationsPending != 0 || st.ObservationsFailed != 0 {
			t.Errorf("the busy space, the next pass: %+v, want its 2 observations integrated", st)
		}
		ag.checkExtracts(t, map[string]int{"b1": 1, "b2": 1}) // b1 retried on the extraction of its attempt
	})
}

// TestResumeLogsPassOnce: a pass of several batches says how many observations it resumed
// in one info line, the total; each batch's line is debug.
func TestResumeLogsPassOnce(t *testing.T) {
	ctx := context.Background()
	store := cyphertest.MustOpen(t)
	space := cyphertest.NewSpace(t)
	savePending(t, store, space, msg("a", "home: Ann lives in Paris"), msg("b", "pet: Ann has a cat"), msg("c", "drink: Ann likes tea"))
	var resumed []map[string]any
	log := zerolog.New(logLines(func(line map[string]any) {
		if strings.HasPrefix(fmt.Sprint(line["message"]), "resumed") && line["level"] == "info" {
			resumed = append(resumed, line)
		}
	}))
	p := construction.New(store, newCountingAgent(space), bowEmbedder{}, construction.Options{Owner: "test-" + space, ResumeBatch: 2}, log)
	t.Cleanup(func() { p.Close(ctx) })
	p.Resume(ctx)
	if len(resumed) != 1 || resumed[0]["observations"] != float64(3) {
		t.Errorf("info lines %v, want one saying 3 observations", resumed)
	}
}
