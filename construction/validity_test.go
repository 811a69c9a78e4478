package construction_test

import (
	"bytes"
	"context"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/transfer"
)

// TestSupersedesEndsValidity: with the offline agent, a move is added beside the old
// fact with a supersedes edge to it; the old fact keeps its content and its validity ends
// when the new state began (its time), learned now; export and import carry both.
func TestSupersedesEndsValidity(t *testing.T) {
	p, store := offlinePipeline(t)
	space := cyphertest.NewSpace(t)
	jan := time.Date(2023, 1, 10, 10, 0, 0, 0, time.UTC)
	mar := time.Date(2023, 3, 20, 10, 0, 0, 0, time.UTC) // a Monday
	before := time.Now().UTC()
	mustIngest(t, p, space,
		realm.Observation{ID: "o1", SessionID: "s1", Speaker: "Nora", Content: "I live in Lisbon now, in a small flat near the river.", ObservedAt: jan},
		realm.Observation{ID: "o2", SessionID: "s2", Speaker: "Nora", Content: "Big news: we moved from Lisbon to Berlin last week.", ObservedAt: mar},
	)
	byID, edges := graphOf(t, store, space, 100)
	var old realm.Node
	for _, e := range edges {
		if e.Predicate == realm.Supersedes && byID[e.From].Sources[len(byID[e.From].Sources)-1] == "o2" && byID[e.To].Content == "Nora lives in Lisbon now, in a small flat near the river." {
			old = byID[e.To]
		}
	}
	if old.ID == "" {
		t.Fatalf("no supersedes edge from the move to the Lisbon fact: %+v", edges)
	}
	lastWeek := time.Date(2023, 3, 13, 0, 0, 0, 0, time.UTC)
	if old.ValidUntil == nil || !old.ValidUntil.Equal(lastWeek) {
		t.Errorf("valid_until = %v, want %v (the start of the week the move happened)", old.ValidUntil, lastWeek)
	}
	if old.SupersededAt == nil || old.SupersededAt.Before(before) {
		t.Errorf("superseded_at = %v, want the time of ingestion (after %v)", old.SupersededAt, before)
	}
	for _, n := range byID {
		if n.ValidUntil != nil && n.ID != old.ID && n.Sources[0] != "o1" {
			t.Errorf("node %q from %v ended too", n.Content, n.Sources)
		}
	}

	var file bytes.Buffer
	if _, err := transfer.Export(context.Background(), store, space, &file, nil); err != nil {
		t.Fatal(err)
	}
	copySpace := cyphertest.NewSpace(t)
	open := func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(file.Bytes())), nil }
	if _, err := transfer.Import(context.Background(), store, copySpace, open, transfer.Options{Embedder: bowEmbedder{}.ID(), Dims: cyphertest.Dims}); err != nil {
		t.Fatal(err)
	}
	copied, _, err := store.Graph(context.Background(), copySpace, "", 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, n := range copied {
		if n.Content == old.Content && n.ValidUntil != nil && n.ValidUntil.Equal(lastWeek) && n.SupersededAt != nil && n.SupersededAt.Equal(*old.SupersededAt) {
			found = true
		}
	}
	if !found {
		t.Errorf("the imported space lost the Lisbon fact's validity")
	}
}

// offlinePipeline is a pipeline with the offline agent on the test store.
func offlinePipeline(t *testing.T) (*construction.Pipeline, *cypher.Store) {
	t.Helper()
	store := cyphertest.MustOpen(t)
	p := construction.New(store, offline.New(offline.Options{}), bowEmbedder{}, construction.Options{Owner: "test-" + cyphertest.NewSpace(t)}, zerolog.Nop())
	t.Cleanup(func() { p.Close(context.Background()) })
	return p, store
}

// graphOf is a space's nodes by id, up to limit, and its edges.
func graphOf(t *testing.T, store *cypher.Store, space string, limit int) (map[string]realm.Node, []realm.Edge) {
	t.Helper()
	nodes, edges, err := store.Graph(context.Background(), space, "", 0, limit)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]realm.Node{}
	for _, n := range nodes {
		byID[n.ID] = n
	}
	return byID, edges
}

