package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
)

// runSpaces lists the spaces of the store in id order, those whose id starts with
// --prefix when it is given: id, creation time and embedder, one line each.
func runSpaces(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("spaces", flag.ContinueOnError)
	prefix := fs.String("prefix", "", "only the spaces whose id starts with it")
	cfg, err := loadConfig(fs, args, getenv)
	if err != nil {
		return err
	}
	if len(cfg.Args) > 0 {
		return realm.Errorf(realm.EInvalid, "usage: realm spaces [--prefix P]")
	}
	store, err := cypher.Open(ctx, cfg.Neo4j)
	if err != nil {
		return err
	}
	defer store.Close(context.WithoutCancel(ctx))
	keep := func(id string) bool { return strings.HasPrefix(id, *prefix) }
	n := 0
	for after, more := "", true; more; {
		var page []cypher.SpaceInfo
		if page, more, err = store.ListSpaces(ctx, []string{*prefix}, keep, after, 1000); err != nil {
			return err
		}
		for _, s := range page {
			created := "-"
			if !s.CreatedAt.IsZero() {
				created = s.CreatedAt.Format(time.RFC3339)
			}
			fmt.Fprintf(stdout, "%-40s %-20s %s\n", s.ID, created, s.Embedder)
			after = s.ID
		}
		n += len(page)
	}
	fmt.Fprintf(stdout, "total: %d\n", n)
	return nil
}
