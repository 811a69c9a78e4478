package api

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/llm"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/reconsolidation"
	"github.com/realm-memory/realm/retrieval"
)

// httpMetrics are what the API layer sees of each request. Labels are the route
// pattern, never the path, so no space or memory id becomes a label.
type httpMetrics struct {
	duration *prometheus.HistogramVec
	inFlight prometheus.Gauge
	routes   map[string]bool // the patterns of routes.go; filled once the router is built
}

// newHTTPMetrics registers the API's collectors on reg.
func newHTTPMetrics(reg prometheus.Registerer) *httpMetrics {
	m := &httpMetrics{
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "realm_http_request_duration_seconds",
			Help: "HTTP requests by method, route pattern and status: latency in seconds (its _count is the request count).",
			// Up to two minutes: a synchronous ingest of a large batch takes that long.
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120},
		}, []string{"method", "route", "status"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "realm_http_requests_in_flight",
			Help: "HTTP requests being served.",
		}),
		routes: map[string]bool{},
	}
	reg.MustRegister(m.duration, m.inFlight)
	return m
}

// observe records every request's latency under its route pattern ("unmatched" for
// requests no route took, so probes of random paths cannot grow the label set).
func (m *httpMetrics) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		m.inFlight.Inc()
		defer m.inFlight.Dec()
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		next.ServeHTTP(ww, r)
		route := chi.RouteContext(r.Context()).RoutePattern()
		if !m.routes[route] {
			route = "unmatched"
		}
		m.duration.WithLabelValues(r.Method, route, strconv.Itoa(ww.Status())).Observe(time.Since(start).Seconds())
	})
}

// learnRoutes records the route patterns of router.
func (m *httpMetrics) learnRoutes(router chi.Routes) {
	_ = chi.Walk(router, func(_, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		m.routes[route] = true
		return nil
	})
}

// metricsHandler serves the registry in Prometheus' text format.
func metricsHandler(reg *prometheus.Registry) http.Handler {
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})
}

// Metrics are REALM's collectors beyond HTTP: recall stage latencies, LLM calls, tokens,
// failures, retries and fallbacks by stage, reconsolidation edits by action, async jobs,
// traces deleted past their retention, the pending observations, and the recalls expanded
// without their space's graph snapshot. cmd creates them once per process on the registry
// /metrics serves and hands their Observe methods to the pipelines' hooks (which know
// nothing of Prometheus); NewServer creates them when Deps.PipelineMetrics is nil. Every
// label takes values from a fixed list (anything else is "other"): never a space, an id,
// a model reply or user text.
type Metrics struct {
	recallStage  *prometheus.HistogramVec
	llmCalls     *prometheus.CounterVec
	llmDuration  *prometheus.HistogramVec
	llmTokens    *prometheus.CounterVec
	llmFailures  *prometheus.CounterVec
	llmRetries   *prometheus.CounterVec
	llmFallbacks *prometheus.CounterVec
	llmDropped   *prometheus.CounterVec
	llmNoUsage   *prometheus.CounterVec
	edits        *prometheus.CounterVec
	jobsRunning  prometheus.Gauge
	jobsFinished *prometheus.CounterVec
	tracesGone   prometheus.Counter
}

// Label values. LLM stages are those of agent's usage (the read path's and the
// auditor's are listed for when an LLM takes them; offline decisions make no calls).
var (
	recallStages = []string{retrieval.StagePlan, retrieval.StageSeed, retrieval.StageExpand,
		retrieval.StageAggregate, retrieval.StageRecord, retrieval.StageTotal}
	llmStages = []string{llm.StageExtract, llm.StageIntegrate, "plan", "sufficiency", "expand",
		llm.StageAnswer, "audit"}
	llmReasons = []string{llm.ReasonRateLimited, llm.ReasonServerError, llm.ReasonTimeout,
		llm.ReasonTransport, llm.ReasonClientError, llm.ReasonCanceled, llm.ReasonNoChoices,
		llm.ReasonTruncated, llm.ReasonRefused, llm.ReasonInvalid, llm.ReasonAway}
	editActions = []string{string(realm.EditAdd), string(realm.EditStrengthen), string(realm.EditWeaken)}
	editSources = []string{realm.EditSourceAuto, realm.EditSourceFeedback, reconsolidation.EditsReverted}
	jobEnds     = []string{construction.JobDone, construction.JobFailed, construction.JobPending, construction.JobInterrupted}
)

