package retrieval

import (
	"strings"

	"github.com/realm-memory/realm/internal/text"
)

// keepRarest keeps in the top K a seed holding the question's rarest word. Similarity
// weighs every word of a question alike, and the full-text match that found the seed
// weighs only SeedShare of its relevance: "Met Jonas at Hooli about the renewal" is closer
// to "Who did I meet in Boston?" than the one note that names Boston, and a dozen such
// notes push it out. The rarest word is the keyword of the plans held by the fewest events
// and facts gathered (at least one): the one that tells them apart. When none of the
// events and facts ranked within the first K holds it, the best seed holding it takes the
// place of the K-th, with its score (it ranks as the node whose place it takes).
func (run *run) keepRarest(ranked []*candidate) []*candidate {
	var terms []string
	for _, p := range run.plans {
		for _, k := range p.Keywords {
			for _, w := range text.Words(k) {
				terms = append(terms, text.Stem(w))
			}
		}
	}
	if len(terms) == 0 {
		return ranked // nothing to stem the candidates for
	}
	holders := map[string][]int{} // term → the positions of the events and facts holding it
	slot, evidence := -1, 0       // slot: the position of the K-th event or fact
	for i, c := range ranked {
		if isHub(c) {
			continue
		}
		if evidence++; evidence == run.set.K {
			slot = i
		}
		words := stems(c.Node.Content + " " + strings.Join(c.Node.Keywords, " "))
		for _, t := range terms {
			if words[t] {
				holders[t] = append(holders[t], i)
			}
		}
	}
	rarest := ""
	for _, t := range terms {
		if n := len(holders[t]); n > 0 && (rarest == "" || n < len(holders[rarest])) {
			rarest = t
		}
	}
	if slot < 0 || rarest == "" || holders[rarest][0] <= slot {
		return ranked
	}
	for _, i := range holders[rarest] {
		if ranked[i].Depth > 0 {
			continue
		}
		kept := *ranked[i]
		kept.Score = ranked[slot].Score
		out := append(append(append([]*candidate{}, ranked[:slot]...), &kept), ranked[slot:i]...)
		return append(out, ranked[i+1:]...)
	}
	return ranked
}

// stems is the set of the stemmed words of s.
func stems(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range text.Words(s) {
		out[text.Stem(w)] = true
	}
	return out
}
