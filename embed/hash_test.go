package embed

import (
	"context"
	"math"
	"testing"
)

func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return dot / math.Sqrt(na*nb)
}

func norm2(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func TestHash(t *testing.T) {
	ctx := context.Background()
	h := NewHash(0)
	texts := []string{
		"Alice moved to Berlin in 2019.",
		"In 2019 Alice relocated to Berlin.",
		"The soup needs more salt and pepper.",
		"",
		"ÉLAN, élan — ¿qué?",
	}
	t.Run("Dimension", func(t *testing.T) {
		if h.Dim() != 384 || NewHash(128).Dim() != 128 {
			t.Fatalf("Dim = %d, NewHash(128).Dim = %d", h.Dim(), NewHash(128).Dim())
		}
	})
	t.Run("Deterministic", func(t *testing.T) {
		a, err := h.Embed(ctx, texts)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := NewHash(384).Embed(ctx, texts)
		for i := range a {
			for d := range a[i] {
				if a[i][d] != b[i][d] {
					t.Fatalf("text %d dim %d: %v then %v", i, d, a[i][d], b[i][d])
				}
			}
		}
	})
	t.Run("Normalised", func(t *testing.T) {
		vecs, _ := h.Embed(ctx, texts)
		if len(vecs) != len(texts) {
			t.Fatalf("%d vectors for %d texts", len(vecs), len(texts))
		}
		for i, v := range vecs {
			if len(v) != 384 || math.Abs(norm2(v)-1) > 1e-5 {
				t.Errorf("text %d: len %d, norm %v", i, len(v), norm2(v))
			}
		}
	})
	t.Run("SimilarCloser", func(t *testing.T) {
		vecs, _ := h.Embed(ctx, texts[:3])
		similar, unrelated := cosine(vecs[0], vecs[1]), cosine(vecs[0], vecs[2])
		t.Logf("similar %.3f, unrelated %.3f", similar, unrelated)
		if similar <= unrelated+0.2 {
			t.Errorf("similar %.3f not clearly above unrelated %.3f", similar, unrelated)
		}
	})
	t.Run("ErrCanceled", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := h.Embed(cctx, texts); err == nil {
			t.Fatal("no error for a cancelled context")
		}
	})
}
