package construction_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestForgetLeavesOthersPending: forgetting a message marks each message that stays and
// was a source of a memory deleted with it pending in the same transaction, so that a
// process that died before integrating it again (here: the deletion alone, as a crash
// after it leaves it) leaves it to the resumption, which brings back what it said, from
// it alone.
func TestForgetLeavesOthersPending(t *testing.T) {
	ctx := context.Background()
	store := cyphertest.MustOpen(t)
	space := cyphertest.NewSpace(t)
	p := construction.New(store, offline.New(offline.Options{}), bowEmbedder{}, construction.Options{Owner: "forget-" + space}, zerolog.Nop())
	t.Cleanup(func() { p.Close(context.Background()) })
	t0 := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	said := func(id, content string, at time.Time) realm.Observation {
		return realm.Observation{ID: id, SessionID: "s1", Speaker: "Ana", Content: content, ObservedAt: at}
	}
	mustIngest(t, p, space, said("p1", "I am allergic to penicillin.", t0))
	mustIngest(t, p, space, said("p2", "Reminder: I am allergic to penicillin.", t0.Add(5*time.Minute)))
	allergy := func(want []string) bool {
		mems, _, err := store.ListMemories(ctx, space, cypher.MemoryFilter{}, "", 100)
		if err != nil {
			t.Fatal(err)
		}
		return slices.ContainsFunc(mems, func(m realm.Node) bool {
			return m.Type != realm.Entity && m.Type != realm.Episode && strings.Contains(m.Content, "penicillin") && slices.Equal(m.Sources, want)
		})
	}
	if !allergy([]string{"p1", "p2"}) {
		t.Fatal("want the allergy merged from p1 and p2")
	}

	deleted, err := store.DeleteObservation(ctx, space, "p2", cypher.Lease{})
	if err != nil {
		t.Fatal(err)
	}
	if len(deleted.Reintegrate) != 1 || deleted.Reintegrate[0].ID != "p1" {
		t.Errorf("to integrate again: %+v, want p1", deleted.Reintegrate)
	}
	if o, _, err := store.GetObservation(ctx, space, "p1"); err != nil || o.Status != realm.ObservationPending {
		t.Fatalf("p1 after the deletion: %+v %v, want pending", o, err)
	}
	if allergy([]string{"p1"}) {
		t.Fatal("the allergy is back before p1 is integrated again")
	}
	if n, err := p.ResumePending(ctx); err != nil || n != 1 {
		t.Fatalf("resumed %d %v, want p1", n, err)
	}
	if !allergy([]string{"p1"}) {
		t.Error("the allergy is not back from p1 alone")
	}
}

// TestForgetKeepsOnlyNamesSaid: an entity that stays after a message is forgotten keeps
// only the names a message that stays says: "Tom Becker", merged with the "Tom" of
// another message said before or after, is "Tom" once the message that said "Becker" is
// forgotten, found by that word neither by its name nor by the keyword index, and
// embedded anew.
func TestForgetKeepsOnlyNamesSaid(t *testing.T) {
	tom := realm.Observation{ID: "b", Speaker: "Ana", Content: "Tom called about the invoice."}
	becker := realm.Observation{ID: "a", Speaker: "Ana", Content: "I met Tom Becker at the fair."}
	t.Run("FirstNameBefore", func(t *testing.T) { forgetKeepsOnlyNamesSaid(t, tom, becker) })
	t.Run("FirstNameAfter", func(t *testing.T) { forgetKeepsOnlyNamesSaid(t, becker, tom) })
}

