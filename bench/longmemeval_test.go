package bench_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/bench"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/embed"
	"github.com/realm-memory/realm/reconsolidation"
	"github.com/realm-memory/realm/retrieval"
)

const lmeMini = "testdata/longmemeval-mini.json"

func mustLoadLME(t *testing.T) map[string]bench.LMEItem {
	t.Helper()
	items, err := bench.LoadLongMemEval(lmeMini)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]bench.LMEItem{}
	for _, it := range items {
		byID[it.QuestionID] = it
	}
	return byID
}

func TestLoadLongMemEval(t *testing.T) {
	items, err := bench.LoadLongMemEval(lmeMini)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 8 {
		t.Fatalf("%d items, want 8", len(items))
	}
	types := map[string]int{}
	abstention := 0
	for _, it := range items {
		types[it.Type]++
		if it.Abstention() {
			abstention++
		}
	}
	for _, typ := range bench.LongMemEvalTypes {
		if types[typ] == 0 {
			t.Errorf("the fixture has no %s question", typ)
		}
	}
	if abstention != 1 {
		t.Errorf("%d abstention items, want 1", abstention)
	}
	byID := mustLoadLME(t)
	multi := byID["lme-multi-1"]
	if multi.Answer != "3" {
		t.Errorf("numeric answer read as %q, want \"3\"", multi.Answer)
	}
	if got := multi.EvidenceTurns(); !slices.Equal(got, []string{"answer-multi-1:0", "answer-multi-2:0"}) {
		t.Errorf("evidence turns %v", got)
	}
	if want := time.Date(2023, 5, 2, 10, 0, 0, 0, time.UTC); !multi.QuestionDate.Equal(want) {
		t.Errorf("question date %v, want %v", multi.QuestionDate, want)
	}
	if s := multi.Sessions[1]; s.ID != "s-multi-c" || s.Turns[0].HasAnswer || s.Turns[1].Role != "assistant" {
		t.Errorf("session without has_answer: %+v", s)
	}
}

func TestLoadLongMemEvalErrors(t *testing.T) {
	const good = `{"question_id": "q1", "question_type": "multi-session", "question": "Q?", "answer": "A", "question_date": "2023/05/20 (Sat) 02:21",
		"haystack_session_ids": ["s1"], "haystack_dates": ["2023/05/01 (Mon) 10:00"], "haystack_sessions": [[{"role": "user", "content": "hi"}]], "answer_session_ids": ["s1"]}`
	for _, tt := range []struct {
		name, item, want string
	}{
		{"ErrQuestionID", strings.Replace(good, `"q1"`, `""`, 1), "question_id is missing"},
		{"ErrQuestionType", strings.Replace(good, `"multi-session"`, `"multi-hop"`, 1), `question_type "multi-hop"`},
		{"ErrAnswerObject", strings.Replace(good, `"answer": "A"`, `"answer": {"x": 1}`, 1), "answer must be a string or a number"},
		{"ErrQuestionDate", strings.Replace(good, `"2023/05/20 (Sat) 02:21"`, `"yesterday"`, 1), `question_date: date "yesterday"`},
		{"ErrHaystackLengths", strings.Replace(good, `["s1"], "haystack_dates"`, `["s1", "s2"], "haystack_dates"`, 1), "one entry per session"},
		{"ErrSessionDate", strings.Replace(good, `"2023/05/01 (Mon) 10:00"`, `"May"`, 1), "haystack_dates[0]"},
		{"ErrRole", strings.Replace(good, `"role": "user", `, ``, 1), "haystack_sessions[0][0]: role is missing"},
		{"ErrHasAnswer", strings.Replace(good, `"content": "hi"`, `"content": "hi", "has_answer": "maybe"`, 1), "has_answer must be true or false"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "lme.json")
			if err := os.WriteFile(path, []byte("["+good+",\n"+tt.item+"]"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := bench.LoadLongMemEval(path)
			if realm.ErrorCode(err) != realm.EInvalid || !strings.Contains(err.Error(), "item 1") || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v; want an invalid error naming item 1 and %q", err, tt.want)
			}
		})
	}
	t.Run("ErrDuplicateID", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "lme.json")
		_ = os.WriteFile(path, []byte("["+good+","+good+"]"), 0o644)
		if _, err := bench.LoadLongMemEval(path); realm.ErrorCode(err) != realm.EInvalid || !strings.Contains(err.Error(), "already used by item 0") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("ErrNotArray", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "lme.json")
		_ = os.WriteFile(path, []byte(good), 0o644)
		if _, err := bench.LoadLongMemEval(path); realm.ErrorCode(err) != realm.EInvalid || !strings.Contains(err.Error(), "JSON array") {
			t.Fatalf("got %v", err)
		}
	})
}

