package offline

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/internal/text"
)

// TestPartsOf: a long text is split at paragraphs, then at sentences, never inside a
// sentence or a code fence; a short one is itself.
func TestPartsOf(t *testing.T) {
	fence := "```sh\nmake build\n\nmake test\n```"
	tests := []struct {
		name string
		text string
		max  int
		want []string
	}{
		{"Short", "One line. Another line.", 40, []string{"One line. Another line."}},
		{"Paragraphs", "First paragraph here.\n\nSecond paragraph.\n\nThird one.", 40,
			[]string{"First paragraph here.\n\nSecond paragraph.", "Third one."}},
		{"Sentences", "The first sentence is here. The second follows it. A third ends it.", 40,
			[]string{"The first sentence is here.", "The second follows it. A third ends it."}},
		{"LongSentenceAtWords", "Short start.\n\nThis single sentence runs on for far longer than the limit allows.", 30,
			[]string{"Short start.\n\nThis single", "sentence runs on for far", "longer than the limit allows."}},
		{"LongSentenceAtClauses", "Smith A (2019) on sleep; Lee B (2020) on mood, with Cho; Kaur C (2021) on memory", 40,
			[]string{"Smith A (2019) on sleep;", "Lee B (2020) on mood, with Cho;", "Kaur C (2021) on memory"}},
		{"LongClauseAtCommas", "Notes on sleep, mood and memory, all three, from the review of the year before", 40,
			[]string{"Notes on sleep, mood and memory,", "all three,", "from the review of the year before"}},
		{"LongWordWhole", "See https://example.com/" + strings.Repeat("a", 40) + " now", 30,
			[]string{"See", "https://example.com/" + strings.Repeat("a", 40), "now"}},
		{"FullWidthSentences", "第一句在这里。第二句跟着它！第三句结束吗？", 45,
			[]string{"第一句在这里。第二句跟着它！", "第三句结束吗？"}},
		{"FenceWithBlankLine", "Build it like this:\n\n" + fence + "\n\nThen deploy.", 30,
			[]string{"Build it like this:", fence, "Then deploy."}},
		{"FenceInLongParagraph", "Run these. " + fence + " Done now.", 20,
			[]string{"Run these.", fence + " Done now."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, s := range partsOf(tt.text, tt.max, 0) {
				got = append(got, tt.text[s.start:s.end])
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("partsOf(%q, %d) = %q, want %q", tt.text, tt.max, got, tt.want)
			}
		})
	}
}

// longNote is a message of about 3 KB whose last line says what nothing before it does.
var longNote = strings.Repeat("The quarterly report goes to the board, and every team lead should send a summary of what the team shipped. ", 12) +
	"\n\n" + strings.Repeat("Travel requests go through the new portal, and receipts must be uploaded within two weeks of the trip. ", 10) +
	"\n\nTo build the docs locally:\n\n```sh\ncd docs\n\nmake html\n```\n\n" +
	strings.Repeat("The office will be closed for cleaning for a few days, so please take your plants home. ", 8) +
	"\n\nP.S. The new door code for the storage room is 4417."

// TestLongMessageParts: a long message becomes parts, each its own event or fact, in
// order, none longer than the embedder reads unless it is one sentence or code block, the
// code block whole; the relate step links each part to the next.
func TestLongMessageParts(t *testing.T) {
	a := New(Options{})
	obs := obsAt("o1", "s1", "Rosa", longNote)
	ex := mustExtract(t, a, agent.ExtractInput{Observation: obs})
	var parts []agent.Candidate
	for _, c := range ex.Candidates {
		if c.Part > 0 {
			parts = append(parts, c)
		}
	}
	if len(parts) < 3 {
		t.Fatalf("%d parts, want the message split: %+v", len(parts), ex.Candidates)
	}
	var said strings.Builder
	for i, p := range parts {
		if p.Part != i+1 || (p.Type != realm.Event && p.Type != realm.Fact) {
			t.Errorf("part %d: %s part %d", i+1, p.Type, p.Part)
		}
		if len(p.Content) > 1100 {
			t.Errorf("part %d is %d characters", p.Part, len(p.Content))
		}
		if n := strings.Count(p.Content, "```"); n%2 != 0 {
			t.Errorf("part %d cuts the code block: %q", p.Part, p.Content)
		}
		said.WriteString(strings.TrimPrefix(p.Content, "Rosa: "))
	}
	if strings.Join(strings.Fields(said.String()), "") != strings.Join(strings.Fields(longNote), "") {
		t.Errorf("the parts do not say the message, in order:\n%s", said.String())
	}
	if last := parts[len(parts)-1]; !strings.Contains(last.Content, "4417") || strings.Contains(last.Content, "quarterly") {
		t.Errorf("the last part is %q", last.Content)
	}

	in := agent.IntegrateInput{Observation: obs}
	for _, c := range ex.Candidates {
		in.Candidates = append(in.Candidates, agent.CandidateContext{Candidate: c})
	}
	out := mustIntegrate(t, in)
	for i, c := range ex.Candidates {
		for j, d := range ex.Candidates {
			if c.Part == 0 || d.Part == 0 {
				continue
			}
			e := findEdge(out[i].Edges, agent.Self, agent.CandidateRef(j), realm.Precedes)
			if (e != nil) != (d.Part == c.Part+1) {
				t.Errorf("part %d precedes part %d: %v", c.Part, d.Part, e)
			}
			if findEdge(out[i].Edges, agent.CandidateRef(j), agent.Self, realm.Comprises) != nil {
				t.Errorf("part %d comprises part %d", d.Part, c.Part)
			}
		}
	}
}

