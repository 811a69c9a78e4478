package retrieval

import (
	"context"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
)

// Seed relaxation steps recorded in the trace, per plan (REALM.md §3.1, soft type filter).
const (
	RelaxNone      = "none"      // types and threshold held
	RelaxThreshold = "threshold" // nothing passed the threshold: it was dropped
	RelaxTypes     = "types"     // nothing of the types either: they were dropped
	RelaxFallback  = "fallback"  // no plan found anything: a query_match plan without filters ran
)

// seed runs every plan and merges their seeds by id, keeping the best score
// (REALM.md §3.1). A seed's access score is its seed score (§3.3).
func (r *Retriever) seed(ctx context.Context, run *run) error {
	if err := r.embedFocus(ctx, run); err != nil {
		return err
	}
	texts := []string{run.query}
	for _, p := range run.plans {
		texts = append(texts, p.Query)
	}
	vecs, err := r.embed(ctx, run, texts...)
	if err != nil {
		return err
	}
	run.qvec = vecs[0]

	inSpace, total := run.counts.InSpace, run.counts.Total
	if inSpace == 0 || run.filter.none() {
		return nil
	}
	fetch := run.seedLimit * int((total+inSpace-1)/inSpace) * 2
	// A 5.26 index needs the over-fetch; 2026.x's searches the space only (FiltersVectors).
	exact := inSpace <= r.opts.ExactScanMax || !r.store.FiltersVectors() && fetch > r.opts.IndexFetchMax
	run.trace.SeedMethod = realm.SeedVectorIndex
	if exact || run.filter.among != nil { // the memories of a narrow filter are each scored (filter.go)
		run.trace.SeedMethod = realm.SeedExactScan
	}

	// The plans' searches run at once, each on a connection of its own: a recall waits
	// for the slowest instead of their sum. Their seeds are merged in the plans' order.
	type planSeeds struct {
		seeds []cypher.ScoredMemory
		said  []cypher.ScoredMemory // a SaidIn plan's candidates, all of them
		relax string
		err   error
	}
	found := make([]planSeeds, len(run.plans))
	for _, p := range run.plans {
		if p.SaidIn != nil {
			run.saidIn = map[string]bool{}
			run.saidWhen = append(run.saidWhen, *p.SaidIn)
			if p.DatedIn != nil {
				run.saidWhen = append(run.saidWhen, *p.DatedIn)
			}
		}
	}
	var wg sync.WaitGroup
	for i, p := range run.plans {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f := &found[i]
			if p.SaidIn != nil {
				// What was said then, however little it resembles the question: no threshold.
				f.said, f.err = r.planCandidates(ctx, run, p, p.Types, vecs[i+1], exact, fetch)
				f.seeds, f.relax = slices.Clone(f.said[:min(len(f.said), r.seedsPerPlan(run))]), RelaxNone // best first
				return
			}
			f.seeds, f.relax, f.err = r.runPlan(ctx, run, p, vecs[i+1], exact, fetch)
		}()
	}
	wg.Wait()
	best := map[string]float64{}
	for _, f := range found {
		if f.err != nil {
			return f.err
		}
		run.trace.PlanRelaxation = append(run.trace.PlanRelaxation, f.relax)
		for _, s := range f.said {
			run.saidIn[s.Node.ID] = true
		}
		for _, s := range f.seeds {
			run.nodes[s.Node.ID] = s.Node
			if old, ok := best[s.Node.ID]; !ok || s.Score > old {
				best[s.Node.ID] = s.Score
			}
		}
	}
	if len(best) == 0 {
		// Seed retrieval never returns an empty set on a non-empty space (REALM.md §3.1):
		// the plans' filters (a time range, keywords only) left nothing, so the query
		// itself is matched against everything.
		fallback := realm.Plan{Query: run.query, Mode: realm.QueryMatch}
		seeds, _, err := r.runPlan(ctx, run, fallback, run.qvec, exact, fetch)
		if err != nil {
			return err
		}
		run.plans = append(run.plans, fallback)
		run.trace.Plans = run.plans
		run.trace.PlanRelaxation = append(run.trace.PlanRelaxation, RelaxFallback)
		for _, s := range seeds {
			run.nodes[s.Node.ID] = s.Node
			best[s.Node.ID] = s.Score
		}
	}
	for id, score := range best {
		r.admit(run, run.nodes[id], arrival{strength: 1, access: score}, sim(run.nodes[id].Embedding, run.qvec), 0, id)
		run.trace.Seeds = append(run.trace.Seeds, realm.ScoredID{ID: id, Score: score})
	}
	sortScored(run.trace.Seeds)
	return nil
}