// forgetKeepsOnlyNamesSaid integrates obs (one saying "Tom", one "Tom Becker", whose id is
// a), then forgets a.
func forgetKeepsOnlyNamesSaid(t *testing.T, obs ...realm.Observation) {
	ctx := context.Background()
	store, space, p := saidInSession(t, obs...)
	tom := func() realm.Node {
		t.Helper()
		mems, _, err := store.ListMemories(ctx, space, cypher.MemoryFilter{Type: realm.Entity, Q: "Tom"}, "", 100)
		if err != nil || len(mems) != 1 {
			t.Fatalf("the entities named Tom: %+v %v, want one", mems, err)
		}
		return mems[0]
	}
	if n := tom(); n.Name != "Tom Becker" || !slices.Contains(n.Aliases, "Tom") {
		t.Fatalf("before: %q %v, want Tom Becker, alias Tom", n.Name, n.Aliases)
	}
	// The keyword index held in memory is read, to be followed by the deletion.
	if _, err := store.SeedByFullText(ctx, space, becker(ctx, t, store, space)); err != nil {
		t.Fatal(err)
	}

	if _, err := p.Forget(ctx, space, "a"); err != nil {
		t.Fatal(err)
	}
	n := tom()
	if n.Name != "Tom" || strings.Contains(fmt.Sprint(n.Aliases, n.Content, n.Keywords), "Becker") {
		t.Errorf("after: %q %v %q %v, want Tom and no Becker", n.Name, n.Aliases, n.Content, n.Keywords)
	}
	q := becker(ctx, t, store, space)
	for _, version := range []string{q.SpaceVersion, ""} { // the in-memory index, the full-text one
		q.SpaceVersion = version
		if seeds, err := store.SeedByFullText(ctx, space, q); err != nil || slices.ContainsFunc(seeds, func(s cypher.ScoredMemory) bool { return s.Node.ID == n.ID }) {
			t.Errorf("Becker (version %q) finds %+v %v, want not %s", version, seeds, err, n.ID)
		}
	}
	got, err := store.MemoriesByIDs(ctx, space, []string{n.ID})
	want, _ := bowEmbedder{}.Embed(ctx, []string{construction.EmbedText(n.Name, n.Content)})
	if err != nil || len(got) != 1 || !cyphertest.CloseVectors(got[0].Embedding, want[0]) {
		t.Errorf("its embedding: %+v %v, want that of its new name", got, err)
	}
}

// saidInSession is a new space of the test store and a pipeline of the offline agent
// that integrated obs into it, one by one, a minute apart, in session s1.
func saidInSession(t *testing.T, obs ...realm.Observation) (*cypher.Store, string, *construction.Pipeline) {
	t.Helper()
	store := cyphertest.MustOpen(t)
	space := cyphertest.NewSpace(t)
	p := construction.New(store, offline.New(offline.Options{}), bowEmbedder{}, construction.Options{Owner: "forget-" + space}, zerolog.Nop())
	t.Cleanup(func() { p.Close(context.Background()) })
	for i, o := range obs {
		o.SessionID, o.ObservedAt = "s1", time.Date(2024, 5, 1, 10, i, 0, 0, time.UTC)
		mustIngest(t, p, space, o)
	}
	return store, space, p
}