// TestLongUnspacedMessageParts: a long message in a script written without spaces is said
// in parts of whole sentences like an English one, each named as briefly.
func TestLongUnspacedMessageParts(t *testing.T) {
	var msg strings.Builder
	for i := range 60 {
		fmt.Fprintf(&msg, "第%d句：我和朋友去了公园，我们看到了很多花！你喜欢花吗？", i)
	}
	ex := mustExtract(t, New(Options{}), agent.ExtractInput{Observation: obsAt("o1", "s1", "Ana", msg.String())})
	var said strings.Builder
	n := 0
	for _, c := range ex.Candidates {
		if c.Part == 0 {
			continue
		}
		n++
		if len(c.Content) > 1100 || !strings.HasSuffix(c.Content, "？") {
			t.Errorf("part %d is %d bytes, ending %q", c.Part, len(c.Content), c.Content[len(c.Content)-9:])
		}
		// The first part is named by its opening, the others by the message's (titleOf).
		if max := min(c.Part, 2) * 40; utf8.RuneCountInString(c.Name) > max+1 || !strings.HasSuffix(c.Name, "…") {
			t.Errorf("part %d is named %q", c.Part, c.Name)
		}
		said.WriteString(strings.TrimPrefix(c.Content, "Ana: "))
	}
	if n < 3 || said.String() != msg.String() {
		t.Errorf("%d parts saying %q", n, said.String())
	}
}

// TestLongRunOnParts: a paragraph of 8,000 characters without a sentence's end (a
// reference list) is said in parts the embedder reads whole, cut between its entries,
// the last entry in the last part.
func TestLongRunOnParts(t *testing.T) {
	var refs []string
	for i := range 120 {
		refs = append(refs, fmt.Sprintf("Author%d A. (20%02d) Title number %d, Journal %d, doi:10.%d/xyz.%d", i, i%25, i, i%7, 1000+i, i))
	}
	msg := "Reference list: " + strings.Join(refs, "; ")
	ex := mustExtract(t, New(Options{}), agent.ExtractInput{Observation: obsAt("o1", "s1", "Dana", msg)})
	var said []string
	for _, c := range ex.Candidates {
		if c.Part == 0 {
			continue
		}
		if len(c.Content) > 1100 {
			t.Errorf("part %d is %d characters", c.Part, len(c.Content))
		}
		said = append(said, strings.TrimPrefix(c.Content, "Dana: "))
	}
	if len(said) < 8 || strings.Join(said, " ") != msg || !strings.HasSuffix(said[len(said)-1], refs[119]) {
		t.Errorf("%d parts: %q", len(said), said)
	}
}

// TestShortMessageWhole: a message that fits the embedder gives what it gave before parts
// were made: the same candidates as with no limit at all, one whole-turn unit of no part.
func TestShortMessageWhole(t *testing.T) {
	msg := strings.Repeat("I moved to Lisbon last year and I work as a nurse at the hospital near the river. ", 11)
	if len(msg) > 1000 {
		t.Fatalf("the message is %d characters", len(msg))
	}
	recent := []realm.Observation{obsAt("o0", "s1", "Ben", "How is the new job going?")}
	in := agent.ExtractInput{Observation: obsAt("o1", "s1", "Ana", msg), Recent: recent}
	got := mustExtract(t, New(Options{}), in)
	want := mustExtract(t, New(Options{MaxPartChars: 1 << 30}), in)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	for _, c := range got.Candidates {
		if c.Part != 0 {
			t.Errorf("a part of a short message: %+v", c)
		}
	}
}

