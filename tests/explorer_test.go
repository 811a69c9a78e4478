//go:build browser

package tests

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestExplorer drives the memory explorer in a real browser (tests/browser/explorer.mjs:
// Debian's chromium through playwright-core) against a real `realm serve` with an API
// key: the pages load, a failed recall leaves no progress behind, a recall draws its trace
// and names its nodes by their content, feedback applies edits (a learned link shown with
// its label and query) and revert removes them, their buttons disabled while they run, a
// trace opens from the timeline and names its memories with one request, a min score
// leaves the lower nodes out and the trace lists them, Open with no space lists the
// spaces, a corrected memory is marked superseded and says until when it held, a key typed is sent only once opened and a read-only key is
// offered no feedback. Then it checks
// through the API that the page really did so. With
// SCREENSHOTS set (make ui-screenshots), the views are saved there as PNGs.
func TestExplorer(t *testing.T) {
	if _, err := os.Stat(filepath.Join("browser", "node_modules", "playwright-core")); err != nil {
		t.Fatalf("tests/browser has no node_modules: run `make test-ui` (npm ci there): %v", err)
	}
	readKey := randomKey(t)
	srv := startRealm(t, map[string]string{"REALM_API_KEYS": "viewer " + readKey + " read *"})
	space := srv.newSpace()
	srv.seed(space)
	var found struct{ Memories []struct{ ID, Type string } }
	if code := srv.do("GET", "/v1/spaces/"+space+"/memories?q=kiln", nil, &found); code != http.StatusOK {
		t.Fatalf("the seeded memories about the kiln: status %d", code)
	}
	corrected := ""
	for _, m := range found.Memories {
		if m.Type == "event" || m.Type == "fact" {
			corrected = m.ID
			break
		}
	}
	correction := map[string]any{"content": "The kiln cracked three of the bowls."}
	if code := srv.do("PATCH", "/v1/spaces/"+space+"/memories/"+corrected, correction, nil); code != http.StatusOK {
		t.Fatalf("correcting the kiln memory (of %+v): status %d", found.Memories, code)
	}

	cmd := exec.Command("node", "explorer.mjs")
	cmd.Dir = "browser"
	cmd.Env = append(os.Environ(), "REALM_URL="+srv.URL, "REALM_SPACE="+space, "REALM_KEY="+srv.Key,
		"REALM_READ_KEY="+readKey, "REALM_SUPERSEDED=kiln",
		"REALM_QUERY=What did Nadia make for Lea, and what happened to it?")
	out, err := cmd.CombinedOutput()
	t.Logf("explorer.mjs:\n%s", out)
	if err != nil {
		t.Fatalf("the browser run failed: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var summary struct {
		TraceID      string `json:"trace_id"`
		EditsApplied int    `json:"edits_applied"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &summary); err != nil || summary.EditsApplied == 0 {
		t.Fatalf("no summary on the last line (%v): %+v", err, summary)
	}

	var log struct {
		Edits []struct {
			Action   string
			Reverted bool
		}
	}
	if code := srv.do("GET", "/v1/spaces/"+space+"/edits?trace="+summary.TraceID, nil, &log); code != http.StatusOK {
		t.Fatalf("edits: status %d", code)
	}
	if len(log.Edits) != summary.EditsApplied {
		t.Errorf("the log holds %d edits of the trace, the page applied %d", len(log.Edits), summary.EditsApplied)
	}
	for _, e := range log.Edits {
		if !e.Reverted {
			t.Errorf("an edit (%s) the page reverted is still in force", e.Action)
		}
	}
	var stats struct{ Reconsolidation struct{ Reverted int } }
	srv.do("GET", "/v1/spaces/"+space+"/stats", nil, &stats)
	if stats.Reconsolidation.Reverted != summary.EditsApplied {
		t.Errorf("stats count %d reverted edits, want %d", stats.Reconsolidation.Reverted, summary.EditsApplied)
	}
}
