package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/embed"
	"github.com/realm-memory/realm/retrieval"
)

// config is the validated configuration of a realm process.
type config struct {
	Addr   string
	Neo4j  cypher.Config
	Embed  embed.Config
	LLM    string // offline | openai
	OpenAI openAIConfig
	// AutoReconsolidate (REALM_AUTO_RECONSOLIDATE, default true): every /answer
	// reconsolidates its trace unless the request says otherwise.
	AutoReconsolidate bool
	// Score (REALM_SCORE): the read path's scoring settings, retrieval.Options.SetScore.
	Score string
	// MetricsKeyRequired (REALM_METRICS_KEY_REQUIRED, default false): /metrics needs a
	// key with the admin scope on every space ("*"); only with API keys.
	MetricsKeyRequired bool
	// CORSOrigins (REALM_CORS_ORIGINS, comma-separated, default none): the web origins whose
	// pages may call the API from a browser.
	CORSOrigins []string
	// ShutdownTimeout (REALM_SHUTDOWN_TIMEOUT, default 30s) bounds how long serve drains
	// in-flight requests after SIGTERM before it cuts them off.
	ShutdownTimeout time.Duration
	// ResumeInterval (REALM_RESUME_INTERVAL, default 30s) is how often serve integrates
	// again the observations a failed attempt left pending; 0: only at start.
	ResumeInterval time.Duration
	LogLevel       string
	Keys           []api.Key // REALM_API_KEYS or REALM_API_KEYS_FILE; none: serve listens on loopback only
	Limits         limits
	Running        running // async jobs and imports at once (running.go)
	// UncheckedSpaces is a space id prefix (REALM_UNCHECKED_SPACE_PREFIX) that the start's
	// embedder check leaves out; empty, the default: every space is checked.
	UncheckedSpaces string
	// GraphWarm are the spaces (REALM_GRAPH_WARM, comma-separated) whose graph snapshots
	// serve reads at start in the background (cypher.Store.WarmGraphs).
	GraphWarm []string
	// Zone (REALM_TIME_ZONE, an IANA name, default UTC) is where the memory's days are:
	// construction.Options.Zone and retrieval.Options.Zone.
	Zone *time.Location
	// ExtractRoles (REALM_EXTRACT_ROLES, comma-separated, default user,assistant,tool) are
	// the chat roles whose messages are extracted into memories: construction.Options.ExtractRoles.
	ExtractRoles []string
	Args         []string // positional arguments, wherever they stood among the flags
}

// limits bound what one client may send.
type limits struct {
	RateLimit    float64 // requests a second per API key; 0 is unlimited
	RateBurst    int
	MaxBodyBytes int64

	// MaxImportBytes (REALM_MAX_IMPORT_BYTES) caps the body of an import instead.
	MaxImportBytes int64
}

type openAIConfig struct {
	BaseURL string
	APIKey  string
	Models  map[string]string // role → model: extraction, retrieval, audit, answer, judge
	// Timeout (REALM_LLM_TIMEOUT, default 60s) bounds one HTTP attempt of a chat call; a
	// small local model on a few cores may need more.
	Timeout time.Duration
}

// llmRoles are the roles of the LLM agent, each with its model (REALM_MODEL_<ROLE>).
var llmRoles = []string{"extraction", "retrieval", "audit", "answer", "judge"}

// Development default of the local Neo4j (deploy/neo4j); documented in the README.
const defaultNeo4jPassword = "realm-dev-password"

