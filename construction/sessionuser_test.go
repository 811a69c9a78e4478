package construction_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestSessionUserOutOfOrder: an assistant's "you" names its session's user also when the
// user's turns were stored after the assistant's (a chat sent shuffled): in separate jobs,
// both pending when the first is integrated, or later in the same batch.
func TestSessionUserOutOfOrder(t *testing.T) {
	ctx := context.Background()
	store, p, _, _ := offlineSpace(t)
	chat := func() []realm.Observation {
		return []realm.Observation{
			{ID: "a1", SessionID: "trip", Speaker: "assistant", Role: "assistant", Content: "Noted: Ana is travelling with you to Lisbon.", ObservedAt: t0.Add(time.Minute)},
			{ID: "u1", SessionID: "trip", Speaker: "Priya", Role: "user", Content: "My sister Ana is coming with me to Lisbon.", ObservedAt: t0},
		}
	}
	for _, tt := range []struct {
		name   string
		ingest func(t *testing.T, space string)
	}{
		{"Jobs", func(t *testing.T, space string) {
			obs := chat()
			savePending(t, store, space, obs[0])
			savePending(t, store, space, obs[1])
			if _, err := p.ResumePendingSpace(ctx, space); err != nil {
				t.Fatal(err)
			}
		}},
		{"Batch", func(t *testing.T, space string) {
			for _, res := range mustIngest(t, p, space, chat()...) {
				if res.Status != construction.StatusIntegrated {
					t.Fatalf("%+v, want integrated", res)
				}
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			space := cyphertest.NewSpace(t)
			tt.ingest(t, space)
			nodes, _, err := store.Graph(ctx, space, "", 0, 1000)
			if err != nil {
				t.Fatal(err)
			}
			var said []string
			for _, n := range nodes {
				if n.Type != realm.Entity && len(n.Sources) > 0 && n.Sources[0] == "a1" {
					said = append(said, n.Content)
				}
			}
			if len(said) == 0 || !strings.Contains(strings.Join(said, "\n"), "travelling with Priya") {
				t.Errorf("the assistant's memories %q, want one saying Ana is travelling with Priya", said)
			}
		})
	}
}
