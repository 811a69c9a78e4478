package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/realm-memory/realm"
)

// command is one of realm's commands as `realm help` lists it.
type command struct {
	name  string
	args  string // the positional arguments, after the flags
	about string
	run   func(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error
}

// commands are realm's commands in the order `realm help` lists them. Their flags are not
// written here: `realm help` asks each command for its flag set (-h), so that the list
// cannot drift from what the commands accept.
var commands = []command{
	{"serve", "", "serve the HTTP API (applies the schema first)", withStderr(runServe)},
	{"ingest", "FILE", "ingest JSONL messages or a LoCoMo file (--sample picks its conversation); each line one message as " +
		"POST /v1/spaces/{space}/observations takes it (id, session_id, speaker and/or role, content, timestamp), with its checks", runIngest},
	{"recall", `"question"`, "ask a space; the evidence as a table", runRecall},
	{"bench", "locomo|longmemeval|updates|scale [flags] [FILE]", "benchmarks (see README); realm bench NAME -h lists the flags of each", withStderr(runBench)},
	{"reembed", "", "re-embed with the configured embedder (--space S or --all)", runReembed},
	{"export", "", "the whole space as JSON Lines (stdout without --out)", runExport},
	{"import", "FILE", "an export into an empty space; --check FILE only validates", runImport},
	{"spaces", "", "the spaces of the store, in id order", runSpaces},
	{"schema", "apply", "apply the Neo4j schema migrations and wait until indexes are online", runSchema},
	{"loadtest", "", "mixed traffic against a running server", runLoadtest},
	{"healthcheck", "", "exit 0 when the server at REALM_ADDR is ready (for container healthchecks)", runHealthcheck},
	{"version", "", "print the version and the build's revision", runVersion},
}

// benchArgs are the positional arguments of the benchmarks, subcommands of bench that
// commands does not list.
var benchArgs = map[string]string{"bench locomo": "[FILE]", "bench longmemeval": "FILE", "bench updates": "[FILE]"}

// withStderr is run writing to the process's stderr what is not its output: bench's
// progress, serve's lines for people.
func withStderr(run func(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error) func(context.Context, []string, func(string) string, io.Writer) error {
	return func(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
		return run(ctx, args, getenv, stdout, os.Stderr)
	}
}

// helpError is what parsing a command's flags returns for -h or --help: run prints the
// command's usage and flags on stdout and succeeds.
type helpError struct{ fs *flag.FlagSet }

func (e *helpError) Error() string { return "help requested" }

// parseFlags parses args into fs: -h or --help is a helpError, a bad flag EInvalid.
func parseFlags(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return &helpError{fs}
	}
	if err != nil {
		return realm.Errorf(realm.EInvalid, "%s: %v", fs.Name(), err)
	}
	return nil
}

// printHelp writes the usage of the command whose flags are fs: its synopsis, what it
// does, and each flag with its default.
func printHelp(w io.Writer, fs *flag.FlagSet) {
	var about string
	line := "usage: realm " + fs.Name()
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		line += " [flags]"
	}
	for _, c := range commands {
		if c.name == fs.Name() && c.args != "" {
			line += " " + c.args
		}
		if c.name == fs.Name() {
			about = c.about
		}
	}
	if args, ok := benchArgs[fs.Name()]; ok {
		line += " " + args
	}
	fmt.Fprintln(w, line)
	if about != "" {
		fmt.Fprintln(w, about)
	}
	if n > 0 {
		fmt.Fprintln(w, "\nflags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
}

// flagsOf is the flag set of a command, as it answers -h; nil for one without flags.
func flagsOf(c command) *flag.FlagSet {
	var help *helpError
	if errors.As(c.run(context.Background(), []string{"-h"}, func(string) string { return "" }, io.Discard), &help) {
		return help.fs
	}
	return nil
}

// synopsis lists the flags of fs but those named in common: [--name value] each.
func synopsis(fs *flag.FlagSet, common map[string]bool) string {
	var b strings.Builder
	fs.VisitAll(func(f *flag.Flag) {
		if common[f.Name] {
			return
		}
		if value, _ := flag.UnquoteUsage(f); value != "" {
			fmt.Fprintf(&b, " [--%s %s]", f.Name, value)
		} else {
			fmt.Fprintf(&b, " [--%s]", f.Name)
		}
	})
	return b.String()
}

// printUsage writes `realm help`: every command with its flags, those that every
// configured command takes (serve's) once at the end.
func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: realm <command> [flags]   (realm <command> -h: the command's flags with their defaults)\n\ncommands:")
	common := map[string]bool{}
	var commonNames []string
	flagsOf(commands[0]).VisitAll(func(f *flag.Flag) {
		common[f.Name] = true
		commonNames = append(commonNames, "--"+f.Name)
	})
	for _, c := range commands {
		line := "realm " + c.name
		if fs := flagsOf(c); fs != nil {
			line += synopsis(fs, common)
		}
		if c.args != "" {
			line += " " + c.args
		}
		fmt.Fprintf(w, "  %s\n      %s\n", line, c.about)
	}
	fmt.Fprintf(w, "\nEvery command that opens the store (all but loadtest, healthcheck and version) also takes %s,\n"+
		"which override their variables. The rest of the configuration comes from the environment\n"+
		"(see README.md, Configuration).\n", strings.Join(commonNames, ", "))
}
