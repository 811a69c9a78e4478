package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/agent/llm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/answering"
	"github.com/realm-memory/realm/api"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/embed"
	"github.com/realm-memory/realm/internal/ctxtime"
)

// runServe applies the schema, then serves the API until ctx is cancelled (SIGINT or
// SIGTERM). Then it stops at once what runs in the background (async jobs, the periodic
// resumption of pending observations: what they did not integrate stays pending, for
// ResumePending at the next start), and drains in-flight requests for up to REALM_SHUTDOWN_TIMEOUT before
// it cuts off those left.
func runServe(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := loadConfig(flag.NewFlagSet("serve", flag.ContinueOnError), args, getenv)
	if err != nil {
		return err
	}
	if len(cfg.Keys) == 0 && !loopbackOnly(cfg.Addr) {
		return realm.Errorf(realm.EInvalid, "REALM_ADDR %s is reachable beyond this machine but no API key is configured: "+
			"set REALM_API_KEYS or REALM_API_KEYS_FILE (see README, Configuration), or listen on 127.0.0.1", cfg.Addr)
	}
	// stdout holds JSON log lines alone (for log shippers); the lines for people go to
	// stderr, and the same in log lines.
	cfg.print(stderr)
	logger := newLogger(stdout, cfg.LogLevel)
	cfg.log(logger)
	for _, w := range api.LoosePrefixes(cfg.Keys) {
		logger.Warn().Msg(w)
	}

	deps, err := openDeps(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer deps.close()
	deps.store.WarmGraphs(cfg.GraphWarm)

	registry := newMetrics()
	metrics := api.NewMetrics(registry, deps.store)
	p, err := newObservedPipelines(cfg, deps, logger, metrics)
	if err != nil {
		return err
	}
	pipeline := p.ingest
	// Observations accepted before a crash or a shutdown are integrated now, beside serving,
	// and what a failed attempt leaves pending (Neo4j away) every REALM_RESUME_INTERVAL.
	resumed := make(chan struct{})
	go func() {
		defer close(resumed)
		pipeline.Resume(ctx)
	}()

	// Traces past REALM_TRACE_RETENTION are deleted now and then regularly, beside serving;
	// the sweep ends before the store closes.
	sweepCtx, stopSweep := context.WithCancel(ctx)
	swept := make(chan struct{})
	go func() {
		defer close(swept)
		sweepTraces(sweepCtx, deps.store, p.recall.QueryVectors, logger, metrics.ObserveTracesExpired)
	}()
	defer func() { stopSweep(); <-swept }()

	var answerer answering.Answerer // a nil *llm.Agent must stay a nil interface: /answer then answers 501
	if p.answer != nil {
		answerer = p.answer
	}
	handler := api.NewServer(api.Config{
		Version:                 fullVersion(),
		Embedder:                deps.embedderInfo(),
		LLM:                     api.LLMInfo{Mode: cfg.LLM, Models: llmModels(cfg)},
		Keys:                    cfg.Keys,
		RateLimit:               cfg.Limits.RateLimit,
		RateBurst:               cfg.Limits.RateBurst,
		MaxBodyBytes:            cfg.Limits.MaxBodyBytes,
		MaxImportBytes:          cfg.Limits.MaxImportBytes,
		NoAutoReconsolidation:   !cfg.AutoReconsolidate,
		MetricsKeyRequired:      cfg.MetricsKeyRequired,
		CORSOrigins:             cfg.CORSOrigins,
		MaxAsyncJobsPerKey:      cfg.Running.AsyncJobsPerKey,
		MaxAsyncJobs:            cfg.Running.AsyncJobs,
		MaxSyncIngestionsPerKey: cfg.Running.SyncIngestionsPerKey,
		MaxImports:              cfg.Running.Imports,
		MaxImportsPerKey:        cfg.Running.ImportsPerKey,
	}, api.Deps{Store: deps.store, Ingest: pipeline, Recall: p.recall, Reconsolidate: p.recon, Answer: answerer,
		Logger: logger, Metrics: registry, PipelineMetrics: metrics})

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return realm.Errorf(realm.EUnavailable, "REALM_ADDR %s: %v", cfg.Addr, err)
	}
	// Requests run under their own context, not ctx: a shutdown lets them finish, and
	// cancels them only when the drain times out.
	requests, cutOff := context.WithCancelCause(context.WithoutCancel(ctx))
	defer cutOff(nil)
	var inFlight sync.WaitGroup
	// Slow or huge requests cannot hold a connection: the URL and headers are bounded here,
	// bodies by the API. Writes have no deadline, as a large synchronous ingest takes minutes.
	srv := &http.Server{Handler: counted(&inFlight, handler), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 2 * time.Minute,
		IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10,
		BaseContext: func(net.Listener) context.Context { return requests }}
	serving := fmt.Sprintf("REALM serving on http://%s (API), readiness http://%s/readyz", ln.Addr(), ln.Addr())
	fmt.Fprintln(stderr, serving)
	logger.Info().Str("addr", ln.Addr().String()).Msg(serving)

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	var serveErr error
	select {
	case serveErr = <-errc:
	case <-ctx.Done():
	}
	return shutdown(ctx, shutdownParts{srv: srv, pipeline: pipeline, resumed: resumed, inFlight: &inFlight,
		cutOff: cutOff, timeout: cfg.ShutdownTimeout, logger: logger}, serveErr)
}

