package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/transfer"
)

// runExport writes the export of one space (transfer.Format) to --out, or to stdout.
// A file is written beside its target and renamed when complete, so an export that fails
// half way leaves no file that looks whole.
func runExport(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	space := fs.String("space", "", "the space to export (required)")
	out := fs.String("out", "", "the file to write (default: stdout)")
	cfg, err := loadConfig(fs, args, getenv)
	if err != nil {
		return err
	}
	if !realm.ValidSpace(*space) || len(cfg.Args) > 0 {
		return realm.Errorf(realm.EInvalid, "usage: realm export --space SPACE [--out FILE]")
	}
	store, err := cypher.Open(ctx, cfg.Neo4j)
	if err != nil {
		return err
	}
	defer store.Close(context.WithoutCancel(ctx))
	if *out == "" {
		_, err := transfer.Export(ctx, store, *space, stdout, nil)
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(*out), filepath.Base(*out)+".*.partial")
	if err != nil {
		return realm.Errorf(realm.EInvalid, "--out %s: %v", *out, err)
	}
	defer os.Remove(tmp.Name())
	counts, err := transfer.Export(ctx, store, *space, tmp, nil)
	if err == nil {
		err = tmp.Close()
	} else {
		tmp.Close()
	}
	if err == nil {
		err = os.Rename(tmp.Name(), *out)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "exported space %s to %s: %s\n", *space, *out, countsLine(counts))
	return nil
}

// runImport imports an export file into an empty space; --check only validates it.
func runImport(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	space := fs.String("space", "", "the space to import into, which must be empty (required unless --check)")
	check := fs.Bool("check", false, "only validate the file against the configured embedder; write nothing")
	cfg, err := loadConfig(fs, args, getenv)
	if err != nil {
		return err
	}
	if len(cfg.Args) != 1 || (!*check && !realm.ValidSpace(*space)) {
		return realm.Errorf(realm.EInvalid, "usage: realm import --space SPACE FILE  (or realm import --check FILE)")
	}
	file := cfg.Args[0]
	open := func() (io.ReadCloser, error) {
		f, err := os.Open(file)
		if err != nil {
			return nil, realm.Errorf(realm.EInvalid, "%v", err)
		}
		return f, nil
	}
	d, err := openDeps(ctx, cfg, newLogger(os.Stderr, "warn"))
	if err != nil {
		return err
	}
	defer d.close()
	// The command reaches the store itself, as only the operator does: a restore keeps its ids.
	opts := transfer.Options{Embedder: d.embedder.ID(), Dims: d.embedder.Dim(), KeepIDs: true}
	if *check {
		f, err := open()
		if err != nil {
			return err
		}
		defer f.Close()
		counts, err := transfer.Validate(f, opts)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s is a valid export for %s: %s\n", file, opts.Embedder, countsLine(counts))
		return nil
	}
	res, err := transfer.Import(ctx, d.store, *space, open, opts)
	if err != nil {
		return err
	}
	how := "with its ids"
	if res.IDsRewritten {
		how = "with new ids"
	}
	fmt.Fprintf(stdout, "imported space %s from %s (exported from %s, %s): %s\n", res.Space, file, res.SourceSpace, how, countsLine(res.Counts))
	return nil
}

// countsLine is "3 observations, 7 memories, …".
func countsLine(c transfer.Counts) string {
	kinds := make([]string, 0, len(c))
	for k := range c {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	parts := make([]string, 0, len(kinds))
	for _, k := range kinds {
		parts = append(parts, plural(int(c[k]), k))
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}
