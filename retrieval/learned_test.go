package retrieval_test

import (
	"context"
	"slices"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/retrieval"
)

// A recall of a space known to hold no learned link does not look for them (the
// learned_links statement reads every memory edge of every candidate); once one is
// applied, the next recall reads it and it acts.
func TestLearnedLinksSkipped(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	t.Cleanup(func() { _, _ = s.DeleteSpace(context.WithoutCancel(ctx), space) })
	if err := s.PutScaleSpace(ctx, space, tableEmbedder{}.ID(), cyphertest.Dims, 0, ""); err != nil {
		t.Fatal(err)
	}
	putGraph(t, s, space)
	r := newRetriever(s, scripted{plans: []realm.Plan{{Query: question, Mode: realm.QueryMatch}}, reasoning: question}, retrieval.DefaultOptions())
	recall := func() (realm.Trace, []string) {
		t.Helper()
		logged, log := cypher.WithStatementLog(ctx)
		res, err := r.Recall(logged, space, realm.RecallRequest{Query: question, MaxDepth: depth(1)})
		if err != nil {
			t.Fatal(err)
		}
		tr, err := s.Trace(ctx, space, res.TraceID)
		if err != nil {
			t.Fatal(err)
		}
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
