package cypher_test

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// listedTie is how many memories of putListed share one created_at, as those an
// integration writes in one transaction do.
const listedTie = 25

// putListed writes n memories into the space in ties of listedTie on created_at, their
// ids not in the order they were written, of the four types in turn, "blue" in every
// third one's content, and returns them as written. With ends, every fifth one's validity
// has ended and every seventh one's ends in a day.
func putListed(tb testing.TB, s *cypher.Store, space string, n int, ends bool) []realm.Node {
	tb.Helper()
	ctx := context.Background()
	base := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	types := []realm.NodeType{realm.Fact, realm.Event, realm.Entity, realm.Episode}
	nodes := make([]realm.Node, n)
	for i := range nodes {
		content := fmt.Sprintf("memory %d", i)
		if i%3 == 0 {
			content += " is blue"
		}
		nodes[i] = realm.Node{ID: fmt.Sprintf("%s-%05d", space, (i*7919)%n), Type: types[i%len(types)], Name: fmt.Sprint("M", i),
			Content: content, CreatedAt: base.Add(time.Duration(i/listedTie) * time.Second), Embedding: unitVec(i%cyphertest.Dims, (i+1)%cyphertest.Dims, 0.3)}
	}
	if err := s.PutMemories(ctx, space, nodes, nil); err != nil {
		tb.Fatal(err)
	}
	for i := range nodes {
		if !ends || (i%5 != 0 && i%7 != 0) {
			continue
		}
		until := time.Now().Add(-time.Hour)
		if i%5 != 0 {
			until = time.Now().Add(24 * time.Hour)
		}
		nodes[i].ValidUntil = &until
		if err := cypher.SetMemoryProps(ctx, s, space, nodes[i].ID, map[string]any{"valid_until": until.UTC()}); err != nil {
			tb.Fatal(err)
		}
	}
	return nodes
}

// TestListMemoriesPaged: paging a space whose memories share created_at in ties larger
// than a page gives every memory the filters keep exactly once, in (created_at, id) order,
// and a page deep in the space reads fewer database hits than the space has memories.
func TestListMemoriesPaged(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	const n = 600
	nodes := putListed(t, s, space, n, true)
	byOrder := slices.Clone(nodes)
	slices.SortFunc(byOrder, func(a, b realm.Node) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), strings.Compare(a.ID, b.ID))
	})
	yes, no := true, false
	at := func(tie int) time.Time { return nodes[tie*listedTie].CreatedAt }
	current := func(m realm.Node) bool { return m.ValidUntil == nil || m.ValidUntil.After(time.Now()) }
	for _, c := range []struct {
		name   string
		filter cypher.MemoryFilter
		keeps  func(realm.Node) bool
	}{
		{"every memory", cypher.MemoryFilter{}, func(realm.Node) bool { return true }},
		{"type", cypher.MemoryFilter{Type: realm.Event}, func(m realm.Node) bool { return m.Type == realm.Event }},
		{"current", cypher.MemoryFilter{Current: &yes}, current},
		{"ended", cypher.MemoryFilter{Current: &no}, func(m realm.Node) bool { return !current(m) }},
		{"words", cypher.MemoryFilter{Q: "BLUE"}, func(m realm.Node) bool { return strings.Contains(m.Content, "blue") }},
		{"since and until", cypher.MemoryFilter{Since: at(3), Until: at(17)}, func(m realm.Node) bool {
			return !m.CreatedAt.Before(at(3)) && m.CreatedAt.Before(at(17))
		}},
		{"all of them", cypher.MemoryFilter{Type: realm.Fact, Current: &yes, Q: "blue", Since: at(2)}, func(m realm.Node) bool {
			return m.Type == realm.Fact && current(m) && strings.Contains(m.Content, "blue") && !m.CreatedAt.Before(at(2))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var want, got []string
			for _, m := range byOrder {
				if c.keeps(m) {
					want = append(want, m.ID)
				}
			}
			cursor := ""
			for range n {
				page, next, err := s.ListMemories(ctx, space, c.filter, cursor, 11)
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range page {
					got = append(got, m.ID)
				}
				if cursor = next; cursor == "" {
					break
				}
			}
			if len(want) == 0 || !slices.Equal(got, want) {
				t.Errorf("paged %d memories, want %d (%d in the space):\n got %v\nwant %v", len(got), len(want), n, got, want)
			}
		})
	}
	t.Run("a page deep in the space reads only its part", func(t *testing.T) {
		_, cursor, err := s.ListMemories(ctx, space, cypher.MemoryFilter{}, "", n-30)
		if err != nil {
			t.Fatal(err)
		}
		profiled, log := cypher.WithStatementProfile(ctx)
		page, _, err := s.ListMemories(profiled, space, cypher.MemoryFilter{}, cursor, 10)
		if err != nil || len(page) != 10 || page[0].ID != byOrder[n-30].ID {
			t.Fatalf("the page after %d memories: %d memories, %v", n-30, len(page), err)
		}
		if len(log.Statements) != 1 || log.Statements[0].DBHits >= n {
			t.Errorf("statements %+v; want one reading fewer than %d db hits", log.Statements, n)
		}
	})
}
