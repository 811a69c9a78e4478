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

func TestIdentifiers(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"Which paper has DOI 10.1057/s41562.2017.10.791?", []string{"10.1057/s41562.2017.10.791"}},
		{"What is 2104.09864? And arXiv:1706.03762.", []string{"2104.09864", "arxiv:1706.03762"}},
		{"Where is nback_trials.csv, and Node.js v2.14.1?", []string{"nback_trials.csv", "node.js", "v2.14.1"}},
		// No identifier: dates, times, hyphenated words, abbreviations, short decimals.
		{"On 12/05/2023 at 10:30, a well-known U.S. e.g. 2.5 kg, T-7788", nil},
	} {
		if got := Identifiers(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Identifiers(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNamesIdentifier(t *testing.T) {
	for _, tt := range []struct {
		s, id string
		want  bool
	}{
		{"DOI: 10.1057/s41562.2017.10.791. Sample n = 3752.", "10.1057/s41562.2017.10.791", true},
		{"DOI: 10.1057/s41562.2017.10.7912", "10.1057/s41562.2017.10.791", false},
		{"Attention, arXiv:1706.03762.", "1706.03762", true},
		{"Data in NBACK_TRIALS.CSV", "nback_trials.csv", true},
		{"Data in old_nback_trials.csv", "nback_trials.csv", true},
		{"Data in xnback_trials.csv", "nback_trials.csv", false},
	} {
		if got := NamesIdentifier(tt.s, tt.id); got != tt.want {
			t.Errorf("NamesIdentifier(%q, %q) = %v, want %v", tt.s, tt.id, got, tt.want)
		}
	}
}

func TestSections(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"What is the notice period in Section 7.2?", []string{"section 7.2"}},
		{"Compare § 12.10 with clause 4.3, Article 5 and Amendment 2.", []string{"section 12.10", "clause 4.3", "article 5", "amendment 2"}},
		{"Sections 9.1 and sec. 9.1", []string{"section 9.1"}},
		// A number alone is no part of a document.
		{"Revenue grew 7.2 million in 12.10 days", nil},
		// Unless the words before it make it one: a clause's term in or under it, a
		// citation, a sub-clause.
		{"we cannot accept uncapped indemnity; the cap in 9.1 must stay at $2,000,000", []string{"section 9.1"}},
		{"the obligations under 12.10 survive, as set out in 4.3 and pursuant to 7.2.", []string{"section 12.10", "section 4.3", "section 7.2"}},
		{"Is the carve-out in 9.1(b) still there? See clause 9.1(c).", []string{"section 9.1", "clause 9.1"}},
		{"The fix in 1.2 shipped; upgrade to version 1.2 or see 2.5 for details.", nil},
		{"The parcel weighs 2.5 kg, the fee in 2.5 hours doubles, and the cap is 1.5 in 2.5 days.", nil},
	} {
		if got := Sections(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Sections(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, tt := range []struct {
		in   string
		want []SectionRef
	}{
		{"the indemnity cap in clause 9.1(b)(ii) is raised", []SectionRef{{Noun: "clause", Number: "9.1", Sub: "(b)(ii)", Start: 28, End: 38}}},
		{"Amendment 4: the cap under 9.1(B).", []SectionRef{{Noun: "amendment", Number: "4", Start: 10, End: 11}, {Noun: "section", Number: "9.1", Sub: "(b)", Start: 27, End: 33}}},
	} {
		if got := SectionRefs(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("SectionRefs(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
	for _, tt := range []struct {
		s, ref string
		want   bool
	}{
		{"Section 7.2 (Termination): either party may end this agreement on 30 days' notice.", "section 7.2", true},
		{"Amendment 2: the notice period in § 7.2 is changed to 60 days.", "section 7.2", true},
		{"Section 17.2 (Notices): in writing.", "section 7.2", false},
		{"Section 7.25 (Fees): net 45.", "section 7.2", false},
		{"Section 7.2.1 (Cure): 10 days.", "section 7.2", false},
		{"The fee rose 7.2% this year.", "section 7.2", false},
		{"Tom: the cap in 7.2 must stay at $2,000,000.", "section 7.2", true},
	} {
		if got := NamesSection(tt.s, tt.ref); got != tt.want {
			t.Errorf("NamesSection(%q, %q) = %v, want %v", tt.s, tt.ref, got, tt.want)
		}
	}
}