// loadConfig reads the environment, lets flags of fs override it, and validates the
// result. A bad value is reported with the variable's name.
func loadConfig(fs *flag.FlagSet, args []string, getenv func(string) string) (config, error) {
	env := func(key, def string) string {
		if v := getenv(key); v != "" {
			return v
		}
		return def
	}
	cfg := config{
		Addr: env("REALM_ADDR", "127.0.0.1:8080"),
		Neo4j: cypher.Config{
			URI:      env("NEO4J_URI", "bolt://127.0.0.1:7687"),
			User:     env("NEO4J_USER", "neo4j"),
			Password: env("NEO4J_PASSWORD", defaultNeo4jPassword),
			Database: getenv("NEO4J_DATABASE"),
		},
		LLM: env("REALM_LLM", "offline"),
		OpenAI: openAIConfig{
			BaseURL: getenv("OPENAI_BASE_URL"),
			APIKey:  getenv("OPENAI_API_KEY"),
			Models:  map[string]string{},
		},
		LogLevel:        env("REALM_LOG_LEVEL", "info"),
		UncheckedSpaces: getenv("REALM_UNCHECKED_SPACE_PREFIX"),
	}
	for _, space := range strings.Split(getenv("REALM_GRAPH_WARM"), ",") {
		if space = strings.TrimSpace(space); space == "" {
			continue
		}
		// A space that does not exist is only warned about (it may come later); an id that
		// no space can have is a typo.
		if !realm.ValidSpace(space) {
			return cfg, realm.Errorf(realm.EInvalid, "REALM_GRAPH_WARM: %q is not a space id ([A-Za-z0-9_-]{1,64}, comma-separated)", space)
		}
		cfg.GraphWarm = append(cfg.GraphWarm, space)
	}
	defaultModel := env("REALM_LLM_MODEL", "gpt-4o-mini")
	for _, role := range llmRoles {
		cfg.OpenAI.Models[role] = env("REALM_MODEL_"+strings.ToUpper(role), defaultModel)
	}
	addrUsage := "listen address (REALM_ADDR)"
	if fs.Name() != "serve" {
		// Every command that opens the store takes serve's flags, but none asks a server.
		addrUsage = "the address realm serve listens on (REALM_ADDR); unused here: this command opens the store itself"
	}
	fs.StringVar(&cfg.Addr, "addr", cfg.Addr, addrUsage)
	fs.StringVar(&cfg.Neo4j.URI, "neo4j-uri", cfg.Neo4j.URI, "Neo4j URI (NEO4J_URI)")
	fs.Lookup("neo4j-uri").DefValue = maskURL(cfg.Neo4j.URI) // -h shows it
	fs.StringVar(&cfg.LLM, "llm", cfg.LLM, "agent: offline or openai (REALM_LLM)")
	embedKind := fs.String("embedder", getenv("REALM_EMBEDDER"), "embedder: local, local-q (int8), openai or hash (REALM_EMBEDDER)")
	// Flags may follow positional arguments (realm ingest --space S FILE --sample X).
	for {
		if err := parseFlags(fs, args); err != nil {
			return cfg, err
		}
		if fs.NArg() == 0 {
			break
		}
		cfg.Args = append(cfg.Args, fs.Arg(0))
		args = fs.Args()[1:]
	}
	// NEO4J_UNAVAILABLE_TIMEOUT, NEO4J_ANSWER_TIMEOUT, NEO4J_RETRY_TIME, NEO4J_CONNECT_TIMEOUT (see cypher.Config).
	if err := cfg.Neo4j.TimeoutsFromEnv(getenv); err != nil {
		return cfg, err
	}
	if err := cfg.Neo4j.GraphCacheFromEnv(getenv); err != nil {
		return cfg, err
	}
	embedCfg, err := embed.ConfigFromEnv(getenv)
	if err != nil {
		return cfg, err
	}
	cfg.Embed = embedCfg
	cfg.Embed.Kind = *embedKind
	if cfg.Keys, err = loadKeys(getenv); err != nil {
		return cfg, err
	}
	if cfg.Limits, err = loadLimits(env); err != nil {
		return cfg, err
	}
	if cfg.Running, err = loadRunning(getenv); err != nil {
		return cfg, err
	}
	if cfg.AutoReconsolidate, err = strconv.ParseBool(env("REALM_AUTO_RECONSOLIDATE", "true")); err != nil {
		return cfg, realm.Errorf(realm.EInvalid, "REALM_AUTO_RECONSOLIDATE %q: want true or false", getenv("REALM_AUTO_RECONSOLIDATE"))
	}
	if cfg.Zone, err = time.LoadLocation(env("REALM_TIME_ZONE", "UTC")); err != nil {
		return cfg, realm.Errorf(realm.EInvalid, "REALM_TIME_ZONE %q: want a time zone name such as Europe/Berlin or America/New_York", getenv("REALM_TIME_ZONE"))
	}
	if cfg.ExtractRoles, err = loadExtractRoles(env("REALM_EXTRACT_ROLES", strings.Join(construction.DefaultExtractRoles, ","))); err != nil {
		return cfg, err
	}
	cfg.Score = getenv("REALM_SCORE")
	score := retrieval.DefaultOptions()
	if err := score.SetScore(cfg.Score); err != nil {
		return cfg, realm.Errorf(realm.EInvalid, "REALM_SCORE %q: %s", cfg.Score, fieldsText(err))
	}
	if cfg.MetricsKeyRequired, err = strconv.ParseBool(env("REALM_METRICS_KEY_REQUIRED", "false")); err != nil {
		return cfg, realm.Errorf(realm.EInvalid, "REALM_METRICS_KEY_REQUIRED %q: want true or false", getenv("REALM_METRICS_KEY_REQUIRED"))
	}
	if cfg.MetricsKeyRequired && len(cfg.Keys) == 0 {
		// Without keys every caller is the local admin: the setting would guard nothing.
		return cfg, realm.Errorf(realm.EInvalid, "REALM_METRICS_KEY_REQUIRED=true needs API keys (REALM_API_KEYS or REALM_API_KEYS_FILE)")
	}
	if cfg.CORSOrigins, err = loadOrigins(getenv("REALM_CORS_ORIGINS")); err != nil {
		return cfg, err
	}
	if cfg.ShutdownTimeout, err = time.ParseDuration(env("REALM_SHUTDOWN_TIMEOUT", "30s")); err != nil || cfg.ShutdownTimeout <= 0 {
		return cfg, realm.Errorf(realm.EInvalid, "REALM_SHUTDOWN_TIMEOUT %q: want a positive duration such as 30s", getenv("REALM_SHUTDOWN_TIMEOUT"))
	}
	if cfg.ResumeInterval, err = time.ParseDuration(env("REALM_RESUME_INTERVAL", "30s")); err != nil || cfg.ResumeInterval < 0 ||
		cfg.ResumeInterval > 0 && cfg.ResumeInterval < time.Second {
		return cfg, realm.Errorf(realm.EInvalid, "REALM_RESUME_INTERVAL %q: want a duration of at least 1s such as 30s, or 0 (only at start)", getenv("REALM_RESUME_INTERVAL"))
	}
	if cfg.OpenAI.Timeout, err = time.ParseDuration(env("REALM_LLM_TIMEOUT", "60s")); err != nil || cfg.OpenAI.Timeout <= 0 {
		return cfg, realm.Errorf(realm.EInvalid, "REALM_LLM_TIMEOUT %q: want a positive duration such as 60s", getenv("REALM_LLM_TIMEOUT"))
	}
	if cfg.Neo4j.TraceRetention, err = loadTraceRetention(env("REALM_TRACE_RETENTION", defaultTraceRetention)); err != nil {
		return cfg, err
	}
	return cfg, cfg.validate()
}

