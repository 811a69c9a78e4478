package embed

import (
	"context"
	"strings"
	"unicode"
)

// Hash embeds by feature hashing: word unigrams and bigrams and character 3–5-grams of
// each word are hashed into Dim buckets with a hash-derived sign (so collisions cancel out
// on average instead of piling up), then L2-normalised. It needs no files and knows no
// synonyms: texts are close only when they share words or word pieces.
type Hash struct{ dim int }

// NewHash returns a Hash embedder of dimension dim (384 when dim <= 0).
func NewHash(dim int) *Hash {
	if dim <= 0 {
		dim = 384
	}
	return &Hash{dim: dim}
}

// ID names the feature set; change it when the features change.
func (h *Hash) ID() string { return "hash:v1" }

// Dim is the vector length.
func (h *Hash) Dim() int { return h.dim }

// Embed hashes each text; it does no I/O and fails only when ctx is done.
func (h *Hash) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, text := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = h.embedOne(text)
	}
	return out, nil
}

// Feature weights: whole words carry the meaning, n-grams only help with inflections and typos.
const (
	hashWordWeight   = 1.0
	hashBigramWeight = 0.7
	hashGramWeight   = 0.3
)

func (h *Hash) embedOne(text string) []float32 {
	v := make([]float32, h.dim)
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	})
	if len(words) == 0 {
		// Every empty text gets the same unit vector so the result stays normalised.
		v[0] = 1
		return v
	}
	for i, w := range words {
		h.add(v, "w", w, "", hashWordWeight)
		if i > 0 {
			h.add(v, "b", words[i-1], w, hashBigramWeight)
		}
		// "<" and ">" mark the word's edges, so prefixes and suffixes are features of their own.
		runes := []rune("<" + w + ">")
		for n := 3; n <= 5; n++ {
			for s := 0; s+n <= len(runes); s++ {
				h.add(v, "c", string(runes[s:s+n]), "", hashGramWeight)
			}
		}
	}
	normalize(v)
	return v
}

// add hashes kind|a|b with 64-bit FNV-1a: the low bits pick the bucket, the top bit the sign.
func (h *Hash) add(v []float32, kind, a, b string, weight float32) {
	const offset, prime = 14695981039346656037, 1099511628211
	x := uint64(offset)
	for _, s := range [...]string{kind, "|", a, "|", b} {
		for i := 0; i < len(s); i++ {
			x ^= uint64(s[i])
			x *= prime
		}
	}
	if x>>63 == 1 {
		weight = -weight
	}
	v[x%uint64(len(v))] += weight
}
