package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/realm-memory/realm"
)

// runRecall asks one question of a space and prints the evidence as a table, each
// content on one line of at most 100 characters, or with --json the whole answer as
// GET /v1/spaces/{space}/recall gives it (a runbook's command read in full).
func runRecall(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("recall", flag.ContinueOnError)
	space := fs.String("space", "", "space to ask (required)")
	k := fs.Int("k", 10, "nodes to return")
	strategy := fs.String("strategy", "", "adaptive, path_search or subgraph_beam")
	minScore := fs.Float64("min-score", 0, "leave out nodes scoring below this, 0 to 1 (0: none)")
	asJSON := fs.Bool("json", false, "print the whole answer as JSON, contents in full, as the HTTP API answers")
	cfg, err := loadConfig(fs, args, getenv)
	if err != nil {
		return err
	}
	if !realm.ValidSpace(*space) || len(cfg.Args) == 0 {
		return realm.Errorf(realm.EInvalid, `usage: realm recall --space SPACE "question"`)
	}
	req := realm.RecallRequest{Query: strings.Join(cfg.Args, " "), K: *k, Strategy: realm.Strategy(*strategy), MinScore: *minScore}
	if err := req.Validate(); err != nil {
		return err
	}
	d, p, err := openCommand(ctx, cfg)
	if err != nil {
		return err
	}
	defer d.close()
	// As over HTTP: a space that an import is filling would be read half written.
	if err := d.store.CheckNotImporting(ctx, *space); err != nil {
		return err
	}
	// As over HTTP: a space that holds no memory (a typo among them) has nothing to
	// recall, and an empty table would look like an answer.
	holds, err := d.store.HoldsMemory(ctx, *space)
	if err != nil {
		return err
	}
	if !holds {
		return realm.Errorf(realm.ENotFound, "space %q holds no memory yet: nothing to recall (realm spaces lists the spaces)", *space)
	}
	res, err := p.recall.Recall(ctx, *space, req)
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(res)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tSCORE\tDEPTH\tTYPE\tTIME\tCONTENT")
	for i, n := range res.Nodes {
		when := ""
		if n.Node.TStart != nil {
			when = n.Node.TStart.Format("2006-01-02")
		}
		fmt.Fprintf(tw, "%d\t%.3f\t%d\t%s\t%s\t%s\n", i+1, n.Score, n.Depth, n.Node.Type, when, truncate(n.Node.Content, 100))
	}
	tw.Flush()
	fmt.Fprintf(stdout, "trace %s, %d edges among them\n", res.TraceID, len(res.Edges))
	return nil
}

func truncate(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
