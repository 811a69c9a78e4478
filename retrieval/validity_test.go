package retrieval_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/retrieval"
)

// TestRecallValidity: a fact superseded by a move is demoted for a question about the
// present, kept for one about the past or about something else it says (the dog), and its
// newer version is offered either way; the trace says which happened. Built by the offline
// agent through the write path.
func TestRecallValidity(t *testing.T) {
	ctx := context.Background()
	s, space := ingestedWithWords(t, []realm.Observation{
		{ID: "o1", SessionID: "s1", Speaker: "Nora", Content: "I live in Lisbon now, in a small flat near the river with my dog Biscuit.", ObservedAt: day(1, 10)},
		{ID: "o2", SessionID: "s2", Speaker: "Sam", Content: "I finally finished painting my kitchen yellow.", ObservedAt: day(2, 14)},
		{ID: "o3", SessionID: "s3", Speaker: "Nora", Content: "Big news: we moved from Lisbon to Berlin last week.", ObservedAt: day(3, 20)},
	})
	r := retrieval.New(s, wordEmbedder{}, offline.New(offline.Options{}), retrieval.DefaultOptions(), zerolog.Nop())
	at := day(4, 1)
	actions := func(traceID string) map[string]int {
		tr, err := s.Trace(ctx, space, traceID)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int{}
		for _, v := range tr.Validity {
			out[v.Action]++
		}
		return out
	}
	tests := []struct {
		name, query string
		newFirst    bool
		action      string
	}{
		{"Present", "Where does Nora live now?", true, realm.ValidityDemoted},
		{"Past", "Where did Nora live before?", false, realm.ValidityKept},
		{"Aside", "What is the name of Nora's dog?", false, realm.ValidityKept},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := r.Recall(ctx, space, realm.RecallRequest{Query: tt.query, Time: &at})
			if err != nil {
				t.Fatal(err)
			}
			oldRank, newRank := rankOf(res, "o1"), rankOf(res, "o3")
			if oldRank < 0 || newRank < 0 {
				t.Fatalf("ranks old %d, new %d: both must be recalled", oldRank, newRank)
			}
			if (newRank < oldRank) != tt.newFirst {
				t.Errorf("new at %d, old at %d; want new first: %v", newRank, oldRank, tt.newFirst)
			}
			if !tt.newFirst && oldRank > 2 {
				t.Errorf("old fact at %d for a question about the past or the dog, want the top 3", oldRank)
			}
			got := actions(res.TraceID)
			if got[tt.action] == 0 {
				t.Errorf("trace validity %v, want a %q", got, tt.action)
			}
		})
	}
	// Asked at a time before the move, nothing is superseded yet.
	before := day(2, 1)
	res, err := r.Recall(ctx, space, realm.RecallRequest{Query: "Where does Nora live now?", Time: &before})
	if err != nil {
		t.Fatal(err)
	}
	if got := actions(res.TraceID); len(got) != 0 {
		t.Errorf("validity %v before the change, want none", got)
	}
}

