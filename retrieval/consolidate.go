package retrieval

import (
	"context"
	"math"
	"sort"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/internal/text"
)

// consolidate applies what reconsolidation learned for queries like this one (REALM.md
// §3.3 "Ours" 2, §4 "ours"): the learned links touching the gathered nodes, each carrying
// the query it was learned for and the label its end had for that query. A link acts only
// when this recall's query is close to its query (cosine ≥ LearnedClose, both embedded as
// the read path embeds a query); its strength is
// act = weight × clip((closeness − LearnedClose) / (LearnedFull − LearnedClose)), in [0, 1],
// its weight decayed by LearnedHalfLife when set (learnedWeight):
//
//   - key evidence: its end's score is multiplied by 1 + LearnedBoost·act (the best link
//     counts, not their sum); an end not yet gathered, linked from a gathered node, is
//     brought in as reached over the link;
//   - misleading: its end's score is multiplied by 1 − LearnedDrop·act.
//
// With LearnedRelevance ρ₀, a key-evidence link acts on its end only as far as the end is
// as relevant to this query as to the link's (relevanceFit), against "the same topic,
// another fact" (off by default: with ρ₀ = 1, LearnedClose 0.3 and LearnedFull 0.6 it gave
// +0.004 over none on LoCoMo's tuning split where the then default (LearnedClose 0.5, an
// older read path) gave −0.004, and −0.001 on validation where it gave +0.008;
// docs/benchmarks/locomo-feedback.md).
//
// With LearnedNearest, the key-evidence links of the earlier query closest to this one act
// alone (off by default: on LoCoMo's tuning split, an older read path, +0.001 over none
// where all of them gave −0.005 with LearnedClose 0.5; docs/benchmarks/locomo-feedback.md).
//
// With LearnedMismatch, a node confirmed for other queries that shares no content word
// with this one is lowered (mismatched; off by default).
//
// So feedback on a node found directly counts, yet never as a global prior: a query far
// from every learned query ranks exactly as if nothing had been learned (expansion does
// not cross learned links either, unless LearnedWalk says so: expand.go, walks). Only the ours
// scorer uses it. Every link that acted is recorded in the trace. A space known to hold
// no learned link (cypher.SpaceCounts.NoLearnedLinks) is not asked for them: the statement
// reads every memory edge of every candidate, a speaker's 40,000 at 100,000 memories.
func (r *Retriever) consolidate(ctx context.Context, run *run) error {
	if r.opts.Scorer != ScorerOurs || r.opts.LearnedClose >= 1 || len(run.cands) == 0 || run.counts.NoLearnedLinks {
		return nil
	}
	ids := make([]string, 0, len(run.cands))
	for id := range run.cands {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	links, err := r.store.LearnedLinks(ctx, run.space, ids)
	if err != nil || len(links) == 0 {
		return err
	}
	vecs, err := r.learnedQueryVectors(ctx, run, links)
	if err != nil {
		return err
	}
	nearest := 0.0 // with LearnedNearest, the closeness of the closest query of a key-evidence link
	for _, l := range links {
		if r.opts.LearnedNearest > 0 && l.Edge.Label == realm.KeyEvidence {
			nearest = max(nearest, sim(run.qvec, vecs[l.Edge.ID]))
		}
	}
	boost, drop := map[string]float64{}, map[string]float64{}
	for _, l := range links {
		e := l.Edge
		closeness := sim(run.qvec, vecs[e.ID])
		if closeness < r.opts.LearnedClose || (e.Label == realm.KeyEvidence && closeness < nearest) {
			continue
		}
		weight := r.opts.learnedWeight(e, run.started)
		act := weight * clip01((closeness-r.opts.LearnedClose)/(r.opts.LearnedFull-r.opts.LearnedClose))
		t := realm.TraceLearned{EdgeID: e.ID, Node: e.To, Label: e.Label, Closeness: closeness}
		switch e.Label {
		case realm.KeyEvidence:
			now := sim(l.To.Embedding, run.qvec)
			fit := r.opts.relevanceFit(now, sim(l.To.Embedding, vecs[e.ID]))
			act *= fit
			t.Factor = 1 + r.opts.LearnedBoost*act
			boost[e.To] = max(boost[e.To], act)
			from, fromIn := run.cands[e.From]
			if _, in := run.cands[e.To]; !in && fromIn && from.Depth < run.set.MaxDepth && fit > 0 && run.known(l.To) {
				a := arrival{strength: from.Arrival.strength * weight, access: r.opts.accessScore(closeness, weight, 0)}
				run.nodes[e.To] = l.To
				r.admit(run, l.To, a, now, from.Depth+1, from.Root)
				t.Injected = true
			}
		case realm.Misleading:
			t.Factor = 1 - r.opts.LearnedDrop*act
			drop[e.To] = max(drop[e.To], act)
		default:
			continue
		}
		run.trace.Learned = append(run.trace.Learned, t)
	}
	lowered := r.mismatched(run, links, vecs, boost)
	for id, c := range run.cands {
		b, d := boost[id], drop[id]
		if lowered[id] {
			c.Score *= 1 - r.opts.LearnedMismatch
		}
		if b == 0 && d == 0 {
			continue
		}
		c.Score *= (1 + r.opts.LearnedBoost*b) * (1 - r.opts.LearnedDrop*d)
	}
	return nil
}

// mismatched returns the gathered nodes that LearnedMismatch lowers: nodes confirmed as
// key evidence for other queries (the ends of key-evidence learned links, none of which
// acted for this query) that share no content word with this query's focus. Read on the
// recorded top 30s of LoCoMo's tuning split: an earlier answer ranked 11th to 20th was
// gold again for 0.6% of the later questions sharing no word with it, against 1.5% for
// the other nodes at those ranks sharing none, and 5.3% for earlier answers sharing one
// (docs/benchmarks/locomo-feedback.md). Each is recorded in the trace with a link to it.
func (r *Retriever) mismatched(run *run, links []cypher.LearnedLink, vecs map[string][]float32, boost map[string]float64) map[string]bool {
	words := map[string]bool{}
	for _, w := range text.Keywords(run.query, maxFocusWords) {
		words[text.Stem(w)] = true
	}
	if r.opts.LearnedMismatch <= 0 || len(words) == 0 {
		return nil
	}
	out := map[string]bool{}
	for _, l := range links {
		e := l.Edge
		c, in := run.cands[e.To]
		if e.Label != realm.KeyEvidence || !in || boost[e.To] > 0 || out[e.To] || sharesWord(c.Node.Content, words) {
			continue
		}
		out[e.To] = true
		run.trace.Learned = append(run.trace.Learned, realm.TraceLearned{EdgeID: e.ID, Node: e.To, Label: e.Label,
			Closeness: sim(run.qvec, vecs[e.ID]), Factor: 1 - r.opts.LearnedMismatch})
	}
	return out
}

// maxFocusWords bounds the content words of a query that mismatched compares.
const maxFocusWords = 32

// sharesWord reports whether content holds one of words (stemmed) as a word.
func sharesWord(content string, words map[string]bool) bool {
	for _, w := range text.Words(content) {
		if words[text.Stem(w)] {
			return true
		}
	}
	return false
}

// relevanceFit is the share of a key-evidence link's strength that acts on a node whose
// similarity to this query is now and to the link's query then: with LearnedRelevance ρ₀
// set, clip((now/then − ρ₀) / (1 − ρ₀)), so an earlier answer lifts only where this query
// is about it as much as the earlier one was ("the same evidence again"), not where it is
// merely on its topic ("another fact"); 1 when unset or when then is 0.
func (o Options) relevanceFit(now, then float64) float64 {
	if o.LearnedRelevance <= 0 || then <= 0 || now >= then {
		return 1
	}
	return clip01((now/then - o.LearnedRelevance) / (1 - o.LearnedRelevance))
}

// learnedWeight is a learned link's weight at now: with LearnedHalfLife set, the
// anti-lock-in decay of REALM.md §4 halves it for every LearnedHalfLife hours since it
// was last added or confirmed (its UpdatedAt), at read time, so no edit is made and none
// needs reverting. A learned link is itself a gain (the graph had no such edge), so it
// decays toward nothing rather than toward its initial weight.
func (o Options) learnedWeight(e realm.Edge, now time.Time) float64 {
	if o.LearnedHalfLife <= 0 || e.UpdatedAt.IsZero() || !now.After(e.UpdatedAt) {
		return e.Weight
	}
	return e.Weight * math.Exp2(-now.Sub(e.UpdatedAt).Hours()/o.LearnedHalfLife)
}

// learnedQueryVectors returns the vector of each link's query, by the link's id: its
// query embedded as the read path embeds a query (queryVectors), or, once the query's
// text is erased, the vector it was given then (cypher.LearnedLink.QueryVector), which
// is the same.
func (r *Retriever) learnedQueryVectors(ctx context.Context, run *run, links []cypher.LearnedLink) (map[string][]float32, error) {
	byQuery := map[string][]float32{run.trace.Query: run.qvec}
	var queries []string
	for _, l := range links {
		q := l.Edge.Query
		if _, ok := byQuery[q]; !ok && !l.Edge.QueryErased {
			byQuery[q] = nil // embedded below
			queries = append(queries, q)
		}
	}
	vecs, err := r.queryVectors(ctx, run.space, run.counts, queries)
	if err != nil {
		return nil, err
	}
	for i, q := range queries {
		byQuery[q] = vecs[i]
	}
	out := make(map[string][]float32, len(links))
	for _, l := range links {
		out[l.Edge.ID] = byQuery[l.Edge.Query]
		if l.Edge.QueryErased {
			out[l.Edge.ID] = l.QueryVector
		}
	}
	return out, nil
}

// QueryVectors embeds queries asked in space as recall embeds a query (queryVectors), one
// vector per query, in order: what a learned link keeps of its query once the text is
// erased (cypher.QueryVectors).
func (r *Retriever) QueryVectors(ctx context.Context, space string, queries []string) ([][]float32, error) {
	counts, err := r.store.SpaceCounts(ctx, space)
	if err != nil {
		return nil, err
	}
	return r.queryVectors(ctx, space, counts, queries)
}

// queryVectors embeds queries as the read path embeds a query (its focus plus WholeQuery
// times the whole question, see embedFocus), so that closeness compares two queries as
// recall sees them: the participants' names, in most questions of a conversation, do not
// make two questions close.
func (r *Retriever) queryVectors(ctx context.Context, space string, counts cypher.SpaceCounts, queries []string) ([][]float32, error) {
	var texts []string
	for _, q := range queries {
		f, err := r.focus(ctx, space, q, counts)
		if err != nil {
			return nil, err
		}
		texts = append(texts, q, f)
	}
	if len(texts) == 0 {
		return nil, nil
	}
	vecs, err := r.emb.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	out := make([][]float32, len(queries))
	for i := range queries {
		out[i] = vecs[2*i]
		if texts[2*i+1] != texts[2*i] {
			out[i] = r.focusVector(vecs[2*i+1], vecs[2*i])
		}
	}
	return out, nil
}
