package retrieval_test

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/retrieval"
)

// recallTraced is r's recall of req in space, and its trace.
func recallTraced(ctx context.Context, t *testing.T, s *cypher.Store, r *retrieval.Retriever, space string, req realm.RecallRequest) (realm.RecallResult, realm.Trace) {
	t.Helper()
	res, err := r.Recall(ctx, space, req)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := s.Trace(ctx, space, res.TraceID)
	if err != nil {
		t.Fatal(err)
	}
	return res, tr
}

// learnedRig is a new space of s holding the fixture graph, and a retriever whose one
// plan matches question, for the learned links' tests.
func learnedRig(t *testing.T, s *cypher.Store) (string, *retrieval.Retriever) {
	t.Helper()
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	t.Cleanup(func() { _, _ = s.DeleteSpace(context.WithoutCancel(ctx), space) })
	if err := s.PutScaleSpace(ctx, space, tableEmbedder{}.ID(), cyphertest.Dims, 0, ""); err != nil {
		t.Fatal(err)
	}
	putGraph(t, s, space)
	return space, newRetriever(s, scripted{plans: []realm.Plan{{Query: question, Mode: realm.QueryMatch}}, reasoning: question}, retrieval.DefaultOptions())
}

// atDepth1 asks question, expanding one hop.
var atDepth1 = realm.RecallRequest{Query: question, MaxDepth: depth(1)}

// A recall of a space known to hold no learned link does not look for them (the
// learned_links statement reads every memory edge of every candidate); once one is
// applied, the next recall reads it and it acts.
func TestLearnedLinksSkipped(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space, r := learnedRig(t, s)
	recall := func() (realm.Trace, []string) {
		t.Helper()
		logged, log := cypher.WithStatementLog(ctx)
		_, tr := recallTraced(logged, t, s, r, space, atDepth1)
		var names []string
		for _, st := range log.Statements {
			names = append(names, st.Name)
		}
		return tr, names
	}

	if _, names := recall(); slices.Contains(names, "learned_links") {
		t.Errorf("a space holding no learned link was asked for them: %v", names)
	}
	link := realm.EditProposal{From: id(space, "move"), To: id(space, "hq"), Action: realm.EditAdd, Predicate: realm.Enables,
		Confidence: 0.9, Query: question, Label: realm.KeyEvidence}
	_, err := s.ApplyEdits(ctx, space, cypher.EditBatch{ReconsolidationID: "r1", Source: realm.EditSourceFeedback, Edits: []realm.EditProposal{link},
		NewWeight: func(realm.EditAction, float64, float64) float64 { return 0.7 },
		Step:      func(realm.EditAction, float64) (float64, float64) { return 0.5, 1 }, Floor: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	tr, names := recall()
	if !slices.Contains(names, "learned_links") {
		t.Fatalf("after a learned link was applied, the recall did not read them: %v", names)
	}
	if len(tr.Learned) != 1 || tr.Learned[0].Node != id(space, "hq") || tr.Learned[0].Factor <= 1 {
		t.Errorf("learned links that acted: %+v, want the one to hq, lifting it", tr.Learned)
	}
}

// Once the sweep erased a learned link's query with its trace (cypher.Store.ExpireTraces,
// given QueryVectors), the link acts on a close query exactly as it did with the text:
// the same closeness and factor, the same ranking; and neither the link nor the trace of
// the recall holds the earlier question. So it does when its trace was gone before the
// sweep, however recent: deleted by a version that kept the text, or left out of an
// imported file (the edit names a trace the store does not hold).
func TestErasedLearnedLinkActs(t *testing.T) {
	cyphertest.MustOpen(t) // the schema, or a skip without Neo4j
	cfg := cyphertest.Config()
	cfg.TraceRetention = 720 * time.Hour
	ctx := context.Background()
	s, err := cypher.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.WithoutCancel(ctx)) })
	for _, tc := range []struct {
		name   string
		stored bool
	}{{"PastRetention", true}, {"TraceGone", false}} {
		t.Run(tc.name, func(t *testing.T) {
			erasedLearnedLinkActs(ctx, t, s, tc.stored)
		})
	}
}

// erasedLearnedLinkActs is one case of TestErasedLearnedLinkActs: stored says whether the
// earlier trace is in the store, past the retention.
func erasedLearnedLinkActs(ctx context.Context, t *testing.T, s *cypher.Store, stored bool) {
	space, r := learnedRig(t, s)
	now := time.Now().UTC()
	earlier := realm.Trace{ID: space + "-earlier", Space: space, Query: earlierQuestion, CreatedAt: now.Add(-721 * time.Hour)}
	if stored {
		if err := s.PutTrace(ctx, earlier); err != nil {
			t.Fatal(err)
		}
	}
	link := realm.EditProposal{From: id(space, "move"), To: id(space, "hq"), Action: realm.EditAdd, Predicate: realm.Enables,
		Confidence: 0.9, Query: earlierQuestion, Label: realm.KeyEvidence}
	_, err := s.ApplyEdits(ctx, space, cypher.EditBatch{ReconsolidationID: "r1", TraceID: earlier.ID, Source: realm.EditSourceFeedback,
		Edits: []realm.EditProposal{link}, NewWeight: func(realm.EditAction, float64, float64) float64 { return 0.7 },
		Step: func(realm.EditAction, float64) (float64, float64) { return 0.5, 1 }, Floor: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	recall := func() (realm.Trace, []string) {
		t.Helper()
		res, tr := recallTraced(ctx, t, s, r, space, atDepth1)
		var ranked []string
		for _, n := range res.Nodes {
			ranked = append(ranked, n.Node.ID)
		}
		return tr, ranked
	}
	withText, rankedWithText := recall()
	if len(withText.Learned) != 1 || withText.Learned[0].Factor <= 1 {
		t.Fatalf("learned links that acted before the sweep: %+v, want the one to hq, lifting it", withText.Learned)
	}

	if _, err := s.ExpireTraces(ctx, now, r.QueryVectors); err != nil {
		t.Fatal(err)
	}
	links, err := s.LearnedLinks(ctx, space, []string{id(space, "hq")})
	if err != nil || len(links) != 1 || links[0].Edge.Query != "" || !links[0].Edge.QueryErased {
		t.Fatalf("the link after the sweep: %+v (%v), want its query erased", links, err)
	}
	erased, rankedErased := recall()
	if !reflect.DeepEqual(erased.Learned, withText.Learned) || !slices.Equal(rankedErased, rankedWithText) {
		t.Errorf("after the sweep the link acted as %+v, ranking %v; want as with its text, %+v, ranking %v",
			erased.Learned, rankedErased, withText.Learned, rankedWithText)
	}
	if doc, _ := json.Marshal(erased); strings.Contains(string(doc), "relocate") {
		t.Errorf("the trace of a recall after the sweep quotes the erased question: %s", doc)
	}
}
