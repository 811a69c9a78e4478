package bench

import "math"

// MaxEvidenceSources is the most observations a returned node may derive from and still
// count as evidence (REALM.md §6): a summary or episode spanning a session is context.
const MaxEvidenceSources = 3

// EvidenceRecall is the share of gold evidence ids covered by the first k returned nodes,
// each given by its provenance (the observation ids it derives from), in rank order. A
// node derived from more than MaxEvidenceSources observations covers nothing. It returns
// false when there is no gold evidence (the question is left out of the average).
func EvidenceRecall(gold []string, sources [][]string, k int) (float64, bool) {
	if len(gold) == 0 {
		return 0, false
	}
	covered := map[string]bool{}
	for i, src := range sources {
		if i >= k {
			break
		}
		if len(src) > MaxEvidenceSources {
			continue
		}
		for _, id := range src {
			covered[id] = true
		}
	}
	hit := 0
	for _, id := range gold {
		if covered[id] {
			hit++
		}
	}
	return float64(hit) / float64(len(gold)), true
}

// Tokens estimates the LLM tokens of a text as one per four bytes, the usual rule of
// thumb for English with GPT tokenizers; it is used to compare context sizes, not to bill.
func Tokens(text string) int {
	return int(math.Ceil(float64(len(text)) / 4))
}
