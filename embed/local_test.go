package embed

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// MustLocal returns the local embedder, or skips when the model is not installed — except
// under CI, where a missing model is a failure.
func MustLocal(tb testing.TB) *Local { return mustLocal(tb, false) }

// mustLocal is MustLocal for the model or its int8 quantization.
func mustLocal(tb testing.TB, quantized bool) *Local {
	tb.Helper()
	dir := DefaultModelDir(os.Getenv)
	file := modelFile
	if quantized {
		file = quantizedFile
	}
	if !LocalInstalled(dir) || !filesPresent(filepath.Join(dir, file)) {
		if os.Getenv("CI") != "" {
			tb.Fatalf("local model %s not installed in %s under CI: run %s", file, dir, SetupCommand)
		}
		tb.Skipf("local model %s not installed in %s: run %s", file, dir, SetupCommand)
	}
	l, err := NewLocal(LocalConfig{ModelDir: dir, Quantized: quantized})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { l.Close() })
	return l
}

type goldenCase struct {
	Text   string    `json:"text"`
	IDs    []int64   `json:"ids"`
	Vector []float32 `json:"vector"`
}

// readGolden loads testdata/golden.json, written by testdata/reference.py (HuggingFace
// tokenizers + Python onnxruntime on the same model files).
func readGolden(tb testing.TB) []goldenCase {
	tb.Helper()
	data, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		tb.Fatal(err)
	}
	var golden struct{ Cases []goldenCase }
	if err := json.Unmarshal(data, &golden); err != nil {
		tb.Fatal(err)
	}
	if len(golden.Cases) < 20 {
		tb.Fatalf("golden.json has %d cases, want at least 20", len(golden.Cases))
	}
	return golden.Cases
}

func TestLocalGolden(t *testing.T) {
	l := MustLocal(t)
	cases := readGolden(t)

	t.Run("TokenIDs", func(t *testing.T) {
		for i, c := range cases {
			if got := l.tok.encode(c.Text); !slices.Equal(got, c.IDs) {
				t.Errorf("case %d %.40q:\n got %v\nwant %v", i, c.Text, got, c.IDs)
			}
		}
	})
	t.Run("Vectors", func(t *testing.T) {
		texts := make([]string, len(cases))
		for i, c := range cases {
			texts[i] = c.Text
		}
		// One call, so the cases are batched and padded together, unlike the reference.
		vecs, err := l.Embed(context.Background(), texts)
		if err != nil {
			t.Fatal(err)
		}
		worst := 1.0
		for i, c := range cases {
			if len(vecs[i]) != 384 {
				t.Fatalf("case %d: dimension %d", i, len(vecs[i]))
			}
			cos := cosine(vecs[i], c.Vector)
			worst = min(worst, cos)
			if cos < 0.999 {
				t.Errorf("case %d %.40q: cosine %.6f < 0.999", i, c.Text, cos)
			}
		}
		t.Logf("%d cases, lowest cosine to the reference %.6f", len(cases), worst)
	})
}

func TestLocal(t *testing.T) {
	l := MustLocal(t)
	ctx := context.Background()
	t.Run("Normalised", func(t *testing.T) {
		vecs, err := l.Embed(ctx, []string{"hello world", "", strings.Repeat("long text ", 400)})
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range vecs {
			if n := norm2(v); n < 0.9999 || n > 1.0001 {
				t.Errorf("vector %d has norm %v", i, n)
			}
		}
	})
	t.Run("BatchSizeIndependent", func(t *testing.T) {
		texts := []string{"a short one", "a somewhat longer sentence about the weather in Lisbon", "mid length text"}
		one, err := NewLocal(LocalConfig{ModelDir: DefaultModelDir(os.Getenv), BatchSize: 1, Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		defer one.Close()
		a, _ := one.Embed(ctx, texts)
		b, err := l.Embed(ctx, texts)
		if err != nil {
			t.Fatal(err)
		}
		for i := range texts {
			if cos := cosine(a[i], b[i]); cos < 0.9999 {
				t.Errorf("text %d: batched vs single cosine %.6f", i, cos)
			}
		}
	})
	t.Run("ErrCanceled", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := l.Embed(cctx, []string{"x"}); err == nil {
			t.Fatal("no error for a cancelled context")
		}
	})
}

// The int8 model is another model: its own ID (so that a space is never searched with
// vectors of the other), vectors close to the model's but not the same.
func TestLocalQuantized(t *testing.T) {
	q, f := mustLocal(t, true), MustLocal(t)
	if q.ID() == f.ID() || q.ID() != "local:all-MiniLM-L6-v2-q" || q.Dim() != f.Dim() {
		t.Fatalf("quantized %s (%d dims), model %s (%d dims)", q.ID(), q.Dim(), f.ID(), f.Dim())
	}
	texts := make([]string, len(paraphrasePairs))
	for i, p := range paraphrasePairs {
		texts[i] = p.query
	}
	ctx := context.Background()
	qv, err := q.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	fv, err := f.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	worst := 1.0
	for i := range texts {
		worst = min(worst, cosine(qv[i], fv[i]))
	}
	// LoCoMo's 2,760 turns: mean 0.989, lowest 0.967 (embed/BENCHMARKS.md).
	if worst < 0.95 || worst > 0.9999 {
		t.Errorf("lowest cosine between the two models' vectors %.4f, want in [0.95, 0.9999]", worst)
	}
	t.Logf("%d texts, lowest cosine between the models %.4f", len(texts), worst)
}

func TestNewLocalNotInstalled(t *testing.T) {
	_, err := New(Config{Kind: KindLocal, Local: LocalConfig{ModelDir: t.TempDir()}}, zerologNop())
	if err == nil || !strings.Contains(err.Error(), SetupCommand) {
		t.Fatalf("error %v does not name %s", err, SetupCommand)
	}
}

func BenchmarkLocal(b *testing.B) {
	b.Run("fp32", func(b *testing.B) { benchLocal(b, MustLocal(b)) })
	b.Run("int8", func(b *testing.B) { benchLocal(b, mustLocal(b, true)) })
}

func benchLocal(b *testing.B, l *Local) {
	ctx := context.Background()
	sentence := "I moved to Berlin in March 2019 and started a new job three weeks later."
	b.Run("OneSentence", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := l.Embed(ctx, []string{sentence}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Batch32", func(b *testing.B) {
		texts := make([]string, 32)
		for i := range texts {
			texts[i] = paraphrasePairs[i%len(paraphrasePairs)].query
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := l.Embed(ctx, texts); err != nil {
				b.Fatal(err)
			}
		}
	})
}
