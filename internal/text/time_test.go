package text_test

import (
	"testing"
	"time"

	"github.com/realm-memory/realm/internal/text"
)

func TestParseTimeWindow(t *testing.T) {
	now := time.Date(2023, 5, 24, 15, 0, 0, 0, time.UTC) // a Wednesday
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		q        string
		from, to time.Time // to exclusive
		rest     string
	}{
		{"What did Caroline do in May 2023?", day(2023, 5, 1), day(2023, 6, 1), "What did Caroline do ?"},
		{"What happened on 8 May 2023?", day(2023, 5, 8), day(2023, 5, 9), "What happened ?"},
		{"Where was Mel on May 8, 2023?", day(2023, 5, 8), day(2023, 5, 9), "Where was Mel ?"},
		{"What did Mel paint last week?", day(2023, 5, 15), day(2023, 5, 22), "What did Mel paint ?"},
		{"Who called yesterday?", day(2023, 5, 23), day(2023, 5, 24), "Who called ?"},
		{"What did she buy last month", day(2023, 4, 1), day(2023, 5, 1), "What did she buy"},
		{"Plans for next year", day(2024, 1, 1), day(2025, 1, 1), "Plans for"},
		{"What happened two weeks ago?", day(2023, 5, 8), day(2023, 5, 15), "What happened ?"},
		{"Where did they go in August?", day(2022, 8, 1), day(2022, 9, 1), "Where did they go ?"},
		{"What changed in 2022?", day(2022, 1, 1), day(2023, 1, 1), "What changed ?"},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			w, rest := text.ParseTimeWindow(tt.q, now)
			if w == nil {
				t.Fatal("no window")
			}
			if !w.From.Equal(tt.from) || !w.To.Equal(tt.to.Add(-time.Nanosecond)) {
				t.Errorf("window %v – %v, want %v – %v", w.From, w.To, tt.from, tt.to)
			}
			if rest != tt.rest {
				t.Errorf("rest %q, want %q", rest, tt.rest)
			}
		})
	}
	t.Run("None", func(t *testing.T) {
		if w, _ := text.ParseTimeWindow("What may Caroline like?", now); w != nil {
			t.Errorf("got %v, want no window", w)
		}
	})
}
