package bench

import "math"

// RecallAtK is the share of the relevant ids found in the first k of ranked (binary
// relevance; duplicates in relevant count once). It returns false when nothing is
// relevant: the question has no evidence and is left out of the average.
func RecallAtK(ranked, relevant []string, k int) (float64, bool) {
	rel := lmeIDSet(relevant)
	if len(rel) == 0 {
		return 0, false
	}
	hit := 0
	for i, id := range ranked {
		if i >= k {
			break
		}
		if rel[id] {
			hit++
			delete(rel, id) // a ranking with repeats counts each relevant id once
		}
	}
	return float64(hit) / float64(len(lmeIDSet(relevant))), true
}

// NDCGAtK is the normalised discounted cumulative gain of the first k of ranked with
// binary relevance: DCG = Σ rel_i / log2(i+2) over ranks i = 0…k−1, divided by the DCG of
// an ideal ranking (every relevant id first). False when nothing is relevant.
func NDCGAtK(ranked, relevant []string, k int) (float64, bool) {
	rel := lmeIDSet(relevant)
	if len(rel) == 0 {
		return 0, false
	}
	var dcg, ideal float64
	for i := 0; i < min(k, len(rel)); i++ {
		ideal += 1 / math.Log2(float64(i+2))
	}
	for i, id := range ranked {
		if i >= k {
			break
		}
		if rel[id] {
			dcg += 1 / math.Log2(float64(i+2))
			delete(rel, id)
		}
	}
	return dcg / ideal, true
}

func lmeIDSet(ids []string) map[string]bool {
	m := make(map[string]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}

// RankUnits turns the provenance of recalled nodes, best first, into a ranking of units
// (turns, or the sessions of unit): each node contributes the units of its sources not
// seen before, in source order. A node whose sources span more than MaxEvidenceSources
// units is context, not evidence (REALM.md §6), and contributes nothing. unit maps an
// observation id to its unit; "" leaves the source out.
func RankUnits(sources [][]string, unit func(string) string) []string {
	var out []string
	seen := map[string]bool{}
	for _, src := range sources {
		units := map[string]bool{}
		var ordered []string
		for _, s := range src {
			u := unit(s)
			if u == "" || units[u] {
				continue
			}
			units[u] = true
			ordered = append(ordered, u)
		}
		if len(ordered) > MaxEvidenceSources {
			continue
		}
		for _, u := range ordered {
			if !seen[u] {
				seen[u] = true
				out = append(out, u)
			}
		}
	}
	return out
}

// LMERetrieval is one question's retrieval scores at k.
type LMERetrieval struct {
	SessionRanking []string `json:"session_ranking"` // the first k sessions
	TurnRanking    []string `json:"turn_ranking"`    // the first k turns
	SessionRecall  float64  `json:"session_recall"`
	SessionNDCG    float64  `json:"session_ndcg"`
	TurnRecall     float64  `json:"turn_recall"`
	TurnNDCG       float64  `json:"turn_ndcg"`
	SessionScored  bool     `json:"session_scored"` // the item has answer sessions
	TurnScored     bool     `json:"turn_scored"`    // the item has has_answer turns
	ContextTokens  int      `json:"context_tokens"` // Tokens of the returned texts, one per line
}

// ScoreLMERetrieval scores the recalled nodes' provenance (best first) against an item's
// evidence: sessions relevant when listed in answer_session_ids, turns when marked
// has_answer. sessionOf maps an observation id to its session id. Abstention items have
// no evidence to find and are not scored (both Scored false).
func ScoreLMERetrieval(it LMEItem, sources [][]string, sessionOf map[string]string, k int) LMERetrieval {
	turnOf := func(id string) string {
		if _, ok := sessionOf[id]; ok {
			return id
		}
		return ""
	}
	r := LMERetrieval{
		SessionRanking: lmeFirstK(RankUnits(sources, func(id string) string { return sessionOf[id] }), k),
		TurnRanking:    lmeFirstK(RankUnits(sources, turnOf), k),
	}
	if it.Abstention() {
		return r
	}
	r.SessionRecall, r.SessionScored = RecallAtK(r.SessionRanking, it.AnswerSessionIDs, k)
	r.SessionNDCG, _ = NDCGAtK(r.SessionRanking, it.AnswerSessionIDs, k)
	gold := it.EvidenceTurns()
	r.TurnRecall, r.TurnScored = RecallAtK(r.TurnRanking, gold, k)
	r.TurnNDCG, _ = NDCGAtK(r.TurnRanking, gold, k)
	return r
}

func lmeFirstK(xs []string, k int) []string {
	if len(xs) > k {
		xs = xs[:k]
	}
	if xs == nil {
		xs = []string{}
	}
	return xs
}
