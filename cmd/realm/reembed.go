package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/bench"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/embed"
)

// runReembed re-embeds the memories of one space (--space) or of every space (no --space,
// or --all) with the configured embedder, records that embedder for them and gives the
// vector index its dimension: what `realm serve` needs to start again after the embedder
// changed. Servers must be stopped while it runs. It is safe to run again: spaces already
// recorded with the embedder are skipped (unless --force), an interrupted space is redone.
func runReembed(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("reembed", flag.ContinueOnError)
	space := fs.String("space", "", "the space to re-embed (default: every space)")
	all := fs.Bool("all", false, "re-embed every space (needed when the dimension changes)")
	force := fs.Bool("force", false, "also re-embed spaces already recorded with the configured embedder")
	batch := fs.Int("batch", 256, "memories per embedding call and write transaction")
	cfg, err := loadConfig(fs, args, getenv)
	if err != nil {
		return err
	}
	if len(cfg.Args) > 0 || *all && *space != "" || *space != "" && !realm.ValidSpace(*space) || *batch <= 0 {
		return realm.Errorf(realm.EInvalid, "usage: realm reembed [--space SPACE | --all] [--force] [--batch 256]")
	}
	// Rewriting every vector with the weak fallback by accident would be costly to undo.
	if cfg.Embed.Kind == "" && !embed.LocalInstalled(cfg.Embed.Local.ModelDir) {
		return realm.Errorf(realm.EInvalid, "the local embedding model is not installed (run %s); "+
			"to re-embed with the weak hash embedder, set REALM_EMBEDDER=hash", embed.SetupCommand)
	}
	d := &deps{}
	defer d.close()
	if d.store, err = cypher.Open(ctx, cfg.Neo4j); err != nil {
		return err
	}
	// With REALM_EMBEDDER empty, the model `realm serve` would choose: the local model of
	// the store's spaces (fp32 if it holds both), else the int8 one for spaces of others.
	embCfg, _, err := resolveEmbedder(ctx, d.store, cfg)
	if err != nil {
		return err
	}
	if d.embedder, err = embed.New(embCfg, newLogger(os.Stderr, "warn")); err != nil {
		return err
	}
	emb := d.embedder
	targets, err := reembedTargets(ctx, d.store, *space, emb.Dim())
	if err != nil {
		return err
	}

	fmt.Fprintf(stdout, "re-embedding %s with %s (%d dims)\n", plural(len(targets), "space"), emb.ID(), emb.Dim())
	start := time.Now()
	memories, spaces := 0, 0
	for _, sp := range targets {
		if sp.Embedder == emb.ID() && sp.Dims == emb.Dim() && !*force {
			fmt.Fprintf(stdout, "%s: already embedded with %s, skipped (--force re-embeds it)\n", sp.Space, emb.ID())
			continue
		}
		spaceStart := time.Now()
		n, err := d.store.ReembedSpace(ctx, sp.Space, emb, cypher.ReembedOptions{
			Text:  construction.EmbedText,
			Batch: *batch,
			Progress: func(done, total int) {
				fmt.Fprintf(stdout, "\r%s", bench.ProgressLine(sp.Space, done, total, time.Since(spaceStart)))
			},
		})
		if err != nil {
			fmt.Fprintf(stdout, "\n%s is unfinished and `realm serve` refuses it: run the same command again\n", sp.Space)
			return err
		}
		if n == 0 {
			fmt.Fprintf(stdout, "%s: no memories\n", sp.Space)
		} else {
			fmt.Fprintf(stdout, "\r%s\n", bench.ProgressLine(sp.Space, n, n, time.Since(spaceStart)))
		}
		memories += n
		spaces++
	}
	if err := d.store.RebuildVectorIndex(ctx, emb.Dim()); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "re-embedded %s of %s in %.1f s; vector index: %d dims, ONLINE\n",
		plural(memories, "memory"), plural(spaces, "space"), time.Since(start).Seconds(), emb.Dim())

	// The same check as `realm serve` at start: say whether it will start now.
	err = d.store.CheckEmbedder(ctx, emb.ID(), emb.Dim(), cfg.UncheckedSpaces)
	switch realm.ErrorCode(err) {
	case "":
		fmt.Fprintf(stdout, "every space is embedded with %s: `realm serve` can start\n", emb.ID())
	case realm.EConflict:
		fmt.Fprintf(stdout, "`realm serve` still refuses to start: %s\n", realm.ErrorMessage(err))
	default:
		return err
	}
	return nil
}

// reembedTargets returns the space named, or every space when none is. One space alone
// cannot change the dimension of the vector index, which all spaces share: if other
// spaces hold vectors of another dimension it refuses before anything is written.
func reembedTargets(ctx context.Context, store *cypher.Store, space string, dims int) ([]cypher.SpaceEmbedder, error) {
	spaces, err := store.SpaceEmbedders(ctx)
	if err != nil || space == "" {
		return spaces, err
	}
	var target []cypher.SpaceEmbedder
	for _, s := range spaces {
		if s.Space == space {
			target = append(target, s)
		}
	}
	if len(target) == 0 {
		return nil, realm.Errorf(realm.ENotFound, "space %q not found", space)
	}
	indexDims, err := store.VectorIndexDims(ctx)
	if err != nil || indexDims == dims {
		return target, err
	}
	others, err := store.SpacesWithOtherDims(ctx, dims, []string{space})
	if err != nil {
		return nil, err
	}
	if len(others) > 0 {
		return nil, realm.Errorf(realm.EConflict,
			"the vector index, shared by every space, must take the embedder's dimension %d, but other spaces "+
				"hold vectors of another (%s): re-embed them all with `realm reembed --all`",
			dims, cypher.JoinCounts(others))
	}
	return target, nil
}

// plural is "1 space", "2 spaces", "2 memories".
func plural(n int, noun string) string {
	switch {
	case n == 1:
		return "1 " + noun
	case strings.HasSuffix(noun, "y"):
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(noun, "y"))
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
