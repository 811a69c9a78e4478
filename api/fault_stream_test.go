package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// streamClient is one client of TestFaultIngestStream: it sends its batches in order,
// each with ids of its own, and sends a batch again, unchanged, on a 5xx, a 429 or a
// network error, as a client of an idempotent API should.
type streamClient struct {
	name    string
	base    string
	http    *http.Client
	batches [][]map[string]string
	async   func(batch int) bool

	acked    []string // observation ids of batches answered 2xx
	jobs     []string // job ids of batches answered 202
	retries  int
	slowest  time.Duration // the longest a 5xx took to come back
	failures []string      // answers that are neither 2xx nor a retryable failure
}

// run sends every batch until it is acknowledged, or until ctx ends.
func (c *streamClient) run(ctx context.Context, failed *atomic.Int64) {
	for i, batch := range c.batches {
		body, _ := json.Marshal(map[string]any{"messages": batch})
		path := "/observations"
		if c.async(i) {
			path += "?async=true"
		}
		for ctx.Err() == nil {
			start := time.Now()
			status, resp, err := c.post(ctx, path, body)
			if err == nil && status/100 == 2 {
				for _, m := range batch {
					c.acked = append(c.acked, m["id"])
				}
				if status == http.StatusAccepted {
					var job struct {
						JobID string `json:"job_id"`
					}
					_ = json.Unmarshal(resp, &job)
					c.jobs = append(c.jobs, job.JobID)
				}
				break
			}
			if err == nil && status == http.StatusTooManyRequests {
				// As many async ingestions run as the server allows (REALM_MAX_ASYNC_JOBS_PER_KEY):
				// nothing of the batch was stored, and it goes again.
				select {
				case <-ctx.Done():
				case <-time.After(200 * time.Millisecond):
				}
				continue
			}
			if err == nil && status/100 != 5 {
				c.failures = append(c.failures, fmt.Sprintf("batch %d: %d %s", i, status, resp))
				break
			}
			if err == nil {
				c.slowest = max(c.slowest, time.Since(start))
			}
			c.retries++
			failed.Add(1)
			select {
			case <-ctx.Done():
			case <-time.After(200 * time.Millisecond):
			}
		}
	}
}

