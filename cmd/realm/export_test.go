package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestExportImportCommands: `realm ingest` (and `realm recall` finds it), then `realm export --out` (and `realm spaces`
// lists the space), erase the space (and it lists none), `realm import`, `realm export`
// again: the two files are equal but for exported_at. A malformed file is refused by
// `realm import --check` and by `realm import` with its line number, writing nothing; an
// import into a space that is not empty is a conflict.
func TestExportImportCommands(t *testing.T) {
	store := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	env := testEnv(nil)
	dir := t.TempDir()
	msgs := filepath.Join(dir, "messages.jsonl")
	if err := os.WriteFile(msgs, []byte(`{"id":"c1","speaker":"Ana","content":"I moved to Lisbon in 2021 for a job at a bakery.","timestamp":"2023-01-10T09:00:00Z"}
{"id":"c2","speaker":"Ana","content":"The bakery in Lisbon makes pastel de nata every morning.","timestamp":"2023-01-11T09:00:00Z"}
{"id":"c3","speaker":"Bo","content":"Bo visited Ana at the bakery and bought three pastries.","timestamp":"2023-01-12T09:00:00Z"}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	runOK := func(args ...string) string {
		t.Helper()
		var out bytes.Buffer
		if err := run(ctx, append([]string{"realm"}, args...), env, &out); err != nil {
			t.Fatalf("realm %s: %v\n%s", strings.Join(args, " "), err, out.String())
		}
		return out.String()
	}
	runOK("ingest", "--space", space, msgs)
	if out := runOK("recall", "--space", space, "Where does Ana work?"); !strings.Contains(out, "bakery") || !strings.Contains(out, "trace ") {
		t.Errorf("realm recall says %q", out)
	}
	first, second := filepath.Join(dir, "first.jsonl"), filepath.Join(dir, "second.jsonl")
	if out := runOK("export", "--space", space, "--out", first); !strings.Contains(out, "memories") {
		t.Errorf("export says %q", out)
	}
	if out := runOK("spaces", "--prefix", space); !strings.HasPrefix(out, space+" ") || !strings.HasSuffix(out, "\ntotal: 1\n") {
		t.Errorf("realm spaces --prefix %s says %q", space, out)
	}
	if _, err := store.DeleteSpace(ctx, space); err != nil {
		t.Fatal(err)
	}
	if out := runOK("spaces", "--prefix", space); out != "total: 0\n" {
		t.Errorf("realm spaces after the space was erased says %q", out)
	}
	if out := runOK("import", "--space", space, first); !strings.Contains(out, "with its ids") {
		t.Errorf("import says %q", out)
	}
	runOK("export", "--space", space, "--out", second)
	a, b := readExport(t, first), readExport(t, second)
	if len(a) < 8 || strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("the export after export → erase → import differs (%d and %d lines)", len(a), len(b))
	}

	var out bytes.Buffer
	err := run(ctx, []string{"realm", "import", "--space", space, first}, env, &out)
	if realm.ErrorCode(err) != realm.EConflict {
		t.Errorf("import into a full space: %v", err)
	}

	lines, _ := os.ReadFile(first)
	bad := strings.Split(string(lines), "\n")
	bad[2] = `{"kind":"observation","props":{"id":3}}`
	badFile := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(badFile, []byte(strings.Join(bad, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	other := cyphertest.NewSpace(t)
	for _, args := range [][]string{{"import", "--check", badFile}, {"import", "--space", other, badFile}} {
		err := run(ctx, append([]string{"realm"}, args...), env, &out)
		if realm.ErrorCode(err) != realm.EInvalid || !strings.Contains(err.Error(), "line 3:") {
			t.Errorf("realm %s: %v, want line 3 refused", strings.Join(args, " "), err)
		}
	}
	if st, err := store.Stats(ctx, other); err != nil || st.Memories+st.Observations != 0 {
		t.Errorf("a refused import wrote %+v (%v)", st, err)
	}
	if err := run(ctx, []string{"realm", "export", "--space", other, "--out", filepath.Join(dir, "none.jsonl")}, env, &out); realm.ErrorCode(err) != realm.ENotFound {
		t.Errorf("export of a space that does not exist: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "none.jsonl")); !os.IsNotExist(err) {
		t.Errorf("a failed export left a file: %v", err)
	}
}

// readExport returns the lines of an export file, exported_at removed from the header.
func readExport(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	var h map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &h); err != nil || h["kind"] != "space" {
		t.Fatalf("header %q: %v", lines[0], err)
	}
	delete(h, "exported_at")
	hb, _ := json.Marshal(h)
	lines[0] = string(hb)
	return lines
}
