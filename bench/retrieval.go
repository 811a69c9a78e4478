package bench

import (
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/realm-memory/realm"
)

// Ingester is the write path as the bench drives it (construction.Pipeline).
type Ingester interface {
	Ingest(ctx context.Context, space string, obs []realm.Observation) (IngestResults, error)
}

// IngestResults is left abstract: the bench only needs how many observations went in.
type IngestResults = int

// Recaller is the read path as the bench drives it (retrieval.Retriever).
type Recaller interface {
	Recall(ctx context.Context, space string, req realm.RecallRequest) (realm.RecallResult, error)
}

// RetrievalConfig configures an offline retrieval run on LoCoMo.
type RetrievalConfig struct {
	K           int    // evidence recall@K
	SpacePrefix string // each sample goes to space SpacePrefix+sample id
	Limit       int    // questions per sample (0: all)
}

// RetrievalReport holds every number of a retrieval run.
type RetrievalReport struct {
	K          int                  `json:"k"`
	Samples    []string             `json:"samples"`
	Questions  int                  `json:"questions"` // categories 1–4 with evidence
	Skipped    int                  `json:"skipped_evidence"`
	REALM      MethodReport         `json:"realm"`
	Flat       MethodReport         `json:"flat_baseline"`
	Ingest     IngestReport         `json:"ingest"`
	FirstDepth map[string]int       `json:"evidence_first_depth"` // depth → questions whose evidence was first found there
	Config     map[string]string    `json:"config"`
	Elapsed    float64              `json:"elapsed_seconds"`
	PerSample  map[string]CatRecall `json:"per_sample"`
}

// MethodReport is one retrieval method's evidence recall per category and overall.
type MethodReport struct {
	ByCategory    CatRecall `json:"by_category"`
	Overall       float64   `json:"overall"`
	ContextTokens float64   `json:"mean_context_tokens"`
	MedianMS      float64   `json:"median_recall_ms"`
}

// CatRecall maps a category name to its mean evidence recall.
type CatRecall map[string]float64

// IngestReport says what ingestion cost.
type IngestReport struct {
	Observations int     `json:"observations"`
	Seconds      float64 `json:"seconds"`
	PerSecond    float64 `json:"observations_per_second"`
}

// accumulator averages recalls per category.
type accumulator struct {
	sum, n  map[int]float64
	tokens  float64
	count   int
	latency []float64
}

func newAccumulator() *accumulator {
	return &accumulator{sum: map[int]float64{}, n: map[int]float64{}}
}

func (a *accumulator) add(cat int, recall float64, tokens int, ms float64) {
	a.sum[cat] += recall
	a.n[cat]++
	a.tokens += float64(tokens)
	a.count++
	a.latency = append(a.latency, ms)
}

func (a *accumulator) report() MethodReport {
	r := MethodReport{ByCategory: CatRecall{}}
	var sum, n float64
	for cat := 1; cat <= 4; cat++ {
		if a.n[cat] > 0 {
			r.ByCategory[CategoryNames[cat]] = a.sum[cat] / a.n[cat]
			sum += a.sum[cat]
			n += a.n[cat]
		}
	}
	if n > 0 {
		r.Overall = sum / n
	}
	if a.count > 0 {
		r.ContextTokens = a.tokens / float64(a.count)
	}
	r.MedianMS = median(a.latency)
	return r
}

