package cypher_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// BenchmarkStats reads the statistics of a space of 1,000 memories and 10,000 memory
// edges (GET /v1/spaces/{id}/stats), reporting the database hits of its statements per
// read (a count that does not depend on how busy the machine is) beside the allocations.
func BenchmarkStats(b *testing.B) {
	s := cyphertest.MustOpen(b)
	ctx := context.Background()
	space := cyphertest.NewSpace(b)
	b.Cleanup(func() { _ = s.RemoveFixture(context.WithoutCancel(ctx), space) })
	const n = 1000
	var nodes []realm.Node
	var edges []realm.Edge
	for i := range n {
		nodes = append(nodes, realm.Node{ID: fmt.Sprintf("m%d", i), Type: realm.Event, Name: fmt.Sprintf("m%d", i), Content: fmt.Sprintf("memory %d", i)})
		for j := 1; j <= 10; j++ {
			edges = append(edges, realm.Edge{ID: fmt.Sprintf("e%d-%d", i, j), From: fmt.Sprintf("m%d", i), To: fmt.Sprintf("m%d", (i+j)%n),
				Predicate: realm.Precedes, Weight: float64((i+j)%10) / 10})
		}
	}
	if err := s.PutMemories(ctx, space, nodes, edges); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var hits int64
	for b.Loop() {
		profiled, log := cypher.WithStatementProfile(ctx)
		st, err := s.Stats(profiled, space)
		if err != nil {
			b.Fatal(err)
		}
		if st.Edges != n*10 {
			b.Fatalf("%d edges, want %d", st.Edges, n*10)
		}
		for _, x := range log.Statements {
			hits += x.DBHits
		}
	}
	b.ReportMetric(float64(hits)/float64(b.N), "dbhits/op")
}