// shutdownParts are what shutdown stops.
type shutdownParts struct {
	srv      *http.Server
	pipeline *construction.Pipeline
	resumed  <-chan struct{} // closed when Resume has returned
	inFlight *sync.WaitGroup // handlers running
	cutOff   context.CancelCauseFunc
	timeout  time.Duration
	logger   zerolog.Logger
}

// shutdown stops serving: no new connection is accepted; background integration stops at
// once (async jobs, resumption: their observations stay pending for the next start, and an
// async request still in flight is accepted and left pending); in-flight requests finish,
// for up to timeout, after which their contexts are cancelled (api.ErrShuttingDown: they
// answer 503) and their connections closed.
// It returns once nothing of the server runs any more (bounded), so that the store may close.
func shutdown(ctx context.Context, p shutdownParts, serveErr error) error {
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		p.logger.Error().Err(serveErr).Msg("serving stopped")
	} else {
		serveErr = nil
		p.logger.Info().Dur("timeout", p.timeout).Msg("shutting down: draining in-flight requests")
	}
	drain, cancel := context.WithTimeout(context.WithoutCancel(ctx), p.timeout)
	defer cancel()
	closed := make(chan error, 1)
	go func() { closed <- p.pipeline.Close(drain) }()

	if err := p.srv.Shutdown(drain); err != nil {
		p.logger.Warn().Dur("timeout", p.timeout).Msg("in-flight requests outlived REALM_SHUTDOWN_TIMEOUT; cutting them off")
		p.cutOff(api.ErrShuttingDown)
		// Cut off with that cause, the handlers answer 503: a short drain more lets those
		// answers out before the connections close.
		answered, cancelAnswered := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		_ = p.srv.Shutdown(answered)
		cancelAnswered()
		_ = p.srv.Close()
	}
	// Handlers whose context ended return promptly; the bound guards a handler that does not.
	grace, cancelGrace := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancelGrace()
	if !waitDone(grace, func() { p.inFlight.Wait() }) {
		p.logger.Error().Msg("a request handler did not return after being cut off")
	}
	if err := <-closed; err != nil {
		// Cut off: the leases of what the requests and jobs left pending are handed back
		// now that they have returned.
		p.logger.Warn().Err(err).Msg("requests or async jobs still integrating at the end of the drain")
		if err := p.pipeline.Close(grace); err != nil {
			p.logger.Warn().Err(err).Msg("handing back the leases of pending observations")
		}
	}
	select {
	case <-p.resumed:
	case <-grace.Done():
	}
	p.logger.Info().Msg("shut down")
	return serveErr
}

// counted tracks the handlers running in wg, so that shutdown can wait for those it cut off.
func counted(wg *sync.WaitGroup, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		wg.Add(1)
		defer wg.Done()
		next.ServeHTTP(w, r)
	})
}

// waitDone runs wait and reports whether it returned before ctx ended.
func waitDone(ctx context.Context, wait func()) bool {
	done := make(chan struct{})
	go func() { wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-ctx.Done():
		return false
	}
}

// newMetrics is the registry /metrics serves: the Go runtime and the process, the API's
// collectors, and those the pipelines may register later.
func newMetrics() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// newAgent is the offline agent, or the LLM agent falling back to it step by step,
// reporting its calls to observe (nil: nowhere).
func newAgent(cfg config, logger zerolog.Logger, observe func(llm.Event)) (agent.Agent, error) {
	fallback := offline.New(offline.Options{})
	if cfg.LLM != "openai" {
		return fallback, nil
	}
	m := cfg.OpenAI.Models
	return llm.New(llm.Config{
		BaseURL: cfg.OpenAI.BaseURL,
		APIKey:  cfg.OpenAI.APIKey,
		Models: llm.Models{
			Extraction: m["extraction"], Retrieval: m["retrieval"], Audit: m["audit"],
			Answer: m["answer"], Judge: m["judge"],
		},
		Timeout: cfg.OpenAI.Timeout,
		Observe: observe,
	}, fallback, logger)
}

// runSchemaApply applies the migrations for the configured embedder's dimension.
func runSchemaApply(ctx context.Context, cfg config, stdout io.Writer) error {
	deps, err := openDeps(ctx, cfg, newLogger(io.Discard, "error"))
	if err != nil {
		return err
	}
	defer deps.close()
	indexes, err := deps.store.Indexes(ctx)
	if err != nil {
		return err
	}
	for _, ix := range indexes {
		fmt.Fprintf(stdout, "%-28s %-9s %s\n", ix.Name, ix.Type, ix.State)
	}
	fmt.Fprintln(stdout, "schema applied")
	return nil
}

// deps are the long-lived parts of a process, opened in dependency order.
type deps struct {
	store    *cypher.Store
	embedder realm.Embedder
	warning  string
}