// fieldsText is a validation error as one line, "field: reason" each in field order; any
// other error as it is.
func fieldsText(err error) string {
	var e *realm.Error
	if !errors.As(err, &e) || len(e.Fields) == 0 {
		return err.Error()
	}
	var parts []string
	for _, field := range slices.Sorted(maps.Keys(e.Fields)) {
		parts = append(parts, field+": "+e.Fields[field])
	}
	return strings.Join(parts, "; ")
}

// defaultTraceRetention keeps a recall's trace, and so the user's query, for 30 days: time
// for late feedback and for looking into a recall, without keeping every question asked
// for as long as the space lives. The README says why.
const defaultTraceRetention = "720h"

// minTraceRetention is the shortest retention but 0 (keep forever): below it is a unit typed
// wrong ("720ms"), which would make every trace gone before its feedback could come.
const minTraceRetention = time.Minute

// loadTraceRetention reads REALM_TRACE_RETENTION: a Go duration, at least
// minTraceRetention, or 0 to keep traces until their space is erased.
func loadTraceRetention(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 || d > 0 && d < minTraceRetention {
		return 0, realm.Errorf(realm.EInvalid, "REALM_TRACE_RETENTION %q: want how long to keep recall traces, a duration such as 720h (30 days; "+
			"hours are the largest unit) of at least 1m, or 0 to keep them until their space is erased", v)
	}
	return d, nil
}

