package api

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// extractGate is the offline agent whose first extraction waits until the test opened
// its gate: the test cuts Neo4j off while a job is under way.
type extractGate struct {
	agent.Agent
	entered, open chan struct{}
	once          sync.Once
}

func (a *extractGate) Extract(ctx context.Context, in agent.ExtractInput) (agent.Extraction, realm.Usage, error) {
	first := false
	a.once.Do(func() { first = true })
	if first {
		close(a.entered)
		<-a.open
	}
	return a.Agent.Extract(ctx, in)
}

// onLog calls do, once, when a log line holding every one of marks is written: it runs
// before the logging code goes on, so a test acts between two steps of the pipeline.
// It counts such lines.
type onLog struct {
	marks []string
	do    func()
	once  sync.Once
	seen  atomic.Int64
}

func (w *onLog) Write(p []byte) (int, error) {
	if !slices.ContainsFunc(w.marks, func(m string) bool { return !bytes.Contains(p, []byte(m)) }) {
		w.seen.Add(1)
		w.once.Do(w.do)
	}
	return len(p), nil
}

// TestOutageLeavesJobPendingThenResumed: an async job meets Neo4j gone, refusing
// connections or hung (its messages were stored before the 202; a batch sent then is
// refused with a 503 saying that nothing of it was stored): the job does not say failed
// but running, with an error saying its messages are retried and, per message, the error
// met by the first: the job stops at that first failure, leaving the rest unattempted;
// once Neo4j is back, the server's resumption integrates them without a restart or a
// resend, recall finds them, and the job ends done.
func TestOutageLeavesJobPendingThenResumed(t *testing.T) {
	for _, o := range outages {
		t.Run(o.name, func(t *testing.T) { testOutageLeavesJobPendingThenResumed(t, o.down, o.up) })
	}
}

func testOutageLeavesJobPendingThenResumed(t *testing.T, down, up func(*cyphertest.Proxy)) {
	store, proxy := cyphertest.BehindProxy(t, cyphertest.Config())
	deps := testDepsOn(t, store)
	const n = 4
	last := fmt.Sprintf("o%d", n)
	// Neo4j comes back as the job's first message has failed, before the job's end is
	// recorded: the job then tells what its run left, and a job that went on would
	// integrate the rest.
	back := &onLog{marks: []string{"integration failed", "stays pending"}, do: func() { up(proxy) }}
	ag := &extractGate{Agent: offline.New(offline.Options{}), entered: make(chan struct{}), open: make(chan struct{})}
	p := construction.New(store, ag, embedder, construction.Options{ResumeInterval: time.Second}, zerolog.New(back))
	t.Cleanup(func() { p.Close(context.Background()) })
	deps.Ingest = p
	srv := newTestServer(t, apitest.New(t), Config{}, func(d *Deps) { *d = deps })
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space

	things := []string{"tomatoes", "a kite", "oranges", "a lamp"}
	var messages []map[string]string
	for i := range n {
		messages = append(messages, map[string]string{"id": fmt.Sprintf("o%d", i+1), "speaker": "Ana",
			"content": fmt.Sprintf("Ana bought %s at the market on day %d.", things[i], i+1), "timestamp": fmt.Sprintf("2023-01-1%dT09:00:00Z", i)})
	}
	var accepted struct {
		JobID string `json:"job_id"`
	}
	if code := c.do("POST", sp+"/observations?async=true", map[string]any{"messages": messages}, &accepted).StatusCode; code != http.StatusAccepted {
		t.Fatalf("async ingest: %d", code)
	}
	select {
	case <-ag.entered:
	case <-time.After(time.Minute):
		t.Fatal("the job never extracted")
	}
	down(proxy)
	// A batch sent now is refused, and the 503 says that nothing of it was stored.
	var refused problemDoc
	resp := c.do("POST", sp+"/observations", map[string]any{"messages": []map[string]string{
		{"id": "late", "speaker": "Ana", "content": "Ana sold the kite.", "timestamp": "2023-01-20T09:00:00Z"}}}, &refused)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(refused.Detail, "nothing of the batch was stored") {
		t.Errorf("a batch sent with neo4j gone: %d %+v, want 503 saying nothing was stored", resp.StatusCode, refused)
	}
	close(ag.open)
	p.Wait() // the job's run ends at its first message that failed while Neo4j was gone
	if n := back.seen.Load(); n != 1 {
		t.Errorf("%d integration attempts failed in the outage, want 1: the job stops at the first", n)
	}

	type jobView struct {
		Status  string
		Done    int
		Pending int
		Failed  int
		Error   string
		Results []struct{ ID, Status, Error string }
	}
	var j jobView
	if code := c.do("GET", "/v1/jobs/"+accepted.JobID, nil, &j).StatusCode; code != http.StatusOK {
		t.Fatalf("job: %d", code)
	}
	if j.Status != "running" || j.Pending != n || j.Failed != 0 || !strings.Contains(j.Error, "retried") {
		t.Errorf("job after the outage: %+v, want running, %d pending, an error saying they are retried", j, n)
	}
	for _, r := range j.Results {
		if r.Status != "pending" || !strings.Contains(r.Error, "unavailable") {
			t.Errorf("message %s after the outage: %+v, want pending with the error it met", r.ID, r)
		}
	}

	// The server's resumption, running as it serves, integrates them.
	ctx, cancel := context.WithCancel(context.Background())
	resumed := make(chan struct{})
	go func() { defer close(resumed); p.Resume(ctx) }()
	defer func() { cancel(); <-resumed }()
	waitFor(t, 2*time.Minute, "the job done", func() bool {
		j = jobView{}
		c.do("GET", "/v1/jobs/"+accepted.JobID, nil, &j)
		return j.Status != "running"
	})
	if j.Status != "done" || j.Done != n || j.Error != "" {
		t.Errorf("job after the resumption: %+v, want done %d/%d", j, n, n)
	}
	rec := c.recall(sp, map[string]any{"query": "When did Ana buy a lamp?"})
	if !slices.ContainsFunc(rec.Nodes, func(nd realm.RecalledNode) bool { return slices.Contains(nd.Node.Sources, last) }) {
		t.Errorf("recall finds nothing derived from %s: %s", last, said(rec.Nodes))
	}
}
