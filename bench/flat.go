package bench

import (
	"context"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/realm-memory/realm"
)

// Flat baselines: retrievers over the raw conversation with no graph, to compare REALM
// with at k and at equal context budget. A unit is one turn or a two-turn window (the
// previous turn of the same session and the turn); it is ranked by dense similarity with
// the query, by BM25, or by a hybrid of the two.
const (
	UnitTurns   = "turns"
	UnitWindows = "windows"

	MethodDense  = "dense"
	MethodBM25   = "bm25"
	MethodHybrid = "hybrid"
	// MethodHybridFocus is the hybrid given REALM's query focus (the question without the
	// space's common names, as the read path's trace records it) instead of the question.
	MethodHybridFocus = "hybrid+focus"
)

// Hybrid weights: 0.6·dense + 0.4·BM25, each min-max normalised over the units per query.
const (
	HybridDense = 0.6
	HybridBM25  = 0.4
)

// BM25 parameters (the usual Lucene defaults).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// flatRankTokens bounds the ranking kept per question and baseline: enough units to
// fill any budget up to it (and at least K of them).
const flatRankTokens = 8000

// Baseline names one flat baseline: a method over a kind of unit.
type Baseline struct {
	Method string `json:"method"`
	Units  string `json:"units"`
}

func (b Baseline) String() string { return b.Method + ", " + b.Units }

// Baselines are the flat baselines every retrieval report shows, in its order.
var Baselines = []Baseline{
	{MethodDense, UnitTurns}, {MethodBM25, UnitTurns}, {MethodHybrid, UnitTurns}, {MethodHybridFocus, UnitTurns},
	{MethodDense, UnitWindows}, {MethodBM25, UnitWindows}, {MethodHybrid, UnitWindows}, {MethodHybridFocus, UnitWindows},
}

// flatUnit is one retrievable unit: its text ("Speaker: text" lines), the observations
// it derives from, its embedding and its terms.
type flatUnit struct {
	sources []string
	text    string
	vec     []float32
	terms   map[string]int
	length  int // terms counted with repeats
}

// flatCorpus is one kind of unit of a conversation, with its BM25 statistics.
type flatCorpus struct {
	units     []flatUnit
	docFreq   map[string]int
	avgLength float64
}

// FlatIndex holds both kinds of unit of one conversation, ready to rank (NewFlatIndex).
type FlatIndex map[string]*flatCorpus

// FlatUnits splits observations into units: "turns" one per observation, "windows" one
// per observation with the previous observation of its session before it (the first of a
// session alone). Each unit's text is its observations as "Speaker: content" lines.
func FlatUnits(obs []realm.Observation, units string) (texts []string, sources [][]string) {
	for i, o := range obs {
		var from []realm.Observation
		if units == UnitWindows && i > 0 && obs[i-1].SessionID == o.SessionID {
			from = append(from, obs[i-1])
		}
		from = append(from, o)
		lines := make([]string, len(from))
		ids := make([]string, len(from))
		for j, f := range from {
			lines[j], ids[j] = f.Speaker+": "+f.Content, f.ID
		}
		texts = append(texts, strings.Join(lines, "\n"))
		sources = append(sources, ids)
	}
	return texts, sources
}

// NewFlatIndex splits a conversation into both kinds of unit (FlatUnits) and embeds them
// (emb nil: BM25 only).
func NewFlatIndex(ctx context.Context, emb realm.Embedder, obs []realm.Observation) (FlatIndex, error) {
	idx := FlatIndex{}
	for _, kind := range []string{UnitTurns, UnitWindows} {
		texts, sources := FlatUnits(obs, kind)
		var vecs [][]float32
		if emb != nil && len(texts) > 0 {
			var err error
			if vecs, err = emb.Embed(ctx, texts); err != nil {
				return nil, err
			}
		}
		c := &flatCorpus{docFreq: map[string]int{}}
		total := 0
		for i, text := range texts {
			u := flatUnit{sources: sources[i], text: text, terms: map[string]int{}}
			if vecs != nil {
				u.vec = vecs[i]
			}
			for _, t := range BM25Terms(text) {
				u.terms[t]++
				u.length++
			}
			for t := range u.terms {
				c.docFreq[t]++
			}
			total += u.length
			c.units = append(c.units, u)
		}
		if len(texts) > 0 {
			c.avgLength = float64(total) / float64(len(texts))
		}
		idx[kind] = c
	}
	return idx, nil
}

// BM25Terms are the terms of a text as BM25 sees them: its runs of letters and digits,
// lower-cased (no stemming, no stop words: the idf discounts common words).
func BM25Terms(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
}

// bm25 scores every unit against a query: Σ over the query's distinct terms of
// idf · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen)), idf = ln(1 + (N − n + 0.5)/(n + 0.5)).
func (c *flatCorpus) bm25(query string) []float64 {
	scores := make([]float64, len(c.units))
	n := float64(len(c.units))
	seen := map[string]bool{}
	for _, t := range BM25Terms(query) {
		if seen[t] || c.docFreq[t] == 0 {
			continue
		}
		seen[t] = true
		df := float64(c.docFreq[t])
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for i, u := range c.units {
			tf := float64(u.terms[t])
			if tf == 0 {
				continue
			}
			scores[i] += idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*float64(u.length)/c.avgLength))
		}
	}
	return scores
}

// dense scores every unit by its dot product with q (a cosine for unit vectors).
func (c *flatCorpus) dense(q []float32) []float64 {
	scores := make([]float64, len(c.units))
	for i, u := range c.units {
		var dot float64
		for j := range min(len(u.vec), len(q)) {
			dot += float64(u.vec[j]) * float64(q[j])
		}
		scores[i] = dot
	}
	return scores
}

