package construction

import (
	"context"
	"slices"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/cypher"
)

// A new session's episode follows the episode before it (precedes), and what is said in a
// session is contextualized by the session's episode. Both episodes are read directly
// and given to the agent among the candidate's neighbours: the most similar or recent
// memories need not hold them once a space has more sessions than N_sim finds, or a
// session more turns than N_recent spans.

// storedEpisodes reads the episode each candidate of ext (extracted from o) is given
// among its neighbours (nil for the others): see episodeQuery.
func (p *Pipeline) storedEpisodes(ctx context.Context, o realm.Observation, ext agent.Extraction) ([]*realm.Node, error) {
	times, names, at := episodeQuery([]realm.Observation{o}, []agent.Extraction{ext})
	found, err := p.store.Episodes(ctx, o.Space, times, names)
	if err != nil {
		return nil, err
	}
	return perCandidate(ext.Candidates, at, found), nil
}

// episodeQuery is what Store.Episodes is asked for the candidates of exts (those of
// exts[k] extracted from obs[k]): for an episode candidate with a time, the episode before
// it; for any other candidate but an entity, its session's episode, unless its
// observation's candidates hold that episode. at is, per candidate, the index of its
// answer in times or names (-1: none).
func episodeQuery(obs []realm.Observation, exts []agent.Extraction) (times []time.Time, names []string, at []int) {
	for k, ext := range exts {
		session := obs[k].Session()
		if slices.ContainsFunc(ext.Candidates, func(c agent.Candidate) bool { return c.Type == realm.Episode && c.Name == session }) {
			session = ""
		}
		for _, c := range ext.Candidates {
			switch {
			case c.Type == realm.Episode && c.TStart != nil:
				at = append(at, len(times))
				times = append(times, *c.TStart)
			case c.Type != realm.Episode && c.Type != realm.Entity && session != "":
				i := slices.Index(names, session)
				if i < 0 {
					i = len(names)
					names = append(names, session)
				}
				at = append(at, i)
			default:
				at = append(at, -1)
			}
		}
	}
	return times, names, at
}

// perCandidate places the episodes found for episodeQuery at their candidates (nil for
// the others).
func perCandidate(cands []agent.Candidate, at []int, found cypher.Episodes) []*realm.Node {
	out := make([]*realm.Node, len(cands))
	for i, c := range cands {
		switch {
		case at[i] < 0:
		case c.Type == realm.Episode:
			out[i] = found.Before[at[i]]
		default:
			out[i] = found.Named[at[i]]
		}
	}
	return out
}

// withEpisodes is hoods with each candidate's episode (storedEpisodes) among its neighbours.
func withEpisodes(hoods [][]cypher.CandidateNeighbour, eps []*realm.Node) [][]cypher.CandidateNeighbour {
	out := slices.Clone(hoods)
	for i := range out {
		out[i] = withNeighbour(hoods[i], eps[i])
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

// episode is the episode candidate c of a run is given among its neighbours, as the run
// so far leaves the space: for an episode, the one before it; for a memory said in
// session (asked: episodeQuery asked for it), the session's. stored is the one read
// before the run.
func (ov *overlay) episode(c agent.Candidate, session string, asked bool, stored *realm.Node) *realm.Node {
	switch {
	case c.Type == realm.Episode:
		return ov.previousEpisode(c, stored)
	case asked:
		return ov.sessionEpisode(session, stored)
	}
	return nil
}

// sessionEpisode is the episode of session: stored (as the run leaves it), or the first
// the run added.
func (ov *overlay) sessionEpisode(session string, stored *realm.Node) *realm.Node {
	if stored != nil {
		n := ov.state(*stored)
		return &n
	}
	for _, id := range ov.order {
		if n := ov.nodes[id]; n.Type == realm.Episode && n.Name == session {
			return &n
		}
	}
	return nil
}

// previousEpisode is the episode before candidate c: stored (as the run leaves it), or
// one the run added that starts later.
func (ov *overlay) previousEpisode(c agent.Candidate, stored *realm.Node) *realm.Node {
	if c.TStart == nil {
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

// startsLater orders episodes as episodes.cypher does: the later start, then the
// smaller id.
func startsLater(a, b realm.Node) bool {
	return a.TStart.After(*b.TStart) || a.TStart.Equal(*b.TStart) && a.ID < b.ID
}
