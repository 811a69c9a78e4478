package retrieval

import (
	"context"
	"slices"

	"github.com/realm-memory/realm"
)

// filter is a recall's filters (realm.RecallFilters): only the memories matching them are
// returned and count toward K, and the seeds are drawn among them; expansion may pass
// through the others (a fact of the session reached through an entity of another) but
// never returns them.
type filter struct {
	set   bool
	types []realm.NodeType // nil: any
	said  map[string]bool  // nil: no session or time filter; else the memories said in them
	out   leftOut          // the memories met and left out
}

// applyFilters prepares the request's filters. The memories said in their sessions and
// times are read once, before the seeds, and seed searches ask for more candidates in
// proportion to the share of the space they leave out, as for a question asked as of an
// earlier time (asOf). Types need no more: the seed searches ask for those types only.
func (r *Retriever) applyFilters(ctx context.Context, run *run, f *realm.RecallFilters) error {
	if !f.Set() {
		return nil
	}
	run.trace.Filters = f
	run.filter.set, run.filter.types = true, f.Types
	if !f.BySaying() {
		return nil
	}
	said, err := r.store.SaidBy(ctx, run.space, f.SessionIDs, f.SaidSince, f.SaidUntil)
	if err != nil {
		return err
	}
	run.filter.said = said
	run.seedLimit = max(run.seedLimit, r.seedsAmong(run.counts.InSpace, int64(len(said))))
	return nil
}

// none reports whether the filters leave no memory at all: the recall seeds nothing.
func (f *filter) none() bool { return f.said != nil && len(f.said) == 0 }

// seedTypes is the types a seed search asks for: the plan's that the filters allow, or,
// when the plan asks for none of those, the filters'.
func (f *filter) seedTypes(plan []realm.NodeType) []realm.NodeType {
	if f.types == nil {
		return plan
	}
	var both []realm.NodeType
	for _, t := range plan {
		if slices.Contains(f.types, t) {
			both = append(both, t)
		}
	}
	if len(both) == 0 {
		return f.types
	}
	return both
}

// matches reports whether n matches the filters, and records n as left out when not.
func (run *run) matches(n realm.Node) bool {
	f := &run.filter
	if (f.types == nil || slices.Contains(f.types, n.Type)) && (f.said == nil || f.said[n.ID]) {
		return true
	}
	f.out.add(n.ID)
	return false
}

// matching is ranked without the candidates the filters leave out.
func (run *run) matching(ranked []*candidate) []*candidate {
	if !run.filter.set {
		return ranked
	}
	return slices.DeleteFunc(ranked, func(c *candidate) bool { return !run.matches(c.Node) })
}