// TestSupersedesStored: with the offline agent, a later message that changes what an
// earlier one stated is stored with a supersedes edge to a memory of the earlier one: a
// return after a withdrawal, a new address after where one lived, a patch version after
// its minor, a device's battery reading without "at", a new number in a quoted email, a
// day corrected on a later day, dated in the week of the day it corrects; another member's
// move of a date, a weekday or an hour, or cancellation, of what the first told; a score
// said alone in reply to a question, then told by the one who asked.
func TestSupersedesStored(t *testing.T) {
	p, store := offlinePipeline(t)
	day := time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC) // a Monday
	for _, tt := range []struct {
		name               string
		asked              string // a question of newSpeaker's that old answers, if any
		oldSpeaker, old    string
		newSpeaker, change string
		start              time.Time // when the change's memory begins, when it is dated
	}{
		{"BackAfterWithdrawal", "", "Priya", "Olivia Turner withdrew from the process.", "Priya", "Olivia Turner is back in the process; no longer withdrawn.", time.Time{}},
		{"NewAddressAfterLivesAt", "", "Priya", "Anna Schmidt lives at Hauptstrasse 5.", "Anna", "My new address is Lindenweg 12.", time.Time{}},
		{"PatchVersion", "", "deploy", "Deployed api v2.14", "deploy", "Deployed api v2.14.1", time.Time{}},
		{"BatteryWithoutAt", "", "phone", "Battery 80%", "phone", "Battery 65%", time.Time{}},
		{"NumberInQuotedEmail", "", "Priya", `Email from Maria Chen: "My number is +1 415 555 0101."`, "Priya", `Email from Maria Chen: "My new number is +1 415 555 0199."`, time.Time{}},
		{"DayCorrectedLater", "", "Maya", "Went to the dentist on Monday.", "Maya", "Actually the dentist was on Tuesday, not Monday.", time.Date(2026, 6, 2, 0, 0, 0, 0, time.UTC)},
		{"OurLaunchSlippedOtherMember", "", "Sara", "Launch is on July 15.", "Tom", "Our launch slipped to August 6.", time.Time{}},
		{"WeekdayOfNamedMember", "", "Anna", "Dentist on June 19 at 3pm.", "Ben", "Anna's dentist moved to Thursday.", time.Time{}},
		{"FlightHourOtherMember", "", "Anna", "We're on the 7:15 flight to Lisbon on June 26.", "Ben", "We're on the 9:40 flight now instead of the 7:15.", time.Time{}},
		{"TripCancelledOtherMember", "", "Anna", "We're going to Lisbon in September.", "Ben", "The Lisbon trip is cancelled.", time.Time{}},
		{"ScoreAnswered", "How did the quiz go?", "Ana", "62% on fractions.", "Tutor", "Ana is now at 85% on fractions.", time.Time{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			space := cyphertest.NewSpace(t)
			var obs []realm.Observation
			if tt.asked != "" {
				obs = append(obs, realm.Observation{ID: "o0", SessionID: "s1", Speaker: tt.newSpeaker, Content: tt.asked, ObservedAt: day.Add(-time.Minute)})
			}
			mustIngest(t, p, space, append(obs,
				realm.Observation{ID: "o1", SessionID: "s1", Speaker: tt.oldSpeaker, Content: tt.old, ObservedAt: day},
				realm.Observation{ID: "o2", SessionID: "s2", Speaker: tt.newSpeaker, Content: tt.change, ObservedAt: day.AddDate(0, 0, 10)},
			)...)
			byID, edges := graphOf(t, store, space, 100)
			for _, e := range edges {
				from, to := byID[e.From], byID[e.To]
				if e.Predicate == realm.Supersedes && from.Sources[len(from.Sources)-1] == "o2" && slices.Contains(to.Sources, "o1") {
					if !tt.start.IsZero() && (from.TStart == nil || !from.TStart.Equal(tt.start)) {
						t.Errorf("%q begins %v, want %v", from.Content, from.TStart, tt.start)
					}
					return
				}
			}
			t.Errorf("no supersedes edge from a memory of %q to one of %q: %+v", tt.change, tt.old, edges)
		})
	}
}

// TestPlanSaidAgainOnceCancelled: a plan said again word for word after it was cancelled
// is no repeat of the cancelled plan, which no longer holds: it is a memory of its own,
// which supersedes the cancellation from the time it is said, in one batch or in two.
func TestPlanSaidAgainOnceCancelled(t *testing.T) {
	p, store := offlinePipeline(t)
	obs := []realm.Observation{
		{ID: "plan", SessionID: "s1", Speaker: "Maya", Content: "We're going to Lisbon in May.", ObservedAt: time.Date(2026, 2, 1, 10, 0, 0, 0, time.UTC)},
		{ID: "reply", SessionID: "s1", Speaker: "Sam", Content: "Lisbon in May sounds lovely.", ObservedAt: time.Date(2026, 2, 1, 10, 1, 0, 0, time.UTC)},
		{ID: "cancel", SessionID: "s2", Speaker: "Maya", Content: "Lisbon is cancelled.", ObservedAt: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)},
		{ID: "again", SessionID: "s3", Speaker: "Maya", Content: "We're going to Lisbon in May.", ObservedAt: time.Date(2026, 3, 20, 10, 0, 0, 0, time.UTC)},
	}
	for _, batches := range [][][]realm.Observation{{obs}, {obs[:3], obs[3:]}} {
		space := cyphertest.NewSpace(t)
		for _, b := range batches {
			mustIngest(t, p, space, b...)
		}
		byID, edges := graphOf(t, store, space, 100)
		from := func(n realm.Node, id string) bool {
			return (n.Type == realm.Event || n.Type == realm.Fact) && len(n.Sources) > 0 && n.Sources[len(n.Sources)-1] == id
		}
		renewed := false
		for _, e := range edges {
			if e.Predicate == realm.Supersedes && from(byID[e.From], "again") && from(byID[e.To], "cancel") {
				renewed = true
				if until := byID[e.To].ValidUntil; until == nil || !until.Equal(obs[3].ObservedAt) {
					t.Errorf("%d batches: the cancellation holds until %v, want %v", len(batches), until, obs[3].ObservedAt)
				}
			}
		}
		if !renewed {
			t.Errorf("%d batches: no supersedes edge from the plan said again to the cancellation: %+v", len(batches), edges)
		}
	}
}
