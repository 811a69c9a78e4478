package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
)

func TestLoadUpdates(t *testing.T) {
	t.Run("BuiltIn", func(t *testing.T) {
		set, err := LoadUpdates("")
		if err != nil {
			t.Fatal(err)
		}
		slots := map[string]bool{}
		for _, s := range set.Scenarios {
			slots[s.Slot] = true
			if obs := s.Observations(); obs[s.Old].ObservedAt.After(obs[s.New].ObservedAt) {
				t.Errorf("%s: the old fact is said after the new one", s.ID)
			}
		}
		if len(set.Scenarios) < 40 || len(slots) < 10 {
			t.Errorf("%d scenarios over %d slots, want at least 40 over 10", len(set.Scenarios), len(slots))
		}
	})
	bad := map[string]string{
		"ErrOldAfterNew": `{"scenarios":[{"id":"a","messages":[{"speaker":"A","date":"2023-01-01","text":"x"},{"speaker":"A","date":"2023-01-02","text":"y"}],"old":1,"new":0,"now":"q","past":"q"}]}`,
		"ErrBadDate":     `{"scenarios":[{"id":"a","messages":[{"speaker":"A","date":"Jan 1","text":"x"},{"speaker":"A","date":"2023-01-02","text":"y"}],"old":0,"new":1,"now":"q","past":"q"}]}`,
		"ErrNoQuestion":  `{"scenarios":[{"id":"a","messages":[{"speaker":"A","date":"2023-01-01","text":"x"},{"speaker":"A","date":"2023-01-02","text":"y"}],"old":0,"new":1,"now":"q"}]}`,
		"ErrEmpty":       `{"scenarios":[]}`,
	}
	for name, text := range bad {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "u.json")
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := LoadUpdates(path); err == nil {
				t.Errorf("no error for %s", text)
			}
		})
	}
}

// TestAsChatRoles: the person speaks as "user" and is "the user" in texts and questions;
// the built-in set is left as it was.
func TestAsChatRoles(t *testing.T) {
	set, err := LoadUpdates("")
	if err != nil {
		t.Fatal(err)
	}
	roles := set.AsChatRoles()
	s, r := set.Scenarios[0], roles.Scenarios[0]
	person := s.Messages[s.Old].Speaker
	for i, m := range r.Messages {
		want := "assistant"
		if s.Messages[i].Speaker == person {
			want = "user"
		}
		if m.Speaker != want || strings.Contains(m.Text, person) {
			t.Errorf("message %d %+v, want speaker %s and no %s", i, m, want, person)
		}
	}
	if !strings.Contains(r.Now, "the user") || strings.Contains(r.Now, person) || s.Messages[s.Old].Speaker != person {
		t.Errorf("now %q (was %q), the set's own speaker %q", r.Now, s.Now, s.Messages[s.Old].Speaker)
	}
}

func TestUpdateRanks(t *testing.T) {
	node := func(id string, typ realm.NodeType, sources ...string) realm.Node {
		return realm.Node{ID: id, Type: typ, Sources: sources}
	}
	nodes := []realm.RecalledNode{{Node: node("e", realm.Entity, "s-0")}, {Node: node("x", realm.Event, "s-0", "s-1")}, {Node: node("n", realm.Fact, "s-3")}}
	if got := rankOf(nodes, "s-0"); got != 2 {
		t.Errorf("rank of s-0 = %d, want 2 (entities do not count, an exchange quoting it does)", got)
	}
	if got := rankOf(nodes, "s-2"); got != 0 {
		t.Errorf("rank of s-2 = %d, want 0", got)
	}
	all := []realm.Node{node("old", realm.Fact, "s-0"), node("new", realm.Fact, "s-3")}
	sup, con := updateEdges(all, []realm.Edge{{From: "new", To: "old", Predicate: realm.Supersedes}}, "s-0", "s-3")
	if !sup || con {
		t.Errorf("supersedes %v contradicts %v, want true false", sup, con)
	}
	if sup, _ := updateEdges(all, []realm.Edge{{From: "old", To: "new", Predicate: realm.Supersedes}}, "s-0", "s-3"); sup {
		t.Errorf("an edge old → new counted as the update")
	}
	if md := (UpdateReport{Scenarios: 1, K: 10, Results: []UpdateResult{{ID: "a"}}}).Markdown(); !strings.Contains(md, "| a |") {
		t.Errorf("a miss is not listed:\n%s", md)
	}
}
