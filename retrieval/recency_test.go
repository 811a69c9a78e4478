package retrieval

import (
	"testing"
	"time"

	"github.com/realm-memory/realm"
)

// TestMemoryTime: a memory said again within the time it tells of happened last when it
// was last said ("Front door opened", an event of 7 December said at 08:00 and at 18:00,
// is newer than "Front door closed" said at 08:01); one said after its time ("I ran
// yesterday") keeps its own time; one with no time of its own is as new as its last
// saying.
func TestMemoryTime(t *testing.T) {
	at := func(d, h, m int) *time.Time { t := time.Date(2026, 12, d, h, m, 0, 0, time.UTC); return &t }
	day := func(d int) (from, to *time.Time) { return at(d, 0, 0), at(d, 23, 59) }
	opened := realm.Node{LearnedAt: at(7, 8, 0), LastSaidAt: at(7, 18, 0)}
	opened.TStart, opened.TEnd = day(7)
	closed := realm.Node{LearnedAt: at(7, 8, 1), LastSaidAt: at(7, 8, 1)}
	closed.TStart, closed.TEnd = day(7)
	ran := realm.Node{LearnedAt: at(8, 9, 0), LastSaidAt: at(8, 9, 0)}
	ran.TStart, ran.TEnd = day(7)
	reading := realm.Node{LearnedAt: at(1, 7, 0), LastSaidAt: at(3, 7, 0)}
	for _, tt := range []struct {
		name string
		n    realm.Node
		want *time.Time
	}{
		{"said again within its day", opened, opened.LastSaidAt},
		{"said once within its day", closed, closed.LastSaidAt},
		{"said after its day", ran, ran.TEnd},
		{"no time of its own", reading, reading.LastSaidAt},
	} {
		if got, ok := memoryTime(tt.n); !ok || !got.Equal(*tt.want) {
			t.Errorf("%s: %v %v, want %v", tt.name, got, ok, *tt.want)
		}
	}
}
