package cyphertest

import (
	"context"
	"math"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
)

// CheckEmbedded fails unless the space holds exactly nodes, with their names and content,
// each carrying emb's vector of text(name, content): what a re-embedding is to leave. The
// caller says what text its write path embeds (construction.EmbedText, a test's own).
func CheckEmbedded(tb testing.TB, s *cypher.Store, space string, nodes []realm.Node, emb realm.Embedder, text func(name, content string) string) {
	tb.Helper()
	ctx := context.Background()
	ids := make([]string, len(nodes))
	for i, n := range nodes {
		ids[i] = n.ID
	}
	got, err := s.MemoriesByIDs(ctx, space, ids)
	if err != nil {
		tb.Fatal(err)
	}
	if st, err := s.Stats(ctx, space); err != nil || st.Memories != int64(len(nodes)) || len(got) != len(nodes) {
		tb.Fatalf("space holds %d memories (%v), %d of ours; want %d", st.Memories, err, len(got), len(nodes))
	}
	byID := map[string]realm.Node{}
	for _, n := range got {
		byID[n.ID] = n
	}
	for _, want := range nodes {
		n := byID[want.ID]
		if n.Content != want.Content || n.Name != want.Name {
			tb.Errorf("memory %s now reads %q / %q, want %q / %q", want.ID, n.Name, n.Content, want.Name, want.Content)
		}
		vecs, err := emb.Embed(ctx, []string{text(want.Name, want.Content)})
		if err != nil {
			tb.Fatal(err)
		}
		if !CloseVectors(n.Embedding, vecs[0]) {
			tb.Errorf("memory %q has not %s's vector (%d dims)", want.Content, emb.ID(), len(n.Embedding))
		}
	}
}

// CloseVectors reports whether a and b are the same vector up to float32 rounding (the
// OpenAI client normalises what it receives again).
func CloseVectors(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > 1e-6 {
			return false
		}
	}
	return true
}
