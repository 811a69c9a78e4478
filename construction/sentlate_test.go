package construction_test

import (
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestSupersedesHistorySentLate: a message integrated after a newer one that changes the
// same slot (it waited pending, or came in a later batch) is superseded by the newer one,
// whatever kind of change it is, as if it had come first; never the reverse.
func TestSupersedesHistorySentLate(t *testing.T) {
	p, store := offlinePipeline(t)
	for _, tt := range []struct {
		name               string
		oldSpeaker, old    string
		newSpeaker, change string
		oldAt, changeAt    time.Time
	}{
		{"Move", "Nora", "I live in Lisbon.", "Nora", "We moved to Berlin last week.",
			time.Date(2025, 3, 3, 10, 0, 0, 0, time.UTC), time.Date(2025, 3, 20, 10, 0, 0, 0, time.UTC)},
		{"DayMoved", "Sarah", "Mia's dentist appointment with Dr. Patel is on November 5 at 3pm.",
			"Sarah", "Dr. Patel's office rescheduled Mia's dentist appointment to November 12 at 3pm.",
			time.Date(2025, 10, 1, 14, 0, 0, 0, time.UTC), time.Date(2025, 10, 15, 14, 0, 0, 0, time.UTC)},
		{"Sold", "David", "Our car is a 2012 Honda Civic.", "David", "We sold the Honda Civic and bought a blue 2025 Toyota RAV4.",
			time.Date(2025, 1, 5, 14, 0, 0, 0, time.UTC), time.Date(2025, 8, 23, 21, 0, 0, 0, time.UTC)},
		{"Job", "Ben", "I work at Google as a designer.", "Ben", "I left Google and now work at Stripe.",
			time.Date(2025, 2, 1, 10, 0, 0, 0, time.UTC), time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC)},
		{"PlanCalledOff", "Maya", "Kat and I are planning a trip to Lisbon in October.", "Maya", "Kat and I cancelled the Lisbon trip.",
			time.Date(2026, 6, 12, 10, 0, 0, 0, time.UTC), time.Date(2026, 9, 5, 10, 0, 0, 0, time.UTC)},
		{"SameDayMove", "Corin", "I live in Lisbon.", "Corin", "We moved to Berlin.",
			time.Date(2026, 12, 4, 11, 0, 0, 0, time.UTC), time.Date(2026, 12, 4, 14, 0, 0, 0, time.UTC)},
		{"SameDayAmount", "Corin", "I now owe Pell 40 gold.", "Corin", "I now owe Pell 10 gold.",
			time.Date(2026, 12, 4, 11, 0, 0, 0, time.UTC), time.Date(2026, 12, 4, 14, 0, 0, 0, time.UTC)},
		{"DayCorrected", "Maya", "Went to the dentist on Monday.", "Maya", "Actually the dentist was on Tuesday, not Monday.",
			time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC), time.Date(2026, 6, 11, 10, 0, 0, 0, time.UTC)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			space := cyphertest.NewSpace(t)
			mustIngest(t, p, space, realm.Observation{ID: "o2", SessionID: "s2", Speaker: tt.newSpeaker, Content: tt.change, ObservedAt: tt.changeAt})
			mustIngest(t, p, space, realm.Observation{ID: "o1", SessionID: "s1", Speaker: tt.oldSpeaker, Content: tt.old, ObservedAt: tt.oldAt})
			byID, edges := graphOf(t, store, space, 100)
			found := false
			for _, e := range edges {
				from, to := byID[e.From], byID[e.To]
				if e.Predicate != realm.Supersedes {
					continue
				}
				if from.Sources[0] == "o1" && to.Sources[len(to.Sources)-1] == "o2" {
					t.Errorf("the older %q supersedes the newer %q", from.Content, to.Content)
				}
				if from.Sources[len(from.Sources)-1] == "o2" && to.Sources[0] == "o1" {
					found = true
					if to.ValidUntil == nil || to.ValidUntil.After(tt.changeAt) {
						t.Errorf("%q holds until %v, want until the change, by %v", to.Content, to.ValidUntil, tt.changeAt)
					}
				}
			}
			if !found {
				t.Errorf("no supersedes edge from a memory of %q to one of %q, said before it and integrated after: %+v", tt.change, tt.old, edges)
			}
		})
	}
}
