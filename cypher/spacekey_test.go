package cypher

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm/schema"
)

// TestSpaceKey: the key of a valid space id is one term of the english analyzer (as
// analyzer.go reproduces it), itself, and two ids never share a key.
func TestSpaceKey(t *testing.T) {
	ids := []string{"a-conv-41", "b-conv-41", "a_conv_41", "A-conv-41", "aconv41", "notes", "my-notes", "Notes",
		"to-be", "the", "a", "-", "_", "--", "__", "_-", "-_", "0", "00", "s", "ed", "running", "ies", "agreed",
		"x-", "x_0", "X", "x", strings.Repeat("Z-", 32)}
	seen := map[string]string{}
	for _, id := range ids {
		key := spaceKey(id)
		if terms := analyze(key); !slices.Equal(terms, []string{key}) {
			t.Errorf("spaceKey(%q) = %q is analyzed as %q", id, key, terms)
		}
		if other, ok := seen[key]; ok {
			t.Errorf("%q and %q share the key %q", id, other, key)
		}
		seen[key] = id
	}
	if got, want := spaceKey("a-B_c9"), "sa_0_b__c90"; got != want {
		t.Errorf("spaceKey(a-B_c9) = %q, want %q", got, want)
	}
}

// TestSpaceKeyMigration: migration 0024 gives a memory written without a key the one
// spaceKey gives (the writes set it since), and the index finds it by it.
func TestSpaceKeyMigration(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	word := uniqueWord()
	spaces := []string{"Mig-" + word + "_x", "mig__" + word + "-X-"}
	for _, space := range spaces {
		t.Cleanup(func() { s.DeleteSpace(context.Background(), space) })
		putTexts(t, s, space, "m", []string{word})
	}
	unset := newQuery("test_unset_space_key", "MATCH (m:Memory) WHERE m.space IN $spaces REMOVE m.space_key")
	if _, err := s.write(ctx, unset, map[string]any{"spaces": spaces}); err != nil {
		t.Fatal(err)
	}
	ms, err := schema.Migrations(384, false)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(ms, func(m schema.Migration) bool { return m.Name == "memory_space_key" })
	if i < 0 {
		t.Fatal("no migration memory_space_key")
	}
	if err := s.runSchemaStatement(ctx, ms[i].Statement); err != nil {
		t.Fatal(err)
	}
	keys := newQuery("test_space_keys", "MATCH (m:Memory) WHERE m.space IN $spaces RETURN m.space AS space, m.space_key AS key")
	recs, err := s.read(ctx, keys, map[string]any{"spaces": spaces})
	if err != nil || len(recs) != len(spaces) {
		t.Fatalf("%d memories, %v", len(recs), err)
	}
	for _, r := range recs {
		if got, want := str(r, "key"), spaceKey(str(r, "space")); got != want {
			t.Errorf("space %s: migrated key %q, want %q", str(r, "space"), got, want)
		}
	}
	for _, space := range spaces {
		if got := indexedSpaces(t, s, space, word); !slices.Equal(got, []string{space}) {
			t.Errorf("space %s: the index finds %q", space, got)
		}
	}
}

var qTestIndexedSpaces = newQuery("test_indexed_spaces", `
CALL db.index.fulltext.queryNodes('memory_text_space_key', $lucene, {}) YIELD node
RETURN node.space AS space`)

// indexedSpaces is the space of every memory the index matches for word within space.
func indexedSpaces(t *testing.T, s *Store, space, word string) []string {
	t.Helper()
	terms := spaceTerms(space, []string{word})
	recs, err := s.read(context.Background(), qTestIndexedSpaces, map[string]any{"lucene": terms[0]["lucene"]})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range recs {
		out = append(out, str(r, "space"))
	}
	return out
}

// TestSpaceClauseMatchesOneSpace: a space whose id shares the analyzer's terms with
// others' ("a-conv-…" and "b-conv-…"; "…" and "my-…"), or has none ("to-be"), gets from
// the full-text statements its own matches only, though the other space holds many
// more, better ones, and the fetches are smaller than both: the write path's postings
// are every match, and the read path's seeds score from every match (as unbounded).
func TestSpaceClauseMatchesOneSpace(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	word, x := uniqueWord(), uniqueWord()
	pairs := [][2]string{{"a-conv-" + x, "b-conv-" + x}, {x, "my-" + x}, {"to-be", "it-" + x}}
	for _, p := range pairs {
		for _, space := range p {
			s.DeleteSpace(ctx, space) // "to-be" may be left from a run stopped
			t.Cleanup(func() { s.DeleteSpace(context.Background(), space) })
		}
	}
	// This space: one strong match (the word four times in a short text), two weak ones,
	// three memories without it. The other: 20 matches better than the weak ones.
	filler := "about a walk in the park with friends on a sunny afternoon"
	mineTexts := []string{strings.Repeat(word+" ", 4), word + " " + filler, filler + " " + word, filler, filler, filler}
	var otherTexts []string
	for range 20 {
		otherTexts = append(otherTexts, word+" "+word+" and a few more")
	}
	for _, p := range pairs {
		putTexts(t, s, p[0], "m", mineTexts)
		putTexts(t, s, p[1], "o", otherTexts)
	}
	defer func(f int64) { keywordFetch = f }(keywordFetch)
	keywordFetch = 4 // fewer than this space's 6 memories: the statements answer, bounded
	shrinkFetch(t, 1, 3)

	for _, p := range pairs {
		mine := p[0]
		want := []string{mine + "m0", mine + "m1", mine + "m2"}
		t.Run(mine, func(t *testing.T) {
			if got := indexedSpaces(t, s, mine, word); !slices.Equal(got, []string{mine, mine, mine}) {
				t.Errorf("the index matches memories of %q", got)
			}
			stats := KeywordStats{}
			_, err := s.readTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
				var err error
				_, _, stats, err = s.keywordContext(ctx, tx, mine, []string{word}, nil)
				return nil, err
			})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range stats.Words[word] {
				got = append(got, p.ID)
			}
			slices.Sort(got)
			if stats.N != 6 || !slices.Equal(got, want) {
				t.Errorf("postings of %s: %d memories, %v; want 6, %v", word, stats.N, got, want)
			}
			q := SeedQuery{Keywords: []string{word}, Limit: 1}
			seeds, err := s.SeedByFullText(ctx, mine, q)
			if err != nil {
				t.Fatal(err)
			}
			all := unlimitedSeed(t, s, mine, q)
			if len(seeds) != 1 || len(all) != 1 || seeds[0].Node.ID != want[0] || math.Abs(seeds[0].Score-all[0].Score) > 1e-12 {
				t.Errorf("seeds %v, unbounded %v; want %s scored from its 3 matches", seedsOf(seeds), seedsOf(all), want[0])
			}
		})
	}
}

func seedsOf(ms []ScoredMemory) []string {
	var out []string
	for _, m := range ms {
		out = append(out, fmt.Sprintf("%s %v", m.Node.ID, m.Score))
	}
	return out
}

// TestDisjointPrefixes: sorted, without a prefix that another one begins, so that their
// ranges follow one another in id order.
func TestDisjointPrefixes(t *testing.T) {
	for _, tt := range []struct{ in, want []string }{
		{[]string{"zoe-", "ana", "ana-", "ana"}, []string{"ana", "zoe-"}},
		{[]string{"b", "", "a"}, []string{""}},
		{nil, nil},
	} {
		if got := disjointPrefixes(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("disjointPrefixes(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