func (c *streamClient) post(ctx context.Context, path string, body []byte) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", c.base+path, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// TestFaultIngestStream: a few clients stream ingests (sync and async, ids of their own,
// retrying failures with the same ids) while the connection to Neo4j is cut and restored
// in the middle. Every observation acknowledged with a 2xx is stored exactly once and,
// once pending work is resumed, integrated once: no memory is duplicated. The process
// serves throughout (/healthz) and /readyz returns to 200.
func TestFaultIngestStream(t *testing.T) {
	store, proxy := cyphertest.BehindProxy(t, cyphertest.Config())
	var deps Deps
	srv := newTestServer(t, apitest.New(t), Config{}, func(d *Deps) { *d = testDepsOn(t, store); deps = *d })
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)

	const clients, batches, perBatch = 4, 8, 2
	speakers := []string{"Ana", "Ben", "Cleo", "Dan"}
	things := []string{"tomatoes", "a kite", "oranges", "a lamp", "two books", "a scarf", "bread", "a bicycle bell"}
	day := time.Date(2023, 3, 1, 9, 0, 0, 0, time.UTC)
	var all []*streamClient
	for ci := range clients {
		sc := &streamClient{
			name: speakers[ci], base: srv.URL + "/v1/spaces/" + space,
			http:  &http.Client{Timeout: 2 * time.Minute},
			async: func(b int) bool { return (b+ci)%2 == 1 },
		}
		for b := range batches {
			var batch []map[string]string
			for m := range perBatch {
				n := b*perBatch + m
				batch = append(batch, map[string]string{
					"id": fmt.Sprintf("%s-%02d", strings.ToLower(sc.name), n), "session_id": "s-" + sc.name, "speaker": sc.name,
					"content":   fmt.Sprintf("On day %d %s bought %s at stall %d.", n+1, sc.name, things[n%len(things)], 10*ci+n),
					"timestamp": day.Add(time.Duration(n) * 24 * time.Hour).Add(time.Duration(ci) * time.Minute).Format(time.RFC3339),
				})
			}
			sc.batches = append(sc.batches, batch)
		}
		all = append(all, sc)
	}

	// /healthz is polled all along: the process must never stop serving.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var healthFailures atomic.Int64
	healthDone := make(chan struct{})
	go func() {
		defer close(healthDone)
		for ctx.Err() == nil {
			resp, err := http.Get(srv.URL + "/healthz")
			if err != nil || resp.StatusCode != http.StatusOK {
				healthFailures.Add(1)
			}
			if resp != nil {
				resp.Body.Close()
			}
			select {
			case <-ctx.Done():
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()

	var failed atomic.Int64 // failed attempts of all clients
	var wg sync.WaitGroup
	for _, sc := range all {
		wg.Add(1)
		go func() { defer wg.Done(); sc.run(ctx, &failed) }()
	}
	acked := func() int {
		st, err := store.Stats(ctx, space)
		if err != nil {
			return 0
		}
		return int(st.Observations)
	}
	// Cut once about a third of the stream is stored, keep Neo4j away until the clients
	// have seen several failures, then bring it back.
	waitFor(t, 3*time.Minute, "a third of the observations stored", func() bool { return acked() >= clients*batches*perBatch/3 })
	proxy.Cut()
	cutAt := time.Now()
	waitFor(t, 2*time.Minute, "clients failing while neo4j is away", func() bool { return failed.Load() >= 2*clients })
	downFor := time.Since(cutAt)
	if code := c.status("GET", "/readyz", nil); code != http.StatusServiceUnavailable {
		t.Errorf("readyz with neo4j away: %d, want 503", code)
	}
	proxy.Restore()
	wg.Wait()
	if ctx.Err() != nil {
		t.Fatal("the clients did not get every batch acknowledged within 5 minutes")
	}
	waitFor(t, 2*time.Minute, "readyz 200 after neo4j came back", func() bool { return c.status("GET", "/readyz", nil) == http.StatusOK })

	// Background jobs end; what the outage left pending is resumed, as at the next start.
	deps.Ingest.Wait()
	if _, err := deps.Ingest.ResumePending(ctx); err != nil {
		t.Fatalf("resuming pending observations: %v", err)
	}
	cancel()
	<-healthDone
	if n := healthFailures.Load(); n > 0 {
		t.Errorf("/healthz failed %d times: the process stopped serving", n)
	}

	var ids []string
	retries, jobs := 0, 0
	var slowest time.Duration
	for _, sc := range all {
		for _, f := range sc.failures {
			t.Errorf("client %s: %s", sc.name, f)
		}
		if len(sc.acked) != batches*perBatch {
			t.Errorf("client %s: %d observations acknowledged, want %d", sc.name, len(sc.acked), batches*perBatch)
		}
		ids = append(ids, sc.acked...)
		retries += sc.retries
		jobs += len(sc.jobs)
		slowest = max(slowest, sc.slowest)
	}
	t.Logf("neo4j away %s; %d failed attempts retried; the slowest 5xx took %s; %d async jobs", downFor.Round(time.Millisecond), retries, slowest.Round(time.Millisecond), jobs)
	if retries == 0 {
		t.Fatal("no request failed: the cut did not happen mid-stream")
	}

	bg := context.Background()
	st, err := store.Stats(bg, space)
	if err != nil {
		t.Fatal(err)
	}
	if st.Observations != int64(len(ids)) || st.ObservationsPending != 0 || st.ObservationsFailed != 0 {
		t.Errorf("stats %d observations (%d pending, %d failed), want exactly the %d acknowledged, all integrated",
			st.Observations, st.ObservationsPending, st.ObservationsFailed, len(ids))
	}
	for _, id := range ids {
		o, err := store.Observation(bg, space, id)
		if err != nil || o.ID != id || o.Status != realm.ObservationIntegrated {
			t.Errorf("observation %s: %+v, %v; want it stored and integrated", id, o, err)
		}
	}
	for _, sc := range all {
		for _, id := range sc.jobs {
			var j cypher.Job
			if code := c.do("GET", "/v1/jobs/"+id, nil, &j).StatusCode; code != http.StatusOK || j.Done != j.Total || j.Pending != 0 {
				t.Errorf("job %s: %d %+v, want all its observations done", id, code, j)
			}
		}
	}

	// No memory twice: a memory derives from an observation at most once, and no two
	// memories say the same thing.
	memories := allMemories(t, store, space)
	if len(memories) == 0 {
		t.Fatal("no memories")
	}
	seen := map[string]string{}
	derived := map[string]bool{}
	for _, m := range memories {
		key := string(m.Type) + "|" + strings.ToLower(m.Name) + "|" + strings.ToLower(m.Content)
		if other, ok := seen[key]; ok {
			t.Errorf("memories %s and %s are the same %s %q: %q", other, m.ID, m.Type, m.Name, m.Content)
		}
		seen[key] = m.ID
		sources := map[string]bool{}
		for _, src := range m.Sources {
			if sources[src] {
				t.Errorf("memory %s derives from observation %s twice", m.ID, src)
			}
			sources[src] = true
			derived[src] = true
		}
	}
	for _, id := range ids {
		if !derived[id] {
			t.Errorf("no memory derives from observation %s", id)
		}
	}
	t.Logf("%d observations, %d memories, %d edges", st.Observations, st.Memories, st.Edges)
}

// allMemories lists every memory of space, page by page.
func allMemories(t *testing.T, store *cypher.Store, space string) []realm.Node {
	t.Helper()
	var out []realm.Node
	cursor := ""
	for {
		page, next, err := store.ListMemories(context.Background(), space, cypher.MemoryFilter{}, cursor, 500)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, page...)
		if next == "" {
			return out
		}
		cursor = next
	}
}

// waitFor polls cond until it holds, failing the test after limit.
func waitFor(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, limit)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
