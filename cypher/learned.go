package cypher

import (
	"context"
	_ "embed"

	"github.com/realm-memory/realm"
)

var (
	//go:embed queries/learned_links.cypher
	learnedLinksCypher string
	qLearnedLinks      = newQuery("learned_links", learnedLinksCypher)
)

// LearnedLink is a learned link (realm.Edge.Query set) and the memory it leads to.
type LearnedLink struct {
	Edge realm.Edge
	To   realm.Node
}

// LearnedLinks returns the learned links with an end among ids, within the space, each
// once (REALM.md §4 "ours"; retrieval/consolidate.go). It reads every memory edge of each
// memory of ids (a speaker's entity at 100,000 memories has 40,000), so a recall first asks
// SpaceCounts.NoLearnedLinks: the Space node's learned_links is false while the space holds
// none. A new space starts with it false (space_ensure_lock, import_begin, scale_space),
// migration 0022 set it on the spaces before, and every statement that can write an edge
// with a query sets it to true (edit_batch, import_edges, fixture_edges, scale_edges;
// TestLearnedLinksMarked; an import keeps its own, not the file's: import_props); nothing
// sets it back, so true means "may hold some". A space without a Space node is read.
func (s *Store) LearnedLinks(ctx context.Context, space string, ids []string) ([]LearnedLink, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	recs, err := s.read(ctx, qLearnedLinks, map[string]any{"space": space, "ids": ids, "types": relTypes(realm.Predicates)})
	if err != nil {
		return nil, err
	}
	out := make([]LearnedLink, 0, len(recs))
	for _, r := range recs {
		out = append(out, LearnedLink{Edge: edgeFromProps(propsOf(r, "edge")), To: nodeOf(propsOf(r, "node"))})
	}
	return out, nil
}
