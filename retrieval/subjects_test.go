package retrieval

import "testing"

// TestSubjects: whom a question asks about and whose fact a memory tells, and which fit.
func TestSubjects(t *testing.T) {
	for _, tc := range []struct {
		query, content string
		fits, told     bool
	}{
		{"What am I allergic to?", "user is allergic to peanuts and user carries an EpiPen.", true, true},
		{"What am I allergic to?", "user's brother is allergic to shellfish.", false, true},
		{"What medications do I take?", "Ana's mother takes metformin.", false, true},
		{"What is my mother allergic to?", "user's mom is allergic to latex.", true, true},
		{"What is my mother allergic to?", "user is allergic to peanuts.", false, true},
		{"What is my mother allergic to?", "user's brother is allergic to shellfish.", false, true},
		{"What does Melanie's son like?", "Melanie's kids love dinosaurs.", true, true},
		{"What does Melanie's son like?", "Melanie took the kids camping.", false, true},
		{"What does Melanie's son like?", "Caroline's son likes chess.", false, true},
		{"What do my parents do?", `user said: "user's dad is a pilot." That's great!`, true, true},
		{"What am I allergic to?", "Met Priya Shah from Acme in Boston.", false, false},
		{"What am I allergic to?", "Yeah, the allergist said so.", false, false},
	} {
		asked, ok := asksOf(tc.query)
		if !ok {
			t.Fatalf("%q: asks of no one", tc.query)
		}
		told, ok := subjectOf(tc.content)
		if ok != tc.told || ok && asked.fits(told) != tc.fits {
			t.Errorf("%q, %q: told %v (%+v), fits %v; want %v, %v", tc.query, tc.content, ok, told, ok && asked.fits(told), tc.told, tc.fits)
		}
	}
	for _, q := range []string{"What did Caroline research?", "Who is the CTO at Initech?"} {
		if s, ok := asksOf(q); ok {
			t.Errorf("%q: asks of %+v, want no one", q, s)
		}
	}
}
