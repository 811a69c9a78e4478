package cypher_test

import (
	"context"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

func TestZZLoad(t *testing.T) {
	space := os.Getenv("ZZ_SPACE")
	if space == "" {
		t.Skip()
	}
	ctx := context.Background()
	s, err := cypher.Open(ctx, cyphertest.Config())
	if err != nil {
		t.Fatal(err)
	}
	counts, err := s.SpaceCounts(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		s2, _ := cypher.Open(ctx, cyphertest.Config())
		runtime.GC()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		start := time.Now()
		x, err := s2.Expander(ctx, space, counts)
		if err != nil {
			t.Fatal(err)
		}
		d := time.Since(start)
		runtime.GC()
		runtime.ReadMemStats(&m1)
		t.Logf("%s: %d memories, load %v, heap +%.1f MiB (snapshot %v)", space, counts.InSpace, d, float64(m1.HeapAlloc-m0.HeapAlloc)/(1<<20), x != cypher.Expander(s2))
		runtime.KeepAlive(x)
		s2.Close(ctx)
	}
}