// RunRetrieval ingests every sample into its own space, asks its questions of categories
// 1–4 in order, and scores evidence recall@K for REALM and for a flat baseline in the
// same run: the top-K raw turns by cosine with the same embedder, no graph.
func RunRetrieval(ctx context.Context, samples []Sample, ing Ingester, rec Recaller, emb realm.Embedder, cfg RetrievalConfig, progress io.Writer) (RetrievalReport, error) {
	start := time.Now()
	rep := RetrievalReport{K: cfg.K, FirstDepth: map[string]int{}, PerSample: map[string]CatRecall{}}
	realmAcc, flatAcc := newAccumulator(), newAccumulator()
	var ingestSeconds float64
	for _, s := range samples {
		rep.Samples = append(rep.Samples, s.ID)
		space := cfg.SpacePrefix + s.ID
		obs := s.Observations()
		t0 := time.Now()
		if err := ingestAll(ctx, ing, space, obs, progress, s.ID); err != nil {
			return rep, err
		}
		ingestSeconds += time.Since(t0).Seconds()
		rep.Ingest.Observations += len(obs)

		turns, err := embedTurns(ctx, emb, obs)
		if err != nil {
			return rep, err
		}
		sampleAcc := newAccumulator()
		asked := 0
		askAt := s.Sessions[len(s.Sessions)-1].Date.Add(24 * time.Hour)
		for qi, q := range s.Questions {
			rep.Skipped += len(q.Skipped)
			if q.Category < 1 || q.Category > 4 || len(q.Evidence) == 0 {
				continue
			}
			if cfg.Limit > 0 && asked >= cfg.Limit {
				break
			}
			asked++
			t1 := time.Now()
			res, err := rec.Recall(ctx, space, realm.RecallRequest{Query: q.Question, Time: &askAt, K: cfg.K})
			if err != nil {
				return rep, fmt.Errorf("%s question %d: %w", s.ID, qi, err)
			}
			ms := float64(time.Since(t1).Microseconds()) / 1000
			sources := make([][]string, len(res.Nodes))
			var text strings.Builder
			for i, n := range res.Nodes {
				sources[i] = n.Node.Sources
				text.WriteString(n.Node.Content)
				text.WriteByte('\n')
			}
			recall, _ := EvidenceRecall(q.Evidence, sources, cfg.K)
			realmAcc.add(q.Category, recall, Tokens(text.String()), ms)
			sampleAcc.add(q.Category, recall, 0, 0)
			rep.FirstDepth[firstEvidenceDepth(q.Evidence, res.Nodes)]++

			t2 := time.Now()
			flatSources, flatText, err := flatTopK(ctx, emb, turns, q.Question, cfg.K)
			if err != nil {
				return rep, err
			}
			flatRecall, _ := EvidenceRecall(q.Evidence, flatSources, cfg.K)
			flatAcc.add(q.Category, flatRecall, Tokens(flatText), float64(time.Since(t2).Microseconds())/1000)
			rep.Questions++
			if progress != nil {
				fmt.Fprintf(progress, "\r%s: question %d, recall@%d so far %.3f (flat %.3f)   ", s.ID, asked, cfg.K, realmAcc.report().Overall, flatAcc.report().Overall)
			}
		}
		rep.PerSample[s.ID] = sampleAcc.report().ByCategory
		if progress != nil {
			fmt.Fprintln(progress)
		}
	}
	rep.REALM, rep.Flat = realmAcc.report(), flatAcc.report()
	rep.Ingest.Seconds = ingestSeconds
	if ingestSeconds > 0 {
		rep.Ingest.PerSecond = float64(rep.Ingest.Observations) / ingestSeconds
	}
	rep.Elapsed = time.Since(start).Seconds()
	return rep, nil
}

// ingestAll sends a sample's observations in batches, showing progress.
func ingestAll(ctx context.Context, ing Ingester, space string, obs []realm.Observation, progress io.Writer, label string) error {
	const batch = 25
	start := time.Now()
	for i := 0; i < len(obs); i += batch {
		end := min(i+batch, len(obs))
		if _, err := ing.Ingest(ctx, space, obs[i:end]); err != nil {
			return fmt.Errorf("%s: ingest: %w", label, err)
		}
		if progress != nil {
			fmt.Fprintf(progress, "\r%s", ProgressLine(label+" ingest", end, len(obs), time.Since(start)))
		}
	}
	if progress != nil {
		fmt.Fprintln(progress)
	}
	return nil
}

// ProgressLine renders "label [#####     ] 50/100  12.3/s  ETA 4s".
func ProgressLine(label string, done, total int, elapsed time.Duration) string {
	const width = 24
	filled := 0
	if total > 0 {
		filled = done * width / total
	}
	rate := float64(done) / math.Max(elapsed.Seconds(), 1e-9)
	eta := "?"
	if rate > 0 {
		eta = (time.Duration(float64(total-done)/rate) * time.Second).Round(time.Second).String()
	}
	return fmt.Sprintf("%s [%s%s] %d/%d  %.1f/s  ETA %s   ", label,
		strings.Repeat("#", filled), strings.Repeat(" ", width-filled), done, total, rate, eta)
}

