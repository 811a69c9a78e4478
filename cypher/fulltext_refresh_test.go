package cypher

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm"
)

// TestFullTextSeesTheLastWrite: each memory the write path commits is found by its word
// right after the commit, every time, by the read path's seed statement and by the write
// path's keyword postings (both from the full-text index: writeFromIndex false keeps the
// in-memory keyword index out, keywordFetch 0 every match in). An eventually consistent index queried without
// db.index.fulltext.awaitEventuallyConsistentIndexRefresh first misses about half
// (docs/benchmarks/tenancy.md, 2026-12-04).
func TestFullTextSeesTheLastWrite(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	defer func(f int64, w bool) { keywordFetch, writeFromIndex = f, w }(keywordFetch, writeFromIndex)
	keywordFetch, writeFromIndex = 0, false
	space := fullTextSpace(t, s)
	lease := Lease{Owner: "owner-" + space, Until: time.Now().Add(time.Hour)}
	missed := 0
	for i := range 40 {
		word, obs := uniqueWord(), fmt.Sprintf("o%d", i)
		if _, err := s.SaveObservations(ctx, space, "test:bow", 384, []realm.Observation{{ID: obs, Speaker: "Ann", Content: word, ObservedAt: time.Now()}}, lease); err != nil {
			t.Fatal(err)
		}
		v := make([]float32, 384)
		v[i%384] = 1
		m := realm.Node{ID: fmt.Sprintf("%s-m%d", space, i), Type: realm.Fact, Name: word, Content: "Ann said " + word, Keywords: []string{word}, Embedding: v}
		if _, err := s.ApplyIntegration(ctx, space, obs, NeighbourQuery{}, nil, Integration{Adds: []realm.Node{m}}); err != nil {
			t.Fatal(err)
		}
		seeds, err := s.SeedByFullText(ctx, space, SeedQuery{Keywords: []string{word}, Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		var stats KeywordStats
		_, err = s.readTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
			var err error
			_, _, stats, err = s.keywordContext(ctx, tx, space, []string{word}, nil)
			return nil, err
		})
		if err != nil {
			t.Fatal(err)
		}
		posted := slices.ContainsFunc(stats.Words[word], func(p KeywordPosting) bool { return p.ID == m.ID })
		if !slices.Equal(scoredIDs(seeds), []string{m.ID}) || !posted {
			missed++
			t.Errorf("write %d: seeds %v, postings %+v; want %s in both", i, scoredIDs(seeds), stats.Words[word], m.ID)
		}
	}
	if missed > 0 {
		t.Errorf("%d of 40 writes not seen right after", missed)
	}
}
