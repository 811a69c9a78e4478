package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/realm-memory/realm/agent/agenttest"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// servedProcess is `realm serve` run in-process with a context the test cancels, as
// SIGTERM does in main.
type servedProcess struct {
	url  string
	out  *lineLog
	stop context.CancelFunc
	done chan struct{} // closed when serve has returned; err is set before
	err  error
}

// serveUntilCancelled starts serve and returns once it listens; the test stops it with
// stop (and it is stopped when the test ends).
func serveUntilCancelled(t *testing.T, getenv func(string) string) *servedProcess {
	t.Helper()
	cyphertest.MustOpen(t)
	ctx, cancel := context.WithCancel(context.Background())
	p := &servedProcess{out: newLineLog(regexp.MustCompile(`REALM serving on (http://\S+) `)), stop: cancel, done: make(chan struct{})}
	go func() {
		p.err = run(ctx, []string{"realm", "serve"}, getenv, p.out)
		close(p.done)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-p.done:
		case <-time.After(time.Minute):
			t.Errorf("serve did not return within a minute of being stopped:\n%s", p.out.String())
		}
	})
	select {
	case p.url = <-p.out.match:
	case <-p.done:
		t.Fatalf("serve returned before listening: %v\n%s", p.err, p.out.String())
	case <-time.After(3 * time.Minute):
		t.Fatalf("serve did not listen within 3 minutes:\n%s", p.out.String())
	}
	return p
}

// waitExit waits (bounded) for serve to return after stop and returns its error.
func (p *servedProcess) waitExit(t *testing.T) error {
	t.Helper()
	select {
	case <-p.done:
		return p.err
	case <-time.After(2 * time.Minute):
		t.Fatalf("serve did not return within 2 minutes of being stopped:\n%s", lastLines(p.out.String(), 30))
	}
	return nil
}

// gatedLLM is a fake chat API that answers every request at once with output that is
// not JSON (the offline agent then decides), except the extraction of the test's own
// messages (those containing marker) after the first pass of them: those wait for the
// gate to open. blocked receives a value when the first one waits.
type gatedLLM struct {
	fake    *agenttest.FakeOpenAI
	gate    chan struct{}
	blocked chan struct{}
}

func newGatedLLM(t *testing.T, marker string, pass int) *gatedLLM {
	g := &gatedLLM{fake: agenttest.NewFakeOpenAI(t), gate: make(chan struct{}), blocked: make(chan struct{}, 1)}
	var seen atomic.Int64
	g.fake.Handle(func(req agenttest.ChatRequest) agenttest.Response {
		// A first attempt (system and user message), not its repair.
		extraction := req.SchemaName() == "realm_extraction" && len(req.Messages) == 2
		if extraction && req.Contains(marker) && seen.Add(1) > int64(pass) {
			select {
			case g.blocked <- struct{}{}:
			default:
			}
			select {
			case <-g.gate:
			case <-time.After(2 * time.Minute): // a bound on a hang
			}
		}
		return agenttest.Content("not JSON", 5, 1)
	})
	// Opened before the fake closes (cleanups run last registered first), which waits
	// for the requests it holds.
	t.Cleanup(g.open)
	return g
}

func (g *gatedLLM) open() {
	select {
	case <-g.gate:
	default:
		close(g.gate)
	}
}

func (g *gatedLLM) waitBlocked(t *testing.T) {
	t.Helper()
	select {
	case <-g.blocked:
	case <-time.After(3 * time.Minute):
		t.Fatal("no request about the test's messages reached the LLM within 3 minutes")
	}
}

// shutdownMessages are n messages carrying marker.
func shutdownMessages(marker string, n int) []map[string]string {
	out := make([]map[string]string, n)
	for i := range out {
		out[i] = map[string]string{
			"id": fmt.Sprintf("g%d", i), "speaker": "Ines",
			"content":   fmt.Sprintf("On trip %d to %s I photographed %d lighthouses.", i, marker, i+2),
			"timestamp": time.Date(2023, 6, 1, 9+i, 0, 0, 0, time.UTC).Format(time.RFC3339),
		}
	}
	return out
}

