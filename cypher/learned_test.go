package cypher_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// A space's Space node says whether it may hold learned links (learned.go): a new space
// holds none; an apply or an import that writes an edge with a query marks it (fixtures
// write none: fixtureEdgeRow); edges without one leave it; a space without a Space node is not known to hold none.
// LearnedLinks finds the link once the space is marked.
func TestLearnedLinksMarker(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	noneKnown := func(space string) bool {
		t.Helper()
		c, err := s.SpaceCounts(ctx, space)
		if err != nil {
			t.Fatal(err)
		}
		return c.NoLearnedLinks
	}
	newSpace := func() (string, []string) {
		t.Helper()
		space := cyphertest.NewSpace(t)
		t.Cleanup(func() { _, _ = s.DeleteSpace(context.WithoutCancel(ctx), space) })
		if err := s.PutScaleSpace(ctx, space, "test", cyphertest.Dims, 0, ""); err != nil {
			t.Fatal(err)
		}
		var nodes []realm.Node
		var ids []string
		for _, name := range []string{"a", "b", "c"} {
			ids = append(ids, space+":"+name)
			nodes = append(nodes, realm.Node{ID: space + ":" + name, Type: realm.Event, Name: name, Content: "memory " + name})
		}
		edge := realm.Edge{ID: uuid.NewString(), From: ids[0], To: ids[1], Predicate: realm.Precedes, Weight: 0.5}
		if err := s.PutMemories(ctx, space, nodes, []realm.Edge{edge}); err != nil {
			t.Fatal(err)
		}
		return space, ids
	}

	t.Run("Apply", func(t *testing.T) {
		space, ids := newSpace()
		if !noneKnown(space) {
			t.Fatal("a new space with an edge without a query is not known to hold no learned link")
		}
		plain := realm.EditProposal{From: ids[0], To: ids[2], Action: realm.EditAdd, Predicate: realm.Correlates, Confidence: 0.8}
		if _, err := s.ApplyEdits(ctx, space, batch("", plain)); err != nil {
			t.Fatal(err)
		}
		if !noneKnown(space) {
			t.Error("an add without a query marked the space as holding learned links")
		}
		learned := realm.EditProposal{From: ids[1], To: ids[2], Action: realm.EditAdd, Predicate: realm.Precedes, Confidence: 0.8,
			Query: "what came after b?", Label: realm.KeyEvidence}
		if _, err := s.ApplyEdits(ctx, space, batch("", learned)); err != nil {
			t.Fatal(err)
		}
		if noneKnown(space) {
			t.Fatal("an applied learned link left the space marked as holding none")
		}
		links, err := s.LearnedLinks(ctx, space, ids)
		if err != nil {
			t.Fatal(err)
		}
		if len(links) != 1 || links[0].Edge.Query != learned.Query || links[0].To.ID != ids[2] {
			t.Errorf("learned links %+v, want the one to c", links)
		}
	})

	t.Run("Import", func(t *testing.T) {
		for _, tt := range []struct {
			name  string
			query string
		}{{"Plain", ""}, {"Learned", "what came after a?"}} {
			space := cyphertest.NewSpace(t)
			t.Cleanup(func() { _, _ = s.DeleteSpace(context.WithoutCancel(ctx), space) })
			imp, err := s.BeginImport(ctx, space)
			if err != nil {
				t.Fatal(err)
			}
			var mems []cypher.ImportMemory
			for _, name := range []string{"a", "b"} {
				mems = append(mems, cypher.ImportMemory{Type: realm.Event, Props: map[string]any{"id": space + ":" + name, "type": "event", "name": name, "content": "memory " + name}})
			}
			props := map[string]any{"id": uuid.NewString(), "weight": 0.5}
			if tt.query != "" {
				props["query"], props["label"] = tt.query, string(realm.KeyEvidence)
			}
			err = imp.WriteMemories(ctx, mems)
			if err == nil {
				err = imp.WriteEdges(ctx, []cypher.ImportEdge{{From: space + ":a", To: space + ":b", Predicate: realm.Correlates, Props: props}})
			}
			if err == nil {
				// The file's own marker, however wrong, does not decide.
				err = imp.SetSpace(ctx, map[string]any{"summary": "", "learned_links": tt.query == ""}, "test", cyphertest.Dims)
			}
			if err == nil {
				err = imp.Finish(ctx)
			}
			if err != nil {
				imp.Abandon(ctx)
				t.Fatal(err)
			}
			if got := noneKnown(space); got != (tt.query == "") {
				t.Errorf("%s import: known to hold no learned link %v", tt.name, got)
			}
		}
	})

	t.Run("Fixture", func(t *testing.T) {
		space, ids := newSpace()
		link := realm.Edge{ID: uuid.NewString(), From: ids[0], To: ids[2], Predicate: realm.Precedes, Weight: 0.6,
			Query: "what goes with a?", Label: realm.KeyEvidence}
		if err := s.PutMemories(ctx, space, nil, []realm.Edge{link}); err != nil {
			t.Fatal(err)
		}
		if noneKnown(space) {
			t.Fatal("a fixture's learned link left the space marked as holding none")
		}
		links, err := s.LearnedLinks(ctx, space, ids)
		if err != nil {
			t.Fatal(err)
		}
		if len(links) != 1 || links[0].Edge.Query != link.Query || links[0].Edge.Label != link.Label {
			t.Errorf("learned links %+v, want the fixture's with its query and label", links)
		}
	})

	t.Run("NoSpaceNode", func(t *testing.T) {
		space := cyphertest.NewSpace(t)
		t.Cleanup(func() { _ = s.RemoveFixture(context.WithoutCancel(ctx), space) })
		if err := s.PutMemories(ctx, space, []realm.Node{{ID: space + ":a", Type: realm.Event, Name: "a", Content: "memory a"}}, nil); err != nil {
			t.Fatal(err)
		}
		if noneKnown(space) {
			t.Error("a space without a Space node is known to hold no learned link")
		}
	})
}
