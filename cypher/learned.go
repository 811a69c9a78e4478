package cypher

import (
	"context"
	_ "embed"
	"fmt"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm"
)

var (
	//go:embed queries/learned_links.cypher
	learnedLinksCypher string
	qLearnedLinks      = newQuery("learned_links", learnedLinksCypher)

	//go:embed queries/learned_expiring.cypher
	learnedExpiringCypher string
	qLearnedExpiring      = newQuery("learned_expiring", learnedExpiringCypher)

	//go:embed queries/learned_erase.cypher
	learnedEraseCypher string
	qLearnedErase      = newQuery("learned_erase", learnedEraseCypher)
)

// LearnedLink is a learned link (realm.Edge.Learned) and the memory it leads to.
// QueryVector is, once the link's query's text is erased (Edge.QueryErased), the query's
// vector as recall embedded it then (ExpireTraces), which recall compares in its place.
type LearnedLink struct {
	Edge        realm.Edge
	To          realm.Node
	QueryVector []float32
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
		edge := propsOf(r, "edge")
		out = append(out, LearnedLink{Edge: edgeFromProps(edge), To: nodeOf(propsOf(r, "node")), QueryVector: vector32(edge["query_embedding"])})
	}
	return out, nil
}

// QueryVectors embeds queries asked in a space as recall embeds a query, one vector per
// query, in order (retrieval.Retriever.QueryVectors).
type QueryVectors func(ctx context.Context, space string, queries []string) ([][]float32, error)

// erasedQueryDescription is a learned link's description, which quoted its query, once
// the query's text is erased.
const erasedQueryDescription = "learned for an earlier query, whose text is erased past the trace retention"

// eraseLearnedQueries erases the query's text of the learned links added from the traces
// created before cutoff or gone already (learned_expiring, learned_erase), a batch a read, each space's
// links of a batch in one transaction: each keeps, in place of the text, the query's
// vector as embed gives it, so that it acts on the same later queries as before
// (retrieval/consolidate.go).
func (s *Store) eraseLearnedQueries(ctx context.Context, cutoff time.Time, embed QueryVectors) error {
	for {
		recs, err := s.read(ctx, qLearnedExpiring, map[string]any{"cutoff": cutoff, "batch": int64(traceExpireBatch)})
		if err != nil {
			return err
		}
		links := map[string][]map[string]any{} // per space
		var spaces []string
		for _, r := range recs {
			space := str(r, "space")
			if links[space] == nil {
				spaces = append(spaces, space)
			}
			links[space] = append(links[space], linkToErase(r))
		}
		for _, space := range spaces {
			if err := s.eraseLinkQueries(ctx, space, links[space], embed); err != nil {
				return err
			}
		}
		if len(recs) < traceExpireBatch {
			return nil
		}
	}
}

// linkToErase is a learned link as learned_expiring and about_trace_links return it, as
// learned_erase reads it.
func linkToErase(r *neo4j.Record) map[string]any {
	return map[string]any{"from": str(r, "from"), "to": str(r, "to"), "type": str(r, "type"), "edge_id": str(r, "edge_id"), "query": str(r, "query")}
}

// eraseLinkQueries gives the links of one space the vectors of their queries and erases
// the text (learned_erase).
func (s *Store) eraseLinkQueries(ctx context.Context, space string, links []map[string]any, embed QueryVectors) error {
	var queries []string
	at := map[string]int{}
	for _, l := range links {
		q := l["query"].(string)
		if _, ok := at[q]; !ok {
			at[q] = len(queries)
			queries = append(queries, q)
		}
	}
	vecs, err := embed(ctx, space, queries)
	if err != nil {
		return fmt.Errorf("embed the queries of learned links to erase: %w", err)
	}
	if len(vecs) != len(queries) {
		return fmt.Errorf("embed the queries of learned links to erase: %d vectors for %d queries", len(vecs), len(queries))
	}
	for _, l := range links {
		l["vector"] = vector64(vecs[at[l["query"].(string)]])
	}
	_, err = s.write(ctx, qLearnedErase, map[string]any{"space": space, "links": links, "description": erasedQueryDescription})
	return err
}