// NewMetrics registers the collectors on reg. The pending observations are counted in
// store at scrape time, not kept up to date by the pipeline: the backlog is the
// database's, shared by every replica, which no one process could count from its own
// work (another replica's accepted or integrated observations would be missed; a crash
// would freeze a wrong value). The count is one index seek on Observation.status, bounded
// by a 2-second timeout; when Neo4j does not answer, the series is absent from that
// scrape and realm_observations_pending_errors_total counts the miss. The recalls without
// a snapshot are the store's count, read at scrape time too. nil store: neither.
func NewMetrics(reg prometheus.Registerer, store *cypher.Store) *Metrics {
	m := &Metrics{
		recallStage: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "realm_recall_stage_duration_seconds",
			Help:    "Recall latency by stage (plan, seed, expand, aggregate, record, and total), in seconds.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"stage"}),
		llmCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "realm_llm_calls_total",
			Help: "LLM chat calls (HTTP attempts, retries and repairs included) by stage.",
		}, []string{"stage"}),
		llmDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "realm_llm_call_duration_seconds",
			Help:    "LLM chat call latency by stage, in seconds (one attempt; retry waits excluded).",
			Buckets: []float64{.1, .25, .5, 1, 2.5, 5, 10, 20, 30, 60, 120},
		}, []string{"stage"}),
		llmTokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "realm_llm_tokens_total",
			Help: "LLM tokens by stage and kind (prompt, completion), as the server reports them.",
		}, []string{"stage", "kind"}),
		llmFailures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "realm_llm_failures_total",
			Help: "LLM calls that failed or returned invalid output, by stage and reason.",
		}, []string{"stage", "reason"}),
		llmRetries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "realm_llm_retries_total",
			Help: "LLM calls retried after a transient failure (429, 5xx, timeout, transport), by stage and reason.",
		}, []string{"stage", "reason"}),
		llmFallbacks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "realm_llm_fallbacks_total",
			Help: "Decisions the offline agent took because the LLM gave no usable answer, by stage.",
		}, []string{"stage"}),
		llmNoUsage: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "realm_llm_calls_without_usage_total",
			Help: "LLM chat calls the server answered without usage (their tokens count 0), by stage.",
		}, []string{"stage"}),
		llmDropped: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "realm_llm_dropped_total",
			Help: "Units of LLM answers dropped beyond what REALM takes from one (candidates of an extraction), by stage.",
		}, []string{"stage"}),
		edits: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "realm_reconsolidation_edits_total",
			Help: "Reconsolidation edits of edges by action (add, strengthen, weaken) and source (auto, feedback; revert: edits undone).",
		}, []string{"action", "source"}),
		jobsRunning: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "realm_jobs_running",
			Help: "Asynchronous ingestion jobs this process is integrating.",
		}),
		jobsFinished: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "realm_jobs_finished_total",
			Help: "Asynchronous ingestion jobs of this process by how their run ended (done, failed, pending: messages left pending, to a retry or to the process holding them, interrupted by shutdown: resumed at next start).",
		}, []string{"state"}),
		tracesGone: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "realm_traces_expired_total",
			Help: "Recall traces this process deleted because they were older than REALM_TRACE_RETENTION.",
		}),
	}
	reg.MustRegister(m.recallStage, m.llmCalls, m.llmDuration, m.llmTokens, m.llmFailures, m.llmRetries,
		m.llmFallbacks, m.llmDropped, m.llmNoUsage, m.edits, m.jobsRunning, m.jobsFinished, m.tracesGone)
	// Every series exists from the start, at 0, so that rates and alerts see the first event.
	for _, stage := range llmStages {
		m.llmCalls.WithLabelValues(stage)
		m.llmFallbacks.WithLabelValues(stage)
		m.llmDropped.WithLabelValues(stage)
		m.llmNoUsage.WithLabelValues(stage)
		m.llmTokens.WithLabelValues(stage, "prompt")
		m.llmTokens.WithLabelValues(stage, "completion")
	}
	for _, a := range editActions {
		for _, s := range editSources {
			m.edits.WithLabelValues(a, s)
		}
	}
	for _, s := range jobEnds {
		m.jobsFinished.WithLabelValues(s)
	}
	if store != nil {
		p := &pendingCollector{store: store,
			desc: prometheus.NewDesc("realm_observations_pending",
				"Observations of all spaces stored and not integrated yet (the database's backlog, counted at scrape time; the same from every replica).", nil, nil),
			errors: prometheus.NewCounter(prometheus.CounterOpts{
				Name: "realm_observations_pending_errors_total",
				Help: "Scrapes in which Neo4j did not count the pending observations within 2 seconds.",
			})}
		reg.MustRegister(p, p.errors)
		reg.MustRegister(&snapshotCollector{store: store, desc: prometheus.NewDesc("realm_recalls_without_snapshot_total",
			"Recalls of this process that expanded a space by Cypher statements because its in-memory graph snapshot was being read (reading), stale and waiting for its reload pause (paused), or following a write (following).",
			[]string{"reason"}, nil)})
	}
	return m
}

