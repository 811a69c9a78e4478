package api

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/agenttest"
	"github.com/realm-memory/realm/agent/llm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// sample is one line of the Prometheus text format.
type sample struct {
	name   string
	labels map[string]string
	value  float64
}

var sampleLine = regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$`)
var labelPair = regexp.MustCompile(`([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"`)

// parseMetrics reads the samples of a /metrics body.
func parseMetrics(t *testing.T, body string) []sample {
	t.Helper()
	var out []sample
	for _, line := range strings.Split(body, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		m := sampleLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("not a sample line: %q", line)
		}
		v, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			t.Fatalf("sample %q: %v", line, err)
		}
		s := sample{name: m[1], labels: map[string]string{}, value: v}
		for _, p := range labelPair.FindAllStringSubmatch(m[2], -1) {
			s.labels[p[1]] = p[2]
		}
		out = append(out, s)
	}
	return out
}

// sum adds the samples of name whose labels include all of want ("k=v" pairs); found
// says whether any matched.
func sum(samples []sample, name string, want ...string) (total float64, found bool) {
next:
	for _, s := range samples {
		if s.name != name {
			continue
		}
		for _, kv := range want {
			k, v, _ := strings.Cut(kv, "=")
			if s.labels[k] != v {
				continue next
			}
		}
		total += s.value
		found = true
	}
	return total, found
}

