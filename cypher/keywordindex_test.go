package cypher

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
)

// The in-memory keyword index against the real full-text index: the same matches for
// every word, the same seeds with the same scores.

// keywordTexts are memories' texts that exercise the english analyzer: stems,
// possessives, apostrophes, numbers, hyphens, dots, underscores, case and other scripts.
var keywordTexts = []string{
	"Running runs ran runner; she runs daily and ran a marathon.",
	"Connection connected connecting connections connective",
	"Happiness, happy, happily and the happiest hippies",
	"Generalization generalize generalizations general generally",
	"Agreed agreement agreeing agree feed feeds fed needed",
	"Relational relate relativity relatives rational national",
	"Skies sky skiing skis caresses caress ponies pony ties",
	"Hopping hoped hope hopeful hopefulness filing files filed",
	"Motoring motor conditional conditionally sensibility sensible",
	"Caroline's dog and Caroline’s cat met James' book and the children＇s toys",
	"It's raining; don't stop, O'Neil said, rock'n'roll 'quoted' words",
	"Pi is 3.14, a thousand is 1,000; on 2023-05-07 at 7pm v2.0 shipped for $100 on the 4th",
	"e-mail well-known state-of-the-art x-ray COVID-19 covid19 iPhone15 ABC123def",
	"Café naïve Zürich straße résumé İstanbul ﬁnance CAFÉ RÉSUMÉ",
	"Ελλάδα Αθήνα, 日本語のテキスト, 東京タワー and 한국어 문장",
	"snake_case U.S.A. e.g. www.example.com user@example.com C++ C# .NET",
	"I love 🍕 pizza and 🎉 parties; emoji👍inside",
	"The Who played To Be Or Not at the Theatre of Dreams",
	"Adoption adopting adopted adopts adoptive; volunteering volunteer volunteered",
	"Painted painting paintings painter; LGBTQ support group, transgender pride parade",
	"operational operator operate operating operation; electricity electrical electric",
	"Rolls rolled rolling; falling fall fell; sizing size sized; buzzing buzz",
	"Oed aed eed ion sion tion yyy y ys ies ied",
	"grateful gratefulness hopelessness usefulness; formality formalize formal",
	"birthday birthdays Sweden's Melanie Melanie's Melanies Mel",
	"我住在上海，在银行工作。我的妻子叫王芳，她是医生。",
	"昨日、友達と東京タワーに行きました。カタカナのテキストとひらがな、ﾃｷｽﾄ。",
}

// keywordSpace writes keywordTexts (with keywords, types and times) as the memories of
// a new space that has a memories_version, and returns it.
func keywordSpace(t *testing.T, s *Store) string {
	t.Helper()
	space := fullTextSpace(t, s)
	var nodes []realm.Node
	day := time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC)
	for i, text := range keywordTexts {
		v := make([]float32, 384)
		v[i] = 1
		n := realm.Node{ID: fmt.Sprintf("%s-m%02d", space, i), Type: realm.Fact, Name: fmt.Sprintf("note %d", i), Content: text, Embedding: v}
		switch i % 3 {
		case 0:
			n.Type, n.Keywords = realm.Event, []string{"Hiking", "mountain-biking", "Caroline's trip"}
			start, end := day.AddDate(0, 0, i), day.AddDate(0, 0, i+2)
			n.TStart, n.TEnd = &start, &end
		case 1:
			n.Type, n.Name = realm.Entity, strings.Fields(text)[0]
		}
		nodes = append(nodes, n)
	}
	if err := s.PutMemories(context.Background(), space, nodes, nil); err != nil {
		t.Fatal(err)
	}
	setSpaceVersion(t, s, space)
	return space
}

// setSpaceVersion gives space a memories_version, which an in-memory keyword index needs.
func setSpaceVersion(t *testing.T, s *Store, space string) {
	t.Helper()
	if _, err := s.write(context.Background(), newQuery("test_space_version", "MERGE (s:Space {id: $space}) SET s.memories_version = randomUUID()"), map[string]any{"space": space}); err != nil {
		t.Fatal(err)
	}
}

var qTestFullTextMatches = newQuery("test_fulltext_matches", `
UNWIND $terms AS term
CALL (term) {
  CALL db.index.fulltext.queryNodes('memory_text_space_key', term.lucene, {}) YIELD node
  WITH node WHERE node.space = $space
  RETURN collect(node.id) AS ids
}
RETURN term.word AS word, ids`)

