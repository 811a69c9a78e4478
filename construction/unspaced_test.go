package construction_test

import (
	"context"
	"testing"
	"time"

	"github.com/realm-memory/realm"
)

// TestUnspacedMessageRecalled: with the offline agent, a short message in Chinese or
// Japanese, written without spaces or a comma, is a memory of its own, and a question
// about it ("Who is allergic to peanuts?") recalls that memory first.
func TestUnspacedMessageRecalled(t *testing.T) {
	store, p, r, space := offlineSpace(t)
	day := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	said := map[string]string{"o1": "我对花生过敏。", "o2": "我们从上海搬到了深圳。", "o3": "猫アレルギーがあります。"}
	var obs []realm.Observation
	for i, id := range []string{"o1", "o2", "o3"} {
		obs = append(obs, realm.Observation{ID: id, SessionID: "s1", Speaker: "李伟", Content: said[id], ObservedAt: day.Add(time.Duration(i) * time.Minute)})
	}
	mustIngest(t, p, space, obs...)
	nodes, _, err := store.Graph(context.Background(), space, "", 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	memory := map[string]string{}
	for _, n := range nodes {
		if n.Type == realm.Event || n.Type == realm.Fact {
			for _, s := range n.Sources {
				memory[s] = n.Content
			}
		}
	}
	for _, o := range obs {
		if want := "李伟: " + o.Content; memory[o.ID] != want {
			t.Errorf("the memory of %s is %q, want %q", o.ID, memory[o.ID], want)
		}
	}

	rec, err := r.Recall(context.Background(), space, realm.RecallRequest{Query: "谁对花生过敏？"})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range rec.Nodes {
		if n.Node.Type == realm.Event || n.Node.Type == realm.Fact {
			if n.Node.Content != "李伟: 我对花生过敏。" {
				t.Errorf("the first memory recalled is %q", n.Node.Content)
			}
			return
		}
	}
	t.Errorf("no memory recalled: %+v", rec.Nodes)
}
