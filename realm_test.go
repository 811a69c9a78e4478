package realm_test

import (
	"testing"
	"time"

	"github.com/realm-memory/realm"
)

// TestObservationSession: a message's session is its session id, else the day (UTC) it
// was said.
func TestObservationSession(t *testing.T) {
	evening := time.Date(2026, 3, 9, 20, 30, 0, 0, time.FixedZone("EST", -5*3600)) // 01:30 UTC on the 10th
	for _, c := range []struct {
		obs  realm.Observation
		want string
	}{
		{realm.Observation{SessionID: "s1", ObservedAt: evening}, "s1"},
		{realm.Observation{ObservedAt: evening}, "2026-03-09"}, // the day of its zone
		{realm.Observation{ObservedAt: evening.UTC()}, "2026-03-10"},
		{realm.Observation{ObservedAt: evening.Add(-2 * time.Hour).UTC()}, "2026-03-09"},
		{realm.Observation{}, ""},
	} {
		if got := c.obs.Session(); got != c.want {
			t.Errorf("%+v: session %q, want %q", c.obs, got, c.want)
		}
	}
}