// TestPipelineMetrics: real traffic through the API (sync and async ingestion through
// the LLM agent against a fake that fails once with a 500 and answers extraction with
// output that is not JSON, a recall, an answer that reconsolidates, a revert) moves every
// family of the pipelines' metrics by what happened, and no label holds a space id.
func TestPipelineMetrics(t *testing.T) {
	fake := agenttest.NewFakeOpenAI(t)
	fake.Enqueue(agenttest.Status(http.StatusInternalServerError))
	var answers atomic.Int64
	fake.Handle(func(req agenttest.ChatRequest) agenttest.Response {
		if req.SchemaName() != "realm_answer" {
			return agenttest.Content("not JSON", 7, 3) // extraction and integration: invalid, repaired, then the fallback
		}
		answers.Add(1)
		var refs []string
		for _, m := range memoryLine.FindAllStringSubmatch(req.LastUser(), 2) {
			refs = append(refs, m[1])
		}
		return agenttest.JSON(t, map[string]any{"answer": "Melanie hikes in the mountains.", "cited": refs}, 400, 20)
	})
	registry := prometheus.NewRegistry()
	var metrics *Metrics
	var ingest *construction.Pipeline
	srv := newTestServer(t, apitest.New(t), Config{}, func(d *Deps) {
		metrics = NewMetrics(registry, d.Store)
		lm, err := llm.New(llm.Config{BaseURL: fake.BaseURL(), APIKey: "test", Models: llm.Models{Extraction: "test-model"},
			Timeout: 5 * time.Second, Backoff: time.Millisecond, MaxBackoff: 10 * time.Millisecond, Observe: metrics.ObserveLLM},
			offline.New(offline.Options{}), zerolog.New(io.Discard))
		if err != nil {
			t.Fatal(err)
		}
		ingest = construction.New(d.Store, lm, embedder, construction.Options{OnJob: metrics.ObserveJob}, zerolog.New(io.Discard))
		t.Cleanup(ingest.Wait)
		d.Ingest, d.Answer, d.Metrics, d.PipelineMetrics = ingest, lm, registry, metrics
		d.Recall = d.Recall.ObserveTimings(metrics.ObserveRecall)
		d.Reconsolidate = d.Reconsolidate.ObserveEdits(metrics.ObserveEdits)
	})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space

	ingestHiking(t, c, sp) // 4 observations, synchronously
	var job struct {
		JobID  string `json:"job_id"`
		Status string
	}
	batch := map[string]any{"messages": []map[string]string{
		{"id": "a5", "speaker": "Melanie", "content": "My daughter painted a lake we saw on a hike.", "timestamp": "2023-05-09T10:00:00Z"}}}
	if code := c.do("POST", sp+"/observations?async=true", batch, &job).StatusCode; code != http.StatusAccepted {
		t.Fatalf("async ingest: %d", code)
	}
	deadline := time.Now().Add(2 * time.Minute) // a bound on a hang, not a timing assertion
	for job.Status != "done" {
		if time.Now().After(deadline) {
			t.Fatalf("job %s still %q", job.JobID, job.Status)
		}
		time.Sleep(50 * time.Millisecond)
		c.do("GET", "/v1/jobs/"+job.JobID, nil, &job)
	}
	ingest.Wait() // the job reads done once its messages are; its run ends after, recording its end, then counted
	if code := c.status("POST", sp+"/recall", map[string]any{"query": "Where does Melanie hike?"}); code != http.StatusOK {
		t.Fatalf("recall: %d", code)
	}
	var ans struct {
		Reconsolidation struct {
			ID    string `json:"reconsolidation_id"`
			Edits []struct{ Action string }
		}
	}
	if code := c.do("POST", sp+"/answer", map[string]any{"query": "Where does Melanie hike?"}, &ans).StatusCode; code != http.StatusOK {
		t.Fatalf("answer: %d", code)
	}
	applied := map[string]float64{}
	for _, e := range ans.Reconsolidation.Edits {
		applied[e.Action]++
	}
	if len(ans.Reconsolidation.Edits) == 0 {
		t.Fatal("the answer's reconsolidation applied no edit: nothing to count")
	}
	var reverted struct{ Reverted []struct{ Action string } }
	if code := c.do("POST", sp+"/edits/"+ans.Reconsolidation.ID+"/revert", nil, &reverted).StatusCode; code != http.StatusOK {
		t.Fatalf("revert: %d", code)
	}

	body := metricsText(t, srv.URL)
	if strings.Contains(body, space) {
		t.Error("a space id is a metric label")
	}
	samples := parseMetrics(t, body)
	expect := func(what string, got, want float64) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %g, want %g", what, got, want)
		}
	}
	atLeast := func(what string, got, want float64) {
		t.Helper()
		if got < want {
			t.Errorf("%s = %g, want at least %g", what, got, want)
		}
	}

	// Recall stages: the recall and the answer's recall.
	for _, stage := range recallStages {
		n, _ := sum(samples, "realm_recall_stage_duration_seconds_count", "stage="+stage)
		expect("recall stage "+stage+" count", n, 2)
	}
	// LLM: 5 observations, each extracted and integrated with one repair (4 calls), one
	// 500 retried, and the answer.
	calls, _ := sum(samples, "realm_llm_calls_total")
	expect("LLM calls", calls, float64(len(fake.Requests())))
	extractCalls, _ := sum(samples, "realm_llm_calls_total", "stage=extract")
	expect("extract calls", extractCalls, 5*2+1)
	retries, _ := sum(samples, "realm_llm_retries_total", "stage=extract", "reason=server_error")
	expect("extract retries after a 500", retries, 1)
	failed, _ := sum(samples, "realm_llm_failures_total", "stage=extract", "reason=server_error")
	expect("extract 500 failures", failed, 1)
	invalid, _ := sum(samples, "realm_llm_failures_total", "stage=integrate", "reason=invalid_output")
	expect("integrate invalid outputs", invalid, 5*2)
	fallbacks, _ := sum(samples, "realm_llm_fallbacks_total", "stage=extract")
	expect("extract fallbacks", fallbacks, 5)
	atLeast("integrate fallbacks", func() float64 { v, _ := sum(samples, "realm_llm_fallbacks_total", "stage=integrate"); return v }(), 5)
	prompt, _ := sum(samples, "realm_llm_tokens_total", "stage=answer", "kind=prompt")
	expect("answer prompt tokens", prompt, 400*float64(answers.Load()))
	completion, _ := sum(samples, "realm_llm_tokens_total", "stage=extract", "kind=completion")
	expect("extract completion tokens", completion, 3*5*2)
	if n, _ := sum(samples, "realm_llm_call_duration_seconds_count", "stage=answer"); n != 1 {
		t.Errorf("answer call latencies: %g observations, want 1", n)
	}
	// Reconsolidation: the answer's edits by action, source auto; the same undone by the revert.
	for _, action := range editActions {
		got, found := sum(samples, "realm_reconsolidation_edits_total", "action="+action, "source=auto")
		if !found {
			t.Errorf("no series for %s edits", action)
		}
		expect(action+" edits (auto)", got, applied[action])
	}
	undone, _ := sum(samples, "realm_reconsolidation_edits_total", "source=revert")
	expect("edits reverted", undone, float64(len(reverted.Reverted)))
	atLeast("edits reverted", undone, 1)
	// Jobs: the async one started and ended done.
	done, _ := sum(samples, "realm_jobs_finished_total", "state=done")
	expect("jobs done", done, 1)
	running, _ := sum(samples, "realm_jobs_running")
	expect("jobs running", running, 0)
	// Pending observations: counted in Neo4j at scrape time (others' tests may hold some).
	if _, found := sum(samples, "realm_observations_pending"); !found {
		t.Error("no realm_observations_pending")
	}
	if errs, _ := sum(samples, "realm_observations_pending_errors_total"); errs != 0 {
		t.Errorf("%g failed pending counts", errs)
	}
}

