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

// TestLocalTime: a time is read in the UTC offset it was sent with, else in the memory's
// zone; the zone itself when it has that offset then.
func TestLocalTime(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip(err)
	}
	at := time.Date(2024, 1, 19, 23, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		name      string
		offset    int
		zone      *time.Location
		want, loc string // loc: the location's name ("" for a bare offset)
	}{
		{"SentInUTC", 0, time.UTC, "2024-01-19T23:30:00Z", "UTC"},
		{"SentInUTCZone", 0, berlin, "2024-01-20T00:30:00+01:00", "Europe/Berlin"},
		{"SentWithOffset", 3600, time.UTC, "2024-01-20T00:30:00+01:00", ""},
		{"OffsetOfTheZone", 3600, berlin, "2024-01-20T00:30:00+01:00", "Europe/Berlin"},
		{"OtherOffset", -5 * 3600, berlin, "2024-01-19T18:30:00-05:00", ""},
	} {
		got := realm.LocalTime(at, c.offset, c.zone)
		if got.Format(time.RFC3339) != c.want || got.Location().String() != c.loc {
			t.Errorf("%s: %s in %q, want %s in %q", c.name, got.Format(time.RFC3339), got.Location(), c.want, c.loc)
		}
	}
}
