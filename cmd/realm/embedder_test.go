package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/rs/zerolog"

	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/embed"
)

// TestServeEmbedderFollowsStore: with REALM_EMBEDDER empty, serve runs the local model the
// store's spaces were embedded with, the int8 one on a store holding none, and says why;
// an explicit REALM_EMBEDDER wins. The store is the tests' database as serve sees it,
// without the test spaces testEnv leaves out: a case is skipped when it holds spaces of
// the other local model (another run's, not ours to erase).
func TestServeEmbedderFollowsStore(t *testing.T) {
	store := cyphertest.MustOpen(t)
	ctx := context.Background()
	if !embed.LocalInstalled(embed.DefaultModelDir(testEnv(nil))) {
		if os.Getenv("CI") != "" {
			t.Fatal("the local model is not installed")
		}
		t.Skip("the local model is not installed")
	}
	holds := func(t *testing.T, id string) bool {
		t.Helper()
		spaces, err := store.EmbeddedSpaces(ctx, cyphertest.SpacePrefix)
		if err != nil {
			t.Fatal(err)
		}
		return slices.ContainsFunc(spaces, func(s cypher.SpaceEmbedder) bool { return s.Embedder == id })
	}
	served := func(t *testing.T, base string) string {
		t.Helper()
		var info struct{ Embedder struct{ ID string } }
		if code := getJSON(t, base+"/v1/info", &info); code != http.StatusOK {
			t.Fatalf("info: status %d", code)
		}
		return info.Embedder.ID
	}

	t.Run("FreshStore", func(t *testing.T) {
		if holds(t, embed.LocalID) || holds(t, embed.LocalQID) {
			t.Skip("the tests' database holds spaces of a local model besides test spaces")
		}
		base, log := startServeLog(t, testEnv(nil))
		if id := served(t, base); id != embed.LocalQID {
			t.Errorf("serving with %s, want %s", id, embed.LocalQID)
		}
		if want := "no space of the store is embedded with a local model"; !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	})

	// A model directory set up before the int8 model shipped: a fresh store gets fp32.
	t.Run("FreshStoreWithoutInt8Model", func(t *testing.T) {
		if holds(t, embed.LocalID) || holds(t, embed.LocalQID) {
			t.Skip("the tests' database holds spaces of a local model besides test spaces")
		}
		src, dir := embed.DefaultModelDir(testEnv(nil)), t.TempDir()
		for _, f := range []string{"model.onnx", "tokenizer.json", "libonnxruntime.so"} {
			if err := os.Symlink(filepath.Join(src, f), filepath.Join(dir, f)); err != nil {
				t.Fatal(err)
			}
		}
		// ONNX Runtime loads once a process: the path the other tests load it from.
		base, log := startServeLog(t, testEnv(map[string]string{
			"REALM_MODEL_DIR": dir, "REALM_ORT_LIB": filepath.Join(src, "libonnxruntime.so")}))
		if id := served(t, base); id != embed.LocalID {
			t.Errorf("serving with %s, want %s", id, embed.LocalID)
		}
		if want := "but it is not installed"; !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	})

	t.Run("Fp32Store", func(t *testing.T) {
		if holds(t, embed.LocalQID) {
			t.Skip("the tests' database holds spaces of " + embed.LocalQID + " besides test spaces")
		}
		local, err := embed.New(embed.Config{Kind: embed.KindLocal, Local: embed.LocalConfig{ModelDir: embed.DefaultModelDir(testEnv(nil))}}, zerolog.Nop())
		if err != nil {
			t.Fatal(err)
		}
		// Not a test space: serve under test leaves those out, and must see this one.
		space := "follow_" + strings.ReplaceAll(uuid.NewString(), "-", "")[:12]
		t.Cleanup(func() {
			if _, err := store.DeleteSpace(context.Background(), space); err != nil {
				t.Errorf("erasing %s: %v", space, err)
			}
		})
		fillSpace(t, store, space, local.ID(), local, construction.EmbedText)

		base, log := startServeLog(t, testEnv(nil))
		if id := served(t, base); id != embed.LocalID {
			t.Errorf("serving with %s, want %s", id, embed.LocalID)
		}
		if want := "the store holds spaces embedded with " + embed.LocalID; !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
		var res struct {
			Nodes []struct{ Node struct{ Content string } }
		}
		code := send(t, "POST", base+"/v1/spaces/"+space+"/recall", map[string]any{"query": "Who plays the cello?"}, &res)
		if code != http.StatusOK || len(res.Nodes) == 0 || res.Nodes[0].Node.Content != "Bo plays the cello" {
			t.Errorf("recall: status %d, %+v; want Bo's memory first", code, res.Nodes)
		}

		t.Run("ReembedKeepsIt", func(t *testing.T) {
			var out strings.Builder
			if err := run(ctx, []string{"realm", "reembed", "--space", space}, testEnv(nil), &out); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			if want := space + ": already embedded with " + embed.LocalID + ", skipped"; !strings.Contains(out.String(), want) {
				t.Errorf("output lacks %q:\n%s", want, out.String())
			}
		})
		t.Run("ExplicitWins", func(t *testing.T) {
			failures := startServeFailure(t, testEnv(map[string]string{"REALM_EMBEDDER": embed.KindLocalQ}))
			if len(failures) != 1 || !strings.Contains(failures[0], "the configured embedder is "+embed.LocalQID) ||
				!strings.Contains(failures[0], space+" ("+embed.LocalID) {
				t.Errorf("failures %q, want serve to refuse %s, embedded with %s", failures, space, embed.LocalID)
			}
		})
	})
}
