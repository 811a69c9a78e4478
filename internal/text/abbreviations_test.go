package text_test

import (
	"testing"

	"github.com/realm-memory/realm/internal/text"
)

// TestEndsInAbbreviation: titles, a name's suffix, the Latin of an aside and letters each
// with its point end no sentence; a word, a number or a domain does.
func TestEndsInAbbreviation(t *testing.T) {
	for _, tt := range []struct {
		before string
		want   bool
	}{
		{"with Dr", true},
		{"We lived in St", true},
		{"climbed Mt", true},
		{"Martin Luther King Jr", true},
		{"apples, pears, etc", true},
		{"at 9 a.m", true},
		{"We flew to the U.S.A", true},
		{"things, e.g", true},
		{"I read J", true},
		{"I read J. K", true},
		{"I saw Lee", false},
		{"So did I", false},
		{"I am 9", false},
		{"Write to ana.lima@example.com", false},
		{"", false},
	} {
		if got := text.EndsInAbbreviation(tt.before); got != tt.want {
			t.Errorf("EndsInAbbreviation(%q) = %v, want %v", tt.before, got, tt.want)
		}
	}
}
