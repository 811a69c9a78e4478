package cypher

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// BenchmarkExpireTraces runs the retention's sweep (ExpireTraces) over a space whose n
// edits lost their query's text to an earlier sweep (5,000 and 100,000), as most of a long-lived space's edits
// have, reporting the database hits of its statements per sweep beside the allocations:
// what a sweep reads that it had read before.
func BenchmarkExpireTraces(b *testing.B) {
	for _, n := range []int{5_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			s := testStore(b, Config{TraceRetention: 720 * time.Hour})
			ctx := context.Background()
			if err := s.ApplySchema(ctx, 384); err != nil {
				b.Fatal(err)
			}
			space := fmt.Sprintf("bench_sweep_%d_%d", n, time.Now().UnixNano())
			b.Cleanup(func() { _, _ = s.DeleteSpace(context.WithoutCancel(ctx), space) })
			erased := newQuery("bench_edits_erased", `
UNWIND range($from, $from + 4999) AS i
CREATE (:Edit {id: $space + '-' + i, space: $space, trace_id: $space + '-trace-' + i, reconsolidation_id: $space + '-r-' + i,
               action: 'add', label: 'key_evidence', query: '', query_erased: true, reverted: false, seq: 0})`)
			for from := 0; from < n; from += 5000 {
				if _, err := s.write(ctx, erased, map[string]any{"space": space, "from": from}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			var hits int64
			for b.Loop() {
				profiled, log := WithStatementProfile(ctx)
				if _, err := s.ExpireTraces(profiled, time.Now(), func(context.Context, string, []string) ([][]float32, error) {
					return nil, fmt.Errorf("no query is left to embed")
				}); err != nil {
					b.Fatal(err)
				}
				for _, x := range log.Statements {
					hits += x.DBHits
				}
			}
			b.ReportMetric(float64(hits)/float64(b.N), "dbhits/op")
		})
	}
}
