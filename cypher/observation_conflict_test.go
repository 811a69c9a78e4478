package cypher_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestObservationConflictNamesField: a message sent again under its id with one field
// changed is refused, stored or in the same batch, and the error names the field that
// differs: a client that changed only the session id is not told that it says something
// else. Sent again unchanged, or with the role it was first sent without, it is accepted.
func TestObservationConflictNamesField(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	at := time.Date(2026, 8, 8, 21, 0, 0, 0, time.UTC)
	o := realm.Observation{ID: "j1", SessionID: "2026-08-08", Speaker: "Maya", Content: "Ran 5 km this morning.", ObservedAt: at}
	if _, err := s.SaveObservations(ctx, space, "test:conflict", cyphertest.Dims, []realm.Observation{o}, cypher.Lease{}); err != nil {
		t.Fatal(err)
	}
	with := func(f func(*realm.Observation)) realm.Observation { c := o; f(&c); return c }
	for _, tt := range []struct {
		field string
		o     realm.Observation
	}{
		{"content", with(func(c *realm.Observation) { c.Content = "Ran 10 km this morning." })},
		{"speaker", with(func(c *realm.Observation) { c.Speaker = "Sam" })},
		{"session_id", with(func(c *realm.Observation) { c.SessionID = "week-32" })},
		{"timestamp", with(func(c *realm.Observation) { c.ObservedAt = at.Add(time.Hour) })},
	} {
		_, err := s.SaveObservations(ctx, space, "test:conflict", cyphertest.Dims, []realm.Observation{tt.o}, cypher.Lease{})
		if realm.ErrorCode(err) != realm.EConflict || !strings.Contains(err.Error(), "whose "+tt.field+" differs") {
			t.Errorf("stored j1 sent with another %s: %v, want a conflict naming it", tt.field, err)
		}
		_, err = s.SaveObservations(ctx, space, "test:conflict", cyphertest.Dims, []realm.Observation{o, with(func(c *realm.Observation) { c.ID = "j2" }), tt.o}, cypher.Lease{})
		if realm.ErrorCode(err) != realm.EInvalid || !strings.Contains(err.Error(), "whose "+tt.field+" differs") {
			t.Errorf("j1 twice in a batch, with another %s: %v, want invalid naming it", tt.field, err)
		}
	}
	for _, again := range []realm.Observation{o, with(func(c *realm.Observation) { c.Role = "user" })} {
		if _, err := s.SaveObservations(ctx, space, "test:conflict", cyphertest.Dims, []realm.Observation{again}, cypher.Lease{}); err != nil {
			t.Errorf("j1 sent again (role %q): %v", again.Role, err)
		}
	}
}