// TestRecallCorrectedForThePast: a number corrected ("412, not 214", "Actually … is 412")
// supersedes the memory that stated the old one, which never held: a question in the past
// tense ranks the correction first and demotes the corrected memory, as one about the
// present does; a move, which held until it changed, keeps the old home for the past
// (TestRecallValidity). Built by the offline agent through the write path.
func TestRecallCorrectedForThePast(t *testing.T) {
	ctx := context.Background()
	for _, correction := range []string{
		"Correction: the Smith 2021 study's sample size was 412, not 214.",
		"Actually the sample size of the Smith 2021 study is 412.",
	} {
		t.Run(correction, func(t *testing.T) {
			s, space := ingestedWithWords(t, []realm.Observation{
				{ID: "o1", SessionID: "s1", Speaker: "Dana", Content: "The Smith 2021 study had a sample size of 214 adolescents.", ObservedAt: day(1, 10)},
				{ID: "o2", SessionID: "s2", Speaker: "Dana", Content: correction, ObservedAt: day(3, 20)},
			})
			r := retrieval.New(s, wordEmbedder{}, offline.New(offline.Options{}), retrieval.DefaultOptions(), zerolog.Nop())
			at := day(4, 1)
			for _, q := range []string{"How many adolescents were in the Smith 2021 study?", "What is the sample size of the Smith 2021 study?"} {
				res, err := r.Recall(ctx, space, realm.RecallRequest{Query: q, Time: &at})
				if err != nil {
					t.Fatal(err)
				}
				oldRank, newRank := rankOf(res, "o1"), rankOf(res, "o2")
				if newRank < 0 || oldRank >= 0 && oldRank < newRank {
					t.Errorf("%q: the correction at %d, the corrected memory at %d; want the correction first", q, newRank, oldRank)
				}
				tr, err := s.Trace(ctx, space, res.TraceID)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.ContainsFunc(tr.Validity, func(v realm.TraceValidity) bool { return v.Action == realm.ValidityDemoted }) {
					t.Errorf("%q: trace validity %+v, want the corrected memory demoted", q, tr.Validity)
				}
			}
		})
	}
}

// TestRecallCorrectedAsideForThePast: a memory a correction superseded is demoted for a
// question about the past only when the question is about what was corrected, not about
// something else it says (Anna, Porto); and a whole turn that holds the corrected clause
// says the wrong number too: for a question about that number it is demoted with the
// clause, the correction first, but not for one about what else it says. Built by the
// offline agent through the write path.
func TestRecallCorrectedAsideForThePast(t *testing.T) {
	ctx := context.Background()
	const correction = "Correction: the Smith 2021 study's sample size was 412, not 214."
	tests := []struct {
		name, said string
		queries    map[string]bool // question → the memories saying 214 demoted, the correction first
	}{
		{"Whole", "We met Anna in Porto yesterday; the Smith 2021 study had a sample size of 214 adolescents.", map[string]bool{
			"Where did we meet Anna?":                            false,
			"Who did we meet in Porto?":                          false,
			"How many adolescents were in the Smith 2021 study?": true,
		}},
		{"Clause", "I live in Porto, I'm on the Basic plan, and the Smith 2021 study had a sample size of 214 adolescents.", map[string]bool{
			"Where did Dana live?":                              false,
			"What was the sample size of the Smith 2021 study?": true,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, space := ingestedWithWords(t, []realm.Observation{
				{ID: "o1", SessionID: "s1", Speaker: "Dana", Content: tt.said, ObservedAt: day(1, 10)},
				{ID: "o2", SessionID: "s2", Speaker: "Dana", Content: correction, ObservedAt: day(3, 20)},
			})
			r := retrieval.New(s, wordEmbedder{}, offline.New(offline.Options{}), retrieval.DefaultOptions(), zerolog.Nop())
			at := day(4, 1)
			for q, demoted := range tt.queries {
				res, err := r.Recall(ctx, space, realm.RecallRequest{Query: q, Time: &at})
				if err != nil {
					t.Fatal(err)
				}
				oldRank, newRank := rankOf(res, "o1"), rankOf(res, "o2")
				if oldRank < 0 || newRank >= 0 && (newRank < oldRank) != demoted {
					t.Errorf("%q: the correction at %d, the first memory saying 214 at %d; want the correction first: %v", q, newRank, oldRank, demoted)
				}
				tr, err := s.Trace(ctx, space, res.TraceID)
				if err != nil {
					t.Fatal(err)
				}
				if got := slices.ContainsFunc(tr.Validity, func(v realm.TraceValidity) bool {
					return v.Action == realm.ValidityDemoted && v.ID == res.Nodes[oldRank].Node.ID
				}); got != demoted {
					t.Errorf("%q: the first memory saying 214 demoted %v, want %v (trace %+v)", q, got, demoted, tr.Validity)
				}
			}
		})
	}
}