// postAsync sends a request from another goroutine and delivers its status and body (or
// the transport error) on the returned channel.
type reply struct {
	status int
	body   []byte
	err    error
}

func postAsync(url string, body any) <-chan reply {
	ch := make(chan reply, 1)
	go func() {
		b, _ := json.Marshal(body)
		resp, err := http.Post(url, "application/json", bytes.NewReader(b))
		if err != nil {
			ch <- reply{err: err}
			return
		}
		defer resp.Body.Close()
		rb, err := io.ReadAll(resp.Body)
		ch <- reply{status: resp.StatusCode, body: rb, err: err}
	}()
	return ch
}

// TestServeDrainsInFlight: a synchronous ingest held up by a slow LLM is in flight when
// serve is told to stop; serve stops accepting connections, lets the request finish (200,
// the observation integrated) and then returns without error.
func TestServeDrainsInFlight(t *testing.T) {
	marker := "Zanzibar" + cyphertest.NewSpace(t)[len(cyphertest.SpacePrefix):]
	llm := newGatedLLM(t, marker, 0)
	srv := serveUntilCancelled(t, testEnv(map[string]string{"REALM_LLM": "openai", "OPENAI_BASE_URL": llm.fake.BaseURL()}))
	space := cyphertest.NewSpace(t)
	inFlight := postAsync(srv.url+"/v1/spaces/"+space+"/observations", map[string]any{"messages": shutdownMessages(marker, 1)})
	llm.waitBlocked(t)

	srv.stop() // SIGTERM
	waitUntil(t, time.Minute, "serve to stop accepting connections", func() bool {
		resp, err := http.Get(srv.url + "/healthz")
		if err == nil {
			resp.Body.Close()
		}
		return err != nil
	})
	select {
	case r := <-inFlight:
		t.Fatalf("the in-flight request ended before the LLM answered: %+v", r)
	default:
	}
	llm.open()

	var r reply
	select {
	case r = <-inFlight:
	case <-time.After(2 * time.Minute):
		t.Fatal("the in-flight request did not complete within 2 minutes of the LLM answering")
	}
	var res struct{ Results []struct{ Status string } }
	if r.err != nil || r.status != http.StatusOK || json.Unmarshal(r.body, &res) != nil || len(res.Results) != 1 || res.Results[0].Status != "integrated" {
		t.Fatalf("in-flight ingest: status %d, err %v, body %s; want 200 with the observation integrated", r.status, r.err, r.body)
	}
	if err := srv.waitExit(t); err != nil {
		t.Fatalf("serve returned %v", err)
	}
	if !strings.Contains(srv.out.String(), `"shut down"`) {
		t.Errorf("no shut down line in the log:\n%s", lastLines(srv.out.String(), 10))
	}
}