// luceneMatches returns, per word, the ids of the space's memories the full-text index
// matches (as seed_fulltext.cypher asks it).
func luceneMatches(t *testing.T, s *Store, space string, words []string) map[string][]string {
	t.Helper()
	recs, err := s.read(context.Background(), qTestFullTextMatches, map[string]any{"space": space, "terms": spaceTerms(space, words)})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, r := range recs {
		v, _ := r.Get("ids")
		ids := stringList(v)
		slices.Sort(ids)
		out[str(r, "word")] = ids
	}
	return out
}

// indexMatches is what the in-memory index matches for word.
func indexMatches(idx *spaceTexts, word string) []string {
	var out []string
	for _, i := range idx.matching(word, len(idx.ids)) {
		out = append(out, idx.ids[i])
	}
	slices.Sort(out)
	return out
}

// compareMatches reports every word whose matches differ between the index and Lucene.
func compareMatches(t *testing.T, s *Store, space string, idx *spaceTexts, words []string) (checked int) {
	t.Helper()
	for start := 0; start < len(words); start += maxLuceneTerms {
		part := words[start:min(start+maxLuceneTerms, len(words))]
		for word, want := range luceneMatches(t, s, space, part) {
			checked++
			if got := indexMatches(idx, word); !slices.Equal(got, want) {
				t.Errorf("%q (terms %q): index matches %d %v, Lucene %d %v", word, analyze(word), len(got), got, len(want), want)
			}
		}
	}
	return checked
}

func TestKeywordIndexMatchesLikeLucene(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	space := keywordSpace(t, s)
	idx, err := s.texts.load(ctx, s, space)
	if err != nil || idx == nil {
		t.Fatalf("load: %v, %v", idx, err)
	}
	// Every word of the texts, as a query would give it, and forms they do not hold.
	var words []string
	for _, text := range append(keywordTexts, "note hiking mountain-biking caroline's trip") {
		words = append(words, KeywordWords(text)...)
	}
	words = append(words, "run", "connect", "happi", "general", "agre", "sky", "hop", "motor", "caroline", "carolines",
		"james", "it's", "it", "the", "don't", "o'neil", "3.14", "1,000", "2023", "2023-05-07", "e-mail", "mail", "state",
		"art", "covid", "19", "cafe", "café", "zurich", "strasse", "istanbul", "finance", "ελλαδα", "日本語", "東京", "タワー",
		"한국어", "snake", "case", "u.s.a", "usa", "example.com", "pizza", "emoji", "who", "theatre", "adopt", "paint",
		"lgbtq", "operate", "electr", "roll", "fall", "size", "buzz", "grate", "formal", "sweden", "sweden's", "melani",
		"nothingmatchesthis", "ion", "y",
		"タ", "ト", "テ", "ー", "キスト", "テキスト", "ﾃｷｽﾄ", "タワー", "カタカナ", "ひ", "ら", "银行", "銀行", "上海银行", "東京タワー")
	if n := compareMatches(t, s, space, idx, words); n < 200 {
		t.Errorf("compared %d words, want at least 200", n)
	}
}

func TestKeywordIndexSeedsLikeCypher(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	space := keywordSpace(t, s)
	counts, err := s.SpaceCounts(ctx, space)
	if err != nil || counts.Version == "" {
		t.Fatalf("counts %+v, %v; want a version", counts, err)
	}
	if _, err := s.LoadKeywordIndex(ctx, space); err != nil {
		t.Fatal(err)
	}
	queries := []SeedQuery{
		{Keywords: []string{"running happiness caroline's"}},
		{Keywords: []string{"the", "connection"}, Limit: 30},
		{Keywords: []string{"hiking", "pizza", "Zürich"}, Limit: 5},
		{Keywords: []string{"e-mail covid-19 3.14"}},
		{Keywords: []string{"agreed ponies hoped"}, Types: []realm.NodeType{realm.Event}},
		{Keywords: []string{"mountain trip caroline"}, TimeRange: &realm.TimeRange{From: time.Date(2023, 5, 5, 0, 0, 0, 0, time.UTC), To: time.Date(2023, 5, 12, 0, 0, 0, 0, time.UTC)}},
		{Keywords: []string{"nothingmatchesthis"}},
		{Keywords: []string{"王芳在上海的银行工作吗？"}},
		{Keywords: []string{"東京タワーのテキスト", "ひらがな"}, Limit: 3},
		{Keywords: []string{strings.Repeat("我上周和妻子王芳一起去了杭州出差顺便看望了她的父母", 50)}},
	}
	for _, q := range queries {
		want := unlimitedSeed(t, s, space, q)
		q.SpaceSize, q.SpaceVersion = counts.InSpace, counts.Version
		if s.texts.current(space, textKey(q.SpaceSize, q.SpaceVersion)) == nil {
			t.Fatal("the index is not current")
		}
		got, err := s.SeedByFullText(ctx, space, q)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(scoredIDs(got), scoredIDs(want)) {
			t.Errorf("%v: index %v, Cypher %v", q.Keywords, scoredIDs(got), scoredIDs(want))
			continue
		}
		for i := range got {
			if math.Abs(got[i].Score-want[i].Score) > 1e-12*math.Abs(want[i].Score) {
				t.Errorf("%v: %s scores %v, Cypher %v", q.Keywords, got[i].Node.ID, got[i].Score, want[i].Score)
			}
			if got[i].Node.Content == "" || len(got[i].Node.Embedding) == 0 {
				t.Errorf("%s: returned without its properties", got[i].Node.ID)
			}
		}
	}
}

