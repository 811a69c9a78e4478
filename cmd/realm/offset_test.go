package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestIngestSenderOffset: `realm ingest` reads a message's days in the UTC offset of its
// timestamp, not in REALM_TIME_ZONE (UTC here): "tomorrow", sent at 00:30 on 20 January
// +01:00, is the 21st.
func TestIngestSenderOffset(t *testing.T) {
	cyphertest.MustOpen(t)
	space := cyphertest.NewSpace(t)
	dir := t.TempDir()
	msgs, exported := filepath.Join(dir, "messages.jsonl"), filepath.Join(dir, "export.jsonl")
	line := `{"id":"b1","speaker":"Ana","content":"Tomorrow I'm having brunch with Tom at Cafe Lotte.","timestamp":"2024-01-20T00:30:00+01:00"}` + "\n"
	if err := os.WriteFile(msgs, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"ingest", "--space", space, msgs}, {"export", "--space", space, "--out", exported}} {
		var out bytes.Buffer
		if err := run(context.Background(), append([]string{"realm"}, args...), testEnv(nil), &out); err != nil {
			t.Fatalf("realm %s: %v\n%s", strings.Join(args, " "), err, out.String())
		}
	}
	b, err := os.ReadFile(exported)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "Tomorrow (21 January 2024)") {
		t.Errorf("no memory dated 21 January 2024 in the export:\n%s", b)
	}
}