// TestPartNoClauseTwice: a part that is one clause with a time or a slot of its own is
// not a clause candidate as well.
func TestPartNoClauseTwice(t *testing.T) {
	a := New(Options{MaxPartChars: 60})
	msg := "The first paragraph says nothing much about anything at all.\n\nRosa moved to Porto last May."
	ex := mustExtract(t, a, agent.ExtractInput{Observation: obsAt("o1", "s1", "Rosa", msg)})
	n := 0
	for _, c := range ex.Candidates {
		if strings.Contains(c.Content, "Porto") && c.Type != realm.Entity {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d events or facts say the move, want its part alone: %+v", n, ex.Candidates)
	}
}

// pastedPaper is a paper pasted whole: its citation opens it, its results part names
// neither the paper nor its authors.
const pastedPaper = "Smith, J., Alvarez, R., & Cho, H. (2021). Sleep duration and working memory in adolescents: a randomized crossover trial.\n\n" +
	"Methods: We enrolled a sample of 214 adolescents aged 13-17 from four secondary schools in Leeds. Each completed two one-week conditions in random order: restricted sleep (6.5 hours in bed) and extended sleep (9.5 hours in bed), with a washout week between them. Working memory was measured with an n-back task and a digit span task at the end of each week, and sleep with wrist actigraphy every night.\n\n" +
	"Results: Restricted sleep lowered n-back accuracy by 7.2 percentage points and digit span by 0.6 items compared with extended sleep. The effect was larger in the younger pupils and did not depend on habitual chronotype. Conclusions: A week of restricted sleep impairs working memory in adolescents, which supports later school start times."

// partsOfMessage are the parts extracted from one message, in order.
func partsOfMessage(t *testing.T, a *Agent, obs realm.Observation) []agent.Candidate {
	t.Helper()
	var parts []agent.Candidate
	for _, c := range mustExtract(t, a, agent.ExtractInput{Observation: obs}).Candidates {
		if c.Part > 0 {
			parts = append(parts, c)
		}
	}
	if len(parts) < 2 {
		t.Fatalf("%d parts, want the message split", len(parts))
	}
	return parts
}

// TestLaterPartsSayTheirDocument: a part after the first is named by the message's first
// line (the paper's citation), which is embedded and indexed with it, so that a question
// naming the paper reaches its results; a part of a table after the first is read with
// the table's header row. The part with its head stays within what the embedder reads.
func TestLaterPartsSayTheirDocument(t *testing.T) {
	a := New(Options{MaxPartChars: 600})
	parts := partsOfMessage(t, a, obsAt("o1", "s1", "Dana", pastedPaper))
	results := parts[len(parts)-1]
	if !strings.Contains(results.Content, "Results:") || !strings.Contains(results.Name, "Smith") || !strings.Contains(results.Name, "(2021)") {
		t.Errorf("the results part is named %q: %q", results.Name, results.Content)
	}
	if !strings.HasPrefix(parts[0].Content, "Dana: Smith") || strings.Contains(parts[0].Name, "(2021)") {
		t.Errorf("the first part is named %q: %q", parts[0].Name, parts[0].Content)
	}

	var table strings.Builder
	table.WriteString("Table S3 from the supplement of Kaur 2021:\n\n| Study | Year | Design | N |\n|---|---|---|---|\n")
	for i := range 80 {
		fmt.Fprintf(&table, "| Study %d | %d | Cohort | %d |\n", i, 2000+i%20, 100+i)
	}
	parts = partsOfMessage(t, New(Options{}), obsAt("o2", "s1", "Dana", table.String()))
	for _, p := range parts {
		if !strings.Contains(p.Content, "| Study | Year | Design | N |\n|---|---|---|---|\n| Study") {
			t.Errorf("part %d lacks the header row: %q", p.Part, p.Content)
		}
		if p.Part > 1 && !strings.Contains(p.Name, "Kaur 2021") {
			t.Errorf("part %d is named %q", p.Part, p.Name)
		}
		if n := len(construction.EmbedText(p.Name, p.Content)); n > 1000 {
			t.Errorf("part %d is embedded as %d bytes", p.Part, n)
		}
	}
}

// TestPartsAreTold: each part of a long message is an event of the day it was told, as a
// short message telling the same is, unless it tells a time of its own: a pasted paper's
// methods are no lasting fact that every question about a time returns.
func TestPartsAreTold(t *testing.T) {
	obs := obsAt("o1", "s1", "Dana", pastedPaper)
	from, to := text.DaySpan(obs.ObservedAt)
	for _, p := range partsOfMessage(t, New(Options{MaxPartChars: 600}), obs) {
		if p.Type != realm.Event || p.TStart == nil || !p.TStart.Equal(from) || !p.TEnd.Equal(to) || !slices.Contains(p.Participants, "Dana") {
			t.Errorf("part %d: %s from %v to %v with %v, want an event of %v told by Dana", p.Part, p.Type, p.TStart, p.TEnd, p.Participants, from)
		}
	}
}
