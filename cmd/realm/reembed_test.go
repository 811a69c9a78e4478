package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/embed"
)

// staleSpace makes a space recorded as embedded by "test:old", its memories carrying
// vectors of dims dimensions that no configured embedder gives them.
func staleSpace(t *testing.T, store *cypher.Store, dims int) (string, []realm.Node) {
	old := embed.NewHash(dims)
	return embeddedSpace(t, store, "test:old", old, func(_, content string) string { return "stale " + content })
}

// embeddedSpace makes a space recorded as embedded by id, its three memories carrying
// emb's vectors of text(name, content).
func embeddedSpace(t *testing.T, store *cypher.Store, id string, emb realm.Embedder, text func(name, content string) string) (string, []realm.Node) {
	t.Helper()
	space := cyphertest.NewSpace(t)
	return space, fillSpace(t, store, space, id, emb, text)
}

// fillSpace gives space an observation and three memories, recorded as embedded by id,
// carrying emb's vectors of text(name, content), and returns the memories.
func fillSpace(t *testing.T, store *cypher.Store, space, id string, emb realm.Embedder, text func(name, content string) string) []realm.Node {
	t.Helper()
	ctx := context.Background()
	obs := []realm.Observation{{ID: "o1", Speaker: "Ana", Content: "Ana likes tea.", ObservedAt: time.Now()}}
	lease := cypher.Lease{Owner: "owner-" + space, Until: time.Now().Add(time.Hour)}
	if _, err := store.SaveObservations(ctx, space, id, emb.Dim(), obs, lease); err != nil {
		t.Fatal(err)
	}
	var nodes []realm.Node
	for _, m := range [][2]string{{"Ana", "Ana likes green tea"}, {"Lisbon", "Ana moved there in 2021"}, {"Bo", "Bo plays the cello"}} {
		vecs, err := emb.Embed(ctx, []string{text(m[0], m[1])})
		if err != nil {
			t.Fatal(err)
		}
		nodes = append(nodes, realm.Node{ID: uuid.NewString(), Type: realm.Fact, Name: m[0], Content: m[1], Embedding: vecs[0]})
	}
	if err := store.PutMemories(ctx, space, nodes, nil); err != nil {
		t.Fatal(err)
	}
	return nodes
}

// fakeEmbeddings serves OpenAI's /v1/embeddings with the hash embedder of dims dimensions
// and returns the environment that configures it: an embedder of another dimension.
func fakeEmbeddings(t *testing.T, dims int) (map[string]string, realm.Embedder) {
	t.Helper()
	h := embed.NewHash(dims)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		vecs, _ := h.Embed(r.Context(), req.Input)
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		data := make([]item, len(vecs))
		for i, v := range vecs {
			data[i] = item{Object: "embedding", Index: i, Embedding: v}
		}
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "model": "test-embed", "data": data})
	}))
	t.Cleanup(srv.Close)
	return map[string]string{
		"REALM_EMBEDDER": "openai", "OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_API_KEY": "test",
		"REALM_EMBED_MODEL": "test-embed", "REALM_EMBED_DIM": strconv.Itoa(dims),
	}, h
}

