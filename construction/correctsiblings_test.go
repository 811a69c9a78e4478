package construction_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestCorrectSiblings: Correct of one exchange of a turn corrects the other exchange that
// says the corrected words alike, from the same valid_from (its validity ends then, its
// new version is learned then), and names none of the memories of the other turn (d1).
func TestCorrectSiblings(t *testing.T) {
	ctx := context.Background()
	store := cyphertest.MustOpen(t)
	space := cyphertest.NewSpace(t)
	p := construction.New(store, offline.New(offline.Options{}), bowEmbedder{}, construction.Options{Owner: "siblings-" + space}, zerolog.Nop())
	t.Cleanup(func() { p.Close(context.Background()) })
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	said := func(id, speaker, content string, at time.Duration) realm.Observation {
		return realm.Observation{ID: id, SessionID: "s1", Speaker: speaker, Content: content, ObservedAt: t0.Add(at)}
	}
	mustIngest(t, p, space,
		said("d1", "Jonas", "Which database should the billing service use?", 0),
		said("d2", "Priya", "We go with MySQL for the billing service.", time.Minute),
		said("d3", "Jonas", "Great, I will set up the schema this week.", 2*time.Minute))
	copies := map[string]realm.Node{}
	for _, src := range []string{"d1", "d3"} {
		_, derived, err := store.GetObservation(ctx, space, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range derived {
			if m, _, err := store.GetMemory(ctx, space, d.ID); err == nil && strings.Contains(m.Content, "We go with MySQL") {
				copies[src] = m
			}
		}
	}
	if len(copies) != 2 {
		t.Fatalf("the exchanges of d2: %+v", copies)
	}
	validFrom := t0.Add(time.Hour)
	res, err := p.Correct(ctx, space, copies["d1"].ID, strings.Replace(copies["d1"].Content, "MySQL", "Postgres", 1), validFrom, "")
	if err != nil || len(res.AlsoCorrected) != 1 || res.AlsoCorrected[0].Corrected != copies["d3"].ID {
		t.Fatalf("correct: %+v %v, want %s also corrected", res, err, copies["d3"].ID)
	}
	old, _, err := store.GetMemory(ctx, space, copies["d3"].ID)
	if err != nil || old.ValidUntil == nil || !old.ValidUntil.Equal(validFrom) {
		t.Errorf("the other exchange: %+v %v, want its validity ended at %v", old, err, validFrom)
	}
	n, _, err := store.GetMemory(ctx, space, res.AlsoCorrected[0].MemoryID)
	if want := strings.Replace(copies["d3"].Content, "MySQL", "Postgres", 1); err != nil || n.Content != want || n.LearnedAt == nil || !n.LearnedAt.Equal(validFrom) {
		t.Errorf("its new version: %+v %v, want %q learned at %v", n, err, want, validFrom)
	}
	for _, l := range res.NotCorrected {
		if m, _, err := store.GetMemory(ctx, space, l.ID); err != nil || !slices.Contains(m.Sources, "d2") {
			t.Errorf("not corrected %+v: %+v %v, want only copies of d2, the turn that said the corrected words", l, m, err)
		}
	}
}
