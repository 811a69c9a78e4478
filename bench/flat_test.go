package bench_test

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/bench"
)

// tinyConversation: two sessions, four turns.
func tinyConversation() []realm.Observation {
	at := time.Date(2023, 5, 8, 13, 0, 0, 0, time.UTC)
	turn := func(id, session, speaker, content string) realm.Observation {
		return realm.Observation{ID: id, SessionID: session, Speaker: speaker, Content: content, ObservedAt: at}
	}
	return []realm.Observation{
		turn("t1", "s1", "Ann", "red apple"),
		turn("t2", "s1", "Bob", "green apple pie"),
		turn("t3", "s1", "Ann", "blue sky"),
		turn("t4", "s2", "Bob", "red sky"),
	}
}

func rankedSources(hits []bench.FlatHit) [][]string {
	var out [][]string
	for _, h := range hits {
		out = append(out, h.Sources)
	}
	return out
}

// TestFlatUnits: a window is the previous turn of the same session and the turn.
func TestFlatUnits(t *testing.T) {
	texts, sources := bench.FlatUnits(tinyConversation(), bench.UnitWindows)
	wantSources := [][]string{{"t1"}, {"t1", "t2"}, {"t2", "t3"}, {"t4"}}
	if !slices.EqualFunc(sources, wantSources, slices.Equal) {
		t.Errorf("window sources %v, want %v", sources, wantSources)
	}
	if texts[1] != "Ann: red apple\nBob: green apple pie" || texts[3] != "Bob: red sky" {
		t.Errorf("window texts %q", texts)
	}
	texts, sources = bench.FlatUnits(tinyConversation(), bench.UnitTurns)
	if len(texts) != 4 || texts[2] != "Ann: blue sky" || !slices.Equal(sources[2], []string{"t3"}) {
		t.Errorf("turns %q %v", texts, sources)
	}
}

// TestBM25Ranking checks BM25 (k1 1.2, b 0.75, idf ln(1 + (N − n + 0.5)/(n + 0.5))) by
// hand on the tiny conversation's turns, whose terms are: t1 ann red apple (3), t2 bob
// green apple pie (4), t3 ann blue sky (3), t4 bob red sky (3); mean length 3.25.
func TestBM25Ranking(t *testing.T) {
	ctx := context.Background()
	idx, err := bench.NewFlatIndex(ctx, nil, tinyConversation())
	if err != nil {
		t.Fatal(err)
	}
	rank := func(q string) [][]string {
		r, err := idx.Rank(ctx, nil, bench.FlatQuery{Question: q}, 4)
		if err != nil {
			t.Fatal(err)
		}
		if len(r) != 2 {
			t.Fatalf("without an embedder only BM25 ranks: %v", r)
		}
		return rankedSources(r[bench.Baseline{Method: bench.MethodBM25, Units: bench.UnitTurns}.String()].Hits)
	}
	// "red apple": red and apple both in 2 of 4 turns, idf ln 2. t1 has both: 2·ln2·2.2/(1 +
	// 1.2·(0.25 + 0.75·3/3.25)) = 1.431; t4 (red, 3 terms) 0.716 is before t2 (apple, 4
	// terms) 0.633: the length normalisation; t3 0.
	if got, want := rank("Red apple?"), [][]string{{"t1"}, {"t4"}, {"t2"}, {"t3"}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("red apple: %v, want %v", got, want)
	}
	// "green sky": green in 1 turn, idf ln(1 + 3.5/1.5) = 1.204, t2 1.204·0.914 = 1.100
	// despite its length; sky in 2, t3 and t4 tie at 0.716, in conversation order.
	if got, want := rank("green sky"), [][]string{{"t2"}, {"t3"}, {"t4"}, {"t1"}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("green sky: %v, want %v", got, want)
	}
	r, err := idx.Rank(ctx, nil, bench.FlatQuery{Question: "red apple"}, 4)
	if err != nil {
		t.Fatal(err)
	}
	windows := rankedSources(r[bench.Baseline{Method: bench.MethodBM25, Units: bench.UnitWindows}.String()].Hits)
	// Windows: [t1] ann red apple (3), [t1 t2] (7: both terms), [t2 t3] (7: apple), [t4] (3: red).
	if want := [][]string{{"t1"}, {"t1", "t2"}, {"t4"}, {"t2", "t3"}}; !slices.EqualFunc(windows, want, slices.Equal) {
		t.Errorf("windows: %v, want %v", windows, want)
	}

	// Selection: "Ann: red apple" is 15 bytes with its newline, "Bob: red sky" 13, "Bob:
	// green apple pie" 21: two units are 28 bytes, 7 tokens; three are 49, 13 tokens.
	hits := r[bench.Baseline{Method: bench.MethodBM25, Units: bench.UnitTurns}.String()].Hits
	for _, tt := range []struct {
		budget float64
		units  int
		tokens int
	}{{12.9, 2, 7}, {13, 3, 13}, {3, 0, 0}} {
		if got, tokens := bench.SelectBudget(hits, tt.budget); len(got) != tt.units || tokens != tt.tokens {
			t.Errorf("budget %g: %v, %d tokens; want %d units, %d tokens", tt.budget, got, tokens, tt.units, tt.tokens)
		}
	}
	if got, tokens := bench.SelectK(hits, 2); len(got) != 2 || tokens != 7 {
		t.Errorf("k=2: %v, %d tokens", got, tokens)
	}
}

