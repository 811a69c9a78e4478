package embed

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/realm-memory/realm"
	"github.com/rs/zerolog"
)

// Kinds of embedder, the values of REALM_EMBEDDER.
const (
	KindLocal  = "local"
	KindLocalQ = "local-q" // the int8 quantization of the local model
	KindOpenAI = "openai"
	KindHash   = "hash"
)

// SetupCommand installs the local model; errors about missing files name it.
const SetupCommand = "deploy/model/setup.sh"

// Config selects and configures an embedder.
type Config struct {
	// Kind is "local", "local-q", "openai" or "hash". Empty is a fresh store's default
	// (DefaultKind): local-q when the local model is installed, hash (with a warning)
	// otherwise. realm's commands first resolve it by the store they open.
	Kind    string
	HashDim int // default 384, the local model's dimension, so switching keeps the Neo4j index shape
	Local   LocalConfig
	OpenAI  OpenAIConfig
}

// ConfigFromEnv reads the embedder's environment variables:
//
//	REALM_EMBEDDER        local | local-q | openai | hash (empty: see DefaultKind; hash if not installed)
//	REALM_MODEL_DIR       model.onnx, model-q.onnx, tokenizer.json, libonnxruntime.so (default <repo>/.realm/model: DefaultModelDir)
//	REALM_ORT_LIB         path of libonnxruntime.so (default in REALM_MODEL_DIR)
//	REALM_EMBED_THREADS   ONNX Runtime intra-op threads (default: ONNX Runtime's choice)
//	REALM_EMBED_BATCH     texts per model call or API request
//	OPENAI_BASE_URL, OPENAI_API_KEY
//	REALM_EMBED_MODEL     embeddings model name for openai (default text-embedding-3-small)
//	REALM_EMBED_DIM       expected vector length for openai (needed for models REALM does not know)
//	REALM_EMBED_SEND_DIM  "true": also send it as the API's `dimensions` parameter
//	REALM_EMBED_TIMEOUT   per-request timeout for openai, a Go duration (default 30s)
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	var cfg Config
	var bad []string
	atoi := func(name string) int {
		v := getenv(name)
		if v == "" {
			return 0
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			bad = append(bad, name)
		}
		return n
	}
	cfg.Kind = getenv("REALM_EMBEDDER")
	cfg.Local = LocalConfig{
		ModelDir:  DefaultModelDir(getenv),
		LibPath:   getenv("REALM_ORT_LIB"),
		Threads:   atoi("REALM_EMBED_THREADS"),
		BatchSize: atoi("REALM_EMBED_BATCH"),
	}
	cfg.OpenAI = OpenAIConfig{
		BaseURL:   getenv("OPENAI_BASE_URL"),
		APIKey:    getenv("OPENAI_API_KEY"),
		Model:     getenv("REALM_EMBED_MODEL"),
		Dim:       atoi("REALM_EMBED_DIM"),
		SendDim:   getenv("REALM_EMBED_SEND_DIM") == "true",
		BatchSize: cfg.Local.BatchSize,
	}
	if v := getenv("REALM_EMBED_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			bad = append(bad, "REALM_EMBED_TIMEOUT")
		}
		cfg.OpenAI.Timeout = d
	}
	if len(bad) > 0 {
		return cfg, realm.Errorf(realm.EInvalid, "embed: bad value of %s", strings.Join(bad, ", "))
	}
	return cfg, nil
}

// DefaultKind is the local model an empty REALM_EMBEDDER stands for on a store whose
// spaces record the embedders stored (their IDs, repeated or not; none for a fresh
// store), and why. A space keeps the model it was embedded with (`realm serve` refuses
// another until `realm reembed`), so a store holding spaces of a local model keeps that
// model: an installation made when fp32 was the default goes on unchanged. Otherwise it
// is the int8 model: 2.6 times less CPU per text than fp32 for the same LoCoMo recall
// (BENCHMARKS.md). A store holding spaces of both keeps fp32, the default before, and
// the embedder check at start names the int8 ones. A model directory set up before the
// int8 model shipped (quantized false) gives fp32 rather than no start.
func DefaultKind(stored []string, quantized bool) (kind, why string) {
	switch {
	case slices.Contains(stored, LocalID):
		return KindLocal, "the store holds spaces embedded with " + LocalID
	case slices.Contains(stored, LocalQID):
		return KindLocalQ, "the store holds spaces embedded with " + LocalQID
	case !quantized:
		return KindLocal, "no space of the store is embedded with a local model: the int8 one, but it is not installed (run " + SetupCommand + "): " + LocalID
	}
	return KindLocalQ, "no space of the store is embedded with a local model: the int8 one, " + LocalQID
}

