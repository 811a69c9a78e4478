package cypher

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm"
)

// TestKeywordIndexFollowsTheWritePath: the write path's own writes (adds, merges with and
// without a new name and content, a merge into a memory the same run added) keep the space's
// keyword index current, equal to the index read again from the store, and the write
// path's keyword postings from it equal memory_run_context's from the full-text index.
func TestKeywordIndexFollowsTheWritePath(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	space := fullTextSpace(t, s)
	day := time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC)
	var obs []realm.Observation
	for i := range 2 {
		obs = append(obs, realm.Observation{ID: fmt.Sprint("o", i), Speaker: "Ann", Content: "said", ObservedAt: day.Add(time.Duration(i) * time.Hour)})
	}
	lease := Lease{Owner: "owner-" + space, Until: time.Now().Add(time.Hour)}
	if _, err := s.SaveObservations(ctx, space, "test:bow", 384, obs, lease); err != nil {
		t.Fatal(err)
	}
	var nodes []realm.Node
	for i, text := range keywordTexts {
		v := make([]float32, 384)
		v[i] = 1
		n := realm.Node{ID: fmt.Sprintf("%s-m%02d", space, i), Type: realm.Fact, Name: fmt.Sprintf("note %d", i), Content: text, Keywords: []string{"Hiking", "Caroline's trip"}, Embedding: v}
		if i%3 == 0 {
			start := day.AddDate(0, 0, i)
			n.Type, n.TStart = realm.Event, &start
		}
		nodes = append(nodes, n)
	}
	if err := s.PutMemories(ctx, space, nodes, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.write(ctx, newQuery("test_space_version", "MATCH (s:Space {id: $space}) SET s.memories_version = randomUUID()"), map[string]any{"space": space}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.LoadKeywordIndex(ctx, space); err != nil {
		t.Fatal(err)
	}

	texts := []string{"caroline's running trip", "happiness the pizza"}
	emb := make([]float32, 384)
	emb[10] = 1
	q := RunQuery{Space: space, Embeddings: [][]float32{emb, emb}, Texts: texts, K: 3}
	read, err := s.RunNeighbourhoods(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	checkPostings(t, s, space, texts, read.Keywords)
	target := read.Text[0][0] // a stored memory merged into, with new content
	start, end := day.AddDate(0, 1, 0), day.AddDate(0, 1, 2)
	added := realm.Node{ID: space + "-new", Type: realm.Event, Name: "Running club", Content: "Caroline runs with the running club on Sundays.",
		Keywords: []string{"running", "club"}, TStart: &start, TEnd: &end, Embedding: emb, CreatedAt: day, UpdatedAt: day}
	ins := []ObservationIntegration{
		{ObservationID: "o0", Integration: Integration{
			Adds:   []realm.Node{added},
			Merges: []Merge{{ID: target.ID, Name: "Caroline's Boston marathon", Content: "Caroline's marathon: she ran it in May 2023.", Keywords: []string{"marathon", "May"}}},
		}},
		{ObservationID: "o1", Integration: Integration{ // merges without new content
			Merges: []Merge{{ID: added.ID, Keywords: []string{"running", "club", "Sunday"}}, {ID: target.ID, Keywords: []string{"marathon"}}},
		}},
	}
	applied, err := s.ApplyRun(ctx, q, read, ins)
	if err != nil || !applied.Applied {
		t.Fatalf("apply: %+v %v", applied, err)
	}
	counts, err := s.SpaceCounts(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	followed := s.texts.current(space, textKey(counts.InSpace, counts.Version))
	if followed == nil {
		t.Fatal("the index was not kept current by the write")
	}
	fresh, err := (&keywordCache{}).load(ctx, s, space)
	if err != nil || fresh == nil {
		t.Fatalf("load: %v %v", fresh, err)
	}
	if got, want := indexByID(followed), indexByID(fresh); !maps.Equal(got, want) {
		for id := range maps.Keys(want) {
			if got[id] != want[id] {
				t.Errorf("%s: followed %s\nread again %s", id, got[id], want[id])
			}
		}
		if len(got) != len(want) {
			t.Errorf("followed %d memories, read again %d", len(got), len(want))
		}
	}
	// The next run's postings come from the index, as the full-text index gives them.
	texts = []string{"running club marathon", "caroline's sunday the may", "hiking trip"}
	logCtx, log := WithStatementLog(ctx)
	read, err = s.RunNeighbourhoods(logCtx, RunQuery{Space: space, Embeddings: [][]float32{emb, emb, emb}, Texts: texts, K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(log.Statements); n > 2 {
		t.Errorf("%d statements for the neighbourhoods, want at most 2 (context, memories by id)", n)
	}
	checkPostings(t, s, space, texts, read.Keywords)
	// The neighbours came without their embeddings (taken from the space's in memory),
	// equal to the memories as stored.
	if !slices.ContainsFunc(log.Statements, func(st Statement) bool { return st.Name == "memory_neighbours" }) {
		t.Errorf("statements %+v: the neighbours were not read by memory_neighbours", log.Statements)
	}
	var got []realm.Node
	for _, list := range slices.Concat(read.Vector, read.Text) {
		got = append(got, list...)
	}
	var stored map[string]realm.Node
	_, err = s.readTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		stored, err = nodesByIDs(ctx, tx, space, ids(got), nil)
		return nil, err
	})
	if err != nil || len(got) == 0 {
		t.Fatalf("%d neighbours, %v", len(got), err)
	}
	for _, n := range got {
		if !reflect.DeepEqual(n, stored[n.ID]) || len(n.Embedding) != 384 {
			t.Errorf("%s: neighbour %+v, stored %+v", n.ID, n, stored[n.ID])
		}
	}

	// The space's memories are not counted again at a version this store knows, and are
	// at one it does not (another store wrote).
	counts, err = s.SpaceCounts(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	contextOf := func() (SpaceState, Statement) {
		pctx, log := WithStatementProfile(ctx)
		read, err := s.RunNeighbourhoods(pctx, RunQuery{Space: space, Embeddings: [][]float32{emb}, Texts: []string{"marathon"}, K: 3})
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(log.Statements, func(st Statement) bool { return st.Name == "memory_run_context" })
		return read.State, log.Statements[i]
	}
	state, st := contextOf()
	if state.N != counts.InSpace || state.Version != counts.Version || st.DBHits >= state.N {
		t.Errorf("known version: state %+v (%d memories), %d db hits; want no count", state, counts.InSpace, st.DBHits)
	}
	other := testStore(t, Config{})
	putTexts(t, other, space, "other", []string{"written by another process"})
	state, st = contextOf()
	if state.N != counts.InSpace+1 || st.DBHits < state.N {
		t.Errorf("after another store's write: state %+v, %d db hits; want %d memories, counted", state, st.DBHits, counts.InSpace+1)
	}
}

// TestCommonWordsAlikeOnBothPaths: in a space of more than keywordFetch memories, a word
// matching at least keywordFetch of them (a stop word, which matches all) is common: the
// write path's statement and the in-memory index both mark it and give no postings for
// it, every match of the other words, and so the same keyword neighbours; in a space of
// at most keywordFetch memories no word is common.
func TestCommonWordsAlikeOnBothPaths(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	defer func(f int64, w bool) { keywordFetch, writeFromIndex = f, w }(keywordFetch, writeFromIndex)
	space := fullTextSpace(t, s)
	common, rare := uniqueWord(), uniqueWord()
	putTexts(t, s, space, "m", []string{
		common + " " + rare + " at the lake", common + " walked home", common + " " + common + " swam", common, rare + " only", "nothing of them here",
	})
	setSpaceVersion(t, s, space)
	if _, err := s.LoadKeywordIndex(ctx, space); err != nil {
		t.Fatal(err)
	}
	emb := make([]float32, 384)
	emb[200] = 1
	q := RunQuery{Space: space, Embeddings: [][]float32{emb, emb}, Texts: []string{common + " " + rare + " the lake", common + " swam"}, K: 2}
	neighbours := func(fromIndex bool) RunNeighbours {
		t.Helper()
		writeFromIndex = fromIndex
		read, err := s.RunNeighbourhoods(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		return read
	}
	for _, fetch := range []int64{4, 6} {
		keywordFetch = fetch
		byStatement, byIndex := neighbours(false), neighbours(true)
		if s.texts.current(space, byIndex.State) == nil {
			t.Fatal("the index is not of the state read")
		}
		for path, read := range map[string]RunNeighbours{"statement": byStatement, "index": byIndex} {
			k := read.Keywords
			wantCommon := fetch < k.N
			if k.Common[common] != wantCommon || k.Common["the"] != wantCommon || k.Common[rare] || k.Common["lake"] ||
				len(k.Words[common]) != map[bool]int{true: 0, false: 4}[wantCommon] || len(k.Words[rare]) != 2 || len(k.Words["lake"]) != 1 {
				t.Errorf("keywordFetch %d, %s: %d memories, common %v, postings %v", fetch, path, k.N, k.Common, k.Words)
			}
		}
		if !sameKeywords(byStatement.Keywords, byIndex.Keywords) {
			t.Errorf("keywordFetch %d: statement %+v, index %+v", fetch, byStatement.Keywords, byIndex.Keywords)
		}
		for i := range q.Texts {
			if a, b := ids(byStatement.Text[i]), ids(byIndex.Text[i]); !slices.Equal(a, b) {
				t.Errorf("keywordFetch %d, %q: statement's neighbours %v, index's %v", fetch, q.Texts[i], a, b)
			}
		}
	}
}

// checkPostings compares stats with memory_run_context's postings of texts.
func checkPostings(t *testing.T, s *Store, space string, texts []string, stats KeywordStats) {
	t.Helper()
	var want KeywordStats
	_, err := s.readTx(context.Background(), func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		var err error
		_, _, want, err = runContext(context.Background(), tx, space, spaceTerms(space, texts), nil, SpaceState{})
		return nil, err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Words) == 0 || !sameKeywords(stats, want) {
		t.Errorf("postings of %q: %+v, full-text index %+v", texts, stats, want)
	}
}

// indexByID describes what the index holds of each memory.
func indexByID(t *spaceTexts) map[string]string {
	terms, runs := map[int32][]string{}, map[int32][]string{}
	t.eachTerm(func(term string, list []int32) {
		if !slices.IsSorted(list) {
			terms[-1] = append(terms[-1], term) // reported below as a memory of its own
		}
		for _, i := range list {
			terms[i] = append(terms[i], term)
		}
	})
	for r := range t.runs {
		for _, h := range t.hits(int32(r)) {
			runs[h.i] = append(runs[h.i], fmt.Sprintf("%s×%d", t.runs[r], h.n))
		}
	}
	out := map[string]string{}
	if unsorted := terms[-1]; len(unsorted) > 0 {
		out["unsorted lists"] = strings.Join(unsorted, ",")
	}
	for i := range maps.Keys(runs) {
		if int(i) >= len(t.ids) {
			out["beyond"] += fmt.Sprintf("run hit at %d of %d; ", i, len(t.ids)) // an index sees a later one's memory
		}
	}
	for i := range maps.Keys(terms) {
		if int(i) >= len(t.ids) {
			out["beyond"] += fmt.Sprintf("term of %d of %d; ", i, len(t.ids))
		}
	}
	live := t.live()
	for i, id := range t.ids {
		if live != nil && !live[i] {
			if len(terms[int32(i)]) > 0 {
				out["dead "+id] = strings.Join(terms[int32(i)], ",") // a dead position in a term's list
			}
			continue
		}
		if _, twice := out[id]; twice {
			out["twice "+id] = ""
		}
		slices.Sort(terms[int32(i)])
		slices.Sort(runs[int32(i)])
		out[id] = fmt.Sprintf("%q dl %v split %v %s %v–%v terms %s runs %s", t.texts[i], t.dls[i], t.splits[i], t.types[i], t.start[i].UTC(), t.end[i].UTC(),
			strings.Join(terms[int32(i)], ","), strings.Join(runs[int32(i)], ","))
	}
	return out
}

// TestSpaceSplitWords: counted as the non-empty parts of strings.Split(text, " ").
func TestSpaceSplitWords(t *testing.T) {
	for _, text := range []string{"", " ", "a", " a", "a ", "  a  b ", "ann  went\thiking\n now", "é ü  ß", "a b c"} {
		want := 0
		for _, w := range strings.Split(text, " ") {
			if w != "" {
				want++
			}
		}
		if got := spaceSplitWords(text); got != want {
			t.Errorf("%q: %d, want %d", text, got, want)
		}
	}
}

// TestKeywordIndexCatchesUpWithOwnWrites: writes of this process that come while the
// space's index is read (here between the read's statement and its keeping) are applied
// to what was read, so that the index kept is current and equal to one read again; a read
// that saw part of them (its statement began before the first and ended after it) gets
// them all applied again, to the same index; without them it is not kept.
func TestKeywordIndexCatchesUpWithOwnWrites(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	space := keywordSpace(t, s)
	day := time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC)
	lease := Lease{Owner: "owner-" + space, Until: time.Now().Add(time.Hour)}
	if _, err := s.SaveObservations(ctx, space, "test:bow", 384, []realm.Observation{
		{ID: "o0", Speaker: "Ann", Content: "said", ObservedAt: day}, {ID: "o1", Speaker: "Ann", Content: "said", ObservedAt: day.Add(time.Hour)},
	}, lease); err != nil {
		t.Fatal(err)
	}
	setSpaceVersion(t, s, space)
	emb := make([]float32, 384)
	emb[10] = 1
	write := func(obs string, in Integration, texts ...string) {
		t.Helper()
		q := RunQuery{Space: space, Embeddings: make([][]float32, len(texts)), Texts: texts, K: 3}
		for i := range q.Embeddings {
			q.Embeddings[i] = emb
		}
		read, err := s.RunNeighbourhoods(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if in.Merges != nil {
			in.Merges[0].ID = read.Text[0][0].ID // a stored memory, merged into with new content
		}
		applied, err := s.ApplyRun(ctx, q, read, []ObservationIntegration{{ObservationID: obs, Integration: in}})
		if err != nil || !applied.Applied {
			t.Fatalf("apply: %+v %v", applied, err)
		}
	}
	defer func(w bool) { writeFromIndex = w }(writeFromIndex)
	writeFromIndex = false // no read in the background: the one below is the only one
	var writes []ownWrite
	textsRead = func() {
		textsRead = nil
		write("o0", Integration{Adds: []realm.Node{{ID: space + "-new", Type: realm.Event, Name: "Running club", Content: "Caroline runs with the running club.",
			Keywords: []string{"running"}, TStart: &day, Embedding: emb, CreatedAt: day, UpdatedAt: day}}}, "running club")
		write("o1", Integration{Merges: []Merge{{Content: "Caroline's marathon in May.", Keywords: []string{"marathon"}}}}, "caroline's hiking trip")
		s.texts.mu.Lock()
		writes = slices.Clone(s.texts.reading[space].writes)
		s.texts.mu.Unlock()
	}
	defer func() { textsRead = nil }()
	if _, err := s.LoadKeywordIndex(ctx, space); err != nil {
		t.Fatal(err)
	}
	if len(writes) != 2 {
		t.Fatalf("%d writes recorded during the read, want 2", len(writes))
	}
	counts, err := s.SpaceCounts(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := (&keywordCache{}).load(ctx, s, space)
	if err != nil || fresh == nil {
		t.Fatalf("load: %v %v", fresh, err)
	}
	want := indexByID(fresh)
	kept := s.texts.current(space, textKey(counts.InSpace, counts.Version))
	if kept == nil {
		t.Fatal("the index read before the writes was not kept, caught up")
	}
	if got := indexByID(kept); !maps.Equal(got, want) {
		t.Errorf("caught up:\n%v\nread again:\n%v", got, want)
	}
	// A read that saw the writes though its statement began at the version before them.
	partial, err := (&keywordCache{}).load(ctx, s, space)
	if err != nil || partial == nil {
		t.Fatalf("load: %v %v", partial, err)
	}
	partial.state = writes[0].before
	if got := partial.caughtUp(writes, writes[0].after.Version); got == nil || got.state != fresh.state || !maps.Equal(indexByID(got), want) {
		t.Errorf("a read that saw part of the writes, caught up: %v", got)
	}
	if got := fresh.caughtUp(nil, writes[0].after.Version); got != nil {
		t.Error("a read overlapped by a write it does not know was kept")
	}
}

// TestRecentMemoriesWithManySources: the write path reads a recent memory that derives from
// more than InlineSources observations (a speaker's entity) without its sources, and one
// of a few observations with all of them.
func TestRecentMemoriesWithManySources(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	space := fullTextSpace(t, s)
	day := time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC)
	var obs []realm.Observation
	var ids []string
	for i := range InlineSources + 8 {
		id := fmt.Sprintf("o%02d", i)
		obs = append(obs, realm.Observation{ID: id, Speaker: "Ann", Content: "said", ObservedAt: day.Add(time.Duration(i) * time.Minute)})
		ids = append(ids, id)
	}
	lease := Lease{Owner: "owner-" + space, Until: time.Now().Add(time.Hour)}
	if _, err := s.SaveObservations(ctx, space, "test:bow", 384, obs, lease); err != nil {
		t.Fatal(err)
	}
	derive := newQuery("test_derive", `
UNWIND $memories AS x
CREATE (m:Memory {id: x.id, space: $space, type: 'entity', name: x.id, sources: x.sources})
WITH m, x
UNWIND x.sources AS oid
MATCH (o:Observation {space: $space, id: oid})
CREATE (m)-[:DERIVED_FROM]->(o)`)
	last := ids[len(ids)-2:]
	if _, err := s.write(ctx, derive, map[string]any{"space": space, "memories": []map[string]any{
		{"id": space + "-ann", "sources": ids}, {"id": space + "-two", "sources": last},
	}}); err != nil {
		t.Fatal(err)
	}
	read, err := s.RunNeighbourhoods(ctx, RunQuery{Space: space, RecentFrom: last})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{space + "-ann": nil, space + "-two": last}
	if len(read.Recent) != len(want) {
		t.Fatalf("recent: %+v", read.Recent)
	}
	for _, d := range read.Recent {
		if !slices.Equal(d.Node.Sources, want[d.Node.ID]) || !slices.Equal(d.From, last) {
			t.Errorf("%s: sources %v from %v, want %v from %v", d.Node.ID, d.Node.Sources, d.From, want[d.Node.ID], last)
		}
	}
}
