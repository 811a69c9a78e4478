package construction

import (
	"context"
	"slices"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/cypher"
)

// endReplaced adds to out what o, a new version of the message it replaces (o.Replaces:
// an edited note sent again), ends: each event and fact that message alone holds up and
// that still holds, unless o says it again (a candidate of o merged into it or skipped as
// its repeat), holds until o was said, superseded by the memory o adds that is most
// similar to it (newVersion; none when o adds no event or fact: its validity ends alone). A
// memory another message also holds up stays: that one still says it. It is written as
// a correction or a change said in words is (correct.go, validityEnd): an end of
// validity and a supersedes edge, so that recall ranks the new version first and keeps
// the old one for questions about the past. cands are o's candidates with their
// neighbours, nodeIDs the memory each became ("" when skipped).
func (p *Pipeline) endReplaced(ctx context.Context, o realm.Observation, out *cypher.Integration, cands []agent.CandidateContext, nodeIDs []string) error {
	if o.Replaces == "" {
		return nil
	}
	old, err := p.store.ReplacedMemories(ctx, o.Space, o.Replaces)
	if err != nil {
		return err
	}
	said := slices.Clone(out.Repeats)
	for _, m := range out.Merges {
		said = append(said, m.ID)
	}
	for _, m := range old {
		if slices.Contains(said, m.ID) {
			continue
		}
		out.Ends = append(out.Ends, cypher.ValidityEnd{ID: m.ID, ValidUntil: o.ObservedAt})
		from := newVersion(m.ID, out.Adds, cands, nodeIDs)
		if from == "" || slices.ContainsFunc(out.Edges, func(e cypher.EdgeWrite) bool { return e.To == m.ID && e.Predicate == realm.Supersedes }) {
			continue // none added, or the agent found its new version itself
		}
		out.Edges = append(out.Edges, cypher.EdgeWrite{
			Op: cypher.EdgeAdd, From: from, To: m.ID, Predicate: realm.Supersedes, Weight: correctionWeight, Confidence: correctionWeight,
			Description: "replaced by message " + o.ID + ": " + shortened(m.Content, 120),
		})
	}
	return nil
}

// newVersion is the memory among adds most similar to memory id, of those whose
// candidate (cands, which became nodeIDs) has it among its neighbours, else the first
// event or fact of adds (the new version of the message, when it is one memory), so
// that forgetting o gives memory id back its validity (observation_delete_memories.cypher);
// "" for none.
func newVersion(id string, adds []realm.Node, cands []agent.CandidateContext, nodeIDs []string) string {
	best, sim := "", -2.0
	if i := slices.IndexFunc(adds, func(n realm.Node) bool { return slices.Contains(correctedTypes, n.Type) }); i >= 0 {
		best = adds[i].ID
	}
	for i, c := range cands {
		if !slices.ContainsFunc(adds, func(n realm.Node) bool { return n.ID == nodeIDs[i] }) {
			continue
		}
		for _, nb := range c.Neighbours {
			if nb.Node.ID == id && nb.Similarity > sim {
				best, sim = nodeIDs[i], nb.Similarity
			}
		}
	}
	return best
}
