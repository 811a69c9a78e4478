package cypher

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/schema"
)

// qWordCounts reads each memory's stored word_count beside the count of its words made
// from its text as seed_fulltext makes it, which WordCount and word_count must equal.
var qWordCounts = newQuery("test_word_counts", `
MATCH (m:Memory) WHERE m.space = $space
RETURN m.id AS id, m.word_count AS stored,
       size([w IN split(toLower(coalesce(m.name, '') + ' ' + coalesce(m.content, '') + ' ' + reduce(k = '', x IN coalesce(m.keywords, []) | k + ' ' + x)), ' ') WHERE w <> '']) AS counted`)

var qForgetWordCounts = newQuery("test_forget_word_counts", `
MATCH (m:Memory) WHERE m.space = $space REMOVE m.word_count`)

// wordCounts returns each memory's stored and counted word count by id.
func wordCounts(t *testing.T, s *Store, space string) (stored, counted map[string]int64) {
	t.Helper()
	recs, err := s.read(context.Background(), qWordCounts, map[string]any{"space": space})
	if err != nil {
		t.Fatal(err)
	}
	stored, counted = map[string]int64{}, map[string]int64{}
	for _, r := range recs {
		if v, _ := r.Get("stored"); v != nil {
			stored[str(r, "id")] = num(r, "stored")
		}
		counted[str(r, "id")] = num(r, "counted")
	}
	return stored, counted
}

// TestWordCount: every way a memory is written stores the word count the full-text seed
// would count from its text (Go's WordCount equals Cypher's split), the migration fills
// it for memories without it, and the seed scores a memory without it as with it.
func TestWordCount(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	if err := s.ApplySchema(ctx, 384); err != nil {
		t.Fatal(err)
	}
	space := fullTextSpace(t, s)
	word := uniqueWord()
	texts := []struct {
		name, content string
		keywords      []string
	}{
		{"Ann", word + " went  hiking ", []string{"hike", "Mount Rainier"}},
		{"", "  " + word + "\tand\nmore  ", nil},
		{"Two words", word, []string{"", " spaced  keyword "}},
	}
	var nodes []realm.Node
	for i, x := range texts {
		v := make([]float32, 384)
		v[i] = 1
		nodes = append(nodes, realm.Node{ID: space + uniqueWord(), Type: realm.Fact, Name: x.name, Content: x.content, Keywords: x.keywords, Embedding: v})
	}
	if err := s.PutMemories(ctx, space, nodes, nil); err != nil {
		t.Fatal(err)
	}
	// Written by the write path: a new memory, then a merge of new content and keywords.
	obs := realm.Observation{ID: "o1", Speaker: "Ann", Content: "o1", ObservedAt: time.Now().UTC()}
	if _, err := s.SaveObservations(ctx, space, "test:bow", 384, []realm.Observation{obs}, Lease{Owner: "owner-" + space, Until: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	added := realm.Node{ID: space + uniqueWord(), Type: realm.Entity, Name: "Bob Stone", Content: "Bob  is a " + word, Keywords: []string{"Bob"}}
	in := Integration{Adds: []realm.Node{added}, Merges: []Merge{{ID: nodes[0].ID, Content: "Ann is a keen  hiker " + word, Keywords: []string{"Ann", "keen hiker"}}}}
	if applied, err := s.ApplyIntegration(ctx, space, "o1", NeighbourQuery{}, nil, in); err != nil || !applied.Applied {
		t.Fatalf("integration %+v, %v", applied, err)
	}

	stored, counted := wordCounts(t, s, space)
	if len(counted) != 4 {
		t.Fatalf("%d memories, want 4", len(counted))
	}
	for id, c := range counted {
		if stored[id] != c {
			t.Errorf("memory %s stores word_count %d, its text has %d words", id, stored[id], c)
		}
	}
	for i, x := range texts[1:] {
		if got := WordCount(x.name, x.content, x.keywords); got != counted[nodes[i+1].ID] {
			t.Errorf("WordCount(%q, %q, %q) = %d, Cypher counts %d", x.name, x.content, x.keywords, got, counted[nodes[i+1].ID])
		}
	}

	q := SeedQuery{Keywords: []string{word}, Limit: 10}
	with, err := s.SeedByFullText(ctx, space, q)
	if err != nil || len(with) != 4 {
		t.Fatalf("seed %v, %v; want 4 memories", scoredIDs(with), err)
	}
	if _, err := s.write(ctx, qForgetWordCounts, map[string]any{"space": space}); err != nil {
		t.Fatal(err)
	}
	without, err := s.SeedByFullText(ctx, space, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(without) != len(with) {
		t.Fatalf("without word_count %v, with %v", scoredIDs(without), scoredIDs(with))
	}
	for i := range with {
		if without[i].Node.ID != with[i].Node.ID || without[i].Score != with[i].Score {
			t.Errorf("match %d: without word_count %s %v, with %s %v", i, without[i].Node.ID, without[i].Score, with[i].Node.ID, with[i].Score)
		}
	}

	migrations, err := schema.Migrations(384, s.filtered)
	if err != nil {
		t.Fatal(err)
	}
	var migration string
	for _, m := range migrations {
		if m.Name == "memory_word_count" {
			migration = m.Statement
		}
	}
	if !strings.Contains(migration, "word_count") {
		t.Fatal("no memory_word_count migration")
	}
	if err := s.runSchemaStatement(ctx, migration); err != nil {
		t.Fatal(err)
	}
	stored, counted = wordCounts(t, s, space)
	for id, c := range counted {
		if stored[id] != c {
			t.Errorf("after the migration memory %s stores word_count %d, its text has %d words", id, stored[id], c)
		}
	}
}