// TestLMEObservations: sessions go in date order whatever the file order, one observation
// per turn with the session id and turn index as its id, times strictly increasing.
func TestLMEObservations(t *testing.T) {
	ku := mustLoadLME(t)["lme-ku-1"]
	obs := ku.Observations()
	var ids []string
	for i, o := range obs.Observations {
		ids = append(ids, o.ID)
		if i > 0 && !o.ObservedAt.After(obs.Observations[i-1].ObservedAt) {
			t.Errorf("observation %d at %v, not after the previous", i, o.ObservedAt)
		}
	}
	if want := []string{"answer-ku-1:0", "answer-ku-1:1", "answer-ku-2:0", "answer-ku-2:1"}; !slices.Equal(ids, want) {
		t.Errorf("ids %v, want %v", ids, want)
	}
	if o := obs.Observations[0]; o.Speaker != "user" || o.SessionID != "answer-ku-1" || !o.ObservedAt.Equal(time.Date(2023, 1, 15, 14, 30, 0, 0, time.UTC)) {
		t.Errorf("first observation %+v", o)
	}
	if obs.Sessions["answer-ku-2:1"] != "answer-ku-2" {
		t.Errorf("session of answer-ku-2:1 is %q", obs.Sessions["answer-ku-2:1"])
	}

	same := bench.LMEItem{QuestionID: "x", Sessions: []bench.LMESession{
		{ID: "a", Date: ku.QuestionDate, Turns: []bench.LMETurn{{Role: "user", Content: "one"}, {Role: "assistant", Content: "  "}}},
		{ID: "b", Date: ku.QuestionDate, Turns: []bench.LMETurn{{Role: "user", Content: strings.Repeat("é", bench.LongMemEvalMaxContent)}}},
	}}
	o := same.Observations()
	if o.Empty != 1 || o.Truncated != 1 || len(o.Observations) != 2 {
		t.Fatalf("empty %d, truncated %d, %d observations", o.Empty, o.Truncated, len(o.Observations))
	}
	if b := o.Observations[1]; !b.ObservedAt.Equal(ku.QuestionDate.Add(2*time.Second)) || len(b.Content) > bench.LongMemEvalMaxContent || !strings.HasSuffix(b.Content, "é") {
		t.Errorf("second session at %v (want after the first's last turn), %d bytes", b.ObservedAt, len(b.Content))
	}
}

