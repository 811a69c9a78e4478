package cypher

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// BenchmarkForgetLetGo: forgetting a reading whose fact let 8 of its repeats go (RepeatsKept),
// in a space of other readings said 100 times each, 1,010 messages (10 readings) or 8,080
// (80), 68 of each reading's repeats let go by its fact. The deletion finds the repeats
// its fact let go by their edges, not by reading the space's messages: it takes as long
// in either space. It reports the median deletion (forget-ms), each of a reading stored
// for it (not timed), and the database hits of one more (forget-dbhits: a count that does
// not depend on how busy the machine is).
func BenchmarkForgetLetGo(b *testing.B) {
	for _, readings := range []int{10, 80} {
		b.Run(fmt.Sprint("messages=", readings*101), func(b *testing.B) { benchForgetLetGo(b, readings) })
	}
}

func benchForgetLetGo(b *testing.B, readings int) {
	s := testStore(b, Config{})
	ctx := context.Background()
	space := fmt.Sprintf("test_forget_let_go_%d", time.Now().UnixNano())
	b.Cleanup(func() {
		if _, err := s.DeleteSpace(context.Background(), space); err != nil {
			b.Errorf("erasing %s: %v", space, err)
		}
	})
	day := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	for i := range readings {
		sayAgain(b, s, space, fmt.Sprint("room", i), day.AddDate(0, 0, i), 100, 0)
	}
	lease := Lease{Owner: "owner-" + space, Until: time.Now().Add(time.Hour)}
	var took []time.Duration
	forget := func(ctx context.Context, i int) time.Duration {
		b.StopTimer()
		reading := fmt.Sprint("forget", i)
		sayAgain(b, s, space, reading, day.AddDate(0, 0, readings+i), RepeatsKept+8, int64(i))
		b.StartTimer()
		started := time.Now()
		deleted, err := s.DeleteObservation(ctx, space, reading, lease)
		if err != nil || len(deleted.Trimmed) != 8 {
			b.Fatalf("forget %s: %+v %v", reading, deleted, err)
		}
		return time.Since(started)
	}
	forget(ctx, 0) // its statements planned
	for b.Loop() {
		took = append(took, forget(ctx, len(took)+1))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "forget-ms")
	profiled, log := WithStatementProfile(ctx)
	forget(profiled, len(took)+1)
	var hits int64
	for _, st := range log.Statements {
		hits += st.DBHits
		b.Logf("%s: %d db hits", st.Name, st.DBHits)
	}
	b.ReportMetric(float64(hits), "forget-dbhits")
}