// TestRecallWholeOfAnEndedClause: a move supersedes the clause of an older message that
// told the home, and the message, which also tells a plan and an email, holds; it is
// demoted below the move for a question closer to the home than to the message, and
// keeps its score for one about the email.
func TestRecallWholeOfAnEndedClause(t *testing.T) {
	ctx := context.Background()
	s, space := ingestedWithWords(t, []realm.Observation{
		{ID: "o1", SessionID: "s1", Speaker: "Ana", Content: "I live in Lisbon, I'm on the Basic plan, and my email is ana@example.com.", ObservedAt: day(1, 10)},
		{ID: "o2", SessionID: "s2", Speaker: "Ana", Content: "I moved to Berlin.", ObservedAt: day(3, 20)},
	})
	nodes, _, err := s.ListMemories(ctx, space, cypher.MemoryFilter{}, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	var whole, clause realm.Node
	for _, n := range nodes {
		switch {
		case strings.HasPrefix(n.Content, "Ana lives in Lisbon, "):
			whole = n
		case strings.HasPrefix(n.Content, "Ana lives in Lisbon"):
			clause = n
		}
	}
	if whole.ID == "" || clause.ID == "" || whole.ValidUntil != nil || clause.ValidUntil == nil {
		t.Fatalf("whole %q until %v, clause %q until %v: want the clause alone ended", whole.Content, whole.ValidUntil, clause.Content, clause.ValidUntil)
	}
	r := retrieval.New(s, wordEmbedder{}, offline.New(offline.Options{}), retrieval.DefaultOptions(), zerolog.Nop())
	at := day(4, 1)
	for _, tt := range []struct {
		query   string
		demoted bool
	}{
		{"Which city Ana lives in now?", true},
		{"What is Ana's email?", false},
	} {
		res, err := r.Recall(ctx, space, realm.RecallRequest{Query: tt.query, Time: &at})
		if err != nil {
			t.Fatal(err)
		}
		tr, err := s.Trace(ctx, space, res.TraceID)
		if err != nil {
			t.Fatal(err)
		}
		demoted := slices.ContainsFunc(tr.Validity, func(v realm.TraceValidity) bool { return v.ID == whole.ID && v.Action == realm.ValidityDemoted })
		if demoted != tt.demoted {
			t.Errorf("%q: whole demoted %v, want %v (trace %+v)", tt.query, demoted, tt.demoted, tr.Validity)
		}
		moved := slices.IndexFunc(res.Nodes, func(n realm.RecalledNode) bool { return slices.Contains(n.Node.Sources, "o2") })
		held := slices.IndexFunc(res.Nodes, func(n realm.RecalledNode) bool { return n.Node.ID == whole.ID })
		if tt.demoted && (moved < 0 || held >= 0 && held < moved) {
			t.Errorf("%q: move at %d, whole at %d, want the move first", tt.query, moved, held)
		}
	}
}

// ingestedWithWords writes obs into a new space through the offline agent and the word
// embedder.
func ingestedWithWords(t *testing.T, obs []realm.Observation) (*cypher.Store, string) {
	t.Helper()
	ctx := context.Background()
	s := cyphertest.MustOpen(t)
	space := cyphertest.NewSpace(t)
	p := construction.New(s, offline.New(offline.Options{}), wordEmbedder{}, construction.Options{Owner: "test-" + space}, zerolog.Nop())
	t.Cleanup(func() { p.Close(ctx) })
	if _, err := p.Ingest(ctx, space, obs); err != nil {
		t.Fatal(err)
	}
	return s, space
}

// day is a day of 2023 at ten in the morning.
func day(m time.Month, d int) time.Time { return time.Date(2023, m, d, 10, 0, 0, 0, time.UTC) }

// TestRecallNewerFirst: a question about the present ranks the newer version above every
// memory of the superseded message, one about the past a memory of the older message
// above the newer version (or without it); built by
// the offline agent through the write path. Address: the exchange that quotes the old
// address with the reply to it still holds (the change ended the turn alone) and says the
// old address in the question's words. Flights: the question names Rome, which only the
// older booking names, yet asks about the flights that changed. PlanCarriedOut: a question
// in the past tense about what was planned, not about the plan, asks what happened.
func TestRecallNewerFirst(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name      string
		obs       []realm.Observation
		now, past string
	}{
		{"Address", []realm.Observation{
			{ID: "old", SessionID: "s1", Speaker: "Anna Schmidt", Content: "Anna Schmidt's address is Hauptstrasse 5.", ObservedAt: day(1, 10)},
			{ID: "reply", SessionID: "s1", Speaker: "Support", Content: "Thanks Anna, noted, we deliver where you live.", ObservedAt: day(1, 10).Add(time.Minute)},
			{ID: "new", SessionID: "s2", Speaker: "Anna Schmidt", Content: "My new address is Lindenweg 12.", ObservedAt: day(3, 20)},
		}, "Where does Anna Schmidt live now?", "Where did Anna Schmidt live before?"},
		{"Flights", []realm.Observation{
			{ID: "old", SessionID: "s1", Speaker: "Kenji", Content: "Booked ANA NH215 Tokyo Haneda to Frankfurt then LH1454 to Rome, departing May 16 at 11:05.", ObservedAt: day(1, 10)},
			{ID: "new", SessionID: "s2", Speaker: "Kenji", Content: "New flights: NH223 and LH1456, departing June 13 at 10:20.", ObservedAt: day(3, 20)},
		}, "Which flights are we taking to Rome?", "Which flights had we booked to Rome first?"},
		{"PlanCarriedOut", []realm.Observation{
			{ID: "old", SessionID: "s1", Speaker: "Gwen", Content: "I'm planning to run the Boston marathon in March.", ObservedAt: day(1, 10)},
			{ID: "reply", SessionID: "s1", Speaker: "Hal", Content: "That's ambitious, start training early.", ObservedAt: day(1, 10).Add(time.Minute)},
			{ID: "new", SessionID: "s2", Speaker: "Gwen", Content: "I ran the Boston marathon on Sunday and finished in four hours.", ObservedAt: day(3, 20)},
		}, "Did Gwen run the Boston marathon?", "What was Gwen planning to do?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, space := ingestedWithWords(t, tt.obs)
			r := retrieval.New(s, wordEmbedder{}, offline.New(offline.Options{}), retrieval.DefaultOptions(), zerolog.Nop())
			at := day(4, 1)
			for _, q := range []struct {
				query    string
				newFirst bool
			}{{tt.now, true}, {tt.past, false}} {
				res, err := r.Recall(ctx, space, realm.RecallRequest{Query: q.query, Time: &at})
				if err != nil {
					t.Fatal(err)
				}
				first, second := rankOf(res, "new"), rankOf(res, "old")
				if !q.newFirst {
					first, second = second, first
				}
				if first < 0 || second >= 0 && second < first {
					t.Errorf("%q: new at %d, old at %d (-1: not recalled); want new first: %v", q.query, rankOf(res, "new"), rankOf(res, "old"), q.newFirst)
				}
			}
		})
	}
}