func TestLMESpace(t *testing.T) {
	if got := bench.LMESpace("lme-", "gpt4_2655b836_abs"); got != "lme-gpt4_2655b836_abs" {
		t.Errorf("got %q", got)
	}
	if got := bench.LMESpace("lme-", "a/b c"); got != "lme-a_b_c" {
		t.Errorf("got %q", got)
	}
	long := bench.LMESpace("lme-", strings.Repeat("x", 80))
	if !realm.ValidSpace(long) || long == bench.LMESpace("lme-", strings.Repeat("x", 81)) {
		t.Errorf("long ids: %q", long)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestRecallAndNDCGAtK(t *testing.T) {
	l2, l3, l4 := 1.0, 1/math.Log2(3), 1/math.Log2(4)
	for _, tt := range []struct {
		name         string
		ranked, rel  []string
		k            int
		recall, ndcg float64
		counted      bool
	}{
		{"FirstOfOne", []string{"a", "b"}, []string{"a"}, 10, 1, 1, true},
		{"SecondOfOne", []string{"b", "a"}, []string{"a"}, 10, 1, l3, true},
		{"OneOfTwoAtTop", []string{"a", "x", "y"}, []string{"a", "b"}, 10, 0.5, l2 / (l2 + l3), true},
		{"BothAtOneAndThree", []string{"a", "x", "b"}, []string{"a", "b"}, 10, 1, (l2 + l4) / (l2 + l3), true},
		{"CutAtK", []string{"x", "a"}, []string{"a"}, 1, 0, 0, true},
		{"IdealCappedAtK", []string{"a"}, []string{"a", "b", "c"}, 1, 1.0 / 3, 1, true},
		{"RepeatsCountOnce", []string{"a", "a"}, []string{"a", "b"}, 10, 0.5, l2 / (l2 + l3), true},
		{"NothingRelevant", []string{"a"}, nil, 10, 0, 0, false},
		{"EmptyRanking", nil, []string{"a"}, 10, 0, 0, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := bench.RecallAtK(tt.ranked, tt.rel, tt.k)
			n, ok2 := bench.NDCGAtK(tt.ranked, tt.rel, tt.k)
			if !near(r, tt.recall) || !near(n, tt.ndcg) || ok != tt.counted || ok2 != tt.counted {
				t.Fatalf("recall %v, ndcg %v, counted %v; want %v, %v, %v", r, n, ok, tt.recall, tt.ndcg, tt.counted)
			}
		})
	}
}

func TestRankUnits(t *testing.T) {
	session := func(id string) string { s, _, _ := strings.Cut(id, ":"); return s }
	sources := [][]string{
		{"s2:0"},
		{"s1:0", "s1:1", "s1:2", "s1:3"}, // four turns of one session: one session unit
		{"s3:0", "s4:0", "s5:0", "s6:0"}, // four sessions: context
		{"s1:4", "s2:1"},
	}
	if got := bench.RankUnits(sources, session); !slices.Equal(got, []string{"s2", "s1"}) {
		t.Errorf("sessions %v", got)
	}
	turn := func(id string) string { return id }
	if got := bench.RankUnits(sources, turn); !slices.Equal(got, []string{"s2:0", "s1:4", "s2:1"}) {
		t.Errorf("turns %v", got)
	}
}

// TestScoreLMERetrieval scores hand-made recalls of fixture items against hand-computed
// values.
func TestScoreLMERetrieval(t *testing.T) {
	items := mustLoadLME(t)
	l3, l4, l5 := 1/math.Log2(3), 1/math.Log2(4), 1/math.Log2(5)
	for _, tt := range []struct {
		name, item                     string
		sources                        [][]string
		k                              int
		sRecall, sNDCG, tRecall, tNDCG float64
	}{
		// Sessions answer-multi-2, s-multi-c, answer-multi-1 (gold at 1 and 3); turns
		// answer-multi-2:0, s-multi-c:0, s-multi-c:1, answer-multi-1:0 (gold at 1 and 4).
		{"MultiK10", "lme-multi-1", [][]string{{"answer-multi-2:0"}, {"s-multi-c:0", "s-multi-c:1"}, {"answer-multi-1:0"}}, 10,
			1, (1 + l4) / (1 + l3), 1, (1 + l5) / (1 + l3)},
		{"MultiK2", "lme-multi-1", [][]string{{"answer-multi-2:0"}, {"s-multi-c:0", "s-multi-c:1"}, {"answer-multi-1:0"}}, 2,
			0.5, 1 / (1 + l3), 0.5, 1 / (1 + l3)},
		// The assistant's turn is the evidence; the user's turn of the same session is not.
		{"AssistantEvidence", "lme-ssa-1", [][]string{{"answer-ssa-1:0"}, {"s-ssa-b:0"}, {"answer-ssa-1:1"}}, 10,
			1, 1, 1, 1 / math.Log2(4)},
		// Four turns of two sessions: context for turns, both sessions in file order.
		{"WideNodeIsContext", "lme-ssu-1", [][]string{{"s-ssu-a:0", "s-ssu-a:1", "answer-ssu-1:0", "answer-ssu-1:1"}}, 10,
			1, l3, 0, 0},
		{"NothingRecalled", "lme-ssu-3", nil, 10, 0, 0, 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			it := items[tt.item]
			got := bench.ScoreLMERetrieval(it, tt.sources, it.Observations().Sessions, tt.k)
			if !got.SessionScored || !got.TurnScored {
				t.Fatalf("not scored: %+v", got)
			}
			if !near(got.SessionRecall, tt.sRecall) || !near(got.SessionNDCG, tt.sNDCG) || !near(got.TurnRecall, tt.tRecall) || !near(got.TurnNDCG, tt.tNDCG) {
				t.Fatalf("got session %v/%v turn %v/%v; want %v/%v %v/%v", got.SessionRecall, got.SessionNDCG, got.TurnRecall, got.TurnNDCG,
					tt.sRecall, tt.sNDCG, tt.tRecall, tt.tNDCG)
			}
		})
	}
	t.Run("AbstentionNotScored", func(t *testing.T) {
		it := items["lme-ssu-2_abs"]
		got := bench.ScoreLMERetrieval(it, [][]string{{"s-abs-1:0"}}, it.Observations().Sessions, 10)
		if got.SessionScored || got.TurnScored || !slices.Equal(got.SessionRanking, []string{"s-abs-1"}) {
			t.Fatalf("%+v", got)
		}
	})
}

