package cypher_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestSessionUserMessages: the first messages of a session said by its user (a person, or
// the user role), oldest first by time whatever their seq, at most n; not the assistant's,
// a tool's, one sent under a role's name without a role, nor another session's.
func TestSessionUserMessages(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	said := func(id, session, speaker, role string, m int) realm.Observation {
		return realm.Observation{ID: id, Space: space, SessionID: session, Speaker: speaker, Role: role, Content: "Hello " + id, ObservedAt: at.Add(time.Duration(m) * time.Minute)}
	}
	// Stored as a shuffled chat is: the assistant's turns first, the user's after.
	obs := []realm.Observation{
		said("a1", "trip", "assistant", "assistant", 1),
		said("t1", "trip", "tool", "tool", 2),
		said("x1", "trip", "Assistant", "", 3),
		said("p9", "other", "Priya", "user", 0),
		said("p3", "trip", "Priya", "user", 6),
		said("p2", "trip", "Priya", "user", 4),
		said("k1", "trip", "Kenji", "", 5),
		said("p1", "trip", "Priya", "user", 0),
	}
	if _, err := s.SaveObservations(ctx, space, "test:bow", cyphertest.Dims, obs, cypher.Lease{}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		n    int
		want []string
	}{
		{3, []string{"p1", "p2", "k1"}},
		{10, []string{"p1", "p2", "k1", "p3"}},
	} {
		got, err := s.SessionUserMessages(ctx, space, "trip", tt.n)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, o := range got {
			ids = append(ids, o.ID)
		}
		if !slices.Equal(ids, tt.want) {
			t.Errorf("n=%d: %v, want %v", tt.n, ids, tt.want)
		}
	}
}