// loadExtractRoles reads REALM_EXTRACT_ROLES: chat roles separated by commas.
func loadExtractRoles(v string) ([]string, error) {
	roles := []string{}
	for _, r := range strings.Split(v, ",") {
		if r = strings.ToLower(strings.TrimSpace(r)); r == "" {
			continue
		}
		if !slices.Contains(realm.ChatRoles, r) {
			return nil, realm.Errorf(realm.EInvalid, "REALM_EXTRACT_ROLES: %q is not a chat role (%s, comma-separated)", r, strings.Join(realm.ChatRoles, ", "))
		}
		roles = append(roles, r)
	}
	if len(roles) == 0 {
		return nil, realm.Errorf(realm.EInvalid, "REALM_EXTRACT_ROLES %q names no chat role (%s, comma-separated)", v, strings.Join(realm.ChatRoles, ", "))
	}
	return roles, nil
}

// loadOrigins reads REALM_CORS_ORIGINS: origins (scheme://host[:port]) separated by commas.
func loadOrigins(v string) ([]string, error) {
	var origins []string
	for _, o := range strings.Split(v, ",") {
		if o = strings.TrimSpace(o); o == "" {
			continue
		}
		if !api.ValidOrigin(o) {
			return nil, realm.Errorf(realm.EInvalid, "REALM_CORS_ORIGINS: %q is not an origin such as https://app.example.com or http://localhost:3000", o)
		}
		origins = append(origins, o)
	}
	return origins, nil
}

// loadLimits reads REALM_RATE_LIMIT, REALM_RATE_BURST and REALM_MAX_BODY_BYTES.
func loadLimits(env func(key, def string) string) (limits, error) {
	var l limits
	var err error
	if l.RateLimit, err = strconv.ParseFloat(env("REALM_RATE_LIMIT", "50"), 64); err != nil || l.RateLimit < 0 || math.IsInf(l.RateLimit, 0) {
		return l, realm.Errorf(realm.EInvalid, "REALM_RATE_LIMIT %q: want requests a second per API key (0: no limit)", env("REALM_RATE_LIMIT", ""))
	}
	if l.RateBurst, err = strconv.Atoi(env("REALM_RATE_BURST", "100")); err != nil || l.RateBurst < 1 {
		return l, realm.Errorf(realm.EInvalid, "REALM_RATE_BURST %q: want a positive number of requests", env("REALM_RATE_BURST", ""))
	}
	def := strconv.Itoa(api.DefaultMaxBodyBytes)
	if l.MaxBodyBytes, err = strconv.ParseInt(env("REALM_MAX_BODY_BYTES", def), 10, 64); err != nil || l.MaxBodyBytes < 1024 {
		return l, realm.Errorf(realm.EInvalid, "REALM_MAX_BODY_BYTES %q: want bytes, at least 1024", env("REALM_MAX_BODY_BYTES", ""))
	}
	// A whole space with its embeddings is far larger than any JSON request.
	importDef := strconv.Itoa(api.DefaultMaxImportBytes)
	if l.MaxImportBytes, err = strconv.ParseInt(env("REALM_MAX_IMPORT_BYTES", importDef), 10, 64); err != nil || l.MaxImportBytes < l.MaxBodyBytes {
		return l, realm.Errorf(realm.EInvalid, "REALM_MAX_IMPORT_BYTES %q: want bytes, at least REALM_MAX_BODY_BYTES (%d)", env("REALM_MAX_IMPORT_BYTES", ""), l.MaxBodyBytes)
	}
	return l, nil
}