// TestHybrid: 0.6 and 0.4 of the min-max normalised scores.
func TestHybrid(t *testing.T) {
	// dense [0.2 0.6 1] → [0 0.5 1]; BM25 [3 0 1] → [1 0 1/3].
	got := bench.Hybrid([]float64{0.2, 0.6, 1}, []float64{3, 0, 1})
	want := []float64{0.4, 0.3, 0.6 + 0.4/3}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Errorf("hybrid %v, want %v", got, want)
		}
	}
	// Equal scores carry nothing: no BM25 match at all leaves the dense order.
	if got := bench.Hybrid([]float64{0.1, 0.5}, []float64{0, 0}); got[0] != 0 || got[1] != 0.6 {
		t.Errorf("hybrid with flat BM25 %v", got)
	}
}

// TestFlatBaselinesLoCoMo: BM25 on the small fixture's 12 questions at k=3, as computed by
// hand (and by an independent implementation): turns recall 13/18, windows 53/72. The
// question "What did Ana make in the pottery class?" finds nothing in three turns: "Ana"
// and "pottery" pull up the other pottery turns first.
func TestFlatBaselinesLoCoMo(t *testing.T) {
	ctx := context.Background()
	samples, err := bench.LoadLoCoMo("testdata/locomo-small.json")
	if err != nil {
		t.Fatal(err)
	}
	idx, err := bench.NewFlatIndex(ctx, nil, samples[0].Observations())
	if err != nil {
		t.Fatal(err)
	}
	for units, want := range map[string]float64{bench.UnitTurns: 13.0 / 18, bench.UnitWindows: 53.0 / 72} {
		var sum float64
		for _, q := range samples[0].Questions {
			r, err := idx.Rank(ctx, nil, bench.FlatQuery{Question: q.Question}, 3)
			if err != nil {
				t.Fatal(err)
			}
			sources, _ := bench.SelectK(r[bench.Baseline{Method: bench.MethodBM25, Units: units}.String()].Hits, 3)
			recall, _ := bench.EvidenceRecall(q.Evidence, sources, 3)
			sum += recall
		}
		if got := sum / float64(len(samples[0].Questions)); math.Abs(got-want) > 1e-9 {
			t.Errorf("BM25 %s recall@3 %.4f, want %.4f", units, got, want)
		}
	}
}

// TestSelectSplit: tune and validate are fixed lists of conversations; all keeps everything.
func TestSelectSplit(t *testing.T) {
	samples := []bench.Sample{{ID: "conv-26"}, {ID: "conv-42"}, {ID: "conv-30"}, {ID: "small-1"}, {ID: "conv-43"}}
	ids := func(ss []bench.Sample) []string {
		var out []string
		for _, s := range ss {
			out = append(out, s.ID)
		}
		return out
	}
	for split, want := range map[string][]string{
		bench.SplitTune:     {"conv-26", "conv-30"},
		bench.SplitValidate: {"conv-42", "conv-43"},
		bench.SplitAll:      {"conv-26", "conv-42", "conv-30", "small-1", "conv-43"},
	} {
		got, err := bench.SelectSplit(samples, split)
		if err != nil || !slices.Equal(ids(got), want) {
			t.Errorf("%s: %v, %v; want %v", split, ids(got), err, want)
		}
	}
	if _, err := bench.SelectSplit(samples, "test"); realm.ErrorCode(err) != realm.EInvalid {
		t.Errorf("unknown split: %v", err)
	}
}
