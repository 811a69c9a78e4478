package cypher_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/embed"
)

// staleSpace makes a space recorded as embedded by "test:old" with dims dimensions: four
// memories carry vectors the hash embedder would not give them, one carries none.
func staleSpace(t *testing.T, s *cypher.Store, dims int) (string, []realm.Node) {
	t.Helper()
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	obs := []realm.Observation{{ID: "o1", Speaker: "Ana", Content: "Ana likes tea.", ObservedAt: time.Now()}}
	if _, err := s.SaveObservations(ctx, space, "test:old", dims, obs, testLease(space)); err != nil {
		t.Fatal(err)
	}
	old := embed.NewHash(dims)
	var nodes []realm.Node
	for i, content := range []string{"Ana likes green tea", "Ana moved to Lisbon in 2021", "Bo plays the cello", "Bo and Ana met at school", "a memory never embedded"} {
		n := realm.Node{ID: uuid.NewString(), Type: realm.Fact, Name: strings.Fields(content)[0], Content: content}
		if i < 4 {
			vecs, _ := old.Embed(ctx, []string{"stale " + content})
			n.Embedding = vecs[0]
		}
		nodes = append(nodes, n)
	}
	if err := s.PutMemories(ctx, space, nodes, nil); err != nil {
		t.Fatal(err)
	}
	return space, nodes
}

