package offline

import (
	"testing"

	"github.com/realm-memory/realm/internal/text"
)

func TestOfflineAnnotateDates(t *testing.T) {
	tests := []struct{ text, want string }{
		{"I went to a support group yesterday and it was great.", "I went to a support group yesterday (7 May 2023) and it was great."},
		{"Last Saturday I ran; next month I camp.", "Last Saturday (Saturday 6 May 2023) I ran; next month (June 2023) I camp."},
		{"Born on June 5, 2021.", "Born on June 5, 2021."},
		{"Nothing to see.", "Nothing to see."},
	}
	for _, tt := range tests {
		s := tt.text
		if got := annotateDates(s, text.Dates(s, offlineNow, tenseOf(s))); got != tt.want {
			t.Errorf("annotate(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
