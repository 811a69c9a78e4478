package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/realm-memory/realm"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

const usage = `usage: realm <command> [flags]

commands:
  serve          serve the HTTP API (applies the schema first)
  ingest         realm ingest --space S [--sample conv-26] FILE   (JSONL messages or a LoCoMo file)
  recall         realm recall --space S "question"
  bench          realm bench locomo FILE [--retrieval-only] [--reconsolidation on|off|both] [--out report.json]   (and longmemeval, scale; see README)
  reembed        realm reembed [--space S | --all] [--force]   (re-embed with the configured embedder)
  export         realm export --space S [--out FILE]   (the whole space as JSON Lines)
  import         realm import --space S FILE | --check FILE   (an export into an empty space)
  spaces         realm spaces [--prefix P]   (the spaces of the store, in id order)
  schema apply   apply the Neo4j schema migrations and wait until indexes are online
  loadtest       realm loadtest [--url URL] [--clients 32] [--duration 60s] [--shared]   (mixed traffic against a running server)
  healthcheck    exit 0 when the server at REALM_ADDR is ready (for container healthchecks)
  version        print the version

Configuration comes from the environment (see README.md, Configuration); flags override it.`

// run is the whole program: it parses args (args[0] is the program name), reads the
// environment through getenv and writes its output to stdout. `realm bench` writes its
// progress to the process's stderr, so that its stdout is the report alone.
func run(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	if len(args) < 2 {
		fmt.Fprintln(stdout, usage)
		return realm.Errorf(realm.EInvalid, "no command given")
	}
	cmd, rest := args[1], args[2:]
	switch cmd {
	case "serve":
		return runServe(ctx, rest, getenv, stdout)
	case "ingest":
		return runIngest(ctx, rest, getenv, stdout)
	case "recall":
		return runRecall(ctx, rest, getenv, stdout)
	case "bench":
		return runBench(ctx, rest, getenv, stdout, os.Stderr)
	case "reembed":
		return runReembed(ctx, rest, getenv, stdout)
	case "export":
		return runExport(ctx, rest, getenv, stdout)
	case "import":
		return runImport(ctx, rest, getenv, stdout)
	case "spaces":
		return runSpaces(ctx, rest, getenv, stdout)
	case "schema":
		if len(rest) == 0 || rest[0] != "apply" {
			return realm.Errorf(realm.EInvalid, "usage: realm schema apply")
		}
		return runSchemaApply(ctx, rest[1:], getenv, stdout)
	case "loadtest":
		return runLoadtest(ctx, rest, getenv, stdout)
	case "healthcheck":
		return runHealthcheck(ctx, getenv)
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, "realm", fullVersion())
		return nil
	case "help", "-h", "--help":
		fmt.Fprintln(stdout, usage)
		return nil
	}
	fmt.Fprintln(stdout, usage)
	return realm.Errorf(realm.EInvalid, "unknown command %q", cmd)
}

// fullVersion is the build's version plus its VCS revision when known.
func fullVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return version
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if rev == "" {
		return version
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	return strings.TrimSpace(version + " (" + rev + dirty + ")")
}
