package api

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"

	"github.com/realm-memory/realm/answering"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/reconsolidation"
	"github.com/realm-memory/realm/retrieval"
)

// DefaultMaxBodyBytes caps request bodies unless Config says otherwise.
const DefaultMaxBodyBytes = 4 << 20

// Config is what the API reports about itself, its keys and its limits.
type Config struct {
	Version      string
	MaxBodyBytes int64 // every request body; default 4 MiB
	Embedder     EmbedderInfo
	LLM          LLMInfo
	// Keys are the API keys (ParseKeys). None: every request may do everything, and
	// the caller must listen on loopback only.
	Keys []Key
	// RateLimit is the requests a second each key may make, in bursts of RateBurst;
	// 0 is no limit.
	RateLimit float64
	RateBurst int
	// AuthFailureRate and AuthFailureBurst limit the requests with a wrong or missing key
	// from one client address: bursts of AuthFailureBurst, then AuthFailureRate a second;
	// 0: DefaultAuthFailureRate and DefaultAuthFailureBurst.
	AuthFailureRate  float64
	AuthFailureBurst int
	// NoAutoReconsolidation: /answer reconsolidates only when the request asks
	// (REALM_AUTO_RECONSOLIDATE=false). By default every answer reconsolidates its trace.
	NoAutoReconsolidation bool
	// MaxImportBytes caps the body of an import instead of MaxBodyBytes; default
	// DefaultMaxImportBytes (REALM_MAX_IMPORT_BYTES).
	MaxImportBytes int64
	// MetricsKeyRequired: /metrics needs a key with the admin scope on every space ("*"):
	// the metrics are the whole server's, not a tenant's. Rate limited as any
	// key's requests (REALM_METRICS_KEY_REQUIRED). By default it is public, like the probes.
	MetricsKeyRequired bool
	// MaxAsyncJobsPerKey and MaxAsyncJobs bound the async ingestions (?async=true) running
	// at once for one key and in the process (REALM_MAX_ASYNC_JOBS_PER_KEY,
	// REALM_MAX_ASYNC_JOBS); one more is refused with 429 and nothing stored. 0: the
	// defaults.
	MaxAsyncJobsPerKey int
	MaxAsyncJobs       int
	// MaxSyncIngestionsPerKey bounds the synchronous ingestions running at once for one
	// key, over all its spaces (REALM_MAX_SYNC_INGESTIONS_PER_KEY): otherwise a key would
	// slip past the async bounds by sending its batches without async. One more is
	// refused with 429 and nothing stored. 0: DefaultMaxSyncIngestionsPerKey. Without
	// keys there is no bound.
	MaxSyncIngestionsPerKey int
	// MaxImports and MaxImportsPerKey bound the imports running at once in the process
	// (REALM_MAX_IMPORTS) and for one key (REALM_MAX_IMPORTS_PER_KEY), so that one tenant
	// cannot take them all; one more is refused with 429 before its body is read. 0: the
	// defaults. Without keys there is no bound of a key.
	MaxImports       int
	MaxImportsPerKey int
	// ImportIdleTimeout cuts off an import whose upload sends nothing for that long, so
	// that a stalled client gives its slot back soon; 0: DefaultImportIdleTimeout.
	ImportIdleTimeout time.Duration
	// CORSOrigins are the web origins (scheme://host[:port]) whose pages may call the API
	// from a browser (REALM_CORS_ORIGINS); none by default (guard.go).
	CORSOrigins []string
}

// EmbedderInfo describes the configured embedder for /v1/info.
type EmbedderInfo struct {
	ID      string `json:"id"`
	Dim     int    `json:"dim"`
	Warning string `json:"warning,omitempty"`
}

// LLMInfo describes the configured agent for /v1/info.
type LLMInfo struct {
	Mode   string            `json:"mode"` // offline | openai
	Models map[string]string `json:"models,omitempty"`
}

