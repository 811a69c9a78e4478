package construction_test

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// scriptAgent is a deterministic agent whose decisions the test data spells out.
// Extract: the content is "[type/]name: text; [type/]name: text; …", one candidate per
// part (type fact when not given). Integrate, per candidate, against its neighbours:
// "name@id,id" makes the candidate derive also from those observations (AlsoFrom);
// a neighbour with the same name and text → skip; same name and the text says " now " →
// add plus supersedes to it; same name otherwise → merge, the candidate's text becoming
// the content; else add. Every node after the first of an observation correlates with
// the first (a symmetric edge). Extract of an observation of failSpace fails while
// failures > 0 (other spaces' pending work, which ResumePending may take, is unaffected),
// as a model that cannot be reached while unavailable is set. Construction asks no other
// decision (the embedded nil Agent would panic).
type scriptAgent struct {
	agent.Agent
	failures    atomic.Int32
	failSpace   atomic.Value // string
	unavailable atomic.Bool
}

func (a *scriptAgent) Extract(ctx context.Context, in agent.ExtractInput) (agent.Extraction, realm.Usage, error) {
	usage := realm.Usage{"extract": {Calls: 1}}
	if in.Observation.Space == a.failSpace.Load() && a.failures.Add(-1) >= 0 {
		if a.unavailable.Load() {
			return agent.Extraction{}, usage, realm.Errorf(realm.EUnavailable, "scripted: the model cannot be reached")
		}
		return agent.Extraction{}, usage, errors.New("scripted extraction failure")
	}
	var out agent.Extraction
	for _, part := range strings.Split(in.Observation.Content, ";") {
		head, text, ok := strings.Cut(part, ":")
		if !ok {
			continue
		}
		typ, name, ok := strings.Cut(strings.TrimSpace(head), "/")
		if !ok {
			typ, name = "fact", typ
		}
		name, also, _ := strings.Cut(name, "@")
		c := agent.Candidate{Type: realm.NodeType(typ), Name: name, Content: strings.TrimSpace(text), Keywords: []string{name}}
		if also != "" {
			c.AlsoFrom = strings.Split(also, ",")
		}
		out.Candidates = append(out.Candidates, c)
	}
	out.Summary = "Last said: " + in.Observation.Content
	return out, usage, nil
}

func (a *scriptAgent) Integrate(ctx context.Context, in agent.IntegrateInput) ([]agent.Integration, realm.Usage, error) {
	out := make([]agent.Integration, len(in.Candidates))
	for i, cc := range in.Candidates {
		c := cc.Candidate
		d := agent.Integration{Action: agent.ActionAdd}
		for _, n := range cc.Neighbours {
			if n.Node.Name != c.Name {
				continue
			}
			switch {
			case strings.EqualFold(n.Node.Content, c.Content):
				d = agent.Integration{Action: agent.ActionSkip, MergeInto: n.Node.ID, Reason: "same name and text"}
			case strings.Contains(c.Content, " now "):
				d.Edges = append(d.Edges, agent.EdgeOp{Op: agent.EdgeAdd, From: agent.Self, To: n.Node.ID, Predicate: realm.Supersedes, Weight: 0.9})
			default:
				d = agent.Integration{Action: agent.ActionMerge, MergeInto: n.Node.ID, Merged: c.Content}
			}
			break
		}
		if i > 0 && d.Action != agent.ActionSkip {
			d.Edges = append(d.Edges, agent.EdgeOp{Op: agent.EdgeAdd, From: agent.Self, To: agent.CandidateRef(0), Predicate: realm.Correlates, Weight: 0.6})
		}
		out[i] = d
	}
	return out, realm.Usage{"integrate": {Calls: 1}}, nil
}

// bowEmbedder embeds a bag of lowercased words by feature hashing: texts sharing words
// are similar; deterministic and without files.
type bowEmbedder struct{}

func (bowEmbedder) ID() string { return "test:bow" }
func (bowEmbedder) Dim() int   { return cyphertest.Dims }
func (bowEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, cyphertest.Dims)
		for _, w := range strings.Fields(strings.ToLower(t)) {
			h := fnv.New32a()
			h.Write([]byte(strings.Trim(w, ".,;:!?")))
			v[h.Sum32()%uint32(cyphertest.Dims)]++
		}
		var norm float64
		for _, x := range v {
			norm += float64(x * x)
		}
		for j := range v {
			if norm > 0 {
				v[j] /= float32(math.Sqrt(norm))
			}
		}
		v[0] += 1e-3 // never the zero vector
		out[i] = v
	}
	return out, nil
}