// firstEvidenceDepth is the smallest depth at which a returned node covering a gold
// turn was reached, or "none".
func firstEvidenceDepth(gold []string, nodes []realm.RecalledNode) string {
	want := map[string]bool{}
	for _, g := range gold {
		want[g] = true
	}
	best := -1
	for _, n := range nodes {
		if len(n.Node.Sources) > MaxEvidenceSources {
			continue
		}
		for _, src := range n.Node.Sources {
			if want[src] && (best < 0 || n.Depth < best) {
				best = n.Depth
			}
		}
	}
	if best < 0 {
		return "none"
	}
	return fmt.Sprint(best)
}

type embeddedTurn struct {
	id, text string
	vec      []float32
}

func embedTurns(ctx context.Context, emb realm.Embedder, obs []realm.Observation) ([]embeddedTurn, error) {
	texts := make([]string, len(obs))
	for i, o := range obs {
		texts[i] = o.Speaker + ": " + o.Content
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	out := make([]embeddedTurn, len(obs))
	for i, o := range obs {
		out[i] = embeddedTurn{id: o.ID, text: texts[i], vec: vecs[i]}
	}
	return out, nil
}

// flatTopK is the baseline: the k raw turns most similar to the question.
func flatTopK(ctx context.Context, emb realm.Embedder, turns []embeddedTurn, question string, k int) ([][]string, string, error) {
	qv, err := emb.Embed(ctx, []string{question})
	if err != nil {
		return nil, "", err
	}
	type scored struct {
		i     int
		score float64
	}
	all := make([]scored, len(turns))
	for i, t := range turns {
		var dot float64
		for j := range t.vec {
			dot += float64(t.vec[j]) * float64(qv[0][j])
		}
		all[i] = scored{i, dot}
	}
	sort.SliceStable(all, func(a, b int) bool { return all[a].score > all[b].score })
	var sources [][]string
	var text strings.Builder
	for _, s := range all[:min(k, len(all))] {
		sources = append(sources, []string{turns[s.i].id})
		text.WriteString(turns[s.i].text)
		text.WriteByte('\n')
	}
	return sources, text.String(), nil
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Markdown renders the report as tables.
func (r RetrievalReport) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Evidence recall@%d on %d questions (categories 1–4) of %s.\n\n", r.K, r.Questions, strings.Join(r.Samples, ", "))
	fmt.Fprintf(&b, "| category | REALM | flat baseline |\n|---|---|---|\n")
	for cat := 1; cat <= 4; cat++ {
		name := CategoryNames[cat]
		fmt.Fprintf(&b, "| %d %s | %.3f | %.3f |\n", cat, name, r.REALM.ByCategory[name], r.Flat.ByCategory[name])
	}
	fmt.Fprintf(&b, "| **overall** | **%.3f** | **%.3f** |\n", r.REALM.Overall, r.Flat.Overall)
	fmt.Fprintf(&b, "| mean context (tokens) | %.0f | %.0f |\n", r.REALM.ContextTokens, r.Flat.ContextTokens)
	fmt.Fprintf(&b, "| median recall latency (ms) | %.1f | %.1f |\n\n", r.REALM.MedianMS, r.Flat.MedianMS)
	fmt.Fprintf(&b, "Depth at which evidence was first found: ")
	var depths []string
	for d := range r.FirstDepth {
		depths = append(depths, d)
	}
	sort.Strings(depths)
	for _, d := range depths {
		fmt.Fprintf(&b, "%s: %d  ", d, r.FirstDepth[d])
	}
	fmt.Fprintf(&b, "\n\nIngestion: %d observations in %.1f s (%.1f observations/s). Malformed evidence strings skipped: %d.\n",
		r.Ingest.Observations, r.Ingest.Seconds, r.Ingest.PerSecond, r.Skipped)
	return b.String()
}