// Deps are the parts the handlers call.
type Deps struct {
	Store  *cypher.Store
	Ingest *construction.Pipeline
	Recall *retrieval.Retriever
	// Reconsolidate reshapes the graph from traces (feedback, edits, revert).
	Reconsolidate *reconsolidation.Reconsolidator
	// Answer writes /answer's answers (*llm.Agent: EUnavailable when the model gives no
	// valid answer); nil when no LLM is configured, since the offline agent cannot answer
	// (/answer: 501).
	Answer answering.Answerer
	Logger zerolog.Logger
	// Metrics is the registry /metrics serves. The API registers its collectors on it;
	// cmd may hand it to the pipelines for theirs. nil: a registry of the API's own.
	Metrics *prometheus.Registry
	// PipelineMetrics are the pipelines' collectors on Metrics, whose Observe methods cmd
	// hands to the pipelines' hooks (see Metrics). nil: NewServer creates them and hooks
	// them to Recall and Reconsolidate itself (the LLM agent's and the jobs' hooks are
	// set when those are built, so they stay unobserved).
	PipelineMetrics *Metrics
}

// server holds the dependencies of the handlers; routes.go maps paths to its methods.
type server struct {
	cfg      Config
	buckets  map[string]*bucket // rate limits by key name
	failures *addrBuckets       // failed authentications by client address
	index    *routeIndex        // the routes, known once routes has run (methods.go)
	jobs     *slots             // async ingestions running (Config.MaxAsyncJobs)
	imports  *slots             // imports running (Config.MaxImports)
	ingests  *slots             // synchronous ingestions running (Config.MaxSyncIngestionsPerKey)
	// toolArguments are the MCP tools' inputSchemas by tool name (addTool), by which
	// argumentErrors says what arguments the SDK refused.
	toolArguments map[string]*jsonschema.Schema
	Deps
}

// NewServer returns REALM's HTTP handler.
func NewServer(cfg Config, deps Deps) http.Handler {
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.RateBurst < 1 {
		cfg.RateBurst = 1
	}
	if deps.Metrics == nil {
		deps.Metrics = prometheus.NewRegistry()
	}
	if deps.PipelineMetrics == nil {
		deps.PipelineMetrics = NewMetrics(deps.Metrics, deps.Store)
		if deps.Recall != nil {
			deps.Recall = deps.Recall.ObserveTimings(deps.PipelineMetrics.ObserveRecall)
		}
		if deps.Reconsolidate != nil {
			deps.Reconsolidate = deps.Reconsolidate.ObserveEdits(deps.PipelineMetrics.ObserveEdits)
		}
	}
	s := &server{cfg: cfg, buckets: newBuckets(cfg), failures: newAddrBuckets(cfg.AuthFailureRate, cfg.AuthFailureBurst), Deps: deps,
		jobs: newSlots("async ingestions", orDefault(cfg.MaxAsyncJobs, DefaultMaxAsyncJobs), "REALM_MAX_ASYNC_JOBS",
			orDefault(cfg.MaxAsyncJobsPerKey, DefaultMaxAsyncJobsPerKey), "REALM_MAX_ASYNC_JOBS_PER_KEY"),
		imports: newSlots("imports", orDefault(cfg.MaxImports, DefaultMaxImports), "REALM_MAX_IMPORTS",
			tenantBound(cfg, cfg.MaxImportsPerKey, DefaultMaxImportsPerKey), "REALM_MAX_IMPORTS_PER_KEY"),
		ingests: newSlots("synchronous ingestions", 0, "",
			tenantBound(cfg, cfg.MaxSyncIngestionsPerKey, DefaultMaxSyncIngestionsPerKey), "REALM_MAX_SYNC_INGESTIONS_PER_KEY"),
		toolArguments: map[string]*jsonschema.Schema{},
	}
	metrics := newHTTPMetrics(deps.Metrics)
	r := chi.NewRouter()
	// middleware.GetHead: HEAD is answered as GET, through the same middlewares (keys,
	// scopes, rate limits, import holds), and net/http sends no body (RFC 9110 §9.3.2).
	r.Use(requestID, metrics.observe, withLogger(deps.Logger), recoverPanics, s.guard, limitBody(cfg.MaxBodyBytes), sharedNeo4jWait,
		middleware.GetHead)
	s.routes(r)
	metrics.learnRoutes(r)
	return r
}

// tenantBound is a bound of each key that keeps one tenant from crowding out the others:
// n, or def when n is not positive; none (0) without keys, where the one client, local,
// has no other to crowd out.
func tenantBound(cfg Config, n, def int) int {
	if len(cfg.Keys) == 0 {
		return 0
	}
	return orDefault(n, def)
}

// orDefault is n, or def when n is not positive.
func orDefault(n, def int) int {
	if n <= 0 {
		return def
	}
	return n
}