func newPipeline(tb testing.TB, opts construction.Options) (*construction.Pipeline, *scriptAgent, *cypher.Store) {
	tb.Helper()
	store := cyphertest.MustOpen(tb)
	ag := &scriptAgent{}
	if opts.Owner == "" {
		opts.Owner = "test-" + cyphertest.NewSpace(tb)
	}
	p := construction.New(store, ag, bowEmbedder{}, opts, zerolog.Nop())
	tb.Cleanup(func() { p.Close(context.Background()) })
	return p, ag, store
}

var t0 = time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)

func msg(id, content string) realm.Observation {
	return realm.Observation{ID: id, SessionID: "s1", Speaker: "Ann", Content: content, ObservedAt: t0}
}

// TestResultEdgesAsStored: the edges an ingestion reports are the edges stored, an edge
// written again with its own id, initial weight and creation.
func TestResultEdgesAsStored(t *testing.T) {
	p, _, store := newPipeline(t, construction.Options{})
	space := cyphertest.NewSpace(t)
	ctx := context.Background()
	first := mustIngest(t, p, space, msg("w1", "pet: Ann has a dog; job: Ann is a baker"))[0]
	again := mustIngest(t, p, space, msg("w2", "pet: Ann has a cat; job: Ann bakes bread"))[0]
	ids := func(edges []realm.Edge) []string {
		var out []string
		for _, e := range edges {
			out = append(out, e.ID)
		}
		return out
	}
	if len(first.Edges) != 2 || !slices.Equal(ids(again.Edges), ids(first.Edges)) {
		t.Fatalf("edges %+v then %+v, want the job's correlates edges with the pet (both ways), then those again", first.Edges, again.Edges)
	}
	for _, e := range append(first.Edges, again.Edges...) {
		_, stored, err := store.GetMemory(ctx, space, e.From)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(stored, func(s realm.Edge) bool { return s.ID == e.ID })
		if i < 0 {
			t.Fatalf("edge %s reported, not stored", e.ID)
		}
		s := stored[i]
		if e.InitialWeight != s.InitialWeight || !e.CreatedAt.Equal(s.CreatedAt) || e.CreatedAt.IsZero() {
			t.Errorf("edge %s reported with initial weight %v, created %v; stored %v, %v", e.ID, e.InitialWeight, e.CreatedAt, s.InitialWeight, s.CreatedAt)
		}
	}
}

