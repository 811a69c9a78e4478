package cypher

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
)

// TestKeywordIndexFollowsALargeSpace: in a space larger than keywordFetch (whose write
// path reads its postings from the full-text index) the keyword index follows the writes
// too, for the read path's seeds: after each run of adds and merges (with and without new
// content, into stored memories, into one the run added, into one an earlier run added)
// the index served is the one followed, equal to the index read again from the store,
// with the same seeds and scores for every query, and the index before the write is
// unchanged (a recall may still hold it); so too after deletions. Once with the changed lists kept apart and the
// dead positions kept, once with both merged and compacted at every write.
func TestKeywordIndexFollowsALargeSpace(t *testing.T) {
	for _, settle := range []int{1 << 30, -1 << 20} {
		t.Run(fmt.Sprint("settle ", settle), func(t *testing.T) {
			defer func(f int64, m int) { keywordFetch, settleMin = f, m }(keywordFetch, settleMin)
			keywordFetch, settleMin = 4, settle
			followLargeSpace(t, settle < 0)
		})
	}
}

func followLargeSpace(t *testing.T, settles bool) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	space := keywordSpace(t, s)
	day := time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC)
	var obs []realm.Observation
	for i := range 8 {
		obs = append(obs, realm.Observation{ID: fmt.Sprint("o", i), Speaker: "Ann", Content: "said", ObservedAt: day.Add(time.Duration(i) * time.Hour)})
	}
	if _, err := s.SaveObservations(ctx, space, "test:bow", 384, obs, Lease{Owner: "owner-" + space, Until: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	setSpaceVersion(t, s, space)
	if _, err := s.LoadKeywordIndex(ctx, space); err != nil {
		t.Fatal(err)
	}
	emb := make([]float32, 384)
	emb[10] = 1
	queries := []SeedQuery{
		{Keywords: []string{"running club marathon"}}, {Keywords: []string{"Caroline's hiking trip in May"}},
		{Keywords: []string{"the"}}, {Keywords: []string{"quokka zebra sunday"}}, {Keywords: []string{"pizza happiness"}},
		{Keywords: []string{"running trip"}, Types: []realm.NodeType{realm.Event}},
		{Keywords: []string{"running hiking"}, TimeRange: &realm.TimeRange{From: day.AddDate(0, 0, 5), To: day.AddDate(0, 2, 0)}},
	}
	// A reader searches whichever index is held while the writes are followed (-race: the
	// follows write nothing an index before them reads).
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			select {
			case <-stop:
				return
			default:
			}
			s.texts.mu.Lock()
			held := s.texts.spaces[space]
			s.texts.mu.Unlock()
			if held != nil {
				indexSeeds(held, space, queries)
			}
		}
	}()
	defer func() { close(stop); <-stopped }()
	var added string // the memory the last round added
	for round := range 4 {
		prev, _ := currentIndex(t, s, space)
		if prev == nil {
			t.Fatalf("round %d: no index held", round)
		}
		prevHolds, prevSeeds := indexByID(prev), indexSeeds(prev, space, queries)

		word := fmt.Sprintf("quokka%d", round)
		texts := []string{"caroline's running trip", "happiness the pizza"}
		if added != "" {
			texts[0] = fmt.Sprintf("quokka%d", round-1)
		}
		q := RunQuery{Space: space, Embeddings: [][]float32{emb, emb}, Texts: texts, K: 3}
		read, err := s.RunNeighbourhoods(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		target, other := read.Text[0][0], read.Text[1][0]
		if added != "" && target.ID != added {
			t.Fatalf("round %d: %s read first for %q, want %s", round, target.ID, texts[0], added)
		}
		start := day.AddDate(0, 1, round)
		n := realm.Node{ID: fmt.Sprintf("%s-new%d", space, round), Type: realm.Event, Name: "Running club " + word,
			Content:  fmt.Sprintf("Caroline runs with the %s running club on Sundays; zebra%d.", word, round),
			Keywords: []string{"running", "club", word}, TStart: &start, Embedding: emb, CreatedAt: day, UpdatedAt: day}
		ins := []ObservationIntegration{
			{ObservationID: fmt.Sprint("o", 2*round), Integration: Integration{
				Adds:   []realm.Node{n},
				Merges: []Merge{{ID: target.ID, Content: fmt.Sprintf("Caroline's marathon %d: she ran it in May 2023 with zebra%d.", round, round), Keywords: []string{"marathon", "May"}}},
			}},
			{ObservationID: fmt.Sprint("o", 2*round+1), Integration: Integration{ // merges without new content
				Merges: []Merge{{ID: n.ID, Keywords: []string{"running", "club", "Sunday", word}}, {ID: other.ID, Keywords: []string{"pizza", fmt.Sprint("round", round)}}},
			}},
		}
		applied, err := s.ApplyRun(ctx, q, read, ins)
		if err != nil || !applied.Applied {
			t.Fatalf("round %d: apply: %+v %v", round, applied, err)
		}
		added = n.ID

		followed, counts := checkFollowed(t, s, space, fmt.Sprint("round ", round), queries)
		if settles != (len(followed.dead) == 0) {
			t.Errorf("round %d: %d dead positions (settling at every write: %v)", round, len(followed.dead), settles)
		}
		if !maps.Equal(indexByID(prev), prevHolds) || !slices.Equal(indexSeeds(prev, space, queries), prevSeeds) {
			t.Errorf("round %d: the index before the write changed", round)
		}
		// The read path's seeds come from the followed index, not from the statement.
		logCtx, log := WithStatementLog(ctx)
		got, err := s.SeedByFullText(logCtx, space, SeedQuery{Keywords: []string{word}, SpaceSize: counts.InSpace, SpaceVersion: counts.Version})
		if err != nil || len(got) != 1 || got[0].Node.ID != n.ID {
			t.Errorf("round %d: seeds for %q %v %v, want %s", round, word, scoredIDs(got), err, n.ID)
		}
		if slices.ContainsFunc(log.Statements, func(st Statement) bool { return st.Name == "seed_fulltext" }) {
			t.Errorf("round %d: the seeds were read by seed_fulltext", round)
		}
	}
	// Deletions: of the memory the last round added, and of one read at first.
	for _, id := range []string{added, space + "-m04"} {
		if err := s.DeleteMemory(ctx, space, id); err != nil {
			t.Fatal(err)
		}
		checkFollowed(t, s, space, "deleted "+id, queries)
	}
}

