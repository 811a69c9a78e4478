package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestRecallNoSuchSpace: `realm recall` of a space that holds no memory (a typo) fails
// with ENotFound naming the space, as GET /v1/spaces/{space}/recall answers 404, prints
// no table nor trace, and leaves no space behind.
func TestRecallNoSuchSpace(t *testing.T) {
	store := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	var out bytes.Buffer
	err := run(ctx, []string{"realm", "recall", "--space", space, "hello"}, testEnv(nil), &out)
	if realm.ErrorCode(err) != realm.ENotFound || !strings.Contains(err.Error(), space) {
		t.Errorf("recall of a space that does not exist: %v, want not found naming %s", err, space)
	}
	if out.Len() > 0 {
		t.Errorf("it printed %q", out.String())
	}
	if exists, err := store.SpaceExists(ctx, space); err != nil || exists {
		t.Errorf("the recall left the space behind (exists %v, %v)", exists, err)
	}
}

// TestRecallJSON: `realm recall --json` prints the answer as the HTTP API gives it, each
// content in full: a runbook's command longer than the table's 100 characters is read
// whole, which the table cuts.
func TestRecallJSON(t *testing.T) {
	cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	env := testEnv(nil)
	command := `openssl req -new -x509 -days 365 -key /etc/ssl/private/realm.key -out /etc/ssl/certs/realm.crt -subj "/CN=realm.internal"`
	line, err := json.Marshal(map[string]string{"id": "n1", "speaker": "Ana", "timestamp": "2026-11-02T09:00:00Z",
		"content": "To rotate the certificate run: " + command})
	if err != nil {
		t.Fatal(err)
	}
	msgs := filepath.Join(t.TempDir(), "notes.jsonl")
	if err := os.WriteFile(msgs, append(line, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(ctx, []string{"realm", "ingest", "--space", space, msgs}, env, io.Discard); err != nil {
		t.Fatal(err)
	}
	var table, out bytes.Buffer
	if err := run(ctx, []string{"realm", "recall", "--space", space, "How do I rotate the certificate?"}, env, &table); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(table.String(), command) {
		t.Errorf("the table holds the whole command: %q", table.String())
	}
	if err := run(ctx, []string{"realm", "recall", "--json", "--space", space, "How do I rotate the certificate?"}, env, &out); err != nil {
		t.Fatal(err)
	}
	var res realm.RecallResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("--json printed %q: %v", out.String(), err)
	}
	if res.TraceID == "" || !slices.ContainsFunc(res.Nodes, func(n realm.RecalledNode) bool { return strings.Contains(n.Node.Content, command) }) {
		t.Errorf("--json: trace %q, no node holds the whole command: %s", res.TraceID, out.String())
	}
}
