package offline

import (
	"context"
	"reflect"
	"regexp"
	"testing"

	"github.com/realm-memory/realm/agent"
)

func TestRequiredLiterals(t *testing.T) {
	for _, tc := range []struct {
		expr string
		want [][]string
	}{
		{`lives in`, [][]string{{"lives in"}}},
		{`(?:moved|relocated) to ([A-Z]\w+)`, [][]string{{"moved", "relocated"}, {" to "}}},
		{`(?:is|are)? allergic`, [][]string{{" allergic"}}},                         // an optional part requires nothing
		{`(?:quit|left|x) it`, [][]string{{" it"}}},                                 // a branch of one letter requires nothing
		{`(?i)lives in`, nil},                                                       // case-folded
		{`[Ww]e (?:plan|want)s? to`, [][]string{{"e "}, {"plan", "want"}, {" to"}}}, // [Ww] parses as a folded literal
		{`(?:ab)+c(?:de){2}`, [][]string{{"ab"}, {"de"}}},
		{`(?:lives in|(?:works|worked) at)`, [][]string{{"lives in", "work"}}}, // factored: work(?:s|ed) at
	} {
		t.Run(tc.expr, func(t *testing.T) {
			got := withLiterals(regexp.MustCompile(tc.expr)).need
			if !sameSets(got, tc.want) {
				t.Errorf("required literals of %q: %q, want %q", tc.expr, got, tc.want)
			}
		})
	}
}

// sameSets compares required literals, ignoring the order within a set (the parser
// factors alternations).
func sameSets(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		want := map[string]bool{}
		for _, s := range b[i] {
			want[s] = true
		}
		if len(a[i]) != len(want) {
			return false
		}
		for _, s := range a[i] {
			if !want[s] {
				return false
			}
		}
	}
	return true
}

// statePatterns are every pattern stateClaims and factSlots run.
func statePatterns() []literalPattern {
	var out []literalPattern
	for _, p := range claimPatterns {
		out = append(out, p.re)
	}
	for _, p := range slotPatterns {
		out = append(out, p.re)
	}
	return append(append(out, endedPatterns...), planPattern, reFavourite)
}

// candidateTexts are the contents of the offline extractor's candidates for every
// LoCoMo turn of the development file (skipped without it).
func candidateTexts(tb testing.TB) []string {
	a := New(Options{})
	var texts []string
	for _, conv := range loadLocomo(tb) {
		for _, s := range conv {
			for _, obs := range s.turns {
				ex, _, err := a.Extract(context.Background(), agent.ExtractInput{Observation: obs})
				if err != nil {
					tb.Fatal(err)
				}
				for _, c := range ex.Candidates {
					texts = append(texts, c.Content)
				}
			}
		}
	}
	return texts
}

// stateSentences are sentences of every kind of state claim, changed state and near miss
// (update_test.go's), and some that claim nothing.
var stateSentences = []string{
	"Nora lives in Lisbon now.", "Big news: we moved from Lisbon to Berlin last week.",
	"Mia works at Spotify on the data team.", "Mia quit Spotify and joined Stripe.",
	"Hana's favourite book is Dune.", "Hana's new favourite book is Piranesi.",
	"Pizza is Luis's favourite food.", "Ramen has become Luis's favourite food.",
	"Rosa has two cats.", "Now Rosa has three cats.", "Tara is single.", "Tara is engaged!",
	"Erik is vegan.", "Erik eats meat again.", "Ruby is allergic to cats.", "Ruby is no longer allergic to cats.",
	"Lucy plays tennis every Saturday.", "Lucy doesn't play tennis anymore.",
	"Amir takes the bus to work.", "Amir cycles to work now instead of taking the bus.",
	"Theo uses an iPhone.", "Theo switched to a Pixel phone.",
	"Gwen is planning to run the Boston marathon.", "Gwen ran the Boston marathon on Monday.",
	"We want to buy a house with a garden.", "We finally bought a house with a garden in November.",
	"Gwen is going to run the Boston marathon in April.", "Caroline left the party early.",
	"Caroline just joined a new LGBTQ activist group.", "Thanks, that was a lovely evening!",
	"", "lives in", "MOVED TO BERLIN", "I am no longer sure.",
}

// The literal filter changes no match: every pattern finds the same submatches with it
// as without it on sentences of every kind of claim and, when the development data is
// there, on every candidate text of LoCoMo, where it spares most regexp runs.
func TestLiteralPatternsFindTheSame(t *testing.T) {
	t.Run("Sentences", func(t *testing.T) {
		matched := 0
		for _, p := range statePatterns() {
			for _, text := range stateSentences {
				want := p.FindAllStringSubmatch(text, -1)
				if got := p.findAll(text); !reflect.DeepEqual(got, want) {
					t.Fatalf("%s on %q: %q with the filter, %q without", p, text, got, want)
				}
				if want != nil {
					matched++
				}
			}
		}
		if matched < 10 {
			t.Errorf("only %d matches: the sentences test little", matched)
		}
	})
	t.Run("LoCoMo", testLiteralPatternsOnLoCoMo)
}

func testLiteralPatternsOnLoCoMo(t *testing.T) {
	texts := candidateTexts(t)
	runs, skipped, matched := 0, 0, 0
	for _, p := range statePatterns() {
		for _, text := range texts {
			want := p.FindAllStringSubmatch(text, -1)
			if got := p.findAll(text); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s on %q: %q with the filter, %q without", p, text, got, want)
			}
			runs++
			if !p.mayMatch(text) {
				skipped++
			}
			if want != nil {
				matched++
			}
		}
	}
	t.Logf("%d texts, %d pattern runs: %d skipped by the filter, %d matched", len(texts), runs, skipped, matched)
	if matched == 0 || skipped < runs/2 {
		t.Errorf("%d of %d runs skipped, %d matched: the filter spares too little, or the texts match nothing", skipped, runs, matched)
	}
}

// BenchmarkStateClaims reads the claims of the candidate texts of LoCoMo.
func BenchmarkStateClaims(b *testing.B) {
	texts := candidateTexts(b)
	b.ResetTimer()
	for b.Loop() {
		for _, text := range texts {
			stateClaims(text, "Caroline")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(texts)), "µs/text")
}
