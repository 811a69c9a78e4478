package bench_test

import (
	"testing"

	"github.com/realm-memory/realm/bench"
)

func TestEvidenceRecall(t *testing.T) {
	tests := []struct {
		name    string
		gold    []string
		sources [][]string
		k       int
		want    float64
		counted bool
	}{
		{"OK", []string{"D1:1", "D1:2"}, [][]string{{"D1:1"}, {"D9:9"}}, 10, 0.5, true},
		{"CutAtK", []string{"D1:1"}, [][]string{{"D9:9"}, {"D1:1"}}, 1, 0, true},
		{"WideNodeIsContext", []string{"D1:1"}, [][]string{{"D1:1", "D1:2", "D1:3", "D1:4"}}, 10, 0, true},
		{"ThreeSourcesCount", []string{"D1:1", "D1:3"}, [][]string{{"D1:1", "D1:2", "D1:3"}}, 10, 1, true},
		{"NoGold", nil, [][]string{{"D1:1"}}, 10, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, counted := bench.EvidenceRecall(tt.gold, tt.sources, tt.k)
			if got != tt.want || counted != tt.counted {
				t.Fatalf("got %v, %v; want %v, %v", got, counted, tt.want, tt.counted)
			}
		})
	}
}

func TestTokens(t *testing.T) {
	if got := bench.Tokens("12345678"); got != 2 {
		t.Fatalf("Tokens = %d, want 2", got)
	}
	if got := bench.Tokens("123456789"); got != 3 {
		t.Fatalf("Tokens = %d, want 3", got)
	}
}
