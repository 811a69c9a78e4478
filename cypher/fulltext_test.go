package cypher

// Internal tests of the full-text queries' bounded fetch: they shrink fullTextOverFetch
// and fullTextFetchMin so that a handful of memories overflows the fetch.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm"
)

// fullTextSpace returns a test space id, erased when the test ends.
func fullTextSpace(t *testing.T, s *Store) string {
	t.Helper()
	b := make([]byte, 6)
	rand.Read(b)
	space := "test_ft_" + hex.EncodeToString(b)
	t.Cleanup(func() {
		if _, err := s.DeleteSpace(context.Background(), space); err != nil {
			t.Errorf("erasing test space %s: %v", space, err)
		}
	})
	return space
}

// putTexts writes one memory per content into space, with ids prefix0, prefix1, ….
func putTexts(t *testing.T, s *Store, space, prefix string, contents []string) {
	t.Helper()
	var nodes []realm.Node
	for i, c := range contents {
		v := make([]float32, 384)
		v[i%384] = 1
		nodes = append(nodes, realm.Node{ID: fmt.Sprintf("%s%s%d", space, prefix, i), Type: realm.Fact, Name: fmt.Sprintf("%s %d", prefix, i), Content: c, Embedding: v})
	}
	if err := s.PutMemories(context.Background(), space, nodes, nil); err != nil {
		t.Fatal(err)
	}
}

// shrinkFetch makes fullTextFetch(k) = max(perK·k, least) for the test.
func shrinkFetch(t *testing.T, perK, least int) {
	over, min := fullTextOverFetch, fullTextFetchMin
	fullTextOverFetch, fullTextFetchMin = perK, least
	t.Cleanup(func() { fullTextOverFetch, fullTextFetchMin = over, min })
}

// uniqueWord is a word no other memory of the database holds.
func uniqueWord() string {
	b := make([]byte, 5)
	rand.Read(b)
	return "zq" + hex.EncodeToString(b)
}

func ids(nodes []realm.Node) []string {
	var out []string
	for _, n := range nodes {
		out = append(out, n.ID)
	}
	return out
}

func scoredIDs(ms []ScoredMemory) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Node.ID)
	}
	return out
}

