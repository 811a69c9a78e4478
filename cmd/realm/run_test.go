package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/embed"
)

// testEnv is the environment of a test process: the tests' Neo4j, any free port. The
// throwaway spaces of tests (cyphertest.NewSpace), this run's or another's, are left out of
// the embedder check at start: a test must not fail for what a parallel or crashed run
// holds. TestServeEmbedderCheck shows that every other space is still checked.
func testEnv(overrides map[string]string) func(string) string {
	cfg := cyphertest.Config()
	env := map[string]string{
		"REALM_ADDR":                   "127.0.0.1:0",
		"NEO4J_URI":                    cfg.URI,
		"NEO4J_USER":                   cfg.User,
		"NEO4J_PASSWORD":               cfg.Password,
		"NEO4J_DATABASE":               cfg.Database,
		"REALM_MODEL_DIR":              os.Getenv("REALM_MODEL_DIR"),
		"REALM_UNCHECKED_SPACE_PREFIX": cyphertest.SpacePrefix,
	}
	for k, v := range overrides {
		env[k] = v
	}
	return func(key string) string { return env[key] }
}

// startServe runs `realm serve` in-process and returns its base URL once it listens. When
// serve returns before listening, the test fails at once with serve's error and output.
// The server stops when the test ends.
func startServe(t testing.TB, getenv func(string) string) string {
	t.Helper()
	base, _ := startServeLog(t, getenv)
	return base
}

// startServeLog is startServe, also returning serve's output as it grows.
func startServeLog(t testing.TB, getenv func(string) string) (string, *lineLog) {
	t.Helper()
	cyphertest.MustOpen(t)
	ctx, cancel := context.WithCancel(context.Background())
	out := newLineLog(regexp.MustCompile(`REALM serving on (http://\S+) `))
	// serveErr is set once, before done is closed. A closed channel can be received from
	// any number of times, so the start below and the cleanup both wait on done safely; a
	// result sent on a channel would be taken by the first and block the second for good.
	var serveErr error
	done := make(chan struct{})
	go func() {
		serveErr = run(ctx, []string{"realm", "serve"}, getenv, out)
		close(done)
	}()
	listening := false
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(time.Minute): // serve drains for 30 s at most: a bound on a hang
			t.Errorf("serve did not return within a minute of being stopped:\n%s", out.String())
			return
		}
		if listening && serveErr != nil { // before listening it was reported already
			t.Errorf("serve returned %v\n%s", serveErr, out.String())
		}
	})
	select {
	case u := <-out.match:
		listening = true
		return u, out
	case <-done:
		t.Fatalf("serve returned before listening: %v\n%s", serveErr, out.String())
	case <-time.After(3 * time.Minute):
		t.Fatalf("serve did not listen within 3 minutes:\n%s", out.String())
	}
	return "", out
}

// recordingTB is a testing.TB whose Errorf and Fatalf record the failure (Fatalf then ends
// the goroutine, as in a test) and whose cleanups run when runCleanups is called: a test
// of a test helper's failures. The rest goes to the real test.
type recordingTB struct {
	testing.TB
	mu       sync.Mutex
	failures []string
	cleanups []func()
}

func (r *recordingTB) Helper() {}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

func (r *recordingTB) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

func (r *recordingTB) Cleanup(f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cleanups = append(r.cleanups, f)
}

// runCleanups runs the cleanups, last registered first, and reports whether they all
// returned within limit (a bound on a hang).
func (r *recordingTB) runCleanups(limit time.Duration) bool {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := len(r.cleanups) - 1; i >= 0; i-- {
			r.cleanups[i]()
		}
	}()
	select {
	case <-done:
		return true
	case <-time.After(limit):
		return false
	}
}

// startServeFailure runs startServe on a recordingTB and returns its failures: none when
// serve started (it is stopped before the return). It fails the test if startServe's
// cleanup does not return.
func startServeFailure(t *testing.T, getenv func(string) string) []string {
	t.Helper()
	rec := &recordingTB{TB: t}
	returned := make(chan struct{})
	go func() {
		defer close(returned) // also when Fatalf ends the goroutine
		startServe(rec, getenv)
	}()
	<-returned
	if !rec.runCleanups(time.Minute) {
		t.Fatal("startServe's cleanup still waits for serve a minute after serve returned")
	}
	return rec.failures
}