// refusesToServe reports whether `realm serve` with this embedder, checking every space,
// refuses the space. The space is looked for in the whole list, not in the error, which
// names only the first spaces of a shared database.
func refusesToServe(t *testing.T, store *cypher.Store, id string, dims int, space string) bool {
	t.Helper()
	ctx := context.Background()
	others, err := store.SpacesOtherEmbedder(ctx, id, dims, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := store.CheckEmbedder(ctx, id, dims, ""); (err != nil) != (len(others) > 0) ||
		err != nil && realm.ErrorCode(err) != realm.EConflict {
		t.Fatalf("CheckEmbedder: %v, with %d spaces of another embedder", err, len(others))
	}
	return slices.ContainsFunc(others, func(o cypher.SpaceEmbedder) bool { return o.Space == space })
}

func TestReembed(t *testing.T) {
	store := cyphertest.MustOpen(t)
	ctx := context.Background()
	env := testEnv(map[string]string{"REALM_EMBEDDER": "hash"})
	hash := embed.NewHash(cyphertest.Dims)
	space, nodes := staleSpace(t, store, cyphertest.Dims)
	reembed := func(t *testing.T, args ...string) string {
		t.Helper()
		var out strings.Builder
		if err := run(ctx, append([]string{"realm", "reembed"}, args...), env, &out); err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		return out.String()
	}
	if !refusesToServe(t, store, hash.ID(), hash.Dim(), space) {
		t.Fatal("serve would accept a space embedded by test:old")
	}

	out := reembed(t, "--space", space, "--batch", "2")
	for _, want := range []string{space + " [########################] 3/3", "re-embedded 3 memories of 1 space", "384 dims, ONLINE"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	cyphertest.CheckEmbedded(t, store, space, nodes, hash, construction.EmbedText)
	if refusesToServe(t, store, hash.ID(), hash.Dim(), space) {
		t.Errorf("serve still refuses the space:\n%s", out)
	}

	t.Run("TwiceSkips", func(t *testing.T) {
		out := reembed(t, "--space", space)
		if !strings.Contains(out, space+": already embedded with hash:v1, skipped") {
			t.Errorf("output:\n%s", out)
		}
		cyphertest.CheckEmbedded(t, store, space, nodes, hash, construction.EmbedText)
	})
	t.Run("Force", func(t *testing.T) {
		out := reembed(t, "--space", space, "--force")
		if !strings.Contains(out, "re-embedded 3 memories of 1 space") {
			t.Errorf("output:\n%s", out)
		}
		cyphertest.CheckEmbedded(t, store, space, nodes, hash, construction.EmbedText)
	})
}

// Switching between the local model and its int8 quantization (same dimension) is a
// change of embedder: serve refuses the spaces of the other until `realm reembed`.
func TestReembedLocalQuantized(t *testing.T) {
	store := cyphertest.MustOpen(t)
	dir := embed.DefaultModelDir(os.Getenv)
	local, err := embed.New(embed.Config{Kind: embed.KindLocal, Local: embed.LocalConfig{ModelDir: dir}}, zerolog.Nop())
	var quantized realm.Embedder
	if err == nil {
		quantized, err = embed.New(embed.Config{Kind: embed.KindLocalQ, Local: embed.LocalConfig{ModelDir: dir}}, zerolog.Nop())
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	space, nodes := embeddedSpace(t, store, local.ID(), local, construction.EmbedText)
	if !refusesToServe(t, store, quantized.ID(), quantized.Dim(), space) || refusesToServe(t, store, local.ID(), local.Dim(), space) {
		t.Fatalf("serve with %s should refuse a space of %s, and serve with %s accept it", quantized.ID(), local.ID(), local.ID())
	}

	var out strings.Builder
	env := testEnv(map[string]string{"REALM_EMBEDDER": embed.KindLocalQ, "REALM_MODEL_DIR": dir})
	if err := run(context.Background(), []string{"realm", "reembed", "--space", space}, env, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if want := "re-embedding 1 space with " + quantized.ID(); !strings.Contains(out.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, out.String())
	}
	// The int8 model quantizes a batch's activations together, so a text's vector depends a
	// little on the texts embedded with it (cosine ≥ 0.99): compared by cosine, not exactly.
	got, err := store.MemoriesByIDs(context.Background(), space, []string{nodes[0].ID, nodes[1].ID, nodes[2].ID})
	if err != nil || len(got) != len(nodes) {
		t.Fatalf("%d memories (%v), want %d", len(got), err, len(nodes))
	}
	for _, n := range got {
		want, err := quantized.Embed(context.Background(), []string{construction.EmbedText(n.Name, n.Content)})
		if err != nil {
			t.Fatal(err)
		}
		old := nodes[slices.IndexFunc(nodes, func(o realm.Node) bool { return o.ID == n.ID })].Embedding
		if cosine(n.Embedding, want[0]) < 0.98 || cyphertest.CloseVectors(n.Embedding, old) {
			t.Errorf("memory %q: cosine %.4f to %s's vector, or still %s's", n.Content, cosine(n.Embedding, want[0]), quantized.ID(), local.ID())
		}
	}
	if refusesToServe(t, store, quantized.ID(), quantized.Dim(), space) || !refusesToServe(t, store, local.ID(), local.Dim(), space) {
		t.Errorf("after reembed, serve with %s should accept the space and serve with %s refuse it", quantized.ID(), local.ID())
	}
}

func TestReembedErrors(t *testing.T) {
	store := cyphertest.MustOpen(t)
	ctx := context.Background()
	target, nodes := staleSpace(t, store, cyphertest.Dims)
	other, _ := staleSpace(t, store, cyphertest.Dims) // 384-dim vectors the 8-dim index would lose
	openai8, _ := fakeEmbeddings(t, 8)
	hash := map[string]string{"REALM_EMBEDDER": "hash"}
	tests := []struct {
		name string
		env  map[string]string
		args []string
		code string
		want string // in the error
	}{
		{"ErrSpaceAndAll", hash, []string{"--space", target, "--all"}, realm.EInvalid, "usage"},
		{"ErrBadSpace", hash, []string{"--space", "no spaces"}, realm.EInvalid, "usage"},
		{"ErrBadBatch", hash, []string{"--space", target, "--batch", "0"}, realm.EInvalid, "usage"},
		{"ErrFallbackEmbedder", map[string]string{"REALM_MODEL_DIR": t.TempDir()}, []string{"--space", target}, realm.EInvalid, "REALM_EMBEDDER=hash"},
		{"ErrUnknownSpace", hash, []string{"--space", "test_no_such_space"}, realm.ENotFound, "test_no_such_space"},
		{"ErrDimensionChangeNeedsAll", openai8, []string{"--space", target}, realm.EConflict, "--all"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(ctx, append([]string{"realm", "reembed"}, tt.args...), testEnv(tt.env), &strings.Builder{})
			if realm.ErrorCode(err) != tt.code || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %s naming %q", err, tt.code, tt.want)
			}
		})
	}
	t.Run("ErrDimensionChangeNamesOthers", func(t *testing.T) {
		err := run(ctx, []string{"realm", "reembed", "--space", target}, testEnv(openai8), &strings.Builder{})
		// The error names the first of the others, which on a shared database may not be ours.
		others, lerr := store.SpacesWithOtherDims(ctx, 8, []string{target})
		if lerr != nil || !slices.ContainsFunc(others, func(c cypher.SpaceCount) bool { return c.Space == other }) {
			t.Fatalf("%s is not among the other spaces %v (%v)", other, others, lerr)
		}
		if err == nil || !strings.Contains(err.Error(), others[0].String()) {
			t.Errorf("got %v, want the other spaces named, from %s", err, others[0])
		}
	})
	t.Run("NothingWritten", func(t *testing.T) {
		got, err := store.MemoriesByIDs(ctx, target, []string{nodes[0].ID})
		if err != nil || len(got) != 1 || !cyphertest.CloseVectors(got[0].Embedding, nodes[0].Embedding) {
			t.Errorf("a refused re-embed changed a vector (%v)", err)
		}
		if refusesToServe(t, store, "test:old", cyphertest.Dims, target) {
			t.Error("a refused re-embed changed the space's record")
		}
	})
}

// TestReembedAllNewDimension runs the whole dimension change: every space re-embedded,
// the vector index rebuilt. The index is global, so it runs only on a database holding no
// other space, and gives the index back its 384 dimensions at the end.
func TestReembedAllNewDimension(t *testing.T) {
	store := cyphertest.MustOpen(t)
	ctx := context.Background()
	space, nodes := staleSpace(t, store, cyphertest.Dims)
	spaces, err := store.SpaceEmbedders(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(spaces) != 1 {
		t.Skipf("the database holds %d other spaces, which --all would re-embed", len(spaces)-1)
	}
	t.Cleanup(func() {
		if _, err := store.DeleteSpace(ctx, space); err != nil {
			t.Error(err)
		}
		if err := store.RebuildVectorIndex(ctx, cyphertest.Dims); err != nil {
			t.Errorf("restoring the vector index: %v", err)
		}
	})
	env, emb := fakeEmbeddings(t, 8)
	if !refusesToServe(t, store, "openai:test-embed", 8, space) {
		t.Fatal("serve would accept a space of 384-dim vectors with an 8-dim embedder")
	}
	var out strings.Builder
	if err := run(ctx, []string{"realm", "reembed"}, testEnv(env), &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "8 dims, ONLINE") || !strings.Contains(out.String(), "`realm serve` can start") {
		t.Errorf("output:\n%s", out.String())
	}
	if dims, err := store.VectorIndexDims(ctx); err != nil || dims != 8 {
		t.Errorf("vector index has %d dims (%v), want 8", dims, err)
	}
	cyphertest.CheckEmbedded(t, store, space, nodes, emb, construction.EmbedText)
	if err := store.CheckEmbedder(ctx, "openai:test-embed", 8, ""); err != nil {
		t.Error(err)
	}
}

// cosine of two unit vectors.
func cosine(a, b []float32) float64 {
	var dot float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
	}
	return dot
}
