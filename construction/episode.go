package construction

import (
	"context"
	"slices"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/cypher"
)

// A new session's episode follows the episode before it (precedes). That episode is read
// directly, and given to the agent among the candidate's neighbours: the most similar or
// recent memories need not hold it once a space has more sessions than N_sim finds.

// previousEpisodes reads, for each episode candidate of cands that has a time, the stored
// episode that starts last among those ending before it (nil for the others).
func (p *Pipeline) previousEpisodes(ctx context.Context, space string, cands []agent.Candidate) ([]*realm.Node, error) {
	times, of := episodeTimes(cands)
	if len(times) == 0 {
		return make([]*realm.Node, len(cands)), nil
	}
	found, err := p.store.EpisodesBefore(ctx, space, times)
	if err != nil {
		return nil, err
	}
	return perCandidate(len(cands), of, found), nil
}

// episodeTimes are the start times of the episode candidates of cands that have one,
// and the candidate of each.
func episodeTimes(cands []agent.Candidate) (times []time.Time, of []int) {
	for i, c := range cands {
		if c.Type == realm.Episode && c.TStart != nil {
			times = append(times, *c.TStart)
			of = append(of, i)
		}
	}
	return times, of
}

// perCandidate places the previous episodes found for the times of episodeTimes at
// their candidates among n (nil for the others).
func perCandidate(n int, of []int, found []*realm.Node) []*realm.Node {
	prev := make([]*realm.Node, n)
	for k, i := range of {
		prev[i] = found[k]
	}
	return prev
}

// withPrevious is hoods with each candidate's previous episode among its neighbours.
func withPrevious(hoods [][]cypher.CandidateNeighbour, prev []*realm.Node) [][]cypher.CandidateNeighbour {
	out := slices.Clone(hoods)
	for i := range out {
		out[i] = withNeighbour(hoods[i], prev[i])
	}
	return out
}

// withNeighbour is hood with n (when not nil) among its neighbours.
func withNeighbour(hood []cypher.CandidateNeighbour, n *realm.Node) []cypher.CandidateNeighbour {
	if n == nil || slices.ContainsFunc(hood, func(nb cypher.CandidateNeighbour) bool { return nb.Node.ID == n.ID }) {
		return hood
	}
	return append(slices.Clone(hood), cypher.CandidateNeighbour{Node: *n})
}

// previousEpisode is the episode before candidate c as the run so far leaves the space:
// stored, the one read before the run (as the run leaves it), or one the run added.
func (ov *overlay) previousEpisode(c agent.Candidate, stored *realm.Node) *realm.Node {
	if c.Type != realm.Episode || c.TStart == nil {
		return nil
	}
	var best *realm.Node
	if stored != nil {
		n := ov.state(*stored)
		best = &n
	}
	for _, id := range ov.order {
		n := ov.nodes[id]
		if n.Type == realm.Episode && n.TStart != nil && n.TEnd != nil && n.TEnd.Before(*c.TStart) && (best == nil || startsLater(n, *best)) {
			best = &n
		}
	}
	return best
}

// startsLater orders episodes as episode_before.cypher does: the later start, then the
// smaller id.
func startsLater(a, b realm.Node) bool {
	return a.TStart.After(*b.TStart) || a.TStart.Equal(*b.TStart) && a.ID < b.ID
}
