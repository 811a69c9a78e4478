package text

import (
	"slices"
	"testing"
)

func TestIDNumbers(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"What is T-7788 about?", []string{"7788"}},
		{"INV-2291 and inv-2291 again", []string{"2291"}},
		{"Is PR #512 merged?", []string{"512"}},
		{"order 10456-B", []string{"10456"}},
		{"the card ending 4417", []string{"4417"}},
		{"call 555-0101", []string{"0101"}},
		{"What happened in 2023?", nil},
		{"We had 12 tickets and 300 users", nil},
		{"on 2026-05-08", nil},
	} {
		if got := IDNumbers(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("IDNumbers(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNamesNumber(t *testing.T) {
	for _, tt := range []struct {
		s, n string
		want bool
	}{
		{"I opened T-7788.", "7788", true},
		{"ticket 7788 is open", "7788", true},
		{"7788", "7788", true},
		{"T-77889", "7788", false},
		{"T-17788", "7788", false},
		{"T-17788 and T-7788", "7788", true},
		{"no number", "7788", false},
	} {
		if got := NamesNumber(tt.s, tt.n); got != tt.want {
			t.Errorf("NamesNumber(%q, %q) = %v, want %v", tt.s, tt.n, got, tt.want)
		}
	}
}
