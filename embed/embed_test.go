package embed

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/rs/zerolog"
)

func zerologNop() zerolog.Logger { return zerolog.Nop() }

func TestNew(t *testing.T) {
	t.Run("Hash", func(t *testing.T) {
		e, err := New(Config{Kind: KindHash, HashDim: 64}, zerologNop())
		if err != nil || e.ID() != "hash:v1" || e.Dim() != 64 {
			t.Fatalf("New(hash) = %v, %v", e, err)
		}
	})
	t.Run("FallbackToHash", func(t *testing.T) {
		e, err := New(Config{Local: LocalConfig{ModelDir: t.TempDir()}}, zerologNop())
		if err != nil || e.ID() != "hash:v1" {
			t.Fatalf("New(\"\") without a model = %v, %v", e, err)
		}
	})
	t.Run("ErrUnknownKind", func(t *testing.T) {
		if _, err := New(Config{Kind: "word2vec"}, zerologNop()); realm.ErrorCode(err) != realm.EInvalid {
			t.Fatalf("err = %v, want %s", err, realm.EInvalid)
		}
	})
	t.Run("ErrOpenAIDimUnknown", func(t *testing.T) {
		_, err := New(Config{Kind: KindOpenAI, OpenAI: OpenAIConfig{Model: "nomic-embed-text"}}, zerologNop())
		if realm.ErrorCode(err) != realm.EInvalid {
			t.Fatalf("err = %v, want %s", err, realm.EInvalid)
		}
	})
}

// TestDefaultKind: an empty REALM_EMBEDDER keeps the local model a store's spaces hold,
// fp32 when they hold both, and is the int8 model otherwise.
func TestDefaultKind(t *testing.T) {
	tests := []struct {
		name      string
		stored    []string
		quantized bool
		want      string
	}{
		{"FreshStore", nil, true, KindLocalQ},
		{"FreshStoreWithoutInt8Model", nil, false, KindLocal},
		{"OtherEmbeddersOnly", []string{"hash:v1", "openai:text-embedding-3-small", "unfinished reembed to " + LocalID}, true, KindLocalQ},
		{"Fp32", []string{"hash:v1", LocalID, LocalID}, true, KindLocal},
		{"Int8", []string{LocalQID}, true, KindLocalQ},
		{"Int8WithoutInt8Model", []string{LocalQID}, false, KindLocalQ},
		{"BothKeepFp32", []string{LocalQID, LocalID}, true, KindLocal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, why := DefaultKind(tt.stored, tt.quantized); got != tt.want || why == "" {
				t.Errorf("DefaultKind(%q) = %q (%q), want %q", tt.stored, got, why, tt.want)
			}
		})
	}
}

func TestConfigFromEnv(t *testing.T) {
	env := map[string]string{
		"REALM_EMBEDDER": "openai", "REALM_MODEL_DIR": "/m", "REALM_EMBED_THREADS": "2",
		"REALM_EMBED_DIM": "768", "REALM_EMBED_TIMEOUT": "5s", "OPENAI_BASE_URL": "http://127.0.0.1:1/v1",
	}
	cfg, err := ConfigFromEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Kind != "openai" || cfg.Local.ModelDir != "/m" || cfg.Local.Threads != 2 ||
		cfg.OpenAI.Dim != 768 || cfg.OpenAI.Timeout.Seconds() != 5 || cfg.OpenAI.BaseURL != env["OPENAI_BASE_URL"] {
		t.Fatalf("cfg = %+v", cfg)
	}
	env["REALM_EMBED_THREADS"] = "two"
	if _, err := ConfigFromEnv(func(k string) string { return env[k] }); realm.ErrorCode(err) != realm.EInvalid {
		t.Fatalf("bad threads: err = %v", err)
	}
}

// The model directory is found above the working directory, else above the executable's
// (the repository's bin/realm run from elsewhere), else under the working directory.
func TestModelDirFrom(t *testing.T) {
	repo, elsewhere := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module github.com/realm-memory/realm\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin, sub := filepath.Join(repo, "bin"), filepath.Join(repo, "cmd", "realm")
	model := filepath.Join(repo, ".realm", "model")
	for _, tt := range []struct{ wd, exe, want string }{
		{sub, "", model},         // a test in the repository
		{repo, elsewhere, model}, // make run
		{elsewhere, bin, model},  // bin/realm run from elsewhere
		{other, bin, model},      // another module's directory is not REALM's
		{elsewhere, elsewhere, filepath.Join(elsewhere, ".realm", "model")},
		{elsewhere, "", filepath.Join(elsewhere, ".realm", "model")},
	} {
		if got := modelDirFrom(tt.wd, tt.exe); got != tt.want {
			t.Errorf("from %s (executable in %s): %s, want %s", tt.wd, tt.exe, got, tt.want)
		}
	}
}
