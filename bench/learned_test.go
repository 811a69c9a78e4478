package bench_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/bench"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/embed"
	"github.com/realm-memory/realm/reconsolidation"
	"github.com/realm-memory/realm/retrieval"
)

// TestLearnedLinksLoCoMo: query-conditioned consolidation on a LoCoMo space (the small
// fixture conversation, ingested by the offline agent with the local embedder). The
// client marks useful, on the recall of a question, its returned node holding a gold
// turn, and misleading the paraphrase's best node that holds none; then for a paraphrase
// of the question the useful node comes back higher and the misleading one lower, for a
// question on another topic nothing moves, and the revert gives the paraphrase its
// ranking back.
func TestLearnedLinksLoCoMo(t *testing.T) {
	store := cyphertest.MustOpen(t)
	ctx := context.Background()
	dir := embed.DefaultModelDir(os.Getenv)
	if !embed.LocalInstalled(dir) {
		if os.Getenv("CI") != "" {
			t.Fatalf("local model not installed in %s under CI", dir)
		}
		t.Skipf("local model not installed in %s", dir)
	}
	emb, err := embed.NewLocal(embed.LocalConfig{ModelDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { emb.Close() })
	samples, err := bench.LoadLoCoMo("testdata/locomo-small.json")
	if err != nil {
		t.Fatal(err)
	}
	log := zerolog.Nop()
	space := cyphertest.NewSpace(t)
	t.Cleanup(func() { _, _ = store.DeleteSpace(context.WithoutCancel(ctx), space) })
	ingest := construction.New(store, offline.New(offline.Options{}), emb, construction.Options{}, log)
	if _, err := ingest.Ingest(ctx, space, samples[0].Observations()); err != nil {
		t.Fatal(err)
	}
	rec := retrieval.New(store, emb, offline.New(offline.Options{}), retrieval.Options{}, log)
	recon := reconsolidation.New(store, offline.New(offline.Options{}), reconsolidation.DefaultConfig(), log)
	askAt := time.Date(2023, 10, 1, 0, 0, 0, 0, time.UTC)
	recall := func(q string) realm.RecallResult {
		t.Helper()
		res, err := rec.Recall(ctx, space, realm.RecallRequest{Query: q, Time: &askAt, K: 5})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	const (
		question   = "What did Ben's coach tell him to do after the knee injury?"
		paraphrase = "After Ben injured his knee, what did his coach advise him to do?"
		unrelated  = "Where will Ana sell her vases?"
	)
	gold := []string{"D2:1", "D2:3"}
	rank := func(res realm.RecallResult, id string) int {
		return 1 + slices.IndexFunc(res.Nodes, func(n realm.RecalledNode) bool { return n.Node.ID == id })
	}
	holdsGold := func(n realm.RecalledNode) bool {
		return len(n.Node.Sources) <= bench.MaxEvidenceSources && slices.ContainsFunc(n.Node.Sources, func(s string) bool { return slices.Contains(gold, s) })
	}

	resQ := recall(question)
	paraBefore, unrelatedBefore := recall(paraphrase), recall(unrelated)
	// The useful node: of the question's returned nodes holding a gold turn, the one the
	// paraphrase ranks lowest (room to rise); the misleading one: the paraphrase's best
	// node holding none, if it ranks above the useful one.
	var useful, misleading string
	for _, n := range resQ.Nodes {
		if holdsGold(n) && rank(paraBefore, n.Node.ID) > rank(paraBefore, useful) {
			useful = n.Node.ID
		}
	}
	for _, n := range paraBefore.Nodes {
		if !holdsGold(n) && n.Node.ID != useful && rank(resQ, n.Node.ID) > 0 {
			misleading = n.Node.ID
			break
		}
	}
	if useful == "" || misleading == "" || rank(paraBefore, useful) < 2 || rank(paraBefore, misleading) > rank(paraBefore, useful) {
		t.Fatalf("the fixture wants a gold node below a non-gold one for the paraphrase: useful %q (rank %d), misleading %q (rank %d)",
			useful, rank(paraBefore, useful), misleading, rank(paraBefore, misleading))
	}

	res, err := recon.Reconsolidate(ctx, space, resQ.TraceID, reconsolidation.Request{
		Feedback: &realm.Feedback{UsefulNodeIDs: []string{useful}, MisleadingNodeIDs: []string{misleading}},
	})
	if err != nil {
		t.Fatal(err)
	}
	paraAfter := recall(paraphrase)
	t.Logf("paraphrase: useful rank %d → %d, misleading rank %d → %d", rank(paraBefore, useful), rank(paraAfter, useful), rank(paraBefore, misleading), rank(paraAfter, misleading))
	if r := rank(paraAfter, useful); r == 0 || r >= rank(paraBefore, useful) {
		t.Errorf("useful node at rank %d for the paraphrase after feedback, %d before: want higher", r, rank(paraBefore, useful))
	}
	if r := rank(paraAfter, misleading); r != 0 && r <= rank(paraBefore, misleading) {
		t.Errorf("misleading node at rank %d for the paraphrase after feedback, %d before: want lower", r, rank(paraBefore, misleading))
	}
	if a, b := rank(recall(unrelated), misleading), rank(unrelatedBefore, misleading); a != b {
		t.Errorf("misleading node at rank %d for an unrelated question after feedback, %d before: want it put", a, b)
	}
	if _, err := recon.Revert(ctx, space, res.ReconsolidationID); err != nil {
		t.Fatal(err)
	}
	// The same nodes in the same order at the same depths; the scores to 1e-3 only: the
	// full-text index's statistics are those of the whole database, which other spaces'
	// writes move between two recalls (the edge weights themselves are checked to the bit
	// by the bench's revert).
	if reverted := recall(paraphrase); !slices.EqualFunc(reverted.Nodes, paraBefore.Nodes, func(a, b realm.RecalledNode) bool {
		return a.Node.ID == b.Node.ID && math.Abs(a.Score-b.Score) < 1e-3 && a.Depth == b.Depth
	}) {
		t.Errorf("after the revert the paraphrase returns %v, before the feedback %v", placed(reverted), placed(paraBefore))
	}
}

// placed lists a result's nodes as "id score depth".
func placed(res realm.RecallResult) []string {
	out := make([]string, len(res.Nodes))
	for i, n := range res.Nodes {
		out[i] = fmt.Sprintf("%s %v %d", n.Node.ID, n.Score, n.Depth)
	}
	return out
}
