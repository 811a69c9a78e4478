package embed

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

// MustLocal returns the local embedder, or skips when the model is not installed — except
// under CI, where a missing model is a failure.
func MustLocal(tb testing.TB) *Local {
	tb.Helper()
	dir := DefaultModelDir(os.Getenv)
	if !LocalInstalled(dir) {
		if os.Getenv("CI") != "" {
			tb.Fatalf("local model not installed in %s under CI: run %s", dir, SetupCommand)
		}
		tb.Skipf("local model not installed in %s: run %s", dir, SetupCommand)
	}
	l, err := NewLocal(LocalConfig{ModelDir: dir})
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

func TestNewLocalNotInstalled(t *testing.T) {
	_, err := New(Config{Kind: KindLocal, Local: LocalConfig{ModelDir: t.TempDir()}}, zerologNop())
	if err == nil || !strings.Contains(err.Error(), SetupCommand) {
		t.Fatalf("error %v does not name %s", err, SetupCommand)
	}
}

func BenchmarkLocal(b *testing.B) {
	l := MustLocal(b)
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
