package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/realm-memory/realm/bench"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestBenchUpdates runs `realm bench updates FILE` on two scenarios: the move is drawn as
// supersedes and the newer city comes first for the present; the report is on stdout alone.
func TestBenchUpdates(t *testing.T) {
	store := cyphertest.MustOpen(t)
	prefix := cyphertest.NewSpace(t) + "-"
	t.Cleanup(func() {
		for _, id := range []string{"move", "job"} {
			_, _ = store.DeleteSpace(context.Background(), prefix+id)
		}
	})
	dir := t.TempDir()
	file := filepath.Join(dir, "updates.json")
	scenarios := `{"scenarios": [
 {"id": "move", "slot": "lives in", "messages": [
  {"speaker": "Nora", "date": "2023-01-10", "text": "I live in Lisbon now, in a small flat near the river."},
  {"speaker": "Sam", "date": "2023-02-14", "text": "I finally finished painting the kitchen yellow."},
  {"speaker": "Nora", "date": "2023-03-20", "text": "Big news: we moved from Lisbon to Berlin last week."}],
  "old": 0, "new": 2, "now": "Where does Nora live now?", "past": "Where did Nora live before Berlin?"},
 {"id": "job", "slot": "works at", "messages": [
  {"speaker": "Mia", "date": "2022-11-01", "text": "I work at Spotify on the recommendations team."},
  {"speaker": "Mia", "date": "2023-04-05", "text": "I quit Spotify and joined Stripe last month."}],
  "old": 0, "new": 1, "now": "Which company does Mia work for now?", "past": "Where did Mia work before Stripe?"}]}`
	if err := os.WriteFile(file, []byte(scenarios), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "report.json")
	var stdout, progress strings.Builder
	if err := runBenchCmd(context.Background(), []string{"realm", "bench", "updates", file, "--space-prefix", prefix, "--out", out}, testEnv(nil), &stdout, &progress); err != nil {
		t.Fatal(err)
	}
	checkCleanReport(t, stdout.String(), progress.String(), strings.TrimSuffix(out, ".json")+".md", "updates 2/2", "report: "+out)
	rep, b := readJSON[bench.UpdateReport](t, out)
	if rep.Scenarios != 2 || rep.Supersedes != 1 || rep.NewerFirst != 1 || rep.OldInTop3 != 1 {
		t.Errorf("report %s", b)
	}
	t.Run("ChatRoles", func(t *testing.T) {
		// The same scenarios as an assistant's chat: Nora and Mia speak as "user".
		roles := filepath.Join(dir, "roles.json")
		stdout.Reset()
		if err := runBenchCmd(context.Background(), []string{"realm", "bench", "updates", file, "--speakers", "roles", "--space-prefix", prefix, "--out", roles}, testEnv(nil), &stdout, &progress); err != nil {
			t.Fatal(err)
		}
		got, b := readJSON[bench.UpdateReport](t, roles)
		if got.Config["speakers"] != "roles" || got.Supersedes != rep.Supersedes || got.NewerFirst != rep.NewerFirst || got.OldInTop3 != rep.OldInTop3 {
			t.Errorf("with chat roles %s, want the figures of %+v", b, rep)
		}
		err := runBenchCmd(context.Background(), []string{"realm", "bench", "updates", file, "--speakers", "bots"}, testEnv(nil), &stdout, &progress)
		if err == nil || !strings.Contains(err.Error(), "--speakers") {
			t.Errorf("error %v, want one naming --speakers", err)
		}
	})
	t.Run("ErrBadFile", func(t *testing.T) {
		bad := filepath.Join(dir, "bad.json")
		if err := os.WriteFile(bad, []byte(`{"scenarios": [{"id": "x"}]}`), 0o644); err != nil {
			t.Fatal(err)
		}
		err := runBenchCmd(context.Background(), []string{"realm", "bench", "updates", bad}, testEnv(nil), &stdout, &progress)
		if err == nil || !strings.Contains(err.Error(), "scenario x") {
			t.Errorf("error %v, want one naming the scenario", err)
		}
	})
}