// ObserveRecall records a recall's stage timings (milliseconds, as retrieval reports them);
// it is retrieval.Retriever.ObserveTimings' hook.
func (m *Metrics) ObserveRecall(timings map[string]float64) {
	for _, stage := range recallStages {
		if ms, ok := timings[stage]; ok {
			m.recallStage.WithLabelValues(stage).Observe(ms / 1000)
		}
	}
}

// ObserveLLM records one event of the LLM agent; it is llm.Config.Observe.
func (m *Metrics) ObserveLLM(e llm.Event) {
	stage := bounded(e.Stage, llmStages)
	switch e.Kind {
	case llm.LLMCall:
		m.llmCalls.WithLabelValues(stage).Inc()
		m.llmDuration.WithLabelValues(stage).Observe(e.Duration.Seconds())
		m.llmTokens.WithLabelValues(stage, "prompt").Add(float64(max(e.PromptTokens, 0)))
		m.llmTokens.WithLabelValues(stage, "completion").Add(float64(max(e.CompletionTokens, 0)))
		if e.Reason != "" {
			m.llmFailures.WithLabelValues(stage, bounded(e.Reason, llmReasons)).Inc()
		}
		if e.NoUsage {
			m.llmNoUsage.WithLabelValues(stage).Inc()
		}
	case llm.LLMInvalid:
		m.llmFailures.WithLabelValues(stage, llm.ReasonInvalid).Inc()
	case llm.LLMRetry:
		m.llmRetries.WithLabelValues(stage, bounded(e.Reason, llmReasons)).Inc()
	case llm.LLMFallback:
		m.llmFallbacks.WithLabelValues(stage).Add(float64(max(e.Decisions, 0)))
	case llm.LLMDropped:
		m.llmDropped.WithLabelValues(stage).Add(float64(max(e.Decisions, 0)))
	case llm.LLMSkipped:
		m.llmFailures.WithLabelValues(stage, bounded(e.Reason, llmReasons)).Inc()
	}
}

// ObserveEdits records the edits of one reconsolidation or revert; it is
// reconsolidation.Reconsolidator.ObserveEdits' hook.
func (m *Metrics) ObserveEdits(source string, edits []realm.Edit) {
	source = bounded(source, editSources)
	for _, e := range edits {
		m.edits.WithLabelValues(bounded(string(e.Action), editActions), source).Inc()
	}
}

// ObserveJob records an async job's start or end; it is construction.Options.OnJob.
func (m *Metrics) ObserveJob(event string) {
	switch event {
	case construction.JobStarted:
		m.jobsRunning.Inc()
	case construction.JobDeferred:
		// Accepted while shutting down, never started: it ends without having run.
		m.jobsFinished.WithLabelValues(construction.JobInterrupted).Inc()
	default:
		m.jobsRunning.Dec()
		m.jobsFinished.WithLabelValues(bounded(event, jobEnds)).Inc()
	}
}

// ObserveTracesExpired records traces deleted past their retention by one sweep.
func (m *Metrics) ObserveTracesExpired(n int64) {
	m.tracesGone.Add(float64(max(n, 0)))
}

// bounded is v when it is one of the known values, else "other".
func bounded(v string, known []string) string {
	if slices.Contains(known, v) {
		return v
	}
	return "other"
}

// snapshotCollector reports the store's count of recalls expanded without their space's
// graph snapshot, by reason, when scraped.
type snapshotCollector struct {
	store *cypher.Store
	desc  *prometheus.Desc
}

func (c *snapshotCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *snapshotCollector) Collect(ch chan<- prometheus.Metric) {
	counted := c.store.RecallsWithoutSnapshot()
	for _, why := range cypher.SnapshotReasons {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.CounterValue, float64(counted[why]), why)
	}
}

// pendingCollector counts the pending observations in Neo4j when scraped.
type pendingCollector struct {
	store  *cypher.Store
	desc   *prometheus.Desc
	errors prometheus.Counter
}

func (c *pendingCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *pendingCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	n, err := c.store.PendingObservations(ctx)
	if err != nil {
		c.errors.Inc()
		return
	}
	ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(n))
}