func TestParseVerdict(t *testing.T) {
	for _, tt := range []struct {
		reply       string
		verdict, ok bool
	}{
		{"yes", true, true},
		{"Yes.", true, true},
		{"NO", false, true},
		{"no, the response says Madrid", false, true},
		{"The answer is correct: yes", true, true},
		{"I cannot tell", false, false},
		{"yes and no", true, true}, // the first word decides
		{"maybe yes maybe no", false, false},
		{"", false, false},
	} {
		if v, ok := bench.ParseVerdict(tt.reply); v != tt.verdict || ok != tt.ok {
			t.Errorf("ParseVerdict(%q) = %v, %v; want %v, %v", tt.reply, v, ok, tt.verdict, tt.ok)
		}
	}
}

func TestLMEJudgePrompt(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   bench.LMEJudgeInput
		want string
	}{
		{"Temporal", bench.LMEJudgeInput{Type: "temporal-reasoning"}, "off-by-one"},
		{"KnowledgeUpdate", bench.LMEJudgeInput{Type: "knowledge-update"}, "even when it also mentions earlier values"},
		{"Preference", bench.LMEJudgeInput{Type: "single-session-preference"}, "Rubric:"},
		{"Abstention", bench.LMEJudgeInput{Type: "single-session-user", Abstention: true}, "Why it cannot be answered:"},
		{"Default", bench.LMEJudgeInput{Type: "multi-session"}, "Correct answer:"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.Question, tt.in.Answer, tt.in.Response = "QQ", "AA", "RR"
			system, user := bench.LMEJudgePrompt(tt.in)
			if system == "" || !strings.Contains(user, tt.want) || !strings.Contains(user, "Question: QQ") || !strings.Contains(user, "Response: RR") {
				t.Fatalf("user prompt lacks %q:\n%s", tt.want, user)
			}
		})
	}
}

