package bench_test

import (
	"context"
	"strings"
	"testing"

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

// TestRunRetrievalFeedback runs the LoCoMo retrieval bench with --feedback
// none,self,cited,answer over one ingestion on a real Neo4j: four feedback reports in that
// order, cited feedback given through the client's path for the questions whose top K
// covered a gold turn, answer feedback for every question with a gold answer, the questions split by whether they share a gold turn with an earlier one, a
// ceiling no lower than the recall, and the space left as ingested.
func TestRunRetrievalFeedback(t *testing.T) {
	store := cyphertest.MustOpen(t)
	ctx := context.Background()
	samples, err := bench.LoadLoCoMo("testdata/locomo-small.json")
	if err != nil {
		t.Fatal(err)
	}
	emb := embed.NewHash(cyphertest.Dims)
	log := zerolog.Nop()
	deps := bench.RetrievalDeps{
		Ingest:        ingester{construction.New(store, offline.New(offline.Options{}), emb, construction.Options{}, log)},
		Recall:        retrieval.New(store, emb, offline.New(offline.Options{}), retrieval.Options{}, log),
		Reconsolidate: reconsolidation.New(store, offline.New(offline.Options{}), reconsolidation.DefaultConfig(), log),
		Graph:         store,
		Embedder:      emb,
	}
	space := cyphertest.NewSpace(t)
	prefix := space + "-"
	t.Cleanup(func() {
		for _, s := range samples {
			_, _ = store.DeleteSpace(context.WithoutCancel(ctx), prefix+s.ID)
		}
	})
	cfg := bench.RetrievalConfig{K: 10, SpacePrefix: prefix, Feedback: []string{bench.FeedbackNone, bench.FeedbackSelf, bench.FeedbackCited, bench.FeedbackAnswer}}
	rep, err := bench.RunRetrieval(ctx, samples, deps, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 4 || len(rep.Feedback) != 4 {
		t.Fatalf("%d runs, %d feedback reports; want 4 of each", len(rep.Runs), len(rep.Feedback))
	}
	for i, f := range rep.Feedback {
		if f.Feedback != cfg.Feedback[i] {
			t.Errorf("feedback report %d is %q, want %q", i, f.Feedback, cfg.Feedback[i])
		}
		if f.All.Questions != rep.Questions || f.Sharing.Questions+f.Others.Questions != f.All.Questions || f.Sharing.Questions == 0 {
			t.Errorf("%s: splits %d + %d of %d questions (%d asked)", f.Feedback, f.Sharing.Questions, f.Others.Questions, f.All.Questions, rep.Questions)
		}
		if f.All.Ceiling < f.All.Recall || len(f.Running) != 10 {
			t.Errorf("%s: recall %.4f, ceiling %.4f, running %v", f.Feedback, f.All.Recall, f.All.Ceiling, f.Running)
		}
	}
	none, self, cited, answer := rep.Run(bench.ReconsolidationOff), rep.Run(bench.ReconsolidationOn), rep.Run(bench.FeedbackCited), rep.Run(bench.FeedbackAnswer)
	if none == nil || self == nil || cited == nil || answer == nil || none.Edits != nil {
		t.Fatalf("runs %+v", rep.Runs)
	}
	if rep.Feedback[0].All.Recall != none.Overall || rep.Feedback[2].All.Recall != cited.Overall {
		t.Errorf("feedback recall none %.4f, cited %.4f; runs %.4f, %.4f", rep.Feedback[0].All.Recall, rep.Feedback[2].All.Recall, none.Overall, cited.Overall)
	}
	fc := rep.Feedback[2]
	if fc.Feedbacks == 0 || fc.UsefulMarked < fc.Feedbacks || cited.Edits.Audits != rep.Questions {
		t.Errorf("cited: %d feedback calls marking %d nodes, edits %+v", fc.Feedbacks, fc.UsefulMarked, cited.Edits)
	}
	if cited.Edits.Added == 0 || !cited.Edits.Restored || !self.Edits.Restored {
		t.Errorf("cited edits %+v, self edits %+v: want learned links added, and every run reverted to the bit", cited.Edits, self.Edits)
	}
	if fa := rep.Feedback[3]; fa.Feedbacks != rep.Questions || answer.Edits.Audits != rep.Questions || !answer.Edits.Restored {
		t.Errorf("answer: %d feedback calls for %d questions, edits %+v; want one call per question, reverted to the bit", fa.Feedbacks, rep.Questions, answer.Edits)
	}
	for _, s := range samples {
		st, err := store.EditStats(ctx, prefix+s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if st.Added+st.Strengthened+st.Weakened != 0 {
			t.Errorf("%s keeps live edits after the run: %+v", s.ID, st)
		}
	}
	md := rep.FeedbackMarkdown()
	for _, want := range []string{"| none |", "| self |", "| cited |", "| answer |", "ceiling", "Δ sharing", "Edits, cited"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	t.Log("\n" + md)

	t.Run("ErrFeedback", func(t *testing.T) {
		cfg.Feedback = []string{"sometimes"}
		if _, err := bench.RunRetrieval(ctx, samples, deps, cfg, nil); realm.ErrorCode(err) != realm.EInvalid {
			t.Errorf("got %v, want invalid", err)
		}
	})
}
