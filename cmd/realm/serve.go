package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/api"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/embed"
)

// runServe applies the schema, then serves the API until ctx is cancelled (SIGINT or
// SIGTERM), draining in-flight requests before it returns.
func runServe(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	cfg, err := loadConfig(flag.NewFlagSet("serve", flag.ContinueOnError), args, getenv)
	if err != nil {
		return err
	}
	if len(cfg.Keys) == 0 && !loopbackOnly(cfg.Addr) {
		return realm.Errorf(realm.EInvalid, "REALM_ADDR %s is reachable beyond this machine but no API key is configured: "+
			"set REALM_API_KEYS or REALM_API_KEYS_FILE (see README, Configuration), or listen on 127.0.0.1", cfg.Addr)
	}
	cfg.print(stdout)
	logger := newLogger(stdout, cfg.LogLevel)

	deps, err := openDeps(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer deps.close()

	p, err := newPipelines(cfg, deps, logger)
	if err != nil {
		return err
	}
	pipeline := p.ingest
	// Observations accepted before a crash or a shutdown are integrated now, beside serving.
	go func() {
		n, err := pipeline.ResumePending(ctx)
		if err != nil {
			logger.Error().Err(err).Msg("resuming pending observations")
		} else if n > 0 {
			logger.Info().Int("observations", n).Msg("resumed pending observations")
		}
	}()

	var answerer api.Answerer // a nil *agent.LLM must stay a nil interface: /answer then answers 501
	if p.answer != nil {
		answerer = p.answer
	}
	handler := api.NewServer(api.Config{
		Version:               fullVersion(),
		Embedder:              deps.embedderInfo(),
		LLM:                   api.LLMInfo{Mode: cfg.LLM, Models: llmModels(cfg)},
		Keys:                  cfg.Keys,
		RateLimit:             cfg.Limits.RateLimit,
		RateBurst:             cfg.Limits.RateBurst,
		MaxBodyBytes:          cfg.Limits.MaxBodyBytes,
		NoAutoReconsolidation: !cfg.AutoReconsolidate,
	}, api.Deps{Store: deps.store, Ingest: pipeline, Recall: p.recall, Reconsolidate: p.recon, Answer: answerer,
		Logger: logger, Metrics: newMetrics()})

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return realm.Errorf(realm.EUnavailable, "REALM_ADDR %s: %v", cfg.Addr, err)
	}
	// Slow or huge requests cannot hold a connection: the URL and headers are bounded here,
	// bodies by the API. Writes have no deadline, as a large synchronous ingest takes minutes.
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 2 * time.Minute,
		IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	fmt.Fprintf(stdout, "REALM serving on http://%s (API), readiness http://%s/readyz\n", ln.Addr(), ln.Addr())

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	logger.Info().Msg("shutting down: draining in-flight requests")
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	// Background ingestion stops; what it did not integrate stays pending for the next start.
	return pipeline.Close(shutdownCtx)
}

// newMetrics is the registry /metrics serves: the Go runtime and the process, the API's
// collectors, and those the pipelines may register later.
func newMetrics() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// newAgent is the offline agent, or the LLM agent falling back to it step by step.
func newAgent(cfg config, logger zerolog.Logger) (agent.Agent, error) {
	offline := agent.NewOffline(agent.OfflineOptions{})
	if cfg.LLM != "openai" {
		return offline, nil
	}
	m := cfg.OpenAI.Models
	return agent.NewLLM(agent.LLMConfig{
		BaseURL: cfg.OpenAI.BaseURL,
		APIKey:  cfg.OpenAI.APIKey,
		Models: agent.Models{
			Extraction: m["extraction"], Retrieval: m["retrieval"], Audit: m["audit"],
			Answer: m["answer"], Judge: m["judge"],
		},
	}, offline, logger)
}

// runSchemaApply applies the migrations for the configured embedder's dimension.
func runSchemaApply(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	cfg, err := loadConfig(flag.NewFlagSet("schema apply", flag.ContinueOnError), args, getenv)
	if err != nil {
		return err
	}
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

// openDeps builds the embedder, connects to Neo4j, applies the schema and checks that
// the stored memories were embedded by the configured embedder.
func openDeps(ctx context.Context, cfg config, logger zerolog.Logger) (*deps, error) {
	d := &deps{}
	if cfg.Embed.Kind == "" && !embed.LocalInstalled(cfg.Embed.Local.ModelDir) {
		d.warning = "the local embedding model is not installed; using the weak hash embedder (run " + embed.SetupCommand + ")"
	}
	emb, err := embed.New(cfg.Embed, logger)
	if err != nil {
		return nil, err
	}
	d.embedder = emb
	store, err := cypher.Open(ctx, cfg.Neo4j)
	if err != nil {
		return nil, err
	}
	d.store = store
	if err := store.ApplySchema(ctx, emb.Dim()); err != nil {
		d.close()
		return nil, err
	}
	if err := store.CheckEmbedder(ctx, emb.ID(), emb.Dim(), cfg.UncheckedSpaces); err != nil {
		d.close()
		return nil, err
	}
	return d, nil
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