// TestKeywordIndexFollowsWrites: a write that moves the space's fingerprint makes the
// index stale (the seeds come from Cypher, with the new text) until it is read again.
func TestKeywordIndexFollowsWrites(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	space := keywordSpace(t, s)
	if _, err := s.LoadKeywordIndex(ctx, space); err != nil {
		t.Fatal(err)
	}
	before, _ := s.SpaceCounts(ctx, space)
	word := uniqueWord()
	putTexts(t, s, space, "late", []string{word + " arrives"})
	after, _ := s.SpaceCounts(ctx, space)
	if after == before || s.texts.current(space, textKey(after.InSpace, after.Version)) != nil {
		t.Fatalf("fingerprint %+v then %+v: the index must not serve the new state", before, after)
	}
	got, err := s.SeedByFullText(ctx, space, SeedQuery{Keywords: []string{word}, SpaceSize: after.InSpace, SpaceVersion: after.Version})
	if err != nil || len(got) != 1 {
		t.Fatalf("got %v, %v; want the new memory", scoredIDs(got), err)
	}
	if _, err := s.LoadKeywordIndex(ctx, space); err != nil {
		t.Fatal(err)
	}
	idx := s.texts.current(space, textKey(after.InSpace, after.Version))
	if idx == nil || len(indexMatches(idx, word)) != 1 {
		t.Fatalf("after a read, the index does not hold the new memory")
	}
	if _, err := s.DeleteSpace(ctx, space); err != nil {
		t.Fatal(err)
	}
	gone, _ := s.SpaceCounts(ctx, space)
	got, err = s.SeedByFullText(ctx, space, SeedQuery{Keywords: []string{word}, SpaceSize: gone.InSpace, SpaceVersion: gone.Version})
	if s.texts.current(space, textKey(gone.InSpace, gone.Version)) != nil || err != nil || len(got) != 0 {
		t.Errorf("an erased space: seeds %v, %v; want none, from no index", scoredIDs(got), err)
	}
}

// TestKeywordIndexSpaces compares the index's matches with Lucene's on existing spaces
// (REALM_KEYWORD_CHECK_SPACES, comma-separated) for every word of a file
// (REALM_KEYWORD_CHECK_WORDS, one text per line: its words are asked as a query gives them).
func TestKeywordIndexSpaces(t *testing.T) {
	spaces, file := os.Getenv("REALM_KEYWORD_CHECK_SPACES"), os.Getenv("REALM_KEYWORD_CHECK_WORDS")
	if spaces == "" || file == "" {
		t.Skip("REALM_KEYWORD_CHECK_SPACES and REALM_KEYWORD_CHECK_WORDS name the spaces and the words to compare")
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]bool{}
	var words []string
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		for _, w := range KeywordWords(lines.Text()) {
			if !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
	}
	s := testStore(t, Config{})
	for _, space := range strings.Split(spaces, ",") {
		idx, err := s.texts.load(context.Background(), s, space)
		if err != nil || idx == nil {
			t.Fatalf("%s: load %v (a space needs a memories_version)", space, err)
		}
		n := compareMatches(t, s, space, idx, words)
		t.Logf("%s: %d memories, %d words compared", space, len(idx.ids), n)
	}
}