// TestStartServeFails: when serve returns before listening, startServe fails the test with
// serve's error, and its cleanup returns rather than wait for a result already received.
func TestStartServeFails(t *testing.T) {
	cyphertest.MustOpen(t)
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	tests := []struct {
		name string
		env  map[string]string
		want string // in the failure
	}{
		{"ErrConfig", map[string]string{"REALM_EMBEDDER": "word2vec"}, "REALM_EMBEDDER"},
		{"ErrAddrInUse", map[string]string{"REALM_ADDR": busy.Addr().String()}, "REALM_ADDR " + busy.Addr().String()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			failures := startServeFailure(t, testEnv(tt.env))
			if len(failures) != 1 || !strings.Contains(failures[0], "before listening") || !strings.Contains(failures[0], tt.want) {
				t.Errorf("failures %q, want one with serve's error naming %q", failures, tt.want)
			}
		})
	}
}

// TestServeEmbedderCheck: a space embedded by another embedder stops serve with the fix
// named, unless REALM_UNCHECKED_SPACE_PREFIX leaves it out, as testEnv does for the
// throwaway spaces of tests.
func TestServeEmbedderCheck(t *testing.T) {
	store := cyphertest.MustOpen(t)
	space, _ := staleSpace(t, store, cyphertest.Dims) // recorded as embedded by test:old
	tests := []struct {
		name      string
		unchecked string
		refused   bool // serve refuses to start, and lists our space among the others
	}{
		{"ErrOtherEmbedder", "", true},
		{"ErrOtherPrefix", "prod_", true},
		{"TestSpacesLeftOut", cyphertest.SpacePrefix, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := testEnv(map[string]string{"REALM_UNCHECKED_SPACE_PREFIX": tt.unchecked})
			failures := startServeFailure(t, env)
			others, err := store.SpacesOtherEmbedder(context.Background(), servedEmbedder(t, store, env), cyphertest.Dims, tt.unchecked)
			if err != nil {
				t.Fatal(err)
			}
			listed := slices.ContainsFunc(others, func(o cypher.SpaceEmbedder) bool { return o.Space == space })
			refused := len(failures) == 1 && strings.Contains(failures[0], "these spaces were embedded with another") &&
				strings.Contains(failures[0], "realm reembed")
			if refused != tt.refused || listed != tt.refused || !refused && len(failures) > 0 {
				t.Errorf("refused %v and our space listed %v, want %v; failures %q", refused, listed, tt.refused, failures)
			}
		})
	}
}

// servedEmbedder is the ID of the embedder serve runs with env on the tests' database, as
// openDeps chooses it: testEnv chooses none, so it follows the store.
func servedEmbedder(t *testing.T, store *cypher.Store, env func(string) string) string {
	t.Helper()
	cfg, err := loadConfig(flag.NewFlagSet("serve", flag.ContinueOnError), nil, env)
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := resolveEmbedder(context.Background(), store, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"": "hash:v1", embed.KindLocal: embed.LocalID, embed.KindLocalQ: embed.LocalQID}[c.Kind]
}

func getJSON(t *testing.T, url string, v any) int {
	t.Helper()
	resp, err := apitest.New(t).Client().Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if v != nil {
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
	}
	return resp.StatusCode
}

