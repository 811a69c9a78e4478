package cypher

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/realm-memory/realm"
)

// TestAboutPhoneNumber: a phone number is found in any of its spellings, whichever the
// phrase is written in: with or without separators (parentheses too), after its country
// code as "+CC" or "00CC", in its national form with or without the trunk prefix 0
// ("+44 (0)20"), the national digits of Italy's numbers, which keep their 0 after the
// country code, included; a phrase in international form does not find the same digits
// after another country's code, and no phrase finds its number inside a longer one.
func TestAboutPhoneNumber(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	space := fullTextSpace(t, s)
	said := []string{
		"Ines's phone is +34 600 111 222.",         // es0
		"Ines can be reached on 0034 600-111-222.", // es1
		"Call Ines on 600111222 after 5pm.",        // es2
		"Or on (+34) 600.111.222 at weekends.",     // es3
		"The code 1600111222 is someone else's.",   // es4: a longer number
		"Order 600111222333 shipped.",              // es5
		"Wire +1600111222 instead.",                // es6: another international number
		"Office: +44 20 7946 0958.",                // uk0
		"Office: 020 7946 0958.",                   // uk1
		"Office: +44 (0)20 7946 0958.",             // uk2
		"Office: 0044-20-7946-0958.",               // uk3
		"Office: (020) 7946-0958.",                 // uk4
		"Fax: 020 7946 09581.",                     // uk5: a longer number
		"Lille: +33 20 7946 0958.",                 // uk6: another country's
		"Rome: +39 06 1234 5678.",                  // it0
		"Rome: 06-1234-5678.",                      // it1
		"Rome: 0039 0612345678.",                   // it2
	}
	ids := []string{"es0", "es1", "es2", "es3", "es4", "es5", "es6", "uk0", "uk1", "uk2", "uk3", "uk4", "uk5", "uk6", "it0", "it1", "it2"}
	var obs []realm.Observation
	for i, content := range said {
		obs = append(obs, realm.Observation{ID: ids[i], Speaker: "Tom", Content: content, ObservedAt: time.Date(2026, 10, 1, 10, i, 0, 0, time.UTC)})
	}
	saveObservations(t, s, space, obs)
	spain := []string{"es0", "es1", "es2", "es3"}
	uk := []string{"uk0", "uk1", "uk2", "uk3", "uk4"}
	tests := []struct {
		phrase string
		want   []string
	}{
		{"+34600111222", spain},
		{"+34 600 111 222", spain},
		{"0034 600-111-222", spain},
		{"600 111 222", append(spain, "es6")}, // a national number says no country
		{"+44 20 7946 0958", uk},
		{"+44 (0)20 7946 0958", uk},
		{"0044 20 7946 0958", uk},
		{"020 7946 0958", append(uk, "uk6")}, // a national number says no country
		{"+39 06 1234 5678", []string{"it0", "it1", "it2"}},
	}
	for _, tt := range tests {
		t.Run(tt.phrase, func(t *testing.T) {
			about, err := s.About(ctx, space, []string{tt.phrase})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(about.Observations, tt.want) {
				t.Errorf("found %v, want %v", about.Observations, tt.want)
			}
		})
	}
}
