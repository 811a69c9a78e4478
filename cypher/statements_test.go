package cypher_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// A profiling statement log records each statement's database hits and rows from Neo4j's
// PROFILE, and the statement's answer is the one it gives unprofiled.
func TestStatementProfile(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	t.Cleanup(func() { s.RemoveFixture(ctx, space) })
	var nodes []realm.Node
	var edges []realm.Edge
	for i := range 4 {
		nodes = append(nodes, realm.Node{ID: fmt.Sprintf("%sn%d", space, i), Type: realm.Fact, Content: fmt.Sprint(i)})
		if i > 0 {
			edges = append(edges, realm.Edge{ID: fmt.Sprintf("%se%d", space, i), From: nodes[i-1].ID, To: nodes[i].ID, Predicate: realm.Correlates, Weight: 0.5})
		}
	}
	if err := s.PutMemories(ctx, space, nodes, edges); err != nil {
		t.Fatal(err)
	}
	paths := func(ctx context.Context) []string {
		ps, _, err := s.Paths(ctx, space, nodes[0].ID, realm.Predicates, 0.1, 3, 10, cypher.ExpandScoring{}, 0.6, 0.4)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range ps {
			out = append(out, fmt.Sprint(p.IDs))
		}
		return out
	}
	plain := paths(ctx)
	pctx, log := cypher.WithStatementProfile(ctx)
	profiled := paths(pctx)
	if len(plain) == 0 || !slices.Equal(plain, profiled) {
		t.Errorf("paths %v unprofiled, %v profiled; want the same paths", plain, profiled)
	}
	if len(log.Statements) != 1 || log.Statements[0].Name != "expand_paths" || log.Statements[0].DBHits <= 0 || log.Statements[0].Rows <= 0 {
		t.Errorf("profiled statements %+v, want expand_paths with database hits and rows", log.Statements)
	}
	_, plainLog := cypher.WithStatementLog(ctx)
	if plainLog.Statements != nil {
		t.Errorf("a new log holds %v", plainLog.Statements)
	}
}