// TestPendingObservationsMetric: the gauge follows the database: observations stored
// but not integrated (an async job whose LLM never answers in time) raise it.
func TestPendingObservationsMetric(t *testing.T) {
	store := cyphertest.MustOpen(t)
	registry := prometheus.NewRegistry()
	metrics := NewMetrics(registry, store)
	srv := newTestServer(t, apitest.New(t), Config{}, func(d *Deps) { d.Metrics, d.PipelineMetrics = registry, metrics })
	before, _ := sum(parseMetrics(t, metricsText(t, srv.URL)), "realm_observations_pending")
	space := cyphertest.NewSpace(t)
	saved := []map[string]string{
		{"id": "q1", "speaker": "Ana", "content": "Ana adopted a cat named Miso."},
		{"id": "q2", "speaker": "Ana", "content": "Ana started a pottery course."},
	}
	// Stored through the store, leased to an owner that never integrates: pending.
	var obs []realm.Observation
	for _, m := range saved {
		obs = append(obs, realm.Observation{ID: m["id"], Speaker: m["speaker"], Content: m["content"], ObservedAt: time.Now()})
	}
	lease := cypher.Lease{Owner: "metrics-test", Until: time.Now().Add(time.Hour)}
	if _, err := store.SaveObservations(context.Background(), space, embedder.ID(), embedder.Dim(), obs, lease); err != nil {
		t.Fatal(err)
	}
	after, _ := sum(parseMetrics(t, metricsText(t, srv.URL)), "realm_observations_pending")
	// Other processes share the database: the difference is at least ours unless they
	// integrated as many of theirs meanwhile, which a test of another package might do.
	if after < 2 {
		t.Errorf("pending gauge %g after storing 2 pending observations (before: %g)", after, before)
	}
}

