package retrieval

import (
	"context"
	"slices"
	"sync"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
)

// filterExactMax is the most memories a session or time filter may match for the seed
// searches to score each of them (cypher.SeedQuery.Among): the top of a narrow filter's
// memories is then found whatever the space's size, at the cost of reading at most this
// many, about what an exact scan of a space of that size costs (DefaultOptions).
var filterExactMax = 1000

// filter is a recall's filters (realm.RecallFilters): only the memories matching them are
// returned and count toward K, and the seeds are drawn among them; expansion may pass
// through the others (a fact of the session reached through an entity of another) but
// never returns them.
type filter struct {
	set   bool
	types []realm.NodeType // nil: any
	// said is nil without a session or time filter; else the memories known said in them:
	// all of them when among is set, and when the filter matches more than
	// filterExactMax, those of the memories asked about (asked) that are.
	said  map[string]bool
	among []string             // a narrow filter's memories, all of them, the seeds' only candidates
	wide  *realm.RecallFilters // a filter matching more than filterExactMax: memories are asked about
	asked map[string]bool      // with wide, the memories asked about
	mu    sync.Mutex           // said and asked, which seed searches add to at once
	out   leftOut              // the memories met and left out
}

// applyFilters prepares the request's filters. The memories said in their sessions and
// times are read before the seeds, at most filterExactMax of them. When that is all of
// them the seed searches score each (Among) and ask for no more candidates than without
// filters. When there are more, the memories a search finds are asked about as they come
// (askSaid) and seed searches ask for more candidates in proportion to the share of the
// space they leave out, as for a question asked as of an earlier time (asOf). Types need
// no more: the seed searches ask for those types only.
func (r *Retriever) applyFilters(ctx context.Context, run *run, f *realm.RecallFilters) error {
	if !f.Set() {
		return nil
	}
	run.trace.Filters = f
	run.filter.set, run.filter.types = true, f.Types
	if !f.BySaying() {
		return nil
	}
	said, all, err := r.store.SaidBy(ctx, run.space, f, filterExactMax)
	if err != nil {
		return err
	}
	run.filter.said = said
	if all {
		run.filter.among = make([]string, 0, len(said))
		for id := range said {
			run.filter.among = append(run.filter.among, id)
		}
		slices.Sort(run.filter.among)
		return nil
	}
	run.filter.wide, run.filter.asked = f, map[string]bool{}
	run.seedLimit = max(run.seedLimit, r.seedsAmong(run.counts.InSpace, int64(len(said))))
	return nil
}

// askSaid learns, for a filter matching more memories than were read (wide), which of
// the memories ids are said in its sessions and times, so that matches can tell.
func (r *Retriever) askSaid(ctx context.Context, run *run, ids []string) error {
	f := &run.filter
	if f.wide == nil {
		return nil
	}
	f.mu.Lock()
	var ask []string
	for _, id := range ids {
		if !f.said[id] && !f.asked[id] {
			ask = append(ask, id)
		}
	}
	f.mu.Unlock()
	said, err := r.store.SaidAmong(ctx, run.space, f.wide, ask)
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, id := range ask {
		f.asked[id] = true
		if said[id] {
			f.said[id] = true
		}
	}
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
// With a wide filter, n must have been asked about (askSaid).
func (run *run) matches(n realm.Node) bool {
	f := &run.filter
	if f.types == nil || slices.Contains(f.types, n.Type) {
		f.mu.Lock()
		said := f.said == nil || f.said[n.ID]
		f.mu.Unlock()
		if said {
			return true
		}
	}
	f.out.add(n.ID)
	return false
}

// matching is ranked without the candidates the filters leave out.
func (r *Retriever) matching(ctx context.Context, run *run, ranked []*candidate) ([]*candidate, error) {
	if !run.filter.set {
		return ranked, nil
	}
	return keepAsked(ctx, r, run, ranked, func(c *candidate) realm.Node { return c.Node }, run.matches)
}

// eligible is found without the memories the space had not learned by the question's
// time and without those the filters leave out: the seeds a search may give.
func (r *Retriever) eligible(ctx context.Context, run *run, found []cypher.ScoredMemory) ([]cypher.ScoredMemory, error) {
	if run.learnedBy == nil && !run.filter.set {
		return found, nil
	}
	return keepAsked(ctx, r, run, found, func(s cypher.ScoredMemory) realm.Node { return s.Node },
		func(n realm.Node) bool { return run.known(n) && run.matches(n) })
}

// keepAsked is items without those whose node keep refuses, once a wide filter's sayings
// of those nodes are known (askSaid).
func keepAsked[T any](ctx context.Context, r *Retriever, run *run, items []T, node func(T) realm.Node, keep func(realm.Node) bool) ([]T, error) {
	if run.filter.wide != nil {
		ids := make([]string, len(items))
		for i, it := range items {
			ids[i] = node(it).ID
		}
		if err := r.askSaid(ctx, run, ids); err != nil {
			return nil, err
		}
	}
	return slices.DeleteFunc(items, func(it T) bool { return !keep(node(it)) }), nil
}