// rankOf is the 0-based rank of the first recalled event or fact derived from observation
// obsID (an exchange quoting it counts), -1 when none is.
func rankOf(res realm.RecallResult, obsID string) int {
	return slices.IndexFunc(res.Nodes, func(n realm.RecalledNode) bool {
		return n.Node.Type != realm.Entity && n.Node.Type != realm.Episode && slices.Contains(n.Node.Sources, obsID)
	})
}

// TestRecallNewerVersionsInTurn: a reading replaced three times over leads, through each
// newer version, to the one that holds: for a question about the present it takes the
// place of the oldest, which the question's words reach best, and comes first; for one
// about how it changed it is recalled beside the oldest, though the question's words
// reach it least. Built by the offline agent through the write path.
func TestRecallNewerVersionsInTurn(t *testing.T) {
	ctx := context.Background()
	s, space := ingestedWithWords(t, []realm.Observation{
		{ID: "r1", SessionID: "s1", Speaker: "Rivera", Content: "Julia scored 60% on the fractions quiz.", ObservedAt: day(1, 10)},
		{ID: "d1", SessionID: "s1", Speaker: "Rivera", Content: "Julia scored 66% on the decimals quiz.", ObservedAt: day(1, 11)},
		{ID: "r2", SessionID: "s2", Speaker: "Rivera", Content: "Julia is now at 63% on fractions.", ObservedAt: day(2, 10)},
		{ID: "q1", SessionID: "s2", Speaker: "Rivera", Content: "Julia scored 58% on the ratios quiz.", ObservedAt: day(2, 11)},
		{ID: "r3", SessionID: "s3", Speaker: "Rivera", Content: "Julia is now at 67% on fractions.", ObservedAt: day(3, 10)},
		{ID: "r4", SessionID: "s4", Speaker: "Rivera", Content: "Julia is now at 79% on fractions.", ObservedAt: day(4, 10)},
	})
	r := retrieval.New(s, wordEmbedder{}, offline.New(offline.Options{}), retrieval.DefaultOptions(), zerolog.Nop())
	at := day(5, 1)
	for _, q := range []struct {
		query    string
		k        int
		newFirst bool
	}{
		{"What is Julia's score on the fractions quiz now?", 3, true},
		{"How did Julia's score on the fractions quiz change?", 4, false},
	} {
		res, err := r.Recall(ctx, space, realm.RecallRequest{Query: q.query, Time: &at, K: q.k})
		if err != nil {
			t.Fatal(err)
		}
		newest, oldest := rankOf(res, "r4"), rankOf(res, "r1")
		if newest < 0 || q.newFirst && newest != 0 {
			var got []string
			for _, n := range res.Nodes {
				got = append(got, n.Node.Content)
			}
			t.Errorf("%q: the reading that holds at %d, the oldest at %d (-1: not recalled), want it recalled (first: %v); recalled %q", q.query, newest, oldest, q.newFirst, got)
		}
	}
}