// TestAnswerLogsTraceID: the access line of /answer carries the trace id of its recall,
// as recall's does, to follow an answer into its reconsolidation and feedback.
func TestAnswerLogsTraceID(t *testing.T) {
	var logs syncBuffer
	fake := agenttest.NewFakeOpenAI(t)
	fake.Handle(citeFirstTwo(t))
	lm, err := llm.New(llm.Config{BaseURL: fake.BaseURL(), APIKey: "test", Models: llm.Models{Extraction: "test-model"},
		Timeout: 5 * time.Second, MaxRetries: -1}, offline.New(offline.Options{}), zerolog.New(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, apitest.New(t), Config{}, func(d *Deps) {
		d.Answer, d.Logger = lm, zerolog.New(&logs).Level(zerolog.InfoLevel)
	})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	ingestHiking(t, c, sp)
	var res answerDoc
	if code := c.do("POST", sp+"/answer", map[string]any{"query": "Where does Melanie go hiking?"}, &res).StatusCode; code != http.StatusOK {
		t.Fatalf("answer: %d", code)
	}
	srv.Close() // every access line is written
	found := false
	for _, line := range strings.Split(logs.String(), "\n") {
		if strings.Contains(line, `"route":"/v1/spaces/{space}/answer"`) {
			found = strings.Contains(line, `"trace_id":"`+res.TraceID+`"`) && res.TraceID != ""
		}
	}
	if !found {
		t.Errorf("no answer access line with trace id %q:\n%s", res.TraceID, logs.String())
	}
}

// TestMetricsLLMUnits: what the LLM agent drops from an answer, and its calls answered
// without usage, are counted by stage.
func TestMetricsLLMUnits(t *testing.T) {
	registry := prometheus.NewRegistry()
	m := NewMetrics(registry, nil)
	m.ObserveLLM(llm.Event{Stage: llm.StageExtract, Kind: llm.LLMDropped, Decisions: 280})
	m.ObserveLLM(llm.Event{Stage: llm.StageExtract, Kind: llm.LLMCall, NoUsage: true})
	m.ObserveLLM(llm.Event{Stage: llm.StageExtract, Kind: llm.LLMCall, PromptTokens: 10})
	families, err := registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, f := range families {
		for _, s := range f.GetMetric() {
			for _, l := range s.GetLabel() {
				if l.GetName() == "stage" && l.GetValue() == llm.StageExtract {
					got[f.GetName()] += s.GetCounter().GetValue()
				}
			}
		}
	}
	if got["realm_llm_dropped_total"] != 280 {
		t.Errorf("realm_llm_dropped_total{stage=extract} = %g, want 280", got["realm_llm_dropped_total"])
	}
	if got["realm_llm_calls_without_usage_total"] != 1 {
		t.Errorf("realm_llm_calls_without_usage_total{stage=extract} = %g, want 1", got["realm_llm_calls_without_usage_total"])
	}
}

// TestRecallsWithoutSnapshotMetric: a recall of a space too large to wait for its graph
// snapshot expands by the statements while the snapshot is read, and /metrics counts it
// under reason "reading"; every reason has its series.
func TestRecallsWithoutSnapshotMetric(t *testing.T) {
	store := cyphertest.MustOpen(t)
	registry := prometheus.NewRegistry()
	metrics := NewMetrics(registry, store)
	srv := newTestServer(t, apitest.New(t), Config{}, func(d *Deps) { d.Metrics, d.PipelineMetrics = registry, metrics })
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	var nodes []realm.Node
	for i := range cypher.GraphSyncMax + 1 {
		nodes = append(nodes, realm.Node{ID: fmt.Sprintf("%s-m%d", space, i), Type: realm.Fact, Content: fmt.Sprint("memory ", i)})
	}
	if err := store.PutMemories(ctx, space, nodes, nil); err != nil {
		t.Fatal(err)
	}
	if err := store.PutScaleSpace(ctx, space, embedder.ID(), embedder.Dim(), 1, ""); err != nil { // its graph version
		t.Fatal(err)
	}
	before := parseMetrics(t, metricsText(t, srv.URL))
	counts, err := store.SpaceCounts(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	if x, err := store.Expander(ctx, space, counts); err != nil || x != cypher.Expander(store) {
		t.Fatalf("the recall expands by %T (%v), not the statements", x, err)
	}
	after := parseMetrics(t, metricsText(t, srv.URL))
	for _, why := range cypher.SnapshotReasons {
		if _, found := sum(after, "realm_recalls_without_snapshot_total", "reason="+why); !found {
			t.Errorf("no series for reason %s", why)
		}
	}
	was, _ := sum(before, "realm_recalls_without_snapshot_total", "reason=reading")
	now, _ := sum(after, "realm_recalls_without_snapshot_total", "reason=reading")
	if now < was+1 {
		t.Errorf("recalls without the snapshot while it is read: %g, then %g after one; want one more", was, now)
	}
}