// TestServeDrainTimeout: a request still running when REALM_SHUTDOWN_TIMEOUT ends is cut
// off (it answers 503 unavailable, its observation left pending for the next start) and
// serve returns anyway.
func TestServeDrainTimeout(t *testing.T) {
	store := cyphertest.MustOpen(t)
	marker := "Zanzibar" + cyphertest.NewSpace(t)[len(cyphertest.SpacePrefix):]
	llm := newGatedLLM(t, marker, 0)
	srv := serveUntilCancelled(t, testEnv(map[string]string{"REALM_LLM": "openai", "OPENAI_BASE_URL": llm.fake.BaseURL(),
		"REALM_SHUTDOWN_TIMEOUT": "1s"}))
	space := cyphertest.NewSpace(t)
	inFlight := postAsync(srv.url+"/v1/spaces/"+space+"/observations", map[string]any{"messages": shutdownMessages(marker, 1)})
	llm.waitBlocked(t)

	srv.stop()
	if err := srv.waitExit(t); err != nil { // the gate stays closed: only the timeout ends the drain
		t.Fatalf("serve returned %v", err)
	}
	select {
	case r := <-inFlight:
		var p struct{ Code, Detail string }
		if r.err != nil || r.status != http.StatusServiceUnavailable || json.Unmarshal(r.body, &p) != nil || p.Code != "unavailable" || !strings.Contains(p.Detail, "stay pending") {
			t.Errorf("the cut-off request: %d %s (%v), want 503 unavailable saying its messages stay pending", r.status, r.body, r.err)
		}
	case <-time.After(time.Minute):
		t.Error("the cut-off request did not end within a minute of serve returning")
	}
	if !strings.Contains(srv.out.String(), "outlived REALM_SHUTDOWN_TIMEOUT") {
		t.Errorf("the log does not say requests were cut off:\n%s", lastLines(srv.out.String(), 10))
	}
	st, err := store.Stats(context.Background(), space)
	if err != nil {
		t.Fatal(err)
	}
	if st.Observations != 1 || st.ObservationsPending != 1 {
		t.Errorf("%d observations, %d pending; want the one stored and left pending", st.Observations, st.ObservationsPending)
	}
}

// TestServeShutdownResumesAsyncJob: an async job cut off by a shutdown leaves its
// observations pending; a new server integrates them and the job ends done.
func TestServeShutdownResumesAsyncJob(t *testing.T) {
	store := cyphertest.MustOpen(t)
	marker := "Zanzibar" + cyphertest.NewSpace(t)[len(cyphertest.SpacePrefix):]
	const total, passing = 5, 2 // extractions the LLM answers before it holds the next
	llm := newGatedLLM(t, marker, passing)
	first := serveUntilCancelled(t, testEnv(map[string]string{"REALM_LLM": "openai", "OPENAI_BASE_URL": llm.fake.BaseURL()}))
	space := cyphertest.NewSpace(t)
	var accepted struct {
		JobID string `json:"job_id"`
	}
	if code := send(t, "POST", first.url+"/v1/spaces/"+space+"/observations?async=true",
		map[string]any{"messages": shutdownMessages(marker, total)}, &accepted); code != http.StatusAccepted {
		t.Fatalf("async ingest: %d", code)
	}
	llm.waitBlocked(t) // the job integrated the first observations and waits on the third

	first.stop()
	if err := first.waitExit(t); err != nil {
		t.Fatalf("serve returned %v", err)
	}
	llm.open()
	if !strings.Contains(first.out.String(), "job interrupted by shutdown") {
		t.Errorf("the log does not say the job was interrupted:\n%s", lastLines(first.out.String(), 10))
	}
	st, err := store.Stats(context.Background(), space)
	if err != nil {
		t.Fatal(err)
	}
	// Usually the first `passing` are integrated; the start's ResumePending, which takes
	// pending observations leased to this process, may have taken some of the job's in
	// parallel (correct, as integration re-checks under the space lock), so only "some
	// left pending" is certain.
	if st.Observations != total || st.ObservationsPending == 0 {
		t.Fatalf("after the shutdown: %d observations, %d pending; want %d stored and some pending", st.Observations, st.ObservationsPending, total)
	}
	t.Logf("cut off with %d of %d observations pending", st.ObservationsPending, total)

	second := serveUntilCancelled(t, testEnv(nil)) // offline: resumes the pending ones at start
	var job cypher.Job
	waitUntil(t, 3*time.Minute, "the new server to integrate the pending observations", func() bool {
		if code := getJSON(t, second.url+"/v1/jobs/"+accepted.JobID, &job); code != http.StatusOK {
			t.Fatalf("job: %d", code)
		}
		return job.Pending == 0
	})
	if job.Status != cypher.JobDone || job.Done != total || job.Failed != 0 {
		t.Errorf("job after the restart: %+v, want done %d/%d", job, total, total)
	}
}