// loadKeys reads the API keys from REALM_API_KEYS (entries separated by ';') or from
// the file REALM_API_KEYS_FILE names (one entry a line); see api.ParseKeys. A setting
// that holds no key is an error: serving without keys is asked for by setting neither.
func loadKeys(getenv func(string) string) ([]api.Key, error) {
	inline, file := getenv("REALM_API_KEYS"), getenv("REALM_API_KEYS_FILE")
	source, text := "REALM_API_KEYS", inline
	switch {
	case inline != "" && file != "":
		return nil, realm.Errorf(realm.EInvalid, "set REALM_API_KEYS or REALM_API_KEYS_FILE, not both")
	case file != "":
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, realm.Errorf(realm.EInvalid, "REALM_API_KEYS_FILE: %v", err)
		}
		source, text = "REALM_API_KEYS_FILE "+file, string(b)
	case inline == "":
		return nil, nil
	}
	keys, err := api.ParseKeys(source, text)
	if err == nil && len(keys) == 0 {
		err = realm.Errorf(realm.EInvalid, "%s holds no key (only blank or comment lines): unset it to serve without keys, on loopback only", source)
	}
	return keys, err
}

// loopbackOnly reports whether addr can be reached from this machine only.
func loopbackOnly(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (c config) validate() error {
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		return realm.Errorf(realm.EInvalid, "REALM_ADDR %q is not host:port", c.Addr)
	}
	u, err := url.Parse(c.Neo4j.URI)
	if err != nil || !strings.HasPrefix(u.Scheme, "bolt") && !strings.HasPrefix(u.Scheme, "neo4j") || u.Host == "" {
		return realm.Errorf(realm.EInvalid, "NEO4J_URI %q is not a bolt:// or neo4j:// URI", c.Neo4j.URI)
	}
	switch c.Embed.Kind {
	case "", embed.KindLocal, embed.KindLocalQ, embed.KindOpenAI, embed.KindHash:
	default:
		return realm.Errorf(realm.EInvalid, "REALM_EMBEDDER %q: want local, local-q, openai or hash", c.Embed.Kind)
	}
	switch c.LLM {
	case "offline":
	case "openai":
		if c.OpenAI.BaseURL == "" && c.OpenAI.APIKey == "" {
			return realm.Errorf(realm.EInvalid, "REALM_LLM=openai needs OPENAI_BASE_URL or OPENAI_API_KEY")
		}
	default:
		return realm.Errorf(realm.EInvalid, "REALM_LLM %q: want offline or openai", c.LLM)
	}
	if c.Embed.Kind == embed.KindOpenAI && c.OpenAI.BaseURL == "" && c.OpenAI.APIKey == "" {
		return realm.Errorf(realm.EInvalid, "REALM_EMBEDDER=openai needs OPENAI_BASE_URL or OPENAI_API_KEY")
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		return realm.Errorf(realm.EInvalid, "REALM_LOG_LEVEL %q: want debug, info, warn or error", c.LogLevel)
	}
	return nil
}

// setting is one setting of the configuration as it is printed: its variable and value.
type setting struct{ name, value string }

