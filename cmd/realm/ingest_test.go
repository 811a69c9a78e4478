package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestIngestMessages: `realm ingest` reads each line of its JSONL file as POST
// …/observations reads a message: the speaker and the chat role both kept (the role in
// lower case, "developer" a system prompt), a role that is no chat role naming who spoke;
// a line the API would refuse (an empty role, no timestamp) stops it, naming the line
// and the field, before anything of the file is stored.
func TestIngestMessages(t *testing.T) {
	store := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	file := filepath.Join(t.TempDir(), "messages.jsonl")
	ingest := func(lines ...string) error {
		t.Helper()
		if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return run(ctx, []string{"realm", "ingest", "--space", space, file}, testEnv(nil), io.Discard)
	}

	for _, tt := range []struct {
		name, line, field string
	}{
		{"EmptyRole", `{"id": "bad", "role": "\u200e", "content": "Deploys are frozen.", "timestamp": "2024-05-01T09:01:00Z"}`, "role"},
		{"NoTimestamp", `{"id": "bad", "speaker": "Maya", "content": "Deploys are frozen."}`, "timestamp"},
		{"UnknownField", `{"id": "bad", "speaker": "Maya", "text": "Deploys are frozen.", "timestamp": "2024-05-01T09:01:00Z"}`, "text"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := ingest(`{"id": "ok", "speaker": "Maya", "content": "I live in Porto.", "timestamp": "2024-05-01T09:00:00Z"}`, tt.line)
			var e *realm.Error
			if !errors.As(err, &e) || e.Code != realm.EInvalid || !strings.Contains(e.Message, "line 2") || e.Fields[tt.field] == "" {
				t.Errorf("ingest: %v, want invalid, naming line 2 and the field %s", err, tt.field)
			}
			if st, err := store.Stats(ctx, space); err != nil || st.Observations != 0 {
				t.Errorf("stats %+v %v, want nothing stored", st, err)
			}
		})
	}

	t.Run("Roles", func(t *testing.T) {
		err := ingest(
			`{"id": "sys", "session_id": "s1", "speaker": "Ops bot", "role": "SYSTEM", "content": "Deploy token XYZZY-4242.", "timestamp": "2024-05-01T09:00:00Z"}`,
			`{"id": "user", "session_id": "s1", "speaker": "Maya", "role": "User", "content": "I adopted a cat called Pixel last week.", "timestamp": "2024-05-01T09:01:00Z"}`,
			`{"id": "dev", "session_id": "s1", "speaker": "Setup", "role": "developer", "content": "Answer in French.", "timestamp": "2024-05-01T09:02:00Z"}`,
			`{"id": "bare", "session_id": "s1", "role": "assistant", "content": "Pixel is a lovely name.", "timestamp": "2024-05-01T09:03:00Z"}`,
			`{"id": "named", "session_id": "s1", "speaker": "Lee", "role": "moderator", "content": "I am taking over this thread.", "timestamp": "2024-05-01T09:04:00Z"}`,
			`{"id": "plain", "session_id": "s1", "speaker": "Ana", "content": "I moved to Lisbon.", "timestamp": "2024-05-01T09:05:00+01:00"}`,
		)
		if err != nil {
			t.Fatal(err)
		}
		for id, want := range map[string][2]string{
			"sys": {"Ops bot", "system"}, "user": {"Maya", "user"}, "dev": {"Setup", "system"},
			"bare": {"assistant", "assistant"}, "named": {"Lee", ""}, "plain": {"Ana", ""},
		} {
			o, err := store.Observation(ctx, space, id)
			if err != nil || o.Speaker != want[0] || o.Role != want[1] {
				t.Errorf("%s: said by %q as %q (%v), want by %q as %q", id, o.Speaker, o.Role, err, want[0], want[1])
			}
		}
		if o, _ := store.Observation(ctx, space, "plain"); o.Offset != 3600 {
			t.Errorf("plain: offset %d, want 3600 (+01:00, as sent)", o.Offset)
		}
	})
}
