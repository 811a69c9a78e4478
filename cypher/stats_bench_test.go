package cypher_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// BenchmarkStats reads the statistics of a space of 1,000 and 100,000 memory edges (ten
// from each memory; GET /v1/spaces/{id}/stats), reporting the database hits of its
// statements per read (a count that does not depend on how busy the machine is) beside
// the allocations: Kept, read again by the same store, the space unchanged; Read, by a
// store that has not read them (as after a write to the space).
func BenchmarkStats(b *testing.B) {
	for _, edges := range []int{1_000, 100_000} {
		s := cyphertest.MustOpen(b)
		ctx := context.Background()
		space := cyphertest.NewSpace(b)
		b.Cleanup(func() { _ = s.RemoveFixture(context.WithoutCancel(ctx), space) })
		// A message first: the space's node, whose graph_version the kept counts follow.
		obs := []realm.Observation{{ID: "o1", Speaker: "Ann", Content: "Ana lives in Lisbon.", ObservedAt: time.Now()}}
		if _, err := s.SaveObservations(ctx, space, "test:bow", 384, obs, cypher.Lease{}); err != nil {
			b.Fatal(err)
		}
		n := edges / 10
		for from := 0; from < n; from += 1000 { // a thousand memories a write, then their edges
			var nodes []realm.Node
			for i := from; i < min(from+1000, n); i++ {
				nodes = append(nodes, realm.Node{ID: fmt.Sprintf("%s-m%d", space, i), Type: realm.Event, Name: fmt.Sprintf("m%d", i), Content: fmt.Sprintf("memory %d", i)})
			}
			if err := s.PutMemories(ctx, space, nodes, nil); err != nil {
				b.Fatal(err)
			}
		}
		for from := 0; from < n; from += 1000 {
			var es []realm.Edge
			for i := from; i < min(from+1000, n); i++ {
				for j := 1; j <= 10; j++ {
					es = append(es, realm.Edge{ID: fmt.Sprintf("e%d-%d", i, j), From: fmt.Sprintf("%s-m%d", space, i), To: fmt.Sprintf("%s-m%d", space, (i+j)%n),
						Predicate: realm.Precedes, Weight: float64((i+j)%10) / 10})
				}
			}
			if err := s.PutMemories(ctx, space, nil, es); err != nil {
				b.Fatal(err)
			}
		}
		read := func(b *testing.B, s *cypher.Store) int64 {
			profiled, log := cypher.WithStatementProfile(ctx)
			st, err := s.Stats(profiled, space)
			if err != nil {
				b.Fatal(err)
			}
			if st.Edges != int64(edges) {
				b.Fatalf("%d edges, want %d", st.Edges, edges)
			}
			var hits int64
			for _, x := range log.Statements {
				hits += x.DBHits
			}
			return hits
		}
		b.Run(fmt.Sprintf("Kept/%d", edges), func(b *testing.B) {
			read(b, s)
			b.ReportAllocs()
			var hits int64
			for b.Loop() {
				hits += read(b, s)
			}
			b.ReportMetric(float64(hits)/float64(b.N), "dbhits/op")
		})
		b.Run(fmt.Sprintf("Read/%d", edges), func(b *testing.B) {
			b.ReportAllocs()
			var hits int64
			for b.Loop() {
				b.StopTimer()
				fresh, err := cypher.Open(ctx, cyphertest.Config())
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				hits += read(b, fresh)
				b.StopTimer()
				fresh.Close(ctx)
				b.StartTimer()
			}
			b.ReportMetric(float64(hits)/float64(b.N), "dbhits/op")
		})
	}
}