// settings are the settings of README.md's configuration table in its order, secrets
// masked: the API keys by name (api_keys), the model of each role (REALM_MODEL_*, whose
// default is REALM_LLM_MODEL).
func (c config) settings() []setting {
	kind := c.Embed.Kind
	if kind == "" {
		kind = "auto (the local model of the stored spaces, else local-q; hash if not installed)"
	}
	names := make([]string, len(c.Keys))
	for i, k := range c.Keys {
		names[i] = k.Name
	}
	if len(names) == 0 {
		names = []string{"none (no auth, loopback only)"}
	}
	// Unset, the store's settings are 0 and the store uses its defaults.
	n4 := c.Neo4j
	graphCache := max(cmp.Or(n4.GraphCacheMax, cypher.DefaultGraphCacheMax), 0) // -1: none
	d := func(v, def time.Duration) string { return cmp.Or(v, def).String() }
	out := []setting{
		{"REALM_ADDR", c.Addr}, {"NEO4J_URI", maskURL(c.Neo4j.URI)}, {"NEO4J_USER", c.Neo4j.User},
		{"NEO4J_PASSWORD", mask(c.Neo4j.Password)}, {"NEO4J_DATABASE", c.Neo4j.Database},
		{"NEO4J_UNAVAILABLE_TIMEOUT", d(n4.UnavailableTimeout, cypher.DefaultUnavailableTimeout)},
		{"NEO4J_ANSWER_TIMEOUT", d(n4.AnswerTimeout, cypher.DefaultAnswerTimeout)},
		{"NEO4J_RETRY_TIME", d(n4.RetryTime, cypher.DefaultRetryTime)}, {"NEO4J_CONNECT_TIMEOUT", d(n4.ConnectTimeout, cypher.DefaultConnectTimeout)},
		{"REALM_GRAPH_CACHE", strconv.Itoa(graphCache)}, {"REALM_GRAPH_WARM", strings.Join(c.GraphWarm, ",")},
		{"REALM_EMBEDDER", kind}, {"REALM_MODEL_DIR", c.Embed.Local.ModelDir}, {"REALM_LLM", c.LLM},
		{"OPENAI_BASE_URL", maskURL(c.OpenAI.BaseURL)}, {"OPENAI_API_KEY", mask(c.OpenAI.APIKey)},
	}
	for _, role := range llmRoles {
		out = append(out, setting{"REALM_MODEL_" + strings.ToUpper(role), c.OpenAI.Models[role]})
	}
	return append(out, []setting{
		{"REALM_LLM_TIMEOUT", c.OpenAI.Timeout.String()}, {"REALM_LOG_LEVEL", c.LogLevel}, {"api_keys", strings.Join(names, ",")},
		{"REALM_RATE_LIMIT", strconv.FormatFloat(c.Limits.RateLimit, 'g', -1, 64)}, {"REALM_RATE_BURST", strconv.Itoa(c.Limits.RateBurst)},
		{"REALM_MAX_BODY_BYTES", strconv.FormatInt(c.Limits.MaxBodyBytes, 10)}, {"REALM_MAX_IMPORT_BYTES", strconv.FormatInt(c.Limits.MaxImportBytes, 10)},
		{"REALM_MAX_ASYNC_JOBS_PER_KEY", strconv.Itoa(c.Running.AsyncJobsPerKey)}, {"REALM_MAX_ASYNC_JOBS", strconv.Itoa(c.Running.AsyncJobs)},
		{"REALM_MAX_SYNC_INGESTIONS_PER_KEY", strconv.Itoa(c.Running.SyncIngestionsPerKey)},
		{"REALM_MAX_IMPORTS", strconv.Itoa(c.Running.Imports)}, {"REALM_MAX_IMPORTS_PER_KEY", strconv.Itoa(c.Running.ImportsPerKey)},
		{"REALM_CORS_ORIGINS", strings.Join(c.CORSOrigins, ",")},
		{"REALM_METRICS_KEY_REQUIRED", strconv.FormatBool(c.MetricsKeyRequired)}, {"REALM_SCORE", c.Score},
		{"REALM_TRACE_RETENTION", cypher.RetentionText(c.Neo4j.TraceRetention)}, {"REALM_AUTO_RECONSOLIDATE", strconv.FormatBool(c.AutoReconsolidate)},
		{"REALM_SHUTDOWN_TIMEOUT", c.ShutdownTimeout.String()}, {"REALM_RESUME_INTERVAL", c.ResumeInterval.String()},
		{"REALM_TIME_ZONE", c.Zone.String()}, {"REALM_UNCHECKED_SPACE_PREFIX", c.UncheckedSpaces},
		{"REALM_EXTRACT_ROLES", strings.Join(c.ExtractRoles, ",")},
	}...)
}

// print writes the configuration once, secrets masked, on one line for people.
func (c config) print(w io.Writer) {
	fmt.Fprint(w, "config:")
	for _, s := range c.settings() {
		fmt.Fprintf(w, " %s=%s", s.name, s.value)
	}
	fmt.Fprintln(w)
}

// log writes the configuration once, secrets masked, as the config field of a log line.
func (c config) log(logger zerolog.Logger) {
	fields := zerolog.Dict()
	for _, s := range c.settings() {
		fields = fields.Str(s.name, s.value)
	}
	logger.Info().Dict("config", fields).Msg("config")
}

func mask(secret string) string {
	if secret == "" {
		return ""
	}
	return "****"
}

// maskURL is raw with the password of its user information masked (xxxxx).
func maskURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.Redacted()
}
