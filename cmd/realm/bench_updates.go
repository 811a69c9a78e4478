package main

import (
	"context"
	"flag"
	"io"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/bench"
)

const benchUpdatesUsage = "usage: realm bench updates [FILE] [--speakers names|roles] [--k 10] [--space-prefix updates-] [--out report.json]"

// runBenchUpdates runs `realm bench updates`: each update scenario (the built-in set, or
// FILE) ingested into its own space, its "now" and "past" questions recalled, and the
// supersedes edges drawn counted.
func runBenchUpdates(ctx context.Context, args []string, getenv func(string) string, stdout, progress io.Writer) error {
	fs := flag.NewFlagSet("bench updates", flag.ContinueOnError)
	k := fs.Int("k", 10, "nodes recalled per question")
	prefix := fs.String("space-prefix", "updates-", "each scenario goes to space prefix+id, erased first")
	out := fs.String("out", "", "write the JSON report here, and the Markdown beside it (x.json → x.md)")
	speakers := fs.String("speakers", "names", `names: as written; roles: each scenario's person speaks as "user", the others as "assistant"`)
	cfg, err := loadConfig(fs, args, getenv)
	if err != nil {
		return err
	}
	path := ""
	switch len(cfg.Args) {
	case 0:
	case 1:
		path = cfg.Args[0]
	default:
		return realm.Errorf(realm.EInvalid, "one scenario file, not %d; %s", len(cfg.Args), benchUpdatesUsage)
	}
	set, err := bench.LoadUpdates(path)
	if err != nil {
		return realm.Errorf(realm.EInvalid, "%v", err)
	}
	roles, err := chatRoles(*speakers)
	if err != nil {
		return err
	}
	if roles {
		set = set.AsChatRoles()
	}
	d, p, err := openCommand(ctx, cfg)
	if err != nil {
		return err
	}
	defer d.close()
	rep, err := bench.RunUpdates(ctx, set, bench.UpdateDeps{Ingest: benchIngester{p.ingest}, Recall: p.recall, Graph: d.store}, *prefix, *k, progress)
	if err != nil {
		return err
	}
	if path == "" {
		path = "built-in (bench/testdata/updates.json)"
	}
	rep.Config = map[string]string{"embedder": d.embedder.ID(), "llm": cfg.LLM, "scenarios": path, "speakers": *speakers, "commit": bench.BuildInfo()["commit"]}
	return writeBenchReport(*out, rep, rep.Markdown(), nil, stdout, progress)
}