// TestShutdownTimeoutConfig: REALM_SHUTDOWN_TIMEOUT must be a positive duration; it is
// printed with the configuration.
func TestShutdownTimeoutConfig(t *testing.T) {
	for _, bad := range []string{"soon", "0s", "-5s"} {
		t.Run("Err"+bad, func(t *testing.T) {
			_, err := loadConfig(flag.NewFlagSet("serve", flag.ContinueOnError), nil, testEnv(map[string]string{"REALM_SHUTDOWN_TIMEOUT": bad}))
			if err == nil || !strings.Contains(err.Error(), "REALM_SHUTDOWN_TIMEOUT") {
				t.Errorf("got %v, want an error naming REALM_SHUTDOWN_TIMEOUT", err)
			}
		})
	}
	cfg, err := loadConfig(flag.NewFlagSet("serve", flag.ContinueOnError), nil, testEnv(nil))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	cfg.print(&out)
	if cfg.ShutdownTimeout != 30*time.Second || !strings.Contains(out.String(), "REALM_SHUTDOWN_TIMEOUT=30s") {
		t.Errorf("default %v, printed %q", cfg.ShutdownTimeout, out.String())
	}
}

// TestResumeIntervalConfig: REALM_RESUME_INTERVAL is 0 (only at start) or at least 1s,
// 30s by default; it is printed with the configuration.
func TestResumeIntervalConfig(t *testing.T) {
	for _, bad := range []string{"often", "-1s", "10ms"} {
		t.Run("Err"+bad, func(t *testing.T) {
			_, err := loadConfig(flag.NewFlagSet("serve", flag.ContinueOnError), nil, testEnv(map[string]string{"REALM_RESUME_INTERVAL": bad}))
			if err == nil || !strings.Contains(err.Error(), "REALM_RESUME_INTERVAL") {
				t.Errorf("got %v, want an error naming REALM_RESUME_INTERVAL", err)
			}
		})
	}
	for env, want := range map[string]time.Duration{"": 30 * time.Second, "0": 0, "2m": 2 * time.Minute} {
		cfg, err := loadConfig(flag.NewFlagSet("serve", flag.ContinueOnError), nil, testEnv(map[string]string{"REALM_RESUME_INTERVAL": env}))
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		cfg.print(&out)
		if cfg.ResumeInterval != want || !strings.Contains(out.String(), "REALM_RESUME_INTERVAL="+want.String()) {
			t.Errorf("REALM_RESUME_INTERVAL=%q: %v, printed %q", env, cfg.ResumeInterval, out.String())
		}
	}
}

// metricSum adds the values of the /metrics lines of name whose labels contain every one
// of labels (`stage="extract"`).
func metricSum(body, name string, labels ...string) (float64, bool) {
	total, found := 0.0, false
next:
	for _, line := range strings.Split(body, "\n") {
		series, value, ok := strings.Cut(line, " ")
		if !ok || (series != name && !strings.HasPrefix(series, name+"{")) {
			continue
		}
		for _, l := range labels {
			if !strings.Contains(series, l) {
				continue next
			}
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			continue
		}
		total, found = total+v, true
	}
	return total, found
}