// checkFollowed checks that the space's index served is current after a write (what) and
// holds what the index read again holds, with the same seeds for queries; it returns it
// and the space's counts.
func checkFollowed(t *testing.T, s *Store, space, what string, queries []SeedQuery) (*spaceTexts, SpaceCounts) {
	t.Helper()
	followed, counts := currentIndex(t, s, space)
	if followed == nil {
		t.Fatalf("%s: the index did not follow the write", what)
	}
	fresh, err := (&keywordCache{}).load(context.Background(), s, space)
	if err != nil || fresh == nil {
		t.Fatalf("load: %v %v", fresh, err)
	}
	sameIndex(t, what, followed, fresh)
	if got, want := indexSeeds(followed, space, queries), indexSeeds(fresh, space, queries); !slices.Equal(got, want) {
		t.Errorf("%s: seeds of the followed index\n%v\nread again\n%v", what, got, want)
	}
	return followed, counts
}

// currentIndex is the space's index held of its current state (nil: none), and its counts.
func currentIndex(t *testing.T, s *Store, space string) (*spaceTexts, SpaceCounts) {
	t.Helper()
	counts, err := s.SpaceCounts(context.Background(), space)
	if err != nil {
		t.Fatal(err)
	}
	return s.texts.current(space, textKey(counts.InSpace, counts.Version)), counts
}

// sameIndex compares what two indexes hold of each memory.
func sameIndex(t *testing.T, what string, got, want *spaceTexts) {
	t.Helper()
	g, w := indexByID(got), indexByID(want)
	for id := range maps.Keys(w) {
		if g[id] != w[id] {
			t.Errorf("%s: %s: followed %s\nread again %s", what, id, g[id], w[id])
		}
	}
	for id := range maps.Keys(g) {
		if _, ok := w[id]; !ok {
			t.Errorf("%s: %s only followed: %s", what, id, g[id])
		}
	}
}