// recorded returns the embedder recorded for a space.
func recorded(t *testing.T, s *cypher.Store, space string) cypher.SpaceEmbedder {
	t.Helper()
	spaces, err := s.SpaceEmbedders(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, sp := range spaces {
		if sp.Space == space {
			return sp
		}
	}
	t.Fatalf("space %s is not listed", space)
	return cypher.SpaceEmbedder{}
}

// refusedToServe reports whether `realm serve` with emb would refuse the space. The
// space is looked for in the whole list, not in the error, which names only the first
// ListedSpaces of a shared database.
func refusedToServe(t *testing.T, s *cypher.Store, emb realm.Embedder, space string) bool {
	t.Helper()
	return checkRefuses(t, s, emb.ID(), emb.Dim(), "", space)
}

// checkRefuses reports whether CheckEmbedder(id, dims, unchecked) refuses the space, and
// fails the test unless its error agrees with SpacesOtherEmbedder and names the fix.
func checkRefuses(t *testing.T, s *cypher.Store, id string, dims int, unchecked, space string) bool {
	t.Helper()
	ctx := context.Background()
	others, err := s.SpacesOtherEmbedder(ctx, id, dims, unchecked)
	if err != nil {
		t.Fatal(err)
	}
	err = s.CheckEmbedder(ctx, id, dims, unchecked)
	if len(others) == 0 {
		if err != nil {
			t.Fatalf("CheckEmbedder: %v, but no space has another embedder", err)
		}
		return false
	}
	first := fmt.Sprintf("%s (%s, %d)", others[0].Space, others[0].Embedder, others[0].Dims)
	if realm.ErrorCode(err) != realm.EConflict || !strings.Contains(err.Error(), first) ||
		!strings.Contains(err.Error(), "realm reembed --space ID") {
		t.Fatalf("CheckEmbedder: %v, want a conflict naming %s and the fix", err, first)
	}
	if more := len(others) - cypher.ListedSpaces; more > 0 && !strings.Contains(err.Error(), fmt.Sprintf(" and %d more;", more)) {
		t.Errorf("the error does not count the %d spaces it does not name: %v", more, err)
	}
	for _, o := range others {
		if o.Space == space {
			return true
		}
	}
	return false
}

// reembedText is what the tests embed a memory from: not the bare content, so that they
// see ReembedOptions.Text used.
func reembedText(name, content string) string { return name + " | " + content }

func equalVectors(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// failingEmbedder embeds like Hash until its calls run out, then fails: an interruption.
type failingEmbedder struct {
	*embed.Hash
	calls int
}

func (f *failingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if f.calls == 0 {
		return nil, errors.New("embedder down")
	}
	f.calls--
	return f.Hash.Embed(ctx, texts)
}

// shortEmbedder claims Hash's dimension but returns shorter vectors.
type shortEmbedder struct{ *embed.Hash }

func (e shortEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return embed.NewHash(8).Embed(ctx, texts)
}

// TestCheckEmbedderUnchecked: a space embedded by another embedder is refused, with the
// fix, unless its id starts with the unchecked prefix (test runs' throwaway spaces).
func TestCheckEmbedderUnchecked(t *testing.T) {
	s := cyphertest.MustOpen(t)
	space, _ := staleSpace(t, s, cyphertest.Dims) // recorded as embedded by test:old
	hash := embed.NewHash(cyphertest.Dims)
	tests := []struct {
		name      string
		unchecked string
		refused   bool
	}{
		{"EveryoneChecked", "", true},
		{"OtherPrefix", "prod_", true},
		{"TestSpacesLeftOut", cyphertest.SpacePrefix, false},
		{"WholeID", space, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if refused := checkRefuses(t, s, hash.ID(), hash.Dim(), tt.unchecked, space); refused != tt.refused {
				t.Errorf("refused %v, want %v", refused, tt.refused)
			}
		})
	}
}

func TestReembedSpace(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	emb := embed.NewHash(cyphertest.Dims)
	opts := cypher.ReembedOptions{Text: reembedText, Batch: 2}

	t.Run("OK", func(t *testing.T) {
		space, nodes := staleSpace(t, s, cyphertest.Dims)
		other, otherNodes := staleSpace(t, s, cyphertest.Dims)
		if !refusedToServe(t, s, emb, space) {
			t.Fatal("serve would accept a space embedded by test:old")
		}
		var progress [][2]int
		opts := opts
		opts.Progress = func(done, total int) { progress = append(progress, [2]int{done, total}) }
		n, err := s.ReembedSpace(ctx, space, emb, opts)
		if err != nil || n != len(nodes) {
			t.Fatalf("re-embedded %d of %d memories: %v", n, len(nodes), err)
		}
		cyphertest.CheckEmbedded(t, s, space, nodes, emb, reembedText)
		if got := recorded(t, s, space); got.Embedder != emb.ID() || got.Dims != emb.Dim() {
			t.Errorf("space records %+v, want %s/%d", got, emb.ID(), emb.Dim())
		}
		if refusedToServe(t, s, emb, space) {
			t.Error("serve still refuses the re-embedded space")
		}
		if want := [][2]int{{2, 5}, {4, 5}, {5, 5}}; fmt.Sprint(progress) != fmt.Sprint(want) {
			t.Errorf("progress %v, want %v", progress, want)
		}
		// Tenancy: the other space keeps its vectors and its record.
		got, _ := s.MemoriesByIDs(ctx, other, []string{otherNodes[0].ID})
		if len(got) != 1 || !equalVectors(got[0].Embedding, otherNodes[0].Embedding) || recorded(t, s, other).Embedder != "test:old" {
			t.Error("re-embedding one space changed another")
		}

		t.Run("Twice", func(t *testing.T) {
			n, err := s.ReembedSpace(ctx, space, emb, cypher.ReembedOptions{Text: reembedText})
			if err != nil || n != len(nodes) {
				t.Fatalf("re-embedded %d of %d memories: %v", n, len(nodes), err)
			}
			cyphertest.CheckEmbedded(t, s, space, nodes, emb, reembedText)
		})
	})

	t.Run("InterruptedThenRedone", func(t *testing.T) {
		space, nodes := staleSpace(t, s, cyphertest.Dims)
		_, err := s.ReembedSpace(ctx, space, &failingEmbedder{Hash: emb, calls: 1}, opts)
		if err == nil {
			t.Fatal("no error from a failing embedder")
		}
		// Half its memories have new vectors: serve refuses it whichever embedder it runs.
		if rec := recorded(t, s, space); !strings.HasPrefix(rec.Embedder, "unfinished reembed to ") {
			t.Errorf("an interrupted space records %q", rec.Embedder)
		}
		if !refusedToServe(t, s, emb, space) {
			t.Error("serve would accept a half re-embedded space")
		}
		if _, err := s.ReembedSpace(ctx, space, emb, opts); err != nil {
			t.Fatal(err)
		}
		cyphertest.CheckEmbedded(t, s, space, nodes, emb, reembedText)
		if refusedToServe(t, s, emb, space) {
			t.Error("serve still refuses the space")
		}
	})

	t.Run("ErrVectorOfAnotherDimension", func(t *testing.T) {
		space, nodes := staleSpace(t, s, cyphertest.Dims)
		if _, err := s.ReembedSpace(ctx, space, shortEmbedder{emb}, opts); err == nil || !strings.Contains(err.Error(), "dimension 8") {
			t.Fatalf("got %v, want an error naming the vectors' dimension", err)
		}
		got, _ := s.MemoriesByIDs(ctx, space, []string{nodes[0].ID})
		if len(got) != 1 || !equalVectors(got[0].Embedding, nodes[0].Embedding) {
			t.Error("a wrong vector was written")
		}
	})
}

func TestRebuildVectorIndex(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()

	t.Run("ErrOtherDimensionEmbedded", func(t *testing.T) {
		space, _ := staleSpace(t, s, cyphertest.Dims)
		err := s.RebuildVectorIndex(ctx, 8)
		misfits, lerr := s.SpacesWithOtherDims(ctx, 8, nil)
		if lerr != nil || len(misfits) == 0 {
			t.Fatalf("spaces of another dimension: %v %v", misfits, lerr)
		}
		// The error names the first spaces of a shared database; ours is in the whole list.
		if realm.ErrorCode(err) != realm.EConflict || !strings.Contains(err.Error(), misfits[0].String()) || !strings.Contains(err.Error(), "--all") {
			t.Fatalf("got %v, want a conflict naming %s and --all", err, misfits[0])
		}
		if !slices.ContainsFunc(misfits, func(c cypher.SpaceCount) bool { return c.Space == space }) {
			t.Errorf("%s is not among the spaces of another dimension: %v", space, misfits)
		}
		if dims, err := s.VectorIndexDims(ctx); err != nil || dims != cyphertest.Dims {
			t.Errorf("vector index has %d dims (%v), want %d untouched", dims, err, cyphertest.Dims)
		}
	})

	// The vector index is global: the dimension changes only on a database that holds no
	// other space's vectors, and the test gives it back its 384 dimensions at the end.
	t.Run("DimensionChange", func(t *testing.T) {
		const dims = 8
		space, nodes := staleSpace(t, s, cyphertest.Dims)
		others, err := s.SpacesWithOtherDims(ctx, dims, []string{space})
		if err != nil {
			t.Fatal(err)
		}
		if len(others) > 0 {
			t.Skipf("the database holds other spaces' vectors (%v): changing the dimension needs all of them", others)
		}
		t.Cleanup(func() {
			if _, err := s.DeleteSpace(ctx, space); err != nil {
				t.Error(err)
			}
			if err := s.RebuildVectorIndex(ctx, cyphertest.Dims); err != nil {
				t.Errorf("restoring the vector index: %v", err)
			}
		})
		emb := embed.NewHash(dims)
		if err := s.RebuildVectorIndex(ctx, dims); realm.ErrorCode(err) != realm.EConflict {
			t.Fatalf("rebuilt the index over %d-dim vectors: %v", cyphertest.Dims, err)
		}
		if _, err := s.ReembedSpace(ctx, space, emb, cypher.ReembedOptions{Text: reembedText}); err != nil {
			t.Fatal(err)
		}
		if err := s.RebuildVectorIndex(ctx, dims); err != nil {
			t.Fatal(err)
		}
		if got, err := s.VectorIndexDims(ctx); err != nil || got != dims {
			t.Fatalf("vector index has %d dims (%v), want %d", got, err, dims)
		}
		if ok, reason, err := s.SchemaReady(ctx, dims); !ok || err != nil {
			t.Fatalf("schema not ready: %s %v", reason, err)
		}
		cyphertest.CheckEmbedded(t, s, space, nodes, emb, reembedText)
		// The new index answers with the space's memories.
		q, _ := emb.Embed(ctx, []string{reembedText(nodes[1].Name, nodes[1].Content)})
		found, err := s.SeedByVectorIndex(ctx, space, cypher.SeedQuery{Embedding: q[0], Limit: 1}, 10)
		if err != nil || len(found) == 0 || found[0].Node.ID != nodes[1].ID {
			t.Errorf("vector index search found %v (%v), want memory %s", found, err, nodes[1].ID)
		}
		if refusedToServe(t, s, emb, space) {
			t.Error("serve refuses the re-embedded space")
		}
	})
}
