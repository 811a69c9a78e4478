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
// once (REALM.md §4 "ours"; retrieval/consolidate.go).
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