// amendedClause: a contract's notice period, and an amendment that changes it from a
// day to come, told in words.
var amendedClause = []realm.Observation{
	{ID: "c1", SessionID: "contract", Speaker: "Paralegal", Content: "Section 7.2 (Termination for Convenience): the termination notice period is 30 days written notice.", ObservedAt: time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)},
	{ID: "a2", SessionID: "amend2", Speaker: "Paralegal", Content: "Amendment 2, effective March 1 2027: the notice period in Section 7.2 is changed to 60 days.", ObservedAt: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)},
}

// TestRecallChangeToCome: a change that takes effect on a day to come has not begun to
// hold before it: asked before that day, the clause in force comes first and the
// amendment just below it, findable; asked about a time after it ("What will the notice
// period be in April 2027?", or with a time in April), the amendment comes first, though
// it is dated the one day it took effect. Built by the offline agent through the write path.
func TestRecallChangeToCome(t *testing.T) {
	ctx := context.Background()
	s, space := ingestedWithWords(t, amendedClause)
	r := retrieval.New(s, wordEmbedder{}, offline.New(offline.Options{}), retrieval.DefaultOptions(), zerolog.Nop())
	december, april := time.Date(2026, 12, 7, 22, 0, 0, 0, time.UTC), time.Date(2027, 4, 1, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		query    string
		at       time.Time
		newFirst bool
	}{
		{"What is the notice period in Section 7.2?", december, false},
		{"What is the termination notice period?", december, false},
		{"What will the notice period be in April 2027?", december, true},
		{"What is the notice period in Section 7.2?", april, true},
	} {
		res, err := r.Recall(ctx, space, realm.RecallRequest{Query: tt.query, Time: &tt.at})
		if err != nil {
			t.Fatal(err)
		}
		oldRank, newRank := rankOf(res, "c1"), rankOf(res, "a2")
		if oldRank < 0 || newRank < 0 || (newRank < oldRank) != tt.newFirst {
			t.Errorf("%q as of %s: amendment at %d, clause at %d; want both, the amendment first: %v", tt.query, tt.at.Format(time.DateOnly), newRank, oldRank, tt.newFirst)
		}
	}
}
