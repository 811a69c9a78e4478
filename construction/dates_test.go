package construction_test

import (
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestDatesStored: with the offline agent, the memories of a message are stored dated as
// it places their days: what a present "is" says is on a weekday, the coming one; a fair
// gone to, the last May 20 a relative clause names; each of two clauses a comma parts, its
// own day; a clause telling of the person named before it, that person's, taking part.
func TestDatesStored(t *testing.T) {
	p, store := offlinePipeline(t)
	monday := time.Date(2026, time.June, 8, 10, 0, 0, 0, time.UTC)
	january := time.Date(2026, time.January, 14, 10, 0, 0, 0, time.UTC)
	october := time.Date(2026, time.October, 14, 10, 0, 0, 0, time.UTC)
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	type memory struct {
		content string
		start   time.Time
		person  string // one who takes part in it, "" for no check
	}
	for _, tt := range []struct {
		name, speaker, said string
		at                  time.Time
		want                []memory
	}{
		{"IsWeekday", "Ana", "My last day is Friday.", monday, []memory{{"Ana's last day is Friday (Friday 12 June 2026).", day(2026, time.June, 12), ""}}},
		{"RelativeClauseOfPast", "Ana", "We went to the fair, which is on May 20.", january, []memory{{"Ana: We went to the fair, which is on May 20 (20 May 2025).", day(2025, time.May, 20), ""}}},
		{"CommaClauses", "Ana", "Offer signed yesterday, start date January 12.", october, []memory{
			{"Ana: Offer signed yesterday (13 October 2026)", day(2026, time.October, 13), ""},
			{"Ana: start date January 12 (12 January 2027).", day(2027, time.January, 12), ""}}},
		{"ClauseOfPersonToldOf", "Priya", "Emma signed the offer. Start date January 12.", october, []memory{{"Emma: Start date January 12 (12 January 2027).", day(2027, time.January, 12), "Emma"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			space := cyphertest.NewSpace(t)
			mustIngest(t, p, space, realm.Observation{ID: "o1", SessionID: "s1", Speaker: tt.speaker, Content: tt.said, ObservedAt: tt.at})
			byID, _ := graphOf(t, store, space, 100)
			for _, w := range tt.want {
				if !slices.ContainsFunc(slices.Collect(maps.Values(byID)), func(n realm.Node) bool {
					return n.Content == w.content && n.TStart != nil && n.TStart.Equal(w.start) && (w.person == "" || slices.Contains(n.Participants, w.person))
				}) {
					t.Errorf("no memory %q starting %s (with %q) among %+v", w.content, w.start.Format(time.DateOnly), w.person, byID)
				}
			}
		})
	}
}