// BenchmarkKeywordIndexSearch times the index's search and the whole seed of an existing
// space (REALM_KEYWORD_BENCH_SPACE) for a few common words.
func BenchmarkKeywordIndexSearch(b *testing.B) {
	space := os.Getenv("REALM_KEYWORD_BENCH_SPACE")
	if space == "" {
		b.Skip("REALM_KEYWORD_BENCH_SPACE names the space")
	}
	s := testStore(b, Config{})
	ctx := context.Background()
	if _, err := s.LoadKeywordIndex(ctx, space); err != nil {
		b.Fatal(err)
	}
	counts, err := s.SpaceCounts(ctx, space)
	if err != nil {
		b.Fatal(err)
	}
	q := SeedQuery{Keywords: []string{"maya", "trip", "weekend", "dinner"}, Limit: 50, SpaceSize: counts.InSpace, SpaceVersion: counts.Version}
	idx := s.texts.current(space, textKey(counts.InSpace, counts.Version))
	if idx == nil {
		b.Fatal("no current index")
	}
	terms := spaceTerms(space, q.Keywords)
	b.Run("search", func(b *testing.B) {
		for b.Loop() {
			idx.search(terms, q, 50)
		}
	})
	b.Run("seed", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.SeedByFullText(ctx, space, q); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkKeywordIndexLoad times reading an existing space's index
// (REALM_KEYWORD_BENCH_SPACE).
func BenchmarkKeywordIndexLoad(b *testing.B) {
	space := os.Getenv("REALM_KEYWORD_BENCH_SPACE")
	if space == "" {
		b.Skip("REALM_KEYWORD_BENCH_SPACE names the space")
	}
	s := testStore(b, Config{})
	for b.Loop() {
		if _, err := s.LoadKeywordIndex(context.Background(), space); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSpaceCountsFromIndex: while the space's keyword index is held at the space's
// version, SpaceCounts takes the memory count from it instead of reading every memory.
func TestSpaceCountsFromIndex(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	space := keywordSpace(t, s)
	n := int64(len(keywordTexts))
	counted := func() (SpaceCounts, int64) {
		pctx, log := WithStatementProfile(ctx)
		c, err := s.SpaceCounts(pctx, space)
		if err != nil || len(log.Statements) != 1 {
			t.Fatalf("SpaceCounts: %v, %d statements", err, len(log.Statements))
		}
		return c, log.Statements[0].DBHits
	}
	before, hitsBefore := counted()
	if _, err := s.LoadKeywordIndex(ctx, space); err != nil {
		t.Fatal(err)
	}
	after, hitsAfter := counted()
	if before != after || after.InSpace != n {
		t.Errorf("counts %+v without the index, %+v with it; want %d memories both times", before, after, n)
	}
	if hitsBefore < n || hitsAfter >= n {
		t.Errorf("db hits %d without the index, %d with it; want at least %d, then fewer", hitsBefore, hitsAfter, n)
	}
}

// TestEvictOldest: the caches keep at most max memories, dropping the least recently used
// spaces first and never the one just stored.
func TestEvictOldest(t *testing.T) {
	type entry struct {
		size int
		used int64
	}
	spaces := map[string]entry{"a": {60, 1}, "b": {30, 3}, "c": {30, 2}, "new": {50, 4}}
	evictOldest(spaces, "new", 100, func(e entry) (int, int64) { return e.size, e.used })
	if _, ok := spaces["b"]; len(spaces) != 2 || !ok {
		t.Errorf("kept %v; want b and new", spaces)
	}
	huge := map[string]entry{"old": {10, 1}, "new": {500, 2}}
	evictOldest(huge, "new", 100, func(e entry) (int, int64) { return e.size, e.used })
	if _, ok := huge["new"]; len(huge) != 1 || !ok {
		t.Errorf("kept %v; want the new space alone", huge)
	}
}

// TestBackgroundReadsPauseAfterASlowOne: a space's reads run one at a time; after a read
// slower than slowRead the next waits readGap times its duration; after a quick one it
// may start at once.
func TestBackgroundReadsPauseAfterASlowOne(t *testing.T) {
	var b backgroundReads
	ran := make(chan string, 4)
	read := func(space string, took time.Duration) bool {
		done := make(chan struct{})
		b.start(space, func(context.Context) {
			time.Sleep(took)
			ran <- space
			close(done)
		})
		select {
		case <-done:
			<-ran
			for range 100 { // start's goroutine records the read's end after read returns
				b.mu.Lock()
				running := b.running[space]
				b.mu.Unlock()
				if !running {
					break
				}
				time.Sleep(time.Millisecond)
			}
			return true
		case <-time.After(slowRead + 200*time.Millisecond):
			return false
		}
	}
	if !read("quick", 0) || !read("quick", 0) {
		t.Error("a read after a quick one did not run")
	}
	if !read("slow", slowRead+20*time.Millisecond) {
		t.Fatal("the first read of a space did not run")
	}
	if read("slow", 0) {
		t.Error("a read ran right after a slow one")
	}
	if !read("other", 0) {
		t.Error("another space's read waited for the slow one's pause")
	}
}