// New builds the embedder cfg.Kind names. An empty Kind is DefaultKind's for a fresh store,
// or hash when the local model is not installed, which it says loudly through logger.
func New(cfg Config, logger zerolog.Logger) (realm.Embedder, error) {
	kind := cfg.Kind
	if kind == "" {
		kind, _ = DefaultKind(nil, QuantizedInstalled(cfg.Local.ModelDir))
		if !LocalInstalled(cfg.Local.ModelDir) {
			kind = KindHash
			logger.Warn().Str("model_dir", cfg.Local.ModelDir).
				Msgf("EMBEDDER FALLBACK: the local model is not installed, using the weak hash embedder; run %s", SetupCommand)
		}
	}
	switch kind {
	case KindLocal, KindLocalQ:
		local := cfg.Local
		local.Quantized = kind == KindLocalQ
		return NewLocal(local)
	case KindOpenAI:
		return NewOpenAI(cfg.OpenAI)
	case KindHash:
		return NewHash(cfg.HashDim), nil
	}
	return nil, realm.Errorf(realm.EInvalid, "embed: unknown embedder %q (want local, local-q, openai or hash)", kind)
}

// DefaultModelDir is $REALM_MODEL_DIR, else .realm/model under the repository root (found by
// walking up from the working directory to REALM's go.mod, so tests in embed/ and a binary
// run from the root agree; else up from the executable's directory, so that the repository's
// bin/realm run from anywhere finds the model `make` installed), else .realm/model under the
// working directory.
func DefaultModelDir(getenv func(string) string) string {
	if d := getenv("REALM_MODEL_DIR"); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		return filepath.Join(".realm", "model")
	}
	exeDir := ""
	if exe, err := os.Executable(); err == nil {
		exeDir = filepath.Dir(exe)
	}
	return modelDirFrom(wd, exeDir)
}

// modelDirFrom is DefaultModelDir's search from the working directory wd and the
// executable's directory exeDir (none: "").
func modelDirFrom(wd, exeDir string) string {
	for _, start := range []string{wd, exeDir} {
		if root := realmRoot(start); root != "" {
			return filepath.Join(root, ".realm", "model")
		}
	}
	return filepath.Join(wd, ".realm", "model")
}

// realmRoot is the closest directory at or above dir holding REALM's go.mod, or "".
func realmRoot(dir string) string {
	if dir == "" {
		return ""
	}
	for ; ; dir = filepath.Dir(dir) {
		if isRealmModule(filepath.Join(dir, "go.mod")) {
			return dir
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

func isRealmModule(gomod string) bool {
	f, err := os.Open(gomod)
	if err != nil {
		return false
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if line := strings.TrimSpace(s.Text()); strings.HasPrefix(line, "module ") {
			return strings.TrimSpace(strings.TrimPrefix(line, "module ")) == "github.com/realm-memory/realm"
		}
	}
	return false
}

// LocalInstalled reports whether dir holds the files the local embedder needs.
func LocalInstalled(dir string) bool {
	return filesPresent(filepath.Join(dir, modelFile), filepath.Join(dir, tokenizerFile), filepath.Join(dir, libFile))
}

// QuantizedInstalled reports whether dir also holds the int8 model (KindLocalQ).
func QuantizedInstalled(dir string) bool {
	return LocalInstalled(dir) && filesPresent(filepath.Join(dir, quantizedFile))
}

func filesPresent(paths ...string) bool {
	for _, p := range paths {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			return false
		}
	}
	return true
}

// normalize scales v to unit length in place; a zero vector is left as it is.
func normalize(v []float32) {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(sum))
	for i := range v {
		v[i] *= inv
	}
}

func errorf(format string, args ...any) error { return fmt.Errorf("embed: "+format, args...) }
