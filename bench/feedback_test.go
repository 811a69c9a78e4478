package bench_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/bench"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/embed"
	"github.com/realm-memory/realm/reconsolidation"
	"github.com/realm-memory/realm/retrieval"
)

// TestRunRetrievalFeedback runs the LoCoMo retrieval bench with --feedback none,self,cited
// over one ingestion on a real Neo4j: three runs in that order, the same first question
// each way, cited feedback given through the client's path for the questions whose top K
// covered a gold turn, the questions split by whether they share a gold turn with an
// earlier one, a ceiling no lower than the recall, and the space left as ingested.
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
		Ingest: ingester{construction.New(store, agent.NewOffline(agent.OfflineOptions{}), emb, construction.Options{}, log)},
		Recall: retrieval.New(store, emb, retrieval.NewOfflineDecider(), retrieval.Options{}, log),
		Reconsolidate: reconsolidation.New(store, reconsolidation.NewOffline(reconsolidation.DefaultOfflineConfig()),
			reconsolidation.DefaultConfig(), log),
		Graph:    store,
		Embedder: emb,
	}
	space := cyphertest.NewSpace(t)
	prefix := space + "-"
	t.Cleanup(func() {
		for _, s := range samples {
			_, _ = store.DeleteSpace(context.WithoutCancel(ctx), prefix+s.ID)
		}
	})
	cfg := bench.RetrievalConfig{K: 10, SpacePrefix: prefix, Feedback: []string{bench.FeedbackNone, bench.FeedbackSelf, bench.FeedbackCited}}
	rep, err := bench.RunRetrieval(ctx, samples, deps, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 3 {
		t.Fatalf("%d runs, want 3", len(rep.Runs))
	}
	byMode := map[string]*bench.RunReport{}
	for i := range rep.Runs {
		r := &rep.Runs[i]
		if r.Feedback == nil {
			t.Fatalf("run %s has no feedback report", r.Reconsolidation)
		}
		byMode[r.Feedback.Feedback] = r
		f := r.Feedback
		if f.All.Questions != rep.Questions || f.Sharing.Questions+f.Others.Questions != f.All.Questions {
			t.Errorf("%s: splits %d + %d of %d questions (%d asked)", f.Feedback, f.Sharing.Questions, f.Others.Questions, f.All.Questions, rep.Questions)
		}
		if f.All.Ceiling < f.All.Recall || !near(f.All.Recall, r.Overall) {
			t.Errorf("%s: recall %.4f (overall %.4f), ceiling %.4f", f.Feedback, f.All.Recall, r.Overall, f.All.Ceiling)
		}
		if len(f.Running) != 10 {
			t.Errorf("%s: running recall %v, want tenths", f.Feedback, f.Running)
		}
	}
	none, cited := byMode[bench.FeedbackNone], byMode[bench.FeedbackCited]
	if none == nil || byMode[bench.FeedbackSelf] == nil || cited == nil || none.Edits != nil {
		t.Fatalf("runs %+v", rep.Runs)
	}
	if cited.Feedback.Feedbacks == 0 || cited.Edits == nil || cited.Edits.Audits != cited.Feedback.Feedbacks {
		t.Errorf("cited: %d feedback calls, edits %+v", cited.Feedback.Feedbacks, cited.Edits)
	}
	if cited.Edits.Added == 0 || !cited.Edits.Restored {
		t.Errorf("cited edits %+v: want learned links added, and every one reverted to the bit", cited.Edits)
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
	for _, want := range []string{"| none |", "| self |", "| cited |", "ceiling", "Δ sharing"} {
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
