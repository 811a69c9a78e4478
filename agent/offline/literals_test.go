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

// statePatterns are every pattern stateClaims runs.
func statePatterns() []literalPattern {
	var out []literalPattern
	for _, p := range claimPatterns {
		out = append(out, p.re)
	}
	return append(append(out, endedPatterns...), planPattern)
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

// The literal filter changes no match: every pattern finds the same submatches with it
// as without it on every candidate text of LoCoMo, and it spares most regexp runs.
func TestLiteralPatternsFindTheSame(t *testing.T) {
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
