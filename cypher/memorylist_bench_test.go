package cypher_test

import (
	"context"
	"testing"

	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// BenchmarkListMemories reads a page of 50 memories (GET /v1/spaces/{id}/memories) of a
// space of 10,000, at its start and after 9,000 of them, without a filter and with
// current=true, reporting the database hits of its statement (one page read under PROFILE)
// beside the time.
func BenchmarkListMemories(b *testing.B) {
	s := cyphertest.MustOpen(b)
	ctx := context.Background()
	space := cyphertest.NewSpace(b)
	b.Cleanup(func() { _ = s.RemoveFixture(context.WithoutCancel(ctx), space) })
	const n, deep, limit = 10_000, 9000, 50
	putListed(b, s, space, n, false)
	yes := true
	for _, c := range []struct {
		name   string
		filter cypher.MemoryFilter
		after  int
	}{
		{"first", cypher.MemoryFilter{}, 0},
		{"deep", cypher.MemoryFilter{}, deep},
		{"deep_current", cypher.MemoryFilter{Current: &yes}, deep},
	} {
		cursor := ""
		if c.after > 0 {
			var err error
			if _, cursor, err = s.ListMemories(ctx, space, c.filter, "", c.after); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(c.name, func(b *testing.B) {
			// Hits are counted once apart: PROFILE adds work of its own to the time.
			profiled, log := cypher.WithStatementProfile(ctx)
			if _, _, err := s.ListMemories(profiled, space, c.filter, cursor, limit); err != nil {
				b.Fatal(err)
			}
			var hits int64
			for _, x := range log.Statements {
				hits += x.DBHits
			}
			for b.Loop() {
				if _, _, err := s.ListMemories(ctx, space, c.filter, cursor, limit); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(hits), "dbhits/op")
		})
	}
}