// embedFocus embeds a focused query (see focus) as its own vector plus WholeQuery times
// the whole question's: the focus keeps the names of the participants from outweighing
// what is asked, the whole question keeps who is asked about ("What do Melanie's kids
// like?" is not about Caroline's). Every similarity of the read path is a cosine, so the
// sum needs no normalising. Every later use of the focus text (the plans' query, the
// reasoning of the expansion, sim(v, q)) gets this vector.
func (r *Retriever) embedFocus(ctx context.Context, run *run) error {
	if run.query == run.trace.Query || r.opts.WholeQuery <= 0 {
		return nil
	}
	vecs, err := r.embed(ctx, run, run.query, run.trace.Query)
	if err != nil {
		return err
	}
	run.vectors[run.query] = r.focusVector(vecs[0], vecs[1])
	return nil
}

// focusVector is a focus's vector plus WholeQuery times its whole question's (the focus's
// alone when the two differ in length or WholeQuery is 0).
func (r *Retriever) focusVector(focus, whole []float32) []float32 {
	if len(focus) != len(whole) || r.opts.WholeQuery <= 0 {
		return focus
	}
	v := make([]float32, len(focus))
	for i := range v {
		v[i] = focus[i] + float32(r.opts.WholeQuery)*whole[i]
	}
	return v
}

// seedsPerPlan is at least twice K, so that K nodes remain after aggregation leaves out
// redundant ones.
func (r *Retriever) seedsPerPlan(run *run) int { return max(r.opts.SeedsPerPlan, 2*run.set.K) }

// runPlan returns one plan's seeds with the soft type filter (REALM.md §3.1): if types
// and the score threshold leave nothing, the threshold is dropped; if still nothing,
// the types are.
func (r *Retriever) runPlan(ctx context.Context, run *run, p realm.Plan, qvec []float32, exact bool, fetch int) ([]cypher.ScoredMemory, string, error) {
	found, err := r.planCandidates(ctx, run, p, p.Types, qvec, exact, fetch)
	if err != nil {
		return nil, "", err
	}
	var newer func(realm.Node) (time.Time, bool) // alike for a question about the latest: the newer first
	if p.Latest {
		newer = run.timeOf
	}
	var above []cypher.ScoredMemory
	for _, s := range found {
		if s.Score >= r.opts.SeedMinScore {
			above = append(above, s)
		}
	}
	if len(above) > 0 {
		return topScored(above, r.seedsPerPlan(run), newer), RelaxNone, nil
	}
	if len(found) > 0 || len(p.Types) == 0 {
		return topScored(found, r.seedsPerPlan(run), newer), RelaxThreshold, nil
	}
	found, err = r.planCandidates(ctx, run, p, nil, qvec, exact, fetch)
	if err != nil {
		return nil, "", err
	}
	return topScored(found, r.seedsPerPlan(run), newer), RelaxTypes, nil
}