// textMatchesOf runs keywordContext and similarAndKeywordNodes (no embeddings) in a read
// transaction and keeps k per text.
func textMatchesOf(t *testing.T, s *Store, space string, texts []string, k int) [][]realm.Node {
	t.Helper()
	var out [][]realm.Node
	_, err := s.readTx(context.Background(), func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		state, _, stats, err := s.keywordContext(context.Background(), tx, space, texts, nil)
		if err != nil {
			return nil, err
		}
		_, out, err = s.similarAndKeywordNodes(context.Background(), tx, space, nil, texts, k, state, stats, nil)
		return nil, err
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range out {
		out[i] = out[i][:min(k, len(out[i]))]
	}
	return out
}

// unlimitedSeed is SeedByFullText's statement with no limit on the index: the reference.
func unlimitedSeed(t *testing.T, s *Store, space string, q SeedQuery) []ScoredMemory {
	t.Helper()
	params := seedParams(space, q)
	params["terms"] = spaceTerms(space, q.Keywords)
	params["options"] = fullTextOptions(0)
	n, _, err := s.SpaceSize(context.Background(), space)
	if err != nil {
		t.Fatal(err)
	}
	params["n"] = n
	params["among"] = amongParam(q.Among)
	recs, err := s.read(context.Background(), qSeedFulltext, params)
	if err != nil {
		t.Fatal(err)
	}
	var out []ScoredMemory
	for _, r := range recs {
		if p := propsOf(r, "node"); p != nil {
			out = append(out, ScoredMemory{Node: nodeOf(p), Score: float(r, "score")})
		}
	}
	return out
}

// TestFullTextFetchFallback: another space holds many better matches, enough to fill a
// bounded fetch of the whole index; the write path's neighbourhood query and the read
// path's seed ask the index for this space's matches only, and find them.
func TestFullTextFetchFallback(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	word := uniqueWord()
	mine, other := fullTextSpace(t, s), fullTextSpace(t, s)
	// Better matches: the word many times in a short text. Worse: once in a long one.
	var strong, weak []string
	for range 20 {
		strong = append(strong, strings.Repeat(word+" ", 5))
	}
	for i := range 3 {
		weak = append(weak, word+" "+strings.Repeat(fmt.Sprintf("filler%d ", i), 30))
	}
	putTexts(t, s, other, "strong", strong)
	putTexts(t, s, mine, "weak", weak)
	shrinkFetch(t, 1, 5) // k = 3 fetches 5 hits: all of the other space
	const k = 3
	want := []string{mine + "weak0", mine + "weak1", mine + "weak2"}

	t.Run("Neighbourhood", func(t *testing.T) {
		got := textMatchesOf(t, s, mine, []string{"nothing-matches-this", word + " Extra", word}, k)
		if len(got) != 3 || len(got[0]) != 0 {
			t.Fatalf("got %d lists, first %v; want 3, the first empty", len(got), ids(got[0]))
		}
		for i := 1; i < 3; i++ {
			g := ids(got[i])
			slices.Sort(g)
			if !slices.Equal(g, want) {
				t.Errorf("text %d: got %v, want %v", i, g, want)
			}
		}
	})
	t.Run("Seed", func(t *testing.T) {
		got, err := s.SeedByFullText(ctx, mine, SeedQuery{Keywords: []string{word}, Limit: k})
		if err != nil {
			t.Fatal(err)
		}
		g := scoredIDs(got)
		slices.Sort(g)
		if !slices.Equal(g, want) {
			t.Errorf("got %v, want %v", g, want)
		}
	})
	t.Run("SeedFilteredOut", func(t *testing.T) {
		got, err := s.SeedByFullText(ctx, mine, SeedQuery{Keywords: []string{word}, Limit: k, Types: []realm.NodeType{realm.Entity}})
		if err != nil || got == nil || len(got) != 0 {
			t.Errorf("got %v, %v; want an empty list (no entity matches)", scoredIDs(got), err)
		}
	})
}

// TestFullTextFetchSame: when this space has enough matches among the bounded fetch, the
// results are those of the unbounded query, in the same order.
func TestFullTextFetchSame(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	word := uniqueWord()
	mine, other := fullTextSpace(t, s), fullTextSpace(t, s)
	// This space: the word i+1 times among 12 other words, so every score differs.
	var texts []string
	for i := range 30 {
		texts = append(texts, strings.Repeat(word+" ", i+1)+strings.Repeat("padding ", 12))
	}
	putTexts(t, s, mine, "m", texts)
	putTexts(t, s, other, "o", []string{word + " " + strings.Repeat("other ", 40), word + " " + strings.Repeat("else ", 40)})
	const k = 4
	shrinkFetch(t, 2, 6) // k = 4 fetches 8 of 32 hits

	// No tie at the cut, or the unbounded query's choice would be arbitrary too. The
	// seed scores from the space's statistics, so its order is its own.
	ref := unlimitedSeed(t, s, mine, SeedQuery{Keywords: []string{word}, Limit: k + 1})
	if len(ref) != k+1 || ref[k-1].Score <= ref[k].Score {
		t.Fatalf("unbounded seed %v, want %d matches then a worse one", scoredIDs(ref), k)
	}
	t.Run("Neighbourhood", func(t *testing.T) {
		// Ranked from the space's statistics as the seeds are: the same order, whatever
		// another space holds.
		got := textMatchesOf(t, s, mine, []string{word, "other " + word}, k)
		want := scoredIDs(ref[:k])
		for i := range got {
			if g := ids(got[i]); !slices.Equal(g, want) {
				t.Errorf("text %d: got %v, want %v", i, g, want)
			}
		}
	})
	// The seed's index query is restricted to the space: a fetch of 30 holds this space's
	// 30 matches whatever the other space holds, so its statistics and scores are those of
	// the unbounded query.
	t.Run("Seed", func(t *testing.T) {
		shrinkFetch(t, 1, 30)
		q := SeedQuery{Keywords: []string{word}, Limit: k}
		got, err := s.SeedByFullText(ctx, mine, q)
		if err != nil {
			t.Fatal(err)
		}
		if g := scoredIDs(got); !slices.Equal(g, scoredIDs(ref[:k])) {
			t.Errorf("got %v, want %v", g, scoredIDs(ref[:k]))
		}
		for i := range got {
			if got[i].Score != ref[i].Score {
				t.Errorf("match %d scores %v, unbounded %v", i, got[i].Score, ref[i].Score)
			}
		}
	})
}

// TestKeywordIndexLikeBoundedStatements: the space clause of "a-<x>" (a stop word, then
// x) also matches the memories of "the-<x>", whose better matches fill the bounded fetches
// of the statements; the seeds and postings the statements give this space are still
// those of its in-memory keyword index (every match), possessives and hyphens included.
func TestKeywordIndexLikeBoundedStatements(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	x := uniqueWord()
	mine, other := "a-"+x, "the-"+x
	for _, space := range []string{mine, other} {
		t.Cleanup(func() { s.DeleteSpace(context.Background(), space) })
	}
	putTexts(t, s, mine, "m", []string{
		"Maria's dog met John at the park, a long walk with the well-known painter of the town",
		"Maria’s cat and the painter’s studio, where they talked about it for a while",
		"maria-jose and a well known e-mail from John's sister on 2023-05-07",
		"MARIA said it's late; the painters' studios were closed, so John went home alone",
		"nothing about her here, only a studio apartment rented for the summer",
	})
	var strong []string
	for range 12 {
		strong = append(strong, "maria maria john john painter studio well-known it's")
	}
	putTexts(t, s, other, "o", strong)
	setSpaceVersion(t, s, mine)
	shrinkFetch(t, 1, 14) // the other space's 12 and this one's best 2
	defer func(f int64) { keywordFetch = f }(keywordFetch)
	keywordFetch = 10 // fewer than the other space's matches of each word

	idx, err := s.texts.load(ctx, s, mine)
	if err != nil || idx == nil {
		t.Fatalf("index %v, %v", idx, err)
	}
	words := []string{"maria", "Maria's", "maria’s", "john", "john's", "well-known", "painter", "studio", "it's", "jose"}
	checkPostings(t, s, mine, words, idx.postings(spaceTerms(mine, words)))
	for _, w := range append(words, "Maria's painter studio") {
		q := SeedQuery{Keywords: []string{w}, Limit: 2, SpaceSize: idx.state.N}
		got, err := s.SeedByFullText(ctx, mine, q) // no version: the statement
		if err != nil {
			t.Fatal(err)
		}
		want := idx.search(spaceTerms(mine, q.Keywords), q, q.Limit)
		same := len(got) == len(want)
		for i := 0; same && i < len(want); i++ {
			same = got[i].Node.ID == idx.ids[want[i].i] && math.Abs(got[i].Score-want[i].score) <= 1e-12*math.Abs(want[i].score)
		}
		if !same {
			var fromIndex []string
			for _, m := range want {
				fromIndex = append(fromIndex, fmt.Sprintf("%s %v", idx.ids[m.i], m.score))
			}
			var fromStatement []string
			for _, g := range got {
				fromStatement = append(fromStatement, fmt.Sprintf("%s %v", g.Node.ID, g.Score))
			}
			t.Errorf("%q: statement %v, index %v", w, fromStatement, fromIndex)
		}
	}
}