func TestPrimeQuestions(t *testing.T) {
	multi := mustLoadLME(t)["lme-multi-1"]
	got := bench.PrimeQuestions(multi, 2)
	want := []string{"What do you remember about: I bought a road bike from Canyon last?", "When did I say: My sister Clara is visiting Lisbon next month?"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if n := len(bench.PrimeQuestions(multi, 10)); n != 3 {
		t.Errorf("%d questions from 3 user turns", n)
	}
	if bench.PrimeQuestions(multi, 0) != nil {
		t.Error("prime 0 asks questions")
	}
}

// lmeIngester adapts the construction pipeline to bench.LMEIngester.
type lmeIngester struct{ p *construction.Pipeline }

func (i lmeIngester) IngestUsage(ctx context.Context, space string, obs []realm.Observation) (realm.Usage, error) {
	res, err := i.p.Ingest(ctx, space, obs)
	u := realm.Usage{}
	for _, r := range res {
		u.Add(r.Usage)
	}
	return u, err
}

// TestRunLongMemEvalRetrieval runs the retrieval-only bench on the fixture on a real
// Neo4j with the offline agent and the hash embedder: every item is scored but the
// abstention one, the one-session item finds its session first, the report's means are
// those of the items, the spaces are gone afterwards, and a run interrupted after three
// items and resumed from its checkpoint reports what an uninterrupted run reports.
func TestRunLongMemEvalRetrieval(t *testing.T) {
	store := cyphertest.MustOpen(t)
	ctx := context.Background()
	items, err := bench.LoadLongMemEval(lmeMini)
	if err != nil {
		t.Fatal(err)
	}
	emb := embed.NewHash(cyphertest.Dims)
	log := zerolog.Nop()
	deps := bench.LongMemEvalDeps{
		Ingest: lmeIngester{construction.New(store, offline.New(offline.Options{}), emb, construction.Options{}, log)},
		Recall: retrieval.New(store, emb, offline.New(offline.Options{}), retrieval.Options{}, log),
		Reconsolidate: reconsolidation.New(store, offline.New(offline.Options{}),
			reconsolidation.DefaultConfig(), log),
		Spaces:   store,
		Embedder: emb,
	}
	prefix := cyphertest.NewSpace(t) + "-"
	t.Cleanup(func() {
		for _, it := range items {
			_, _ = store.DeleteSpace(context.WithoutCancel(ctx), bench.LMESpace(prefix, it.QuestionID))
		}
	})
	cfg := bench.LongMemEvalConfig{K: 10, SpacePrefix: prefix, Prime: 2}
	rep, err := bench.RunLongMemEval(ctx, items, deps, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Mode != bench.LMEModeRetrieval || rep.Items != 8 || rep.Abstention != 1 || rep.Accuracy != nil {
		t.Fatalf("mode %s, %d items, %d abstention", rep.Mode, rep.Items, rep.Abstention)
	}
	if rep.FlatOverall == nil || rep.FlatOverall.Questions != 7 {
		t.Errorf("flat baseline %+v, want 7 questions scored", rep.FlatOverall)
	}
	if len(rep.Baselines) != 2*len(bench.LMEBaselines) || rep.Baselines[2].Selection != bench.SelectionBudget || rep.Baselines[2].Questions != 7 ||
		rep.Baselines[2].ContextTokens > rep.RetrievalOverall.ContextTokens || rep.RetrievalOverall.ContextTokens == 0 {
		t.Errorf("baselines %+v; REALM %+v", rep.Baselines, rep.RetrievalOverall)
	}
	if o := rep.RetrievalOverall; o.Questions != 7 || o.TurnQuestions != 7 {
		t.Errorf("overall %+v: want 7 questions scored at both levels", o)
	}
	var sum float64
	for _, r := range rep.Results {
		if r.Primed < 1 || r.Primed > 2 {
			t.Errorf("%s primed %d questions, want 1 or 2 (as many user turns as it has)", r.QuestionID, r.Primed)
		}
		if r.Abstention == r.Retrieval.SessionScored {
			t.Errorf("%s: abstention %v, scored %v", r.QuestionID, r.Abstention, r.Retrieval.SessionScored)
		}
		sum += r.Retrieval.SessionRecall
		if r.QuestionID == "lme-ssu-3" {
			// One session in the haystack: whatever is recalled comes from it.
			if got := r.Retrieval; !slices.Equal(got.SessionRanking, []string{"answer-ssu-3"}) || got.SessionRecall != 1 || got.SessionNDCG != 1 {
				t.Errorf("one-session item: %+v", got)
			}
			// Its two turns are the whole haystack: the flat top 10 holds both.
			if f := r.Flat; f == nil || len(f.TurnRanking) != 2 || f.TurnRecall != 1 || f.SessionRecall != 1 || f.SessionNDCG != 1 {
				t.Errorf("one-session item, flat baseline: %+v", f)
			}
			// So do the hybrid's: its two turns, or its two windows (the first turn alone,
			// then both); within REALM's context, as many turns as fit in it.
			for _, units := range []string{bench.UnitTurns, bench.UnitWindows} {
				b := bench.Baseline{Method: bench.MethodHybrid, Units: units}
				if f := r.Baselines[bench.LMEBaselineName(b, bench.SelectionK)]; len(f.TurnRanking) != 2 || f.SessionRecall != 1 || f.ContextTokens == 0 {
					t.Errorf("one-session item, %s at k: %+v", b, f)
				}
				if f := r.Baselines[bench.LMEBaselineName(b, bench.SelectionBudget)]; f.ContextTokens > r.Retrieval.ContextTokens {
					t.Errorf("one-session item, %s: %d tokens within REALM's %d", b, f.ContextTokens, r.Retrieval.ContextTokens)
				}
			}
		}
	}
	if !near(rep.RetrievalOverall.SessionRecall, sum/7) {
		t.Errorf("overall session recall %v, mean of the items %v", rep.RetrievalOverall.SessionRecall, sum/7)
	}
	if s := rep.Retrieval["single-session-user"]; s.Questions != 2 {
		t.Errorf("single-session-user scored %d questions, want 2 (the abstention one left out)", s.Questions)
	}
	if rep.Ingest.Observations != 28 {
		t.Errorf("%d observations ingested, want 28", rep.Ingest.Observations)
	}
	if n, err := store.DeleteSpace(ctx, bench.LMESpace(prefix, "lme-ssu-3")); err != nil || n != 0 {
		t.Errorf("the space of an item is left behind: %d deleted, %v", n, err)
	}
	charts := rep.Charts()
	if c, ok := charts["retrieval"]; !ok || len(c.Groups) != 7 || c.Groups[6] != "overall" || len(c.Series) != 6 ||
		c.Series[0].Values[6] != rep.RetrievalOverall.SessionRecall || charts["accuracy"].Series != nil {
		t.Errorf("charts %+v", charts)
	}
	md := rep.Markdown()
	for _, want := range []string{"| question type | questions | session recall@10 |", "| multi-session | 1 |", "| **overall** | 8 | **", "| ingest |", "Flat baseline: the top 10 raw turns",
		"| hybrid | windows | ≤ REALM's context |"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}

	// Interrupted after three items, then resumed.
	cp := filepath.Join(t.TempDir(), "lme.checkpoint.jsonl")
	cfg.Checkpoint, cfg.Limit = cp, 3
	if _, err := bench.RunLongMemEval(ctx, items, deps, cfg, nil); err != nil {
		t.Fatal(err)
	}
	cfg.Limit = 0
	resumed, err := bench.RunLongMemEval(ctx, items, deps, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resumed.Resumed != 3 || resumed.Items != 8 {
		t.Fatalf("resumed %d of %d items", resumed.Resumed, resumed.Items)
	}
	if resumed.RetrievalOverall != rep.RetrievalOverall {
		t.Errorf("resumed overall %+v, uninterrupted %+v", resumed.RetrievalOverall, rep.RetrievalOverall)
	}
	for i := range rep.Results {
		a, b := rep.Results[i].Retrieval, resumed.Results[i].Retrieval
		if !slices.Equal(a.SessionRanking, b.SessionRanking) || !slices.Equal(a.TurnRanking, b.TurnRanking) {
			t.Errorf("%s ranked %v/%v uninterrupted, %v/%v resumed", rep.Results[i].QuestionID, a.SessionRanking, a.TurnRanking, b.SessionRanking, b.TurnRanking)
		}
	}
	cfg.K = 5
	if _, err := bench.RunLongMemEval(ctx, items, deps, cfg, nil); realm.ErrorCode(err) != realm.EConflict {
		t.Errorf("a checkpoint of k 10 resumed with k 5: %v, want conflict", err)
	}
}

// TestLongMemEvalCheckpoint resumes a run whose checkpoint holds every item, the last
// line cut by a crash: nothing runs (the deps are empty), the report is computed from the
// lines, and the cut line is dropped from the file.
func TestLongMemEvalCheckpoint(t *testing.T) {
	items, err := bench.LoadLongMemEval(lmeMini)
	if err != nil {
		t.Fatal(err)
	}
	yes, no := true, false
	lines := []string{`{"longmemeval_checkpoint":2,"mode":"full","k":10,"prime":0,"space_prefix":"","data":""}`}
	for i, it := range items {
		r := bench.LMEItemResult{QuestionID: it.QuestionID, Type: it.Type, Abstention: it.Abstention(), Correct: &no,
			Retrieval: bench.LMERetrieval{SessionScored: !it.Abstention(), SessionRecall: float64(i%2) / 2},
			Cost:      map[string]bench.LMEStageCost{bench.LMEStageJudge: {StageUsage: realm.StageUsage{Calls: 1, PromptTokens: 10}}},
			Usage:     realm.Usage{"judge": {Calls: 1, PromptTokens: 10}}}
		if i < 4 {
			r.Correct = &yes
		}
		b, _ := json.Marshal(r)
		lines = append(lines, string(b))
	}
	path := filepath.Join(t.TempDir(), "cp.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"+`{"question_id": "lme-`), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := bench.RunLongMemEval(context.Background(), items, bench.LongMemEvalDeps{Answer: noAnswer{}, Judge: bench.LLMJudge{}},
		bench.LongMemEvalConfig{K: 10, Checkpoint: path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Items 0–3 correct: ssu-1, ssa-1, pref-1, multi-1; wrong: temp-1, ku-1, ssu-2_abs, ssu-3.
	a := rep.Accuracy
	if rep.Resumed != 8 || a.Overall.Correct != 4 || a.Abstention.Total != 1 || a.Abstention.Correct != 0 ||
		a.ByType["single-session-user"] != (bench.LMECount{Correct: 1, Total: 2, Accuracy: 0.5}) || !near(a.TaskAveraged, 3.5/6) {
		t.Errorf("resumed %d; accuracy %+v", rep.Resumed, a)
	}
	// Session recall 0, .5, 0, .5, 0, .5, (abstention), .5 over 7 scored items.
	if !near(rep.RetrievalOverall.SessionRecall, 2.0/7) || rep.RetrievalOverall.Questions != 7 {
		t.Errorf("overall %+v", rep.RetrievalOverall)
	}
	if j := rep.Cost[bench.LMEStageJudge]; j.Calls != 8 || rep.LLMCost.Total.PromptTokens != 80 {
		t.Errorf("judge cost %+v, LLM cost %+v", j, rep.LLMCost.Total)
	}
	b, _ := os.ReadFile(path)
	if got := strings.Count(string(b), "\n"); got != 9 || strings.Contains(string(b), `{"question_id": "lme-`) {
		t.Errorf("checkpoint after resume: %d lines\n%s", got, b)
	}

	if _, err := bench.RunLongMemEval(context.Background(), items, bench.LongMemEvalDeps{}, bench.LongMemEvalConfig{K: 10, Checkpoint: path}, nil); realm.ErrorCode(err) != realm.EConflict {
		t.Errorf("a full run's checkpoint resumed retrieval-only: %v, want conflict", err)
	}
	_ = os.WriteFile(path, []byte("not a checkpoint\n"), 0o644)
	if _, err := bench.RunLongMemEval(context.Background(), items, bench.LongMemEvalDeps{}, bench.LongMemEvalConfig{K: 10, Checkpoint: path}, nil); realm.ErrorCode(err) != realm.EInvalid {
		t.Errorf("a file that is no checkpoint: %v, want invalid", err)
	}
}

// TestLongMemEvalCheckpointOfOtherData: a checkpoint records the data file (by name and
// content) and the space prefix; a run on other data, or under another prefix, refuses it
// with an error naming both, as it does a checkpoint of version 1, which recorded neither.
// The same content under another name resumes.
func TestLongMemEvalCheckpointOfOtherData(t *testing.T) {
	items, err := bench.LoadLongMemEval(lmeMini)
	if err != nil {
		t.Fatal(err)
	}
	no := false
	var done []string
	for _, it := range items {
		b, _ := json.Marshal(bench.LMEItemResult{QuestionID: it.QuestionID, Type: it.Type, Abstention: it.Abstention(), Correct: &no,
			Retrieval: bench.LMERetrieval{SessionScored: !it.Abstention()}})
		done = append(done, string(b))
	}
	const (
		header   = `{"longmemeval_checkpoint":2,"mode":"full","k":10,"prime":0,"space_prefix":"lme-","data":"a.json","data_sha256":"aaaa"}`
		noSHA    = `{"longmemeval_checkpoint":2,"mode":"full","k":10,"prime":0,"space_prefix":"lme-","data":"a.json"}`
		version1 = `{"longmemeval_checkpoint":1,"mode":"full","k":10,"prime":0}`
	)
	run := bench.LongMemEvalConfig{K: 10, SpacePrefix: "lme-", Data: "a.json", DataSHA256: "aaaa"}
	tests := []struct {
		name   string
		header string
		config func(c *bench.LongMemEvalConfig)
		want   string // in the error; "" resumes
	}{
		{"OK", header, func(*bench.LongMemEvalConfig) {}, ""},
		{"OKMovedFile", header, func(c *bench.LongMemEvalConfig) { c.Data = "moved/a.json" }, ""},
		{"OKByNameWithoutContent", noSHA, func(c *bench.LongMemEvalConfig) { c.DataSHA256 = "" }, ""},
		{"ErrOtherContent", header, func(c *bench.LongMemEvalConfig) { c.DataSHA256 = "bbbb" }, `data "a.json" (sha256 aaaa); this run has mode full, k 10, prime 0, space prefix "lme-", data "a.json" (sha256 bbbb)`},
		{"ErrOtherFile", noSHA, func(c *bench.LongMemEvalConfig) { c.Data, c.DataSHA256 = "b.json", "" }, `data "a.json"; this run has mode full, k 10, prime 0, space prefix "lme-", data "b.json"`},
		{"ErrOtherSpacePrefix", header, func(c *bench.LongMemEvalConfig) { c.SpacePrefix = "other-" }, `space prefix "other-"`},
		{"ErrVersion1", version1, func(*bench.LongMemEvalConfig) {}, "is of version 1, which did not record its data file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cp.jsonl")
			if err := os.WriteFile(path, []byte(tt.header+"\n"+strings.Join(done, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg := run
			cfg.Checkpoint = path
			tt.config(&cfg)
			rep, err := bench.RunLongMemEval(context.Background(), items, bench.LongMemEvalDeps{Answer: noAnswer{}, Judge: bench.LLMJudge{}}, cfg, nil)
			if tt.want == "" {
				if err != nil || rep.Resumed != len(items) {
					t.Fatalf("resumed %d of %d items: %v", rep.Resumed, len(items), err)
				}
				return
			}
			if realm.ErrorCode(err) != realm.EConflict || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want a conflict with %q", err, tt.want)
			}
			if b, _ := os.ReadFile(path); !strings.HasPrefix(string(b), tt.header+"\n") {
				t.Errorf("the refused checkpoint was rewritten:\n%s", b)
			}
		})
	}
}

// noAnswer is an answerer that is never called: every item comes from the checkpoint.
type noAnswer struct{}

func (noAnswer) Answer(context.Context, agent.AnswerInput) (agent.Answer, realm.Usage, error) {
	return agent.Answer{}, nil, realm.Errorf(realm.EInternal, "noAnswer called")
}