// indexSeeds is the index's best seeds for each query, with their scores.
func indexSeeds(idx *spaceTexts, space string, queries []SeedQuery) []string {
	var out []string
	for _, q := range queries {
		for _, b := range idx.search(spaceTerms(space, q.Keywords), q, 10) {
			out = append(out, fmt.Sprintf("%v: %s %.12g", q.Keywords, idx.ids[b.i], roundScore(b.score)))
		}
	}
	return out
}

// roundScore drops the last bits of a score: sums in another order may differ there.
func roundScore(x float64) float64 {
	if x == 0 {
		return 0
	}
	e := math.Pow(10, 11-math.Floor(math.Log10(math.Abs(x))))
	return math.Round(x*e) / e
}

// TestKeywordIndexFollowsForget: forgetting a message that renames an entity (a message
// that stays says only "Tom") and leaves an episode its name alone, next to a deleted
// fact, is followed by the keyword index held, not dropped for a read of the whole space:
// the index served holds the entity's new name and the episode's bare text, as the index
// read again does; and the episode derived again after (RederiveMemory) is followed too.
func TestKeywordIndexFollowsForget(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	space := keywordSpace(t, s)
	day := time.Date(2023, 5, 8, 13, 0, 0, 0, time.UTC)
	saveObservations(t, s, space, []realm.Observation{
		{ID: "o", Speaker: "Ann", Content: "Tom Becker came to the quokka picnic.", ObservedAt: day},
		{ID: "p", Speaker: "Ann", Content: "Tom called about the picnic.", ObservedAt: day.Add(time.Minute)},
	})
	tom, episode, fact := space+"-tom", space+"-episode", space+"-fact"
	apply := func(obs string, in Integration) {
		t.Helper()
		if applied, err := s.ApplyIntegration(ctx, space, obs, NeighbourQuery{}, nil, in); err != nil || !applied.Applied {
			t.Fatalf("%s: %+v %v", obs, applied, err)
		}
	}
	apply("o", Integration{Adds: []realm.Node{
		{ID: tom, Type: realm.Entity, Name: "Tom Becker", Aliases: []string{"Tom"}, Content: "Tom Becker (person)", Keywords: []string{"Becker"}},
		{ID: episode, Type: realm.Episode, Name: "Picnic", Content: "Ann and Tom Becker at the quokka picnic", Keywords: []string{"quokka"}, TStart: &day},
		{ID: fact, Type: realm.Fact, Name: "Quokka picnic", Content: "Tom Becker came to the quokka picnic"},
	}})
	apply("p", Integration{Merges: []Merge{{ID: tom, Keywords: []string{"Tom"}}, {ID: episode, Keywords: []string{"picnic"}}}})
	if _, err := s.LoadKeywordIndex(ctx, space); err != nil {
		t.Fatal(err)
	}
	queries := []SeedQuery{{Keywords: []string{"Tom Becker"}}, {Keywords: []string{"quokka picnic"}}, {Keywords: []string{"running"}},
		{Keywords: []string{"picnic"}, TimeRange: &realm.TimeRange{From: day, To: day.Add(time.Hour)}}}
	deleted, err := s.DeleteObservation(ctx, space, "o", Lease{Owner: "owner-" + space, Until: time.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if len(deleted.Renamed) != 1 || !slices.Equal(deleted.Episodes, []string{episode}) || !slices.Equal(deleted.MemoryIDs, []string{fact}) {
		t.Fatalf("deleted %+v: want %s renamed, %s rewritten, %s deleted", deleted, tom, episode, fact)
	}
	followed, _ := checkFollowed(t, s, space, "forgot o", queries)
	if text := indexByID(followed)[tom]; strings.Contains(text, "becker") {
		t.Errorf("the index holds %s as %q, with its forgotten name", tom, text)
	}
	rederived := realm.Node{ID: episode, Type: realm.Episode, Name: "Picnic", Content: "Ann at the picnic with Tom", Keywords: []string{"picnic"}, TStart: &day}
	if err := s.RederiveMemory(ctx, space, rederived); err != nil {
		t.Fatal(err)
	}
	checkFollowed(t, s, space, "episode derived again", queries)
}