func mustIngest(t *testing.T, p *construction.Pipeline, space string, obs ...realm.Observation) []construction.Result {
	t.Helper()
	res, err := p.Ingest(context.Background(), space, obs)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func mustStats(t *testing.T, s *cypher.Store, space string) cypher.Stats {
	t.Helper()
	st, err := s.Stats(context.Background(), space)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestIngest(t *testing.T) {
	p, _, store := newPipeline(t, construction.Options{})
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	var home, drink string

	t.Run("OK", func(t *testing.T) {
		res := mustIngest(t, p, space, msg("m1", "home: Ann lives in Paris; drink: Ann likes green tea"))
		r := res[0]
		if r.Status != construction.StatusIntegrated || len(r.Added) != 2 || len(r.Edges) != 2 || r.Usage["extract"].Calls != 1 {
			t.Fatalf("result %+v, want 2 added and correlates both ways", r)
		}
		home, drink = r.Added[0], r.Added[1]
		n, _, err := store.GetMemory(ctx, space, home)
		if err != nil {
			t.Fatal(err)
		}
		if n.Type != realm.Fact || n.Content != "Ann lives in Paris" || fmt.Sprint(n.Sources) != "[m1]" {
			t.Errorf("home node %+v", n)
		}
		if sum, _ := store.SpaceSummary(ctx, space); !strings.Contains(sum, "Paris") {
			t.Errorf("summary %q not updated", sum)
		}
	})
	t.Run("RepeatedBatchAddsNothing", func(t *testing.T) {
		before := mustStats(t, store, space)
		res := mustIngest(t, p, space, msg("m1", "home: Ann lives in Paris; drink: Ann likes green tea"))
		if res[0].Status != construction.StatusAlreadyIntegrated || len(res[0].Added) != 0 {
			t.Errorf("result %+v, want already integrated", res[0])
		}
		if after := mustStats(t, store, space); fmt.Sprint(after) != fmt.Sprint(before) {
			t.Errorf("stats changed: %+v → %+v", before, after)
		}
	})
	t.Run("Merge", func(t *testing.T) {
		res := mustIngest(t, p, space, msg("m2", "drink: Ann likes green tea with honey"))
		if fmt.Sprint(res[0].Merged) != fmt.Sprint([]string{drink}) || len(res[0].Added) != 0 {
			t.Fatalf("result %+v, want merged into %s", res[0], drink)
		}
		n, _, _ := store.GetMemory(ctx, space, drink)
		if n.Content != "Ann likes green tea with honey" || fmt.Sprint(n.Sources) != "[m1 m2]" {
			t.Errorf("merged node %+v", n)
		}
	})
	t.Run("Skip", func(t *testing.T) {
		before := mustStats(t, store, space)
		res := mustIngest(t, p, space, msg("m3", "drink: Ann likes green tea with honey"))
		if len(res[0].Skipped) != 1 || len(res[0].Added)+len(res[0].Merged)+len(res[0].Edges) != 0 {
			t.Fatalf("result %+v, want one skip and no write", res[0])
		}
		after := mustStats(t, store, space)
		if after.Memories != before.Memories || after.Edges != before.Edges {
			t.Errorf("a skip wrote: %+v → %+v", before, after)
		}
		if n, _, _ := store.GetMemory(ctx, space, drink); len(n.Sources) != 2 {
			t.Errorf("a skip added provenance: %v", n.Sources)
		}
	})
	t.Run("Supersedes", func(t *testing.T) {
		res := mustIngest(t, p, space, msg("m4", "home: Ann now lives in Berlin"))
		r := res[0]
		if len(r.Added) != 1 || len(r.Edges) != 1 || r.Edges[0].Predicate != realm.Supersedes || r.Edges[0].To != home {
			t.Fatalf("result %+v, want an add superseding %s", r, home)
		}
		_, edges, _ := store.GetMemory(ctx, space, home)
		found := false
		for _, e := range edges {
			found = found || (e.Predicate == realm.Supersedes && e.From == r.Added[0] && e.To == home && e.Weight == 0.9)
		}
		if !found {
			t.Errorf("supersedes edge not stored: %+v", edges)
		}
	})
	t.Run("AlsoFrom", func(t *testing.T) {
		// An answer derives from its question too; an id that is no recent observation of
		// the space (m99, never said; m1 of another space) is not taken.
		mustIngest(t, p, space, msg("m5", "asked: did Ann ever live abroad?"))
		res := mustIngest(t, p, space, msg("m6", "answer@m5,m99: yes, Ann lived in Rome"))
		n, _, err := store.GetMemory(ctx, space, res[0].Added[0])
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(n.Sources) != "[m5 m6]" {
			t.Errorf("sources %v, want [m5 m6]", n.Sources)
		}
		// Its provenance edges agree with its sources (an export carries both).
		nodes, err := store.ExportNodes(ctx, space, "memory", "", 100)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(nodes, func(e cypher.ExportNode) bool { return e.Props["id"] == n.ID })
		if i < 0 {
			t.Fatalf("memory %s not exported", n.ID)
		}
		if from := slices.Sorted(slices.Values(nodes[i].DerivedFrom)); fmt.Sprint(from) != "[m5 m6]" {
			t.Errorf("derived from %v, want [m5 m6]", from)
		}
	})
	t.Run("Tenancy", func(t *testing.T) {
		other := cyphertest.NewSpace(t)
		res := mustIngest(t, p, other, msg("m2", "drink: Ann likes green tea with honey"))
		if len(res[0].Added) != 1 || len(res[0].Merged)+len(res[0].Skipped) != 0 {
			t.Errorf("result %+v: another space's node was seen", res[0])
		}
	})
}

func TestNothingLost(t *testing.T) {
	p, ag, store := newPipeline(t, construction.Options{MaxAttempts: 2})
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	ag.failSpace.Store(space)
	t.Run("AgentFailsThenResume", func(t *testing.T) {
		ag.failures.Store(1)
		res := mustIngest(t, p, space, msg("m1", "pet: Ann has a dog named Rex"))
		if res[0].Status != construction.StatusPending || res[0].Error == "" {
			t.Fatalf("result %+v, want pending with an error", res[0])
		}
		if o, err := store.Observation(ctx, space, "m1"); err != nil || o.Status != realm.ObservationPending || o.Content == "" {
			t.Fatalf("observation %+v %v, want stored and pending", o, err)
		}
		n, err := p.ResumePending(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n < 1 {
			t.Errorf("resumed %d observations", n)
		}
		if st := mustStats(t, store, space); st.Memories != 1 || st.ObservationsPending != 0 {
			t.Errorf("after resume: %+v", st)
		}
	})
	t.Run("FailedAfterMaxAttempts", func(t *testing.T) {
		ag.failures.Store(2)
		mustIngest(t, p, space, msg("m2", "car: Ann drives a red car"))
		if _, err := p.ResumePending(ctx); err != nil {
			t.Fatal(err)
		}
		if o, _ := store.Observation(ctx, space, "m2"); o.Status != realm.ObservationFailed {
			t.Errorf("status %s, want failed after 2 attempts", o.Status)
		}
		if st := mustStats(t, store, space); st.ObservationsFailed != 1 {
			t.Errorf("stats %+v, want 1 failed", st)
		}
	})
	t.Run("UnavailableDoesNotCount", func(t *testing.T) {
		// Three attempts meet an unreachable model (MaxAttempts is 2): none counts, so the
		// message stays pending and integrates once the model is back.
		ag.unavailable.Store(true)
		defer ag.unavailable.Store(false)
		ag.failures.Store(3)
		if res := mustIngest(t, p, space, msg("m9", "boat: Ann sails a small boat")); res[0].Status != construction.StatusPending {
			t.Fatalf("result %+v, want pending", res[0])
		}
		for range 3 { // a pass that meets the model away ends there, EUnavailable
			if _, err := p.ResumePending(ctx); err != nil && realm.ErrorCode(err) != realm.EUnavailable {
				t.Fatal(err)
			}
		}
		if o, _ := store.Observation(ctx, space, "m9"); o.Status != realm.ObservationIntegrated {
			t.Errorf("once the model is back: status %s, want integrated (an unavailable model's failures do not count)", o.Status)
		}
	})
	t.Run("DeadReplicaLeaseExpired", func(t *testing.T) {
		// What a kill -9 leaves behind: observations stored, leased to a process that is gone.
		dead := cypher.Lease{Owner: "dead-replica", Until: time.Now().Add(-time.Second)}
		obs := []realm.Observation{msg("m3", "job: Ann works at Acme"), msg("m4", "city: Ann visits Rome")}
		for i := range obs {
			obs[i].Space = space
		}
		if _, err := store.SaveObservations(ctx, space, "test:bow", cyphertest.Dims, obs, dead); err != nil {
			t.Fatal(err)
		}
		if _, err := p.ResumePending(ctx); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"m3", "m4"} {
			if o, _ := store.Observation(ctx, space, id); o.Status != realm.ObservationIntegrated {
				t.Errorf("%s is %s after resume", id, o.Status)
			}
		}
	})
	t.Run("OneSpace", func(t *testing.T) {
		// ResumePendingSpace takes this space's pending work and leaves another space's.
		other := cyphertest.NewSpace(t)
		expired := cypher.Lease{Owner: "dead-replica", Until: time.Now().Add(-time.Second)}
		for _, sp := range []string{space, other} {
			obs := []realm.Observation{{ID: "m7", Space: sp, Content: "tea: Ann likes mint tea", ObservedAt: t0}}
			if _, err := store.SaveObservations(ctx, sp, "test:bow", cyphertest.Dims, obs, expired); err != nil {
				t.Fatal(err)
			}
		}
		if n, err := p.ResumePendingSpace(ctx, space); err != nil || n != 1 {
			t.Fatalf("resumed %d, %v; want 1", n, err)
		}
		if o, _ := store.Observation(ctx, space, "m7"); o.Status != realm.ObservationIntegrated {
			t.Errorf("this space's observation is %s after its resume", o.Status)
		}
		if o, _ := store.Observation(ctx, other, "m7"); o.Status != realm.ObservationPending {
			t.Errorf("the other space's observation is %s after this space's resume", o.Status)
		}
	})
	t.Run("DeadProcessOfThisHostTakenOverAtOnce", func(t *testing.T) {
		// What a kill -9 of `realm serve` leaves behind: an unexpired lease whose owner,
		// a process of this host, is gone.
		child := exec.Command("true")
		if err := child.Run(); err != nil {
			t.Skipf("no `true` command: %v", err)
		}
		host, _ := os.Hostname()
		dead := cypher.Lease{Owner: fmt.Sprintf("%s/%d/dead", host, child.Process.Pid), Until: time.Now().Add(time.Hour)}
		obs := []realm.Observation{{ID: "m6", Space: space, Content: "pet: Ann has a cat", ObservedAt: t0}}
		if _, err := store.SaveObservations(ctx, space, "test:bow", cyphertest.Dims, obs, dead); err != nil {
			t.Fatal(err)
		}
		if _, err := p.ResumePending(ctx); err != nil {
			t.Fatal(err)
		}
		if o, _ := store.Observation(ctx, space, "m6"); o.Status != realm.ObservationIntegrated {
			t.Errorf("a dead process's leased observation is %s after resume", o.Status)
		}
	})
	t.Run("LeasedElsewhereNotTaken", func(t *testing.T) {
		live := cypher.Lease{Owner: "live-replica", Until: time.Now().Add(time.Hour)}
		obs := []realm.Observation{{ID: "m5", Space: space, Content: "x: y", ObservedAt: t0}}
		if _, err := store.SaveObservations(ctx, space, "test:bow", cyphertest.Dims, obs, live); err != nil {
			t.Fatal(err)
		}
		if _, err := p.ResumePending(ctx); err != nil {
			t.Fatal(err)
		}
		if o, _ := store.Observation(ctx, space, "m5"); o.Status != realm.ObservationPending {
			t.Errorf("another replica's leased observation is %s", o.Status)
		}
	})
}

func TestIngestInvalid(t *testing.T) {
	p, _, store := newPipeline(t, construction.Options{MaxBatch: 3})
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		space  string
		obs    []realm.Observation
		fields []string
	}{
		{"ErrContentRequired", "ok", []realm.Observation{msg("a", "x: y"), msg("b", "  ")}, []string{"messages[1].content"}},
		{"ErrTimestampRequired", "ok", []realm.Observation{{ID: "a", Content: "x: y"}}, []string{"messages[0].timestamp"}},
		{"ErrSpace", "bad space!", []realm.Observation{msg("a", "x: y")}, []string{"space"}},
		{"ErrBatchTooLarge", "ok", []realm.Observation{msg("a", "x"), msg("b", "x"), msg("c", "x"), msg("d", "x")}, []string{"messages"}},
		{"ErrEmptyBatch", "ok", nil, []string{"messages"}},
		{"ErrContentTooLong", "ok", []realm.Observation{msg("a", strings.Repeat("x", 20001))}, []string{"messages[0].content"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			space := tc.space
			if space == "ok" {
				space = cyphertest.NewSpace(t)
			}
			_, err := p.Ingest(ctx, space, tc.obs)
			var re *realm.Error
			if !errors.As(err, &re) || re.Code != realm.EInvalid {
				t.Fatalf("got %v, want invalid", err)
			}
			for _, f := range tc.fields {
				if _, ok := re.Fields[f]; !ok {
					t.Errorf("fields %v do not name %s", re.Fields, f)
				}
			}
			if len(re.Fields) != len(tc.fields) {
				t.Errorf("fields %v, want only %v", re.Fields, tc.fields)
			}
			if _, err := p.IngestAsync(ctx, space, tc.obs); realm.ErrorCode(err) != realm.EInvalid {
				t.Errorf("async: got %v, want invalid", err)
			}
			if realm.ValidSpace(space) {
				if st := mustStats(t, store, space); st.Observations != 0 {
					t.Errorf("%d observations stored from an invalid batch", st.Observations)
				}
			}
		})
	}
}

func TestIngestConcurrent(t *testing.T) {
	p, _, store := newPipeline(t, construction.Options{})
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := p.Ingest(ctx, space, []realm.Observation{msg(fmt.Sprint("c", i), fmt.Sprintf("drink: Bob likes tea, cup %d", i))})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	nodes, _, err := store.ListMemories(ctx, space, cypher.MemoryFilter{}, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 1 || len(nodes[0].Sources) != 10 {
		t.Errorf("%d memories (want 1 with 10 sources): writes of one space interleaved", len(nodes))
	}
	if st := mustStats(t, store, space); st.Observations != 10 || st.ObservationsPending != 0 {
		t.Errorf("stats %+v", st)
	}
}

func TestIngestAsync(t *testing.T) {
	p, _, store := newPipeline(t, construction.Options{})
	space := cyphertest.NewSpace(t)
	ctx, cancel := context.WithCancel(context.Background())
	id, err := p.IngestAsync(ctx, space, []realm.Observation{
		msg("a1", "home: Ann lives in Paris"), msg("a2", "drink: Ann likes tea"), msg("a3", "event/hike: Ann hiked on Sunday"),
	})
	cancel() // the request ends; the job does not
	if err != nil {
		t.Fatal(err)
	}
	p.Wait()
	j, err := p.Job(context.Background(), space, id)
	if err != nil {
		t.Fatal(err)
	}
	if j.Status != cypher.JobDone || j.Total != 3 || j.Done != 3 || j.Pending != 0 || j.Failed != 0 {
		t.Errorf("job %+v, want done 3/3", j)
	}
	st := mustStats(t, store, space)
	if st.Memories != 3 || st.ByType[realm.Event] != 1 {
		t.Errorf("stats %+v", st)
	}
	if _, err := p.Job(context.Background(), space, "no-such-job"); realm.ErrorCode(err) != realm.ENotFound {
		t.Errorf("got %v, want not found", err)
	}
}

// TestIngestAsyncLeasedElsewhere: a job one of whose messages another process is
// integrating (leased to it when the batch came) runs while that message is pending: its
// run leaves it to that process, counted pending, not done, and a job reads done only once
// none is pending. The process holding the message ends the job once it has integrated it.
func TestIngestAsyncLeasedElsewhere(t *testing.T) {
	space := cyphertest.NewSpace(t)
	var events []string // the job's run's, read after Wait
	p, _, store := newPipeline(t, construction.Options{OnJob: func(event string) { events = append(events, event) }})
	ctx := context.Background()
	held := msg("e1", "home: Ann lives in Paris")
	live := cypher.Lease{Owner: "live-" + space, Until: time.Now().Add(time.Hour)}
	if _, err := store.SaveObservations(ctx, space, "test:bow", cyphertest.Dims, []realm.Observation{held}, live); err != nil {
		t.Fatal(err)
	}
	id, err := p.IngestAsync(ctx, space, []realm.Observation{held, msg("e2", "drink: Ann likes tea")})
	if err != nil {
		t.Fatal(err)
	}
	p.Wait()
	j, err := p.Job(ctx, space, id)
	if err != nil || j.Status != cypher.JobRunning || j.Done != 1 || j.Pending != 1 {
		t.Errorf("job %+v %v, want running: e2 integrated, e1 pending in the other process", j, err)
	}
	if want := []string{construction.JobStarted, construction.JobPending}; !slices.Equal(events, want) {
		t.Errorf("events %q, want %q: the run left e1 pending", events, want)
	}

	// The other process integrates e1 by a job of its own, and records the end of the first.
	other, _, _ := newPipeline(t, construction.Options{Owner: live.Owner})
	if _, err := other.IngestAsync(ctx, space, []realm.Observation{held}); err != nil {
		t.Fatal(err)
	}
	other.Wait()
	if n, err := store.SettleJobs(ctx, []string{space}); err != nil || n != 0 {
		t.Errorf("%d jobs %v left running with none of their messages pending, want 0", n, err)
	}
	if j, err := p.Job(ctx, space, id); err != nil || j.Status != cypher.JobDone || j.Done != 2 {
		t.Errorf("job %+v %v, want done", j, err)
	}
}

func TestReads(t *testing.T) {
	p, _, store := newPipeline(t, construction.Options{})
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	res := mustIngest(t, p, space,
		msg("r1", "home: Ann lives in Paris; drink: Ann likes tea; event/hike: Ann hiked on Sunday"),
		msg("r2", "pet: Ann has a dog"))
	first := res[0].Added[0]
	st := mustStats(t, store, space)
	if st.Memories != 4 || st.ByType[realm.Fact] != 3 || st.ByPredicate[realm.Correlates] != 4 || st.WeightHistogram[6] != 4 || st.Observations != 2 {
		t.Errorf("stats %+v", st)
	}
	nodes, edges, err := store.Graph(ctx, space, first, 2, 10)
	if err != nil || len(nodes) != 3 || len(edges) != 4 {
		t.Errorf("graph around %s: %d nodes %d edges %v, want 3 and 4", first, len(nodes), len(edges), err)
	}
	all, _, err := store.Graph(ctx, space, "", 0, 10)
	if err != nil || len(all) != 4 {
		t.Errorf("whole graph: %d nodes %v", len(all), err)
	}
	page, next, err := store.ListMemories(ctx, space, cypher.MemoryFilter{}, "", 3)
	if err != nil || len(page) != 3 || next == "" {
		t.Fatalf("page 1: %d %q %v", len(page), next, err)
	}
	rest, next, err := store.ListMemories(ctx, space, cypher.MemoryFilter{}, next, 3)
	if err != nil || len(rest) != 1 || next != "" || rest[0].ID != res[1].Added[0] {
		t.Errorf("page 2: %+v %q %v", rest, next, err)
	}
	if err := store.DeleteMemory(ctx, space, first); err != nil {
		t.Fatal(err)
	}
	if st := mustStats(t, store, space); st.Memories != 3 || st.Edges != 0 { // every edge touched the first node
		t.Errorf("after delete: %+v", st)
	}
}

// BenchmarkIngest measures the write path with the scripted agent and the hashing
// embedder, one observation per Ingest call as a conversation arrives: Neo4j round trips
// and locking, not model time.
func BenchmarkIngest(b *testing.B) {
	p, _, _ := newPipeline(b, construction.Options{})
	ctx := context.Background()
	space := cyphertest.NewSpace(b)
	topics := []string{"home", "drink", "pet", "job", "city", "car", "sport", "book"}
	b.ResetTimer()
	start := time.Now()
	for i := range b.N {
		topic := topics[i%len(topics)]
		content := fmt.Sprintf("%s: Ann said thing %d about %s; event/e%d: Ann did %s thing %d", topic, i, topic, i, topic, i)
		if _, err := p.Ingest(ctx, space, []realm.Observation{msg(fmt.Sprint("b", i), content)}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "obs/s")
}

// TestCloseReleasesLeases: the observations a closing pipeline leaves pending are handed
// back, so that another replica (of any host) resumes them at once, not after the lease.
func TestCloseReleasesLeases(t *testing.T) {
	ctx := context.Background()
	p, _, store := newPipeline(t, construction.Options{})
	space := cyphertest.NewSpace(t)
	owner := "closing-" + space
	p2, _, _ := newPipeline(t, construction.Options{Owner: owner})
	// What an interrupted job leaves: stored, pending, leased to the closing pipeline for an hour.
	obs := []realm.Observation{{ID: "m1", Space: space, Content: "job: Ann works at Acme", ObservedAt: t0}}
	if _, err := store.SaveObservations(ctx, space, "test:bow", cyphertest.Dims, obs, cypher.Lease{Owner: owner, Until: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.ResumePending(ctx); err != nil {
		t.Fatal(err)
	}
	if o, _ := store.Observation(ctx, space, "m1"); o.Status != realm.ObservationPending {
		t.Fatalf("another replica took a live lease: %s", o.Status)
	}
	if err := p2.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := p.ResumePending(ctx); err != nil {
		t.Fatal(err)
	}
	if o, _ := store.Observation(ctx, space, "m1"); o.Status != realm.ObservationIntegrated {
		t.Errorf("after the owner closed, the observation is %s, want integrated by the other replica", o.Status)
	}
}