// Hybrid is HybridDense·minmax(dense) + HybridBM25·minmax(bm25), per unit.
func Hybrid(dense, bm25 []float64) []float64 {
	d, s := minMax(dense), minMax(bm25)
	out := make([]float64, len(d))
	for i := range d {
		out[i] = HybridDense*d[i] + HybridBM25*s[i]
	}
	return out
}

// minMax rescales scores to [0, 1]; all 0 when they are all equal.
func minMax(scores []float64) []float64 {
	out := make([]float64, len(scores))
	if len(scores) == 0 {
		return out
	}
	lo, hi := slices.Min(scores), slices.Max(scores)
	if hi == lo {
		return out
	}
	for i, s := range scores {
		out[i] = (s - lo) / (hi - lo)
	}
	return out
}

// FlatHit is one ranked unit as a report needs it: its provenance and its text's size
// in bytes (with its newline).
type FlatHit struct {
	Sources []string
	Bytes   int
}

// rank orders the units by score, best first (ties in conversation order), keeping the
// first ones up to flatRankTokens and at least k.
func (c *flatCorpus) rank(scores []float64, k int) []FlatHit {
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return scores[order[a]] > scores[order[b]] })
	var out []FlatHit
	bytes := 0
	for _, i := range order {
		if len(out) >= k && tokensOfBytes(bytes) > flatRankTokens {
			break
		}
		u := c.units[i]
		out = append(out, FlatHit{Sources: u.sources, Bytes: len(u.text) + 1})
		bytes += len(u.text) + 1
	}
	return out
}

// FlatQuery is what a flat baseline is asked: the question and REALM's focus of it
// ("" when unknown or when the read path kept the question whole: the focus baseline then
// takes the question).
type FlatQuery struct {
	Question, Focus string
	WholeQuery      float64 // the weight of the question's vector added to the focus's (retrieval.Options.WholeQuery)
}

// FlatRanking is one baseline's answer to a question: its units best first, and how long
// ranking them took, embedding the query included.
type FlatRanking struct {
	Hits []FlatHit
	MS   float64
}

// Rank ranks the units of idx for every baseline, keyed by Baseline.String(), each
// ranking long enough for k units and any budget up to flatRankTokens. Dense scores need
// emb (the index's); without it only BM25 ranks.
func (idx FlatIndex) Rank(ctx context.Context, emb realm.Embedder, q FlatQuery, k int) (map[string]FlatRanking, error) {
	focus := q.Focus
	if focus == "" {
		focus = q.Question
	}
	var qv, fv []float32
	var qMS, fMS float64 // embedding the question, and the focus
	if emb != nil {
		t := time.Now()
		vecs, err := emb.Embed(ctx, []string{q.Question})
		if err != nil {
			return nil, err
		}
		qv, fv, qMS = vecs[0], vecs[0], msSince(t)
		if focus != q.Question {
			t = time.Now()
			vecs, err := emb.Embed(ctx, []string{focus})
			if err != nil {
				return nil, err
			}
			// As the read path embeds a focus: its vector plus WholeQuery times the question's.
			fv = make([]float32, len(vecs[0]))
			for i := range fv {
				fv[i] = vecs[0][i] + float32(q.WholeQuery)*qv[i]
			}
			fMS = msSince(t)
		}
	}
	out := map[string]FlatRanking{}
	timed := func(b Baseline, embedMS float64, scores func() []float64) {
		t := time.Now()
		hits := idx[b.Units].rank(scores(), k)
		out[b.String()] = FlatRanking{Hits: hits, MS: embedMS + msSince(t)}
	}
	for _, kind := range []string{UnitTurns, UnitWindows} {
		c := idx[kind]
		timed(Baseline{MethodBM25, kind}, 0, func() []float64 { return c.bm25(q.Question) })
		if emb == nil {
			continue
		}
		timed(Baseline{MethodDense, kind}, qMS, func() []float64 { return c.dense(qv) })
		timed(Baseline{MethodHybrid, kind}, qMS, func() []float64 { return Hybrid(c.dense(qv), c.bm25(q.Question)) })
		timed(Baseline{MethodHybridFocus, kind}, qMS+fMS, func() []float64 { return Hybrid(c.dense(fv), c.bm25(focus)) })
	}
	return out, nil
}

// msSince is the milliseconds since t.
func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

// SelectK is the first k hits: their provenance and their context tokens.
func SelectK(hits []FlatHit, k int) ([][]string, int) {
	return selectHits(hits, func(n, _ int) bool { return n < k })
}

// SelectBudget takes hits in rank order until the next would bring the context past
// budget tokens (Tokens of the units' texts, one per line).
func SelectBudget(hits []FlatHit, budget float64) ([][]string, int) {
	return selectHits(hits, func(_, bytes int) bool { return float64(tokensOfBytes(bytes)) <= budget })
}

// selectHits takes hits while take(units so far, bytes with the next) holds.
func selectHits(hits []FlatHit, take func(n, bytes int) bool) ([][]string, int) {
	var sources [][]string
	bytes := 0
	for _, h := range hits {
		if !take(len(sources), bytes+h.Bytes) {
			break
		}
		sources = append(sources, h.Sources)
		bytes += h.Bytes
	}
	return sources, tokensOfBytes(bytes)
}

// tokensOfBytes is Tokens of a text of n bytes.
func tokensOfBytes(n int) int { return int(math.Ceil(float64(n) / 4)) }
