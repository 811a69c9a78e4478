package cypher_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestSaidByBoundedAndAmong: SaidBy reads at most its limit of the memories said in a
// session and says when there are more; SaidAmong tells which memories given are said
// in it; SeedAmong and SeedByFullText with Among return only those memories, best first.
func TestSaidByBoundedAndAmong(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	t.Cleanup(func() { _, _ = s.DeleteSpace(context.WithoutCancel(ctx), space) })
	if err := s.PutScaleSpace(ctx, space, "test", cyphertest.Dims, 12, ""); err != nil {
		t.Fatal(err)
	}
	// Sessions s0, s1, s2 of four messages each, an event per message (on axis i of the
	// vectors, the word "garden" in each) and an episode per session said by its four.
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	var obs []realm.Observation
	var nodes []realm.Node
	said := map[string][]string{} // session → the ids of the memories said in it
	for i := range 12 {
		session := fmt.Sprintf("s%d", i/4)
		o := realm.Observation{ID: fmt.Sprintf("m%d", i), SessionID: session, Speaker: "user", Content: fmt.Sprintf("garden note %d", i), ObservedAt: start.Add(time.Duration(i) * time.Hour), Seq: int64(i + 1)}
		obs = append(obs, o)
		v := make([]float32, cyphertest.Dims)
		v[i] = 1
		n := realm.Node{ID: fmt.Sprintf("%s:e%d", space, i), Type: realm.Event, Name: o.ID, Content: o.Content, Embedding: v, Sources: []string{o.ID}}
		nodes = append(nodes, n)
		said[session] = append(said[session], n.ID)
	}
	for j := range 3 {
		session := fmt.Sprintf("s%d", j)
		v := make([]float32, cyphertest.Dims)
		v[100] = 1
		n := realm.Node{ID: fmt.Sprintf("%s:%s", space, session), Type: realm.Episode, Name: session, Content: "a session", Embedding: v,
			Sources: []string{obs[4*j].ID, obs[4*j+1].ID, obs[4*j+2].ID, obs[4*j+3].ID}}
		nodes = append(nodes, n)
		said[session] = append(said[session], n.ID)
	}
	if err := s.PutScaleObservations(ctx, space, obs); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutScaleMemories(ctx, space, nodes); err != nil {
		t.Fatal(err)
	}
	s1 := &realm.RecallFilters{SessionIDs: []string{"s1"}}

	ids, all, err := s.SaidBy(ctx, space, s1, 5)
	if err != nil || !all || !slices.Equal(slices.Sorted(maps.Keys(ids)), slices.Sorted(slices.Values(said["s1"]))) {
		t.Errorf("SaidBy s1, limit 5: %v (all %v, %v), want %v, all", ids, all, err, said["s1"])
	}
	ids, all, err = s.SaidBy(ctx, space, s1, 3)
	if err != nil || all || len(ids) != 3 {
		t.Errorf("SaidBy s1, limit 3: %v (all %v, %v), want 3 and not all", ids, all, err)
	}
	for id := range ids {
		if !slices.Contains(said["s1"], id) {
			t.Errorf("SaidBy s1 returns %s", id)
		}
	}
	since := start.Add(7 * time.Hour) // m7 (s1) to m8 (s2)
	until := start.Add(8 * time.Hour)
	ids, all, err = s.SaidBy(ctx, space, &realm.RecallFilters{SaidSince: &since, SaidUntil: &until}, 10)
	want := []string{space + ":e7", space + ":e8", space + ":s1", space + ":s2"}
	if err != nil || !all || !slices.Equal(slices.Sorted(maps.Keys(ids)), want) {
		t.Errorf("SaidBy m7's and m8's times: %v (all %v, %v), want %v", ids, all, err, want)
	}

	every := make([]string, len(nodes))
	for i, n := range nodes {
		every[i] = n.ID
	}
	got, err := s.SaidAmong(ctx, space, s1, every)
	if err != nil || !slices.Equal(slices.Sorted(maps.Keys(got)), slices.Sorted(slices.Values(said["s1"]))) {
		t.Errorf("SaidAmong s1: %v (%v), want %v", got, err, said["s1"])
	}

	// The query is closest to e0 (s0), then e5; among s1's memories and of the events,
	// e5 is first, then the others of s1 (orthogonal, ties by id).
	q := make([]float32, cyphertest.Dims)
	q[0], q[5] = 1, 0.5
	among := cypher.SeedQuery{Embedding: q, Keywords: []string{"garden"}, Types: []realm.NodeType{realm.Event}, Among: said["s1"], Limit: 2}
	for name, seed := range map[string]func() ([]cypher.ScoredMemory, error){
		"SeedAmong":       func() ([]cypher.ScoredMemory, error) { return s.SeedAmong(ctx, space, among) },
		"SeedByExactScan": func() ([]cypher.ScoredMemory, error) { return s.SeedByExactScan(ctx, space, among) },
	} {
		found, err := seed()
		if err != nil || len(found) != 2 || found[0].Node.ID != space+":e5" || found[1].Node.ID != space+":e4" {
			t.Errorf("%s among s1's: %+v (%v), want e5 then e4", name, found, err)
		}
	}
	// By the full-text index, then by the space's keyword index held in memory.
	among.Limit = 10
	for _, held := range []bool{false, true} {
		if held {
			counts, err := s.SpaceCounts(ctx, space)
			if err != nil || counts.Version == "" {
				t.Fatalf("space counts %+v (%v): no version", counts, err)
			}
			if _, err := s.LoadKeywordIndex(ctx, space); err != nil {
				t.Fatal(err)
			}
			among.SpaceSize, among.SpaceVersion = counts.InSpace, counts.Version
		}
		found, err := s.SeedByFullText(ctx, space, among)
		if err != nil || len(found) != 4 {
			t.Errorf("SeedByFullText among s1's (held index %v): %d found (%v), want its 4 events", held, len(found), err)
		}
		for _, f := range found {
			if !slices.Contains(said["s1"], f.Node.ID) {
				t.Errorf("SeedByFullText among s1's (held index %v) returns %s", held, f.Node.ID)
			}
		}
	}
}