// openDeps connects to Neo4j, builds the embedder (an empty REALM_EMBEDDER follows the
// store: resolveEmbedder), applies the schema and checks that the stored memories were
// embedded by that embedder. Each step on the store waits for Neo4j (awaitNeo4j).
func openDeps(ctx context.Context, cfg config, logger zerolog.Logger) (*deps, error) {
	d := &deps{}
	store, err := cypher.Open(ctx, cfg.Neo4j)
	if err != nil {
		return nil, err
	}
	d.store = store
	if cfg.Embed.Kind == "" && !embed.LocalInstalled(cfg.Embed.Local.ModelDir) {
		d.warning = "the local embedding model is not installed; using the weak hash embedder (run " + embed.SetupCommand + ")"
	}
	var embCfg embed.Config
	var why string
	err = awaitNeo4j(ctx, logger, startupWait, "reading the stored spaces' embedder", func() (err error) {
		embCfg, why, err = resolveEmbedder(ctx, store, cfg)
		return err
	})
	if err != nil {
		d.close()
		return nil, err
	}
	if d.embedder, err = embed.New(embCfg, logger); err != nil {
		d.close()
		return nil, err
	}
	logger.Info().Str("embedder", d.embedder.ID()).Msg("embedder: " + why)
	err = awaitNeo4j(ctx, logger, startupWait, "applying the schema", func() error {
		return store.ApplySchema(logger.WithContext(ctx), d.embedder.Dim()) // it logs the migrations it applies
	})
	if err != nil {
		d.close()
		return nil, err
	}
	err = awaitNeo4j(ctx, logger, startupWait, "checking the stored spaces' embedder", func() error {
		return store.CheckEmbedder(ctx, d.embedder.ID(), d.embedder.Dim(), cfg.UncheckedSpaces)
	})
	if err != nil {
		d.close()
		return nil, err
	}
	return d, nil
}

// startupWait bounds how long each step of the start waits for Neo4j to serve: a Neo4j
// just started (a dump just loaded) takes connections before its database answers a
// statement within NEO4J_ANSWER_TIMEOUT, and each call on its own gives up within seconds.
const startupWait = time.Minute

// awaitNeo4j runs step until it succeeds or fails otherwise than EUnavailable; while Neo4j
// is unavailable it logs the cause and runs step again after a pause (1 s, doubling up to
// 10 s), for up to within, then returns step's last error.
func awaitNeo4j(ctx context.Context, logger zerolog.Logger, within time.Duration, what string, step func() error) error {
	deadline := time.Now().Add(within)
	for pause := time.Second; ; pause = min(2*pause, 10*time.Second) {
		err := step()
		if realm.ErrorCode(err) != realm.EUnavailable || time.Now().Add(pause).After(deadline) {
			return err
		}
		logger.Warn().Err(err).Dur("pause", pause).Msg("neo4j does not serve yet: " + what + " again after a pause")
		if err := ctxtime.Sleep(ctx, pause); err != nil {
			return err
		}
	}
}

// resolveEmbedder returns cfg.Embed with an empty REALM_EMBEDDER resolved by the store:
// the local model its spaces were embedded with, else the int8 one (embed.DefaultKind),
// and why, for the log. It looks at the spaces the embedder check looks at (not those
// REALM_UNCHECKED_SPACE_PREFIX leaves out). Without the local model installed the kind
// stays empty: embed.New falls back to hash and says so loudly.
func resolveEmbedder(ctx context.Context, store *cypher.Store, cfg config) (embed.Config, string, error) {
	c := cfg.Embed
	switch {
	case c.Kind != "":
		return c, "REALM_EMBEDDER=" + c.Kind, nil
	case !embed.LocalInstalled(c.Local.ModelDir):
		return c, "REALM_EMBEDDER is empty and the local model is not installed", nil
	}
	spaces, err := store.EmbeddedSpaces(ctx, cfg.UncheckedSpaces)
	if err != nil {
		return c, "", err
	}
	ids := make([]string, len(spaces))
	for i, s := range spaces {
		ids[i] = s.Embedder
	}
	kind, why := embed.DefaultKind(ids, embed.QuantizedInstalled(c.Local.ModelDir))
	c.Kind = kind
	return c, "REALM_EMBEDDER is empty and " + why, nil
}

func (d *deps) close() {
	if closer, ok := d.embedder.(io.Closer); ok {
		closer.Close()
	}
	if d.store != nil {
		d.store.Close(context.Background())
	}
}

func (d *deps) embedderInfo() api.EmbedderInfo {
	return api.EmbedderInfo{ID: d.embedder.ID(), Dim: d.embedder.Dim(), Warning: d.warning}
}

func llmModels(cfg config) map[string]string {
	if cfg.LLM != "openai" {
		return nil
	}
	return cfg.OpenAI.Models
}

func newLogger(w io.Writer, level string) zerolog.Logger {
	lvl, err := zerolog.ParseLevel(level)
	if err != nil {
		lvl = zerolog.InfoLevel
	}
	return zerolog.New(w).Level(lvl).With().Timestamp().Logger()
}
