package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/realm-memory/realm"
)

// version is set at build time with -ldflags "-X main.version=…" (REALM_VERSION of the
// Makefile and the Dockerfile).
var version = "dev"

// run is the whole program: it parses args (args[0] is the program name), reads the
// environment through getenv and writes its output to stdout. `realm bench` writes its
// progress to the process's stderr, so that its stdout is the report alone.
func run(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	if len(args) < 2 {
		printUsage(stdout)
		return realm.Errorf(realm.EInvalid, "no command given")
	}
	name, rest := args[1], args[2:]
	switch name {
	case "help", "-h", "--help":
		printUsage(stdout)
		return nil
	case "--version", "-v":
		name = "version"
	}
	for _, c := range commands {
		if c.name != name {
			continue
		}
		err := c.run(ctx, rest, getenv, stdout)
		if help := (*helpError)(nil); errors.As(err, &help) {
			printHelp(stdout, help.fs)
			return nil
		}
		return err
	}
	printUsage(stdout)
	return realm.Errorf(realm.EInvalid, "unknown command %q", name)
}

// runSchema runs `realm schema apply`, the one schema command.
func runSchema(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	cfg, err := loadConfig(flag.NewFlagSet("schema", flag.ContinueOnError), args, getenv)
	if err != nil {
		return err
	}
	if len(cfg.Args) != 1 || cfg.Args[0] != "apply" {
		return realm.Errorf(realm.EInvalid, "usage: realm schema apply")
	}
	return runSchemaApply(ctx, cfg, stdout)
}

// runVersion prints the version and the build's revision.
func runVersion(_ context.Context, args []string, _ func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "realm", fullVersion())
	return nil
}

// fullVersion is the build's version plus the VCS revision Go stamped into the binary,
// when it did (built from a git checkout, see the Makefile's build).
func fullVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return version
	}
	return versionOf(version, info.Settings)
}

// versionOf is version followed by the revision of settings (its first 12 digits),
// "-dirty" when the tree held changes, and the commit's time: "dev (7c4fdd7cad8c-dirty,
// 2026-12-06T23:35:50Z)"; version alone without a revision.
func versionOf(version string, settings []debug.BuildSetting) string {
	var rev, dirty, when string
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		case "vcs.time":
			when = ", " + s.Value
		}
	}
	if rev == "" {
		return version
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	return strings.TrimSpace(version + " (" + rev + dirty + when + ")")
}