// TestServeMetrics: serve hooks the pipelines to /metrics: LLM calls of ingestion and
// answers, recall stages, the answer's reconsolidation edits, the async job, the pending
// observations, the recalls without their space's graph snapshot.
func TestServeMetrics(t *testing.T) {
	fake := fakeAnswerer(t)
	base := startServe(t, testEnv(map[string]string{"REALM_LLM": "openai", "OPENAI_BASE_URL": fake.BaseURL()}))
	sp := base + "/v1/spaces/" + cyphertest.NewSpace(t)
	messages := []map[string]string{
		{"id": "m1", "speaker": "Melanie", "content": "I love hiking in the mountains with my kids.", "timestamp": "2023-05-08T13:57:00Z"},
		{"id": "m2", "speaker": "Melanie", "content": "Last weekend my kids and I hiked to a lake in the mountains.", "timestamp": "2023-05-08T13:58:00Z"},
	}
	if code := send(t, "POST", sp+"/observations", map[string]any{"messages": messages[:1]}, nil); code != http.StatusOK {
		t.Fatalf("ingest: %d", code)
	}
	var accepted struct {
		JobID string `json:"job_id"`
	}
	if code := send(t, "POST", sp+"/observations?async=true", map[string]any{"messages": messages[1:]}, &accepted); code != http.StatusAccepted {
		t.Fatalf("async ingest: %d", code)
	}
	var job cypher.Job
	waitUntil(t, 2*time.Minute, "the async job", func() bool {
		getJSON(t, base+"/v1/jobs/"+accepted.JobID, &job)
		return job.Status == cypher.JobDone
	})
	if code := send(t, "POST", sp+"/answer", map[string]any{"query": "Where does Melanie hike?"}, nil); code != http.StatusOK {
		t.Fatalf("answer: %d", code)
	}
	var body string
	// The job reads done once its messages are; its run ends after, recording its end,
	// and is counted then.
	waitUntil(t, time.Minute, "the async job counted", func() bool {
		resp, err := http.Get(base + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		body = string(b)
		done, _ := metricSum(body, "realm_jobs_finished_total", `state="done"`)
		return done >= 1
	})
	for _, c := range []struct {
		name   string
		labels []string
		min    float64
	}{
		{"realm_llm_calls_total", []string{`stage="extract"`}, 2},
		{"realm_llm_failures_total", []string{`stage="extract"`, `reason="invalid_output"`}, 2},
		{"realm_llm_fallbacks_total", []string{`stage="extract"`}, 2},
		{"realm_llm_tokens_total", []string{`stage="answer"`, `kind="prompt"`}, 50},
		{"realm_recall_stage_duration_seconds_count", []string{`stage="total"`}, 1},
		{"realm_reconsolidation_edits_total", []string{`source="auto"`}, 1},
		{"realm_jobs_finished_total", []string{`state="done"`}, 1},
		{"realm_observations_pending", nil, 0},
		{"realm_recalls_without_snapshot_total", []string{`reason="paused"`}, 0},
	} {
		got, found := metricSum(body, c.name, c.labels...)
		if !found || got < c.min {
			t.Errorf("%s%v = %g (found %v), want at least %g", c.name, c.labels, got, found, c.min)
		}
	}
}

// TestExtractRolesConfig: REALM_EXTRACT_ROLES lists chat roles (user, assistant and tool
// by default: not system), any case; another word is an error naming the variable. It
// is printed with the configuration.
func TestExtractRolesConfig(t *testing.T) {
	for _, bad := range []string{"user,bot", " , "} {
		t.Run("Err"+bad, func(t *testing.T) {
			_, err := loadConfig(flag.NewFlagSet("serve", flag.ContinueOnError), nil, testEnv(map[string]string{"REALM_EXTRACT_ROLES": bad}))
			if err == nil || !strings.Contains(err.Error(), "REALM_EXTRACT_ROLES") {
				t.Errorf("got %v, want an error naming REALM_EXTRACT_ROLES", err)
			}
		})
	}
	for env, want := range map[string]string{"": "user,assistant,tool", "User, System": "user,system"} {
		cfg, err := loadConfig(flag.NewFlagSet("serve", flag.ContinueOnError), nil, testEnv(map[string]string{"REALM_EXTRACT_ROLES": env}))
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		cfg.print(&out)
		if got := strings.Join(cfg.ExtractRoles, ","); got != want || !strings.Contains(out.String(), "REALM_EXTRACT_ROLES="+want) {
			t.Errorf("REALM_EXTRACT_ROLES=%q: %s, printed %q", env, got, out.String())
		}
	}
}
