package text_test

import (
	"slices"
	"testing"

	"github.com/realm-memory/realm/internal/text"
)

func TestWords(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"Caroline's cat doesn't sleep.", []string{"caroline", "cat", "doesnt", "sleep"}},
		// A combining mark is part of its word, composed where it can be: a decomposed accent,
		// a Devanagari vowel sign.
		{"Jose\u0301 A\u0301lvarez lives in Ma\u0301laga", []string{"jos\u00e9", "\u00e1lvarez", "lives", "in", "m\u00e1laga"}},
		{"मुझे किताबें पसंद हैं", []string{"मुझे", "किताबें", "पसंद", "हैं"}},
		// A mark alone is no word: an emoji's variation selector.
		{"I \u2764\ufe0f pottery", []string{"i", "pottery"}},
	}
	for _, tt := range tests {
		if got := text.Words(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("Words(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