// planCandidates scores the candidates of one plan by its matching mode, best first:
// query_match by sim(Q, v); keywords_match by the keyword score normalised to [0, 1]
// within the result set (divided by the best); hybrid_match by 0.6·sim(Q, v) + 0.4·that
// keyword score, over the union of both result sets, with τ enforced (REALM.md §3.1).
func (r *Retriever) planCandidates(ctx context.Context, run *run, p realm.Plan, types []realm.NodeType, qvec []float32, exact bool, fetch int) ([]cypher.ScoredMemory, error) {
	space := run.space
	q := cypher.SeedQuery{Embedding: qvec, Keywords: p.Keywords, Types: run.filter.seedTypes(types), Among: run.filter.among,
		Limit: run.seedLimit, SpaceSize: run.counts.InSpace, SpaceVersion: run.counts.Version}
	if len(q.Keywords) == 0 {
		q.Keywords = strings.Fields(p.Query)
	}
	if p.SaidIn != nil {
		found, err := r.store.SeedSaidIn(ctx, space, q, *p.SaidIn, p.DatedIn)
		if err != nil {
			return nil, err
		}
		// The store's cosine is in [-1, 1]; a seed score is in [0, 1] like every plan's
		// (sim clips it), or a memory said then that points away from the question would
		// score below 0. Clipped once sorted, so that the seeds taken from them are the
		// same; they rank at 0 among themselves.
		if found, err = r.eligible(ctx, run, found); err != nil {
			return nil, err
		}
		found = topScored(found, len(found), nil)
		for i := range found {
			found[i].Score = clip01(found[i].Score)
		}
		return found, nil
	}
	if p.Mode == realm.HybridMatch {
		q.TimeRange = p.TimeRange
	}
	// The vector and the keyword search run at once (see seed).
	var vector, hits []cypher.ScoredMemory
	var vectorErr, hitsErr error
	var wg sync.WaitGroup
	if p.Mode != realm.KeywordsMatch {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var held bool
			vector, held, vectorErr = r.store.SeedByHeldVectors(ctx, space, q)
			switch {
			case held || vectorErr != nil:
			case exact:
				vector, vectorErr = r.store.SeedByExactScan(ctx, space, q)
			default:
				vector, vectorErr = r.store.SeedByVectorIndex(ctx, space, q, fetch)
			}
		}()
	}
	if p.Mode != realm.QueryMatch {
		hits, hitsErr = r.store.SeedByFullText(ctx, space, q)
	}
	wg.Wait()
	if vectorErr != nil {
		return nil, vectorErr
	}
	if hitsErr != nil {
		return nil, hitsErr
	}
	// What the space learned after the question's time, and what the filters leave out,
	// is left out before the keyword scores are normalised: the result set is the one the
	// space held then, among the memories asked for.
	if vector, vectorErr = r.eligible(ctx, run, vector); vectorErr != nil {
		return nil, vectorErr
	}
	if hits, hitsErr = r.eligible(ctx, run, hits); hitsErr != nil {
		return nil, hitsErr
	}
	nodes := map[string]realm.Node{}
	for _, s := range vector {
		nodes[s.Node.ID] = s.Node
	}
	keyword := map[string]float64{}
	if p.Mode != realm.QueryMatch {
		var maxScore float64
		for _, s := range hits {
			maxScore = max(maxScore, s.Score)
		}
		for _, s := range hits {
			nodes[s.Node.ID] = s.Node
			if maxScore > 0 {
				keyword[s.Node.ID] = s.Score / maxScore
			}
		}
	}
	out := make([]cypher.ScoredMemory, 0, len(nodes))
	for id, n := range nodes {
		var score float64
		switch p.Mode {
		case realm.QueryMatch:
			score = sim(qvec, n.Embedding)
		case realm.KeywordsMatch:
			score = keyword[id]
		default:
			score = r.opts.hybridScore(sim(qvec, n.Embedding), keyword[id])
		}
		out = append(out, cypher.ScoredMemory{Node: n, Score: score})
	}
	return topScored(out, len(out), nil), nil
}

// topScored sorts best first (ties: the newer by timeOf when given, then by id) and keeps n.
func topScored(s []cypher.ScoredMemory, n int, timeOf func(realm.Node) (time.Time, bool)) []cypher.ScoredMemory {
	sort.Slice(s, func(i, j int) bool {
		if s[i].Score != s[j].Score {
			return s[i].Score > s[j].Score
		}
		if timeOf != nil {
			ti, _ := timeOf(s[i].Node)
			tj, _ := timeOf(s[j].Node)
			if !ti.Equal(tj) {
				return ti.After(tj)
			}
		}
		return s[i].Node.ID < s[j].Node.ID
	})
	if len(s) > n {
		s = s[:n]
	}
	return s
}

func sortScored(s []realm.ScoredID) {
	sort.Slice(s, func(i, j int) bool {
		if s[i].Score != s[j].Score {
			return s[i].Score > s[j].Score
		}
		return s[i].ID < s[j].ID
	})
}
