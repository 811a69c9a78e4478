package main

import (
	"bytes"
	"context"
	"flag"
	"net"
	"strings"
	"testing"
)

// TestHelp: -h and --help print a command's usage and flags on stdout and succeed, without
// doing the command (healthcheck asks no server); `realm help` lists every flag of every
// command.
func TestHelp(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed.Close() // a health check of it would fail
	env := testEnv(map[string]string{"REALM_ADDR": closed.Addr().String(), "NEO4J_URI": "bolt://neo4j:bolt-secret@127.0.0.1:1"})
	tests := []struct {
		args []string
		want []string // in the output
	}{
		{[]string{"export", "-h"}, []string{"usage: realm export", "-space", "-out"}},
		{[]string{"import", "--help"}, []string{"usage: realm import", "-check", "FILE"}},
		{[]string{"ingest", "-h"}, []string{"usage: realm ingest", "-sample", "unused here: this command opens the store itself"}},
		{[]string{"recall", "--help"}, []string{"usage: realm recall", "-min-score"}},
		{[]string{"reembed", "-h"}, []string{"usage: realm reembed", "-force"}},
		{[]string{"spaces", "-h"}, []string{"usage: realm spaces", "-prefix"}},
		{[]string{"serve", "--help"}, []string{"usage: realm serve", "-addr", "listen address (REALM_ADDR)", "bolt://neo4j:xxxxx@127.0.0.1:1"}},
		{[]string{"schema", "--help"}, []string{"usage: realm schema [flags] apply\n"}},
		{[]string{"healthcheck", "--help"}, []string{"usage: realm healthcheck\n"}},
		{[]string{"loadtest", "-h"}, []string{"usage: realm loadtest", "-requests", "-key", "-json"}},
		{[]string{"bench", "-h"}, []string{"usage: realm bench locomo|longmemeval|updates|scale"}},
		{[]string{"bench", "updates", "-h"}, []string{"usage: realm bench updates [flags] [FILE]\n", "-speakers"}},
		{[]string{"bench", "locomo", "-h"}, []string{"usage: realm bench locomo [flags] [FILE]\n", "-data"}},
		{[]string{"bench", "longmemeval", "-h"}, []string{"usage: realm bench longmemeval [flags] FILE\n", "-prime"}},
		{[]string{"help"}, []string{"realm loadtest [--clients int] [--duration duration] [--json] [--keep] [--key string] [--requests int]"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out bytes.Buffer
			if err := run(context.Background(), append([]string{"realm"}, tt.args...), env, &out); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			for _, want := range tt.want {
				if !strings.Contains(out.String(), want) {
					t.Errorf("output lacks %q:\n%s", want, out.String())
				}
			}
			if strings.Contains(out.String(), "bolt-secret") {
				t.Errorf("output shows NEO4J_URI's password:\n%s", out.String())
			}
		})
	}
	t.Run("HelpListsEveryFlag", func(t *testing.T) {
		var out bytes.Buffer
		if err := run(context.Background(), []string{"realm", "help"}, env, &out); err != nil {
			t.Fatal(err)
		}
		for _, c := range commands {
			if fs := flagsOf(c); fs != nil {
				fs.VisitAll(func(f *flag.Flag) {
					if !strings.Contains(out.String(), "--"+f.Name) {
						t.Errorf("realm help lacks %s's --%s", c.name, f.Name)
					}
				})
			}
		}
	})
}