// becker is the keyword query of "Becker" in space as it is now.
func becker(ctx context.Context, t *testing.T, store *cypher.Store, space string) cypher.SeedQuery {
	t.Helper()
	c, err := store.SpaceCounts(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	return cypher.SeedQuery{Keywords: []string{"Becker"}, Limit: 10, SpaceSize: c.InSpace, SpaceVersion: c.Version}
}

// episodeFailingEmbedder fails to embed an episode's text (the model gone meanwhile).
type episodeFailingEmbedder struct{ bowEmbedder }

func (e episodeFailingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if slices.ContainsFunc(texts, func(t string) bool { return strings.Contains(t, "Conversation with") }) {
		return nil, errors.New("the embedder is away")
	}
	return e.bowEmbedder.Embed(ctx, texts)
}

// TestForgetLeavesEpisodesNoWordsOnFailure: an episode the forgotten message made says
// nothing of it though its derivation anew fails (the embedder is away): the deletion
// left it its name and times alone.
func TestForgetLeavesEpisodesNoWordsOnFailure(t *testing.T) {
	ctx := context.Background()
	store, space, p := saidInSession(t,
		realm.Observation{ID: "a", Speaker: "Ana", Content: "The roof leaks again."},
		realm.Observation{ID: "b", Speaker: "Bob", Content: "I will call a roofer."})
	episode := func() realm.Node {
		t.Helper()
		mems, _, err := store.ListMemories(ctx, space, cypher.MemoryFilter{Type: realm.Episode}, "", 100)
		if err != nil || len(mems) != 1 {
			t.Fatalf("the episodes: %+v %v, want one", mems, err)
		}
		got, err := store.MemoriesByIDs(ctx, space, []string{mems[0].ID})
		if err != nil || len(got) != 1 {
			t.Fatalf("the episode: %+v %v", got, err)
		}
		return got[0]
	}
	if e := episode(); !strings.Contains(e.Content, "Ana") {
		t.Fatalf("before: %q, want Ana's", e.Content)
	}

	away := construction.New(store, offline.New(offline.Options{}), episodeFailingEmbedder{}, construction.Options{Owner: "away-" + space}, zerolog.Nop())
	t.Cleanup(func() { away.Close(context.Background()) })
	if _, err := away.Forget(ctx, space, "a"); err == nil {
		t.Fatal("forgot with the embedder away, want its error")
	}
	e := episode()
	if said := fmt.Sprint(e.Content, e.Description, e.Keywords, e.Participants); strings.Contains(said, "Ana") || e.Content != e.Name || len(e.Embedding) > 0 {
		t.Errorf("after: %q %q %v %v, %d dims, want its name alone, no embedding", e.Content, e.Description, e.Keywords, e.Participants, len(e.Embedding))
	}
	if _, err := p.Forget(ctx, space, "a"); realm.ErrorCode(err) != realm.ENotFound {
		t.Errorf("forgot a again: %v, want ENotFound", err)
	}
}

// awayEmbedder fails every embedding (the model gone meanwhile).
type awayEmbedder struct{ bowEmbedder }

func (awayEmbedder) Embed(context.Context, []string) ([][]float32, error) {
	return nil, errors.New("the embedder is away")
}

// TestForgetRederivesAfterFailure: the entity a forget renames and the episode it bares,
// left without an embedding by an embedder away, are marked; meanwhile a keyword recall
// finds the entity by the name it kept; the next resumption pass (ResumePending, which
// the server runs every REALM_RESUME_INTERVAL) derives them again: the entity embedded
// of its new name, the episode of the messages that stay, and no mark is left.
func TestForgetRederivesAfterFailure(t *testing.T) {
	ctx := context.Background()
	store, space, p := saidInSession(t,
		realm.Observation{ID: "b", Speaker: "Ana", Content: "Tom called about the invoice."},
		realm.Observation{ID: "a", Speaker: "Ana", Content: "I met Tom Becker at the fair."})
	away := construction.New(store, offline.New(offline.Options{}), awayEmbedder{}, construction.Options{Owner: "away-" + space}, zerolog.Nop())
	t.Cleanup(func() { away.Close(context.Background()) })
	deleted, err := away.Forget(ctx, space, "a")
	if err == nil {
		t.Fatal("forgot with the embedder away, want its error")
	}
	marked, err := store.RederivePending(ctx, space, 10)
	if err != nil || len(marked) == 0 {
		t.Fatalf("left to derive again: %+v %v, want the renamed entity (forgotten: %+v)", marked, err, deleted)
	}
	var tom realm.Node
	for _, n := range marked {
		if n.Type == realm.Entity {
			tom = n
		}
	}
	if tom.Name != "Tom" {
		t.Fatalf("left to derive again: %+v, want the entity Tom", marked)
	}
	q := becker(ctx, t, store, space)
	q.Keywords = []string{"Tom"}
	if seeds, err := store.SeedByFullText(ctx, space, q); err != nil || !slices.ContainsFunc(seeds, func(s cypher.ScoredMemory) bool { return s.Node.ID == tom.ID }) {
		t.Errorf("Tom finds %+v %v meanwhile, want %s", seeds, err, tom.ID)
	}

	if _, err := p.ResumePending(ctx); err != nil {
		t.Fatal(err)
	}
	if left, err := store.RederivePending(ctx, space, 10); err != nil || len(left) > 0 {
		t.Errorf("left to derive again after a pass: %+v %v, want none", left, err)
	}
	for _, n := range marked {
		got, err := store.MemoriesByIDs(ctx, space, []string{n.ID})
		if err != nil || len(got) != 1 || len(got[0].Embedding) == 0 {
			t.Fatalf("%s %s after a pass: %+v %v, want an embedding", n.Type, n.ID, got, err)
		}
		if n.ID != tom.ID {
			continue
		}
		want, _ := bowEmbedder{}.Embed(ctx, []string{construction.EmbedText(got[0].Name, got[0].Content)})
		if got[0].Name != "Tom" || !cyphertest.CloseVectors(got[0].Embedding, want[0]) {
			t.Errorf("Tom after a pass: %q, want the embedding of its new name", got[0].Name)
		}
	}
}
