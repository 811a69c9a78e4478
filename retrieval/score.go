package retrieval

import (
	"math"
	"time"

	"github.com/realm-memory/realm"
)

// sim is the cosine of a and b clipped to [0, 1]; 0 when either is empty or of
// different lengths.
func sim(a, b []float32) float64 { return clip01(realm.Cosine(a, b)) }

func clip01(x float64) float64 { return math.Max(0, math.Min(1, x)) }

// hybridScore combines the two seed signals (REALM.md §3.1):
// 0.6·vector + 0.4·keyword, the keyword score normalised to [0, 1] within the result set.
func (o Options) hybridScore(vector, keywordNorm float64) float64 {
	return o.HybridVector*vector + o.HybridKeyword*keywordNorm
}

// edgeScore scores crossing edge e from u to v while expanding (REALM.md §3.2):
// score(e) = clip(0.6·sim(r, v) + 0.4·w_e + δ_temporal, 0, 1), δ_temporal = −decay penalty.
func (o Options) edgeScore(simRV, weight, penalty float64) float64 {
	return clip01(o.EdgeSimilarity*simRV + o.EdgeWeight*weight - penalty)
}

// pathScore is the mean hop score minus 0.03 per extra hop (REALM.md §3.2, path_search).
func (o Options) pathScore(hops []float64) float64 {
	var sum float64
	for _, h := range hops {
		sum += h
	}
	return sum/float64(len(hops)) - o.HopPenalty*float64(len(hops)-1)
}

// accessScore of a node reached by expansion (REALM.md §3.3):
// s_acc(v) = β·sim(q, edge description or v) + (1−β)·w_e − decay(t_v), β = 0.6.
func (o Options) accessScore(simQ, weight, penalty float64) float64 {
	return o.Beta*simQ + (1-o.Beta)*weight - penalty
}

// finalScore (REALM.md §3.3): Score(v) = α·s_acc(v) + (1−α)·sim(v, q), α = 0.8.
func (o Options) finalScore(access, simVQ float64) float64 {
	return o.Alpha*access + (1-o.Alpha)*simVQ
}

// Scorers of aggregation (Options.Scorer).
const (
	// ScorerOurs (the default, REALM.md §3.3 "Ours"): relevance times bounded factors.
	ScorerOurs = "ours"
	// ScorerPaper: the paper's additive Score(v) = α·s_acc(v) + (1−α)·sim(v, q).
	ScorerPaper = "paper"
	// ScorerSimilarity: sim(v, q) alone, the floor ours must never rank below (bench).
	ScorerSimilarity = "similarity"
)

// Scorers lists the valid Options.Scorer values.
var Scorers = []string{ScorerOurs, ScorerPaper, ScorerSimilarity}

// arrival is how a recall arrived at a node: the path strength (the product of the edge
// weights from its seed, 1 for a seed), the soft temporal decay penalty, and the paper's
// access score s_acc (a seed's is its seed score; a reached node's is computed from the
// similarity of the query to the description of the edge that led there, or else to the
// node).
type arrival struct {
	strength, penalty, access float64
}

// score is a node's final score by the configured scorer, before validity (validity.go)
// and what reconsolidation learned for queries like this one (consolidate.go), which
// multiply it. simVQ is the node's own similarity to the query; seed says a arrived as a
// seed (its access is then its seed score).
//
// Ours (REALM.md §3.3 "Ours"): relevance × strength^PathExponent × temporal fit, every
// factor in [0, 1] (but 1 + ReachBonus, off by default), so no factor lifts a node the
// query is not about. A reached node's relevance is its own similarity to the query; a
// seed's blends it with its seed score, (1 − SeedShare)·sim(v, q) + SeedShare·seed score:
// the seed score carries what the full-text search matched (hybrid_match: 0.6·vector +
// 0.4·keyword), which similarity alone misses. On LoCoMo SeedShare 0.25 (chosen on the
// tuning split) lifted recall@10 from 0.791 to 0.812 there and from 0.749 to 0.779 on the
// validation split (docs/benchmarks/locomo-retrieval.md, "The scorer's seed relevance").
func (o Options) score(a arrival, simVQ float64, seed bool) float64 {
	switch o.Scorer {
	case ScorerPaper:
		return o.finalScore(a.access, simVQ)
	case ScorerSimilarity:
		return simVQ
	}
	relevance, reached := simVQ, 1+o.ReachBonus
	if seed {
		relevance, reached = (1-o.SeedShare)*simVQ+o.SeedShare*a.access, 1
	}
	return relevance * reached * math.Pow(a.strength, o.PathExponent) * clip01(1-a.penalty)
}

// decayPenalty applies a temporal decay to node n (REALM.md §3.2): drop reports that hard
// decay (outside the window) or missing_time=drop excludes it; otherwise penalty is the
// soft decay, 0.05 per delta_t of distance beyond the window [Time − Δt, Time + Δt]
// (continuous), capped at 0.3. No decay, or a node inside the window, has penalty 0.
func (o Options) decayPenalty(d *realm.TemporalDecay, n realm.Node) (penalty float64, drop bool) {
	if d == nil || d.Time.IsZero() {
		return 0, false
	}
	if n.TStart == nil {
		return 0, d.MissingTime == realm.MissingTimeDrop
	}
	start, end := *n.TStart, *n.TStart
	if n.TEnd != nil && n.TEnd.After(start) {
		end = *n.TEnd
	}
	dt := d.DeltaT
	if dt <= 0 {
		dt = 24 * time.Hour
	}
	lo, hi := d.Time.Add(-dt), d.Time.Add(dt)
	var dist time.Duration
	switch {
	case end.Before(lo):
		dist = lo.Sub(end)
	case start.After(hi):
		dist = start.Sub(hi)
	default:
		return 0, false
	}
	if d.Mode == realm.DecayHard {
		return 0, true
	}
	return math.Min(o.DecayCap, o.DecayStep*float64(dist)/float64(dt)), false
}
