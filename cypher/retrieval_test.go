package cypher_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

func TestEscapeLucene(t *testing.T) {
	tests := []struct{ in, want string }{
		{"berlin", "berlin"},
		{`c++ (x) a:b "q" \ / * ? ~ ^ ! { } [ ] | &`, `c\+\+ \(x\) a\:b \"q\" \\ \/ \* \? \~ \^ \! \{ \} \[ \] \| \&`},
		{"cats AND dogs OR NOT birds", "cats and dogs or not birds"},
		{"  spaced   out ", "spaced out"},
	}
	for _, tt := range tests {
		if got := cypher.EscapeLucene(tt.in); got != tt.want {
			t.Errorf("EscapeLucene(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPutMemories(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	a, b := cyphertest.NewSpace(t), cyphertest.NewSpace(t)
	t.Cleanup(func() { s.RemoveFixture(ctx, a); s.RemoveFixture(ctx, b) })
	node := func(space, id string) realm.Node {
		v := make([]float32, cyphertest.Dims)
		v[0] = 1
		return realm.Node{ID: space + id, Type: realm.Fact, Content: "x", Embedding: v}
	}
	if err := s.PutMemories(ctx, a, []realm.Node{node(a, "1"), node(a, "2")}, []realm.Edge{
		{ID: a + "e", From: a + "1", To: a + "2", Predicate: realm.Correlates, Weight: 0.5},
	}); err != nil {
		t.Fatal(err)
	}
	t.Run("SymmetricReverse", func(t *testing.T) {
		edges, err := s.InducedEdges(ctx, a, []string{a + "1", a + "2"})
		if err != nil || len(edges) != 2 {
			t.Fatalf("edges %v, %v; want the edge and its reverse", edges, err)
		}
	})
	t.Run("ErrOtherSpaceNode", func(t *testing.T) {
		if err := s.PutMemories(ctx, b, []realm.Node{{ID: b + "1", Space: a, Type: realm.Fact}}, nil); realm.ErrorCode(err) != realm.EInvalid {
			t.Errorf("got %v, want invalid", err)
		}
	})
	t.Run("ErrEdgeAcrossSpaces", func(t *testing.T) {
		if err := s.PutMemories(ctx, b, []realm.Node{node(b, "1")}, []realm.Edge{
			{ID: b + "e", From: b + "1", To: a + "1", Predicate: realm.Implies, Weight: 0.5},
		}); err == nil {
			t.Error("an edge into another space was written")
		}
	})
	t.Run("ReadsFilterBySpace", func(t *testing.T) {
		nodes, err := s.MemoriesByIDs(ctx, b, []string{a + "1"})
		if err != nil || len(nodes) != 0 {
			t.Errorf("space b read %v of space a (%v)", nodes, err)
		}
		adj, err := s.Adjacent(ctx, b, []string{a + "1"}, realm.Predicates, 0)
		if err != nil || len(adj) != 0 {
			t.Errorf("space b expanded %v of space a (%v)", adj, err)
		}
		if _, err := s.Trace(ctx, b, "no-such-trace"); realm.ErrorCode(err) != realm.ENotFound {
			t.Errorf("got %v, want not found", err)
		}
	})
}

// CommonNames: an entity named in at least the share and the minimum of the space's
// observations is common; one named rarely, or an event, is not; other spaces don't count.
func TestCommonNames(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space, other := cyphertest.NewSpace(t), cyphertest.NewSpace(t)
	t.Cleanup(func() { s.RemoveFixture(ctx, space); s.RemoveFixture(ctx, other) })
	var obs []realm.Observation
	var all []string
	for i := range 40 {
		id := fmt.Sprintf("o%d", i)
		obs = append(obs, realm.Observation{ID: id, Content: "turn", ObservedAt: time.Now()})
		all = append(all, id)
	}
	lease := cypher.Lease{Owner: "t", Until: time.Now().Add(time.Minute)}
	if _, err := s.SaveObservations(ctx, space, "test", cyphertest.Dims, obs, lease); err != nil {
		t.Fatal(err)
	}
	nodes := []realm.Node{
		{ID: space + "ana", Type: realm.Entity, Name: "Ana", Aliases: []string{"Annie"}, Sources: all[:30]},
		{ID: space + "bo", Type: realm.Entity, Name: "Bo", Sources: all[:3]},
		{ID: space + "ev", Type: realm.Event, Name: "Event", Sources: all},
	}
	if err := s.PutMemories(ctx, space, nodes, nil); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		space string
		share float64
		min   int
		want  []string
	}{
		{"OK", space, 0.5, 20, []string{"Ana", "Annie"}},
		{"ShareTooHigh", space, 0.8, 20, nil},
		{"MinTooHigh", space, 0.1, 31, nil},
		{"OtherSpace", other, 0.1, 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.CommonNames(ctx, tt.space, tt.share, tt.min)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