// getWithKey GETs url with the API key as bearer token and returns the status.
func getWithKey(t *testing.T, url, key string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := apitest.New(t).Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestServe(t *testing.T) {
	base := startServe(t, testEnv(nil))
	t.Run("Healthz", func(t *testing.T) {
		if code := getJSON(t, base+"/healthz", nil); code != http.StatusOK {
			t.Fatalf("status %d", code)
		}
	})
	t.Run("Readyz", func(t *testing.T) {
		var body map[string]string
		if code := getJSON(t, base+"/readyz", &body); code != http.StatusOK {
			t.Fatalf("status %d: %v", code, body)
		}
	})
	t.Run("Info", func(t *testing.T) {
		var info struct {
			Version  string
			Embedder struct {
				ID  string
				Dim int
			}
			LLM   struct{ Mode string }
			Neo4j struct{ Version, Edition string }
		}
		if code := getJSON(t, base+"/v1/info", &info); code != http.StatusOK {
			t.Fatalf("status %d", code)
		}
		if v := info.Neo4j.Version; !strings.HasPrefix(v, "5.26.") && !strings.HasPrefix(v, "2026.") {
			t.Errorf("neo4j version %q, want 5.26.x or 2026.x (the versions deploy/neo4j runs)", v)
		}
		if info.Embedder.ID == "" || info.Embedder.Dim != cyphertest.Dims {
			t.Errorf("embedder %+v", info.Embedder)
		}
		if info.LLM.Mode != "offline" {
			t.Errorf("llm mode %q, want offline", info.LLM.Mode)
		}
	})
	t.Run("OpenAPI", func(t *testing.T) {
		resp, err := apitest.New(t).Client().Get(base + "/openapi.yaml")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(string(b), "openapi: 3.1") {
			t.Fatalf("status %d, body %.40q", resp.StatusCode, b)
		}
	})
	t.Run("ErrNotFoundIsProblem", func(t *testing.T) {
		resp, err := apitest.New(t).Client().Get(base + "/v1/nowhere")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var p struct{ Code string }
		_ = json.NewDecoder(resp.Body).Decode(&p)
		if resp.StatusCode != http.StatusNotFound || p.Code != "not_found" ||
			resp.Header.Get("Content-Type") != "application/problem+json" {
			t.Fatalf("status %d, code %q, type %q", resp.StatusCode, p.Code, resp.Header.Get("Content-Type"))
		}
	})
}

func TestRunErrors(t *testing.T) {
	cyphertest.MustOpen(t)
	ctx := context.Background()
	commentsOnly := filepath.Join(t.TempDir(), "keys")
	if err := os.WriteFile(commentsOnly, []byte("# name key scopes spaces\n\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want string // in the error
	}{
		{"ErrPassword", map[string]string{"NEO4J_PASSWORD": "wrong-password"}, []string{"serve"}, "NEO4J_PASSWORD"},
		{"ErrUnreachable", map[string]string{"NEO4J_URI": "bolt://127.0.0.1:1"}, []string{"serve"}, "NEO4J_URI"},
		{"ErrBadURI", map[string]string{"NEO4J_URI": "http://x"}, []string{"serve"}, "NEO4J_URI"},
		{"ErrBadLLM", map[string]string{"REALM_LLM": "gpt"}, []string{"serve"}, "REALM_LLM"},
		{"ErrLLMTimeout", map[string]string{"REALM_LLM_TIMEOUT": "0s"}, []string{"serve"}, "REALM_LLM_TIMEOUT"},
		{"ErrBadEmbedder", map[string]string{"REALM_EMBEDDER": "word2vec"}, []string{"serve"}, "REALM_EMBEDDER"},
		{"ErrBadAddr", map[string]string{"REALM_ADDR": "8080"}, []string{"serve"}, "REALM_ADDR"},
		{"ErrUnknownCommand", nil, []string{"frobnicate"}, "unknown command"},
		{"ErrNoKeysBeyondLoopback", map[string]string{"REALM_ADDR": "0.0.0.0:0"}, []string{"serve"}, "REALM_API_KEYS"},
		{"ErrNoKeysAllInterfaces", map[string]string{"REALM_ADDR": ":0"}, []string{"serve"}, "REALM_API_KEYS"},
		{"ErrBadKeys", map[string]string{"REALM_API_KEYS": "ci tooshort read ci"}, []string{"serve"}, "REALM_API_KEYS entry 1"},
		{"ErrKeysFileMissing", map[string]string{"REALM_API_KEYS_FILE": "/nonexistent/keys"}, []string{"serve"}, "REALM_API_KEYS_FILE"},
		{"ErrKeysFileWithoutKeys", map[string]string{"REALM_API_KEYS_FILE": commentsOnly}, []string{"serve"}, "holds no key"},
		{"ErrKeysWithoutKeys", map[string]string{"REALM_API_KEYS": " ; "}, []string{"serve"}, "REALM_API_KEYS holds no key"},
		{"ErrRateLimit", map[string]string{"REALM_RATE_LIMIT": "fast"}, []string{"serve"}, "REALM_RATE_LIMIT"},
		{"ErrRateBurst", map[string]string{"REALM_RATE_BURST": "0"}, []string{"serve"}, "REALM_RATE_BURST"},
		{"ErrMaxBody", map[string]string{"REALM_MAX_BODY_BYTES": "10"}, []string{"serve"}, "REALM_MAX_BODY_BYTES"},
		{"ErrAutoReconsolidate", map[string]string{"REALM_AUTO_RECONSOLIDATE": "sometimes"}, []string{"serve"}, "REALM_AUTO_RECONSOLIDATE"},
		{"ErrKeysTwice", map[string]string{"REALM_API_KEYS": "x", "REALM_API_KEYS_FILE": "y"}, []string{"serve"}, "not both"},
		{"ErrMetricsKeyRequired", map[string]string{"REALM_METRICS_KEY_REQUIRED": "maybe"}, []string{"serve"}, "REALM_METRICS_KEY_REQUIRED"},
		{"ErrScore", map[string]string{"REALM_SCORE": "learned_close=0.6,learned_full=0.5"}, []string{"serve"}, "learned_full"},
		{"ErrScoreFields", map[string]string{"REALM_SCORE": "scorer=bogus,hub_degree=0"}, []string{"serve"},
			`REALM_SCORE "scorer=bogus,hub_degree=0": hub_degree: must be a whole number in [1, 1000000]; scorer: must be one of`},
		{"ErrTimeZone", map[string]string{"REALM_TIME_ZONE": "Europe/Atlantis"}, []string{"serve"}, "REALM_TIME_ZONE"},
		{"ErrTraceRetention", map[string]string{"REALM_TRACE_RETENTION": "30d"}, []string{"serve"}, "REALM_TRACE_RETENTION"},
		{"ErrMetricsKeyRequiredNoKeys", map[string]string{"REALM_METRICS_KEY_REQUIRED": "true"}, []string{"serve"}, "needs API keys"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			err := run(ctx, append([]string{"realm"}, tt.args...), testEnv(tt.env), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error naming %q", err, tt.want)
			}
			if strings.Count(err.Error(), "\n") > 0 {
				t.Errorf("error is not one line: %q", err)
			}
			t.Logf("%s after %v: %v", tt.name, time.Since(start).Round(time.Millisecond), err)
		})
	}
}

func TestSchemaApply(t *testing.T) {
	cyphertest.MustOpen(t)
	var out strings.Builder
	if err := run(context.Background(), []string{"realm", "schema", "apply"}, testEnv(nil), &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"memory_embedding", "VECTOR", "memory_text", "FULLTEXT", "ONLINE", "schema applied"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestVersionOf: the version names the revision the binary was built from, whether the
// tree held changes and when the commit was made; without a revision, the version alone.
func TestVersionOf(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "7c4fdd7cad8ced021c051863735c54525cbf5637"},
		{Key: "vcs.time", Value: "2026-12-06T23:35:50Z"}}
	tests := []struct {
		name     string
		settings []debug.BuildSetting
		want     string
	}{
		{"Clean", append(rev, debug.BuildSetting{Key: "vcs.modified", Value: "false"}), "dev (7c4fdd7cad8c, 2026-12-06T23:35:50Z)"},
		{"Modified", append(rev, debug.BuildSetting{Key: "vcs.modified", Value: "true"}), "dev (7c4fdd7cad8c-dirty, 2026-12-06T23:35:50Z)"},
		{"NoVCS", []debug.BuildSetting{{Key: "-trimpath", Value: "true"}}, "dev"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := versionOf("dev", tt.settings); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	var out strings.Builder
	if err := run(context.Background(), []string{"realm", "version"}, testEnv(nil), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "realm ") {
		t.Fatalf("output %q", out.String())
	}
}

// TestServeWithKeys: keys from a file; a request without one is refused, one with it
// served, and the server may then listen beyond loopback.
func TestServeWithKeys(t *testing.T) {
	file := filepath.Join(t.TempDir(), "keys")
	keys := "# name key scopes spaces\nops sk-ops-0123456789abcdef admin *\n"
	if err := os.WriteFile(file, []byte(keys), 0o600); err != nil {
		t.Fatal(err)
	}
	base := startServe(t, testEnv(map[string]string{"REALM_API_KEYS_FILE": file, "REALM_ADDR": "0.0.0.0:0"}))
	base = strings.Replace(base, "0.0.0.0", "127.0.0.1", 1)
	base = strings.Replace(base, "[::]", "127.0.0.1", 1)
	if code := getJSON(t, base+"/v1/info", nil); code != http.StatusUnauthorized {
		t.Errorf("no key: status %d", code)
	}
	if code := getWithKey(t, base+"/v1/info", "sk-ops-0123456789abcdef"); code != http.StatusOK {
		t.Errorf("with the key: status %d", code)
	}
	if code := getJSON(t, base+"/readyz", nil); code != http.StatusOK {
		t.Errorf("readyz needs no key: status %d", code)
	}
	if code := getJSON(t, base+"/metrics", nil); code != http.StatusOK {
		t.Errorf("metrics need no key by default: status %d", code)
	}
}

// TestServeMetricsKeyRequired: with REALM_METRICS_KEY_REQUIRED=true, /metrics needs an
// admin key (api.TestMetricsKeyRequired has the cases; this is the wiring).
func TestServeMetricsKeyRequired(t *testing.T) {
	base := startServe(t, testEnv(map[string]string{"REALM_METRICS_KEY_REQUIRED": "true",
		"REALM_API_KEYS": "ops sk-ops-0123456789abcdef admin *"}))
	if code := getJSON(t, base+"/metrics", nil); code != http.StatusUnauthorized {
		t.Errorf("no key: status %d, want 401", code)
	}
	if code := getWithKey(t, base+"/metrics", "sk-ops-0123456789abcdef"); code != http.StatusOK {
		t.Errorf("admin key: status %d, want 200", code)
	}
}
