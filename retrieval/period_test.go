package retrieval_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/retrieval"
)

// TestRecallOfThen: a question that names a time returns the memories of that time and
// those with no time of their own, and none dated at another time, however the recall
// reached them: the trips of March and September, linked to July's through Tom and the
// Alps, are not returned for July, nor the days before yesterday for yesterday, counted
// from the question's time. Built by the offline agent through the write path.
func TestRecallOfThen(t *testing.T) {
	ctx := context.Background()
	s, space := ingestedWithWords(t, []realm.Observation{
		{ID: "o1", SessionID: "s1", Speaker: "Ana", Content: "Went skiing in the Alps with Tom.", ObservedAt: day(3, 7)},
		{ID: "o2", SessionID: "s2", Speaker: "Ana", Content: "Started a pottery class downtown with Tom.", ObservedAt: day(3, 15)},
		{ID: "o3", SessionID: "s3", Speaker: "Ana", Content: "Tom is my brother.", ObservedAt: day(3, 20)},
		{ID: "o4", SessionID: "s4", Speaker: "Ana", Content: "Went hiking in the Alps with Tom.", ObservedAt: day(7, 4)},
		{ID: "o5", SessionID: "s5", Speaker: "Ana", Content: "Finished reading a novel about the Alps.", ObservedAt: day(7, 12)},
		{ID: "o6", SessionID: "s6", Speaker: "Ana", Content: "Went swimming in the lake with Tom.", ObservedAt: day(7, 20)},
		{ID: "o7", SessionID: "s7", Speaker: "Ana", Content: "Went climbing in the Alps with Tom.", ObservedAt: day(9, 10)},
		{ID: "o8", SessionID: "s8", Speaker: "Ana", Content: "Went to a pottery exhibition downtown with Tom.", ObservedAt: day(9, 20)},
	})
	r := retrieval.New(s, wordEmbedder{}, offline.New(offline.Options{}), retrieval.DefaultOptions(), zerolog.Nop())
	tests := []struct {
		query string
		at    time.Time
		want  string // an observation of the time asked about, among the nodes returned
	}{
		{"What did I do in July?", day(11, 1), "o4"},
		{"What did I do with Tom in the Alps in July?", day(11, 1), "o4"},
		{"What did I do with Tom yesterday?", day(9, 21), "o8"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			res, err := r.Recall(ctx, space, realm.RecallRequest{Query: tt.query, Time: &tt.at})
			if err != nil {
				t.Fatal(err)
			}
			tr, err := s.Trace(ctx, space, res.TraceID)
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Plans) != 1 || tr.Plans[0].TimeRange == nil {
				t.Fatalf("plans %+v: want one with the time asked about", tr.Plans)
			}
			w := tr.Plans[0].TimeRange
			for _, n := range res.Nodes {
				if n.Node.TStart == nil {
					continue
				}
				end := *n.Node.TStart
				if n.Node.TEnd != nil {
					end = *n.Node.TEnd
				}
				if end.Before(w.From) || n.Node.TStart.After(w.To) {
					t.Errorf("%s (%s, depth %d) is dated %s, outside %s–%s", n.Node.ID, n.Node.Content, n.Depth, n.Node.TStart.Format(time.DateOnly), w.From.Format(time.DateOnly), w.To.Format(time.DateOnly))
				}
			}
			if rankOf(res, tt.want) < 0 {
				t.Errorf("no memory of %s among %d nodes", tt.want, len(res.Nodes))
			}
		})
	}
}

// TestRecallLatest: a question asking for the last of something ranks the newest memory
// that matches it first, above older ones as close to the question; asked without "last",
// the same memories keep their order by relevance. A question about what we did at a
// time, whatever the verb ("cover"), returns what was said then, and no event or fact
// when nothing was said then, not even one with no time of its own (a reading "now"). Built by the offline agent through the write path.
func TestRecallLatest(t *testing.T) {
	ctx := context.Background()
	at := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 16, 0, 0, 0, time.UTC) }
	s, space := ingestedWithWords(t, []realm.Observation{
		{ID: "a1", SessionID: "s1", Speaker: "Ms. Rivera", Content: "Ana scored 62% on the fractions quiz.", ObservedAt: at(2025, 10, 7)},
		{ID: "a2", SessionID: "s1", Speaker: "Ms. Rivera", Content: "Next session we should review decimals.", ObservedAt: at(2025, 10, 7).Add(10 * time.Minute)},
		{ID: "b1", SessionID: "s2", Speaker: "Ms. Rivera", Content: "Ana scored 70% on the decimals quiz.", ObservedAt: at(2025, 11, 12)},
		{ID: "b2", SessionID: "s2", Speaker: "Ms. Rivera", Content: "Next session we should review long division.", ObservedAt: at(2025, 11, 12).Add(10 * time.Minute)},
		{ID: "c1", SessionID: "s3", Speaker: "Ms. Rivera", Content: "Ana scored 85% on the percentages quiz.", ObservedAt: at(2026, 3, 3)},
		{ID: "c2", SessionID: "s3", Speaker: "Ms. Rivera", Content: "Next session we should review percentages.", ObservedAt: at(2026, 3, 3).Add(10 * time.Minute)},
		{ID: "c3", SessionID: "s3", Speaker: "Ms. Rivera", Content: "Ana is now at 85% on fractions.", ObservedAt: at(2026, 3, 3).Add(20 * time.Minute)},
	})
	r := retrieval.New(s, wordEmbedder{}, offline.New(offline.Options{}), retrieval.DefaultOptions(), zerolog.Nop())
	asked := at(2026, 3, 10)
	recall := func(q string) realm.RecallResult {
		t.Helper()
		res, err := r.Recall(ctx, space, realm.RecallRequest{Query: q, Time: &asked})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for _, q := range []string{"What was Ana's last quiz score?", "What was Ana's most recent quiz score?"} {
		if res := recall(q); rankOf(res, "c1") < 0 || rankOf(res, "c1") > rankOf(res, "b1") || rankOf(res, "b1") > rankOf(res, "a1") {
			t.Errorf("%q: March's score at %d, November's at %d, October's at %d: want them newest first", q, rankOf(res, "c1"), rankOf(res, "b1"), rankOf(res, "a1"))
		}
	}
	if res := recall("What should we review in the last session?"); rankOf(res, "c2") != 0 {
		t.Errorf("the last session's plan at %d, want first", rankOf(res, "c2"))
	}
	for _, q := range []string{"What did we cover in December?", "What did we go over in December?"} {
		for _, n := range recall(q).Nodes {
			if n.Node.Type == realm.Event || n.Node.Type == realm.Fact {
				t.Errorf("%q: %s (%s): nothing was said in December", q, n.Node.ID, n.Node.Content)
			}
		}
	}
}

// TestRecallOfThenNewerVersion: a question about a plan of a time keeps the newer version
// that tells what became of it, though told and dated at another time: the October trip,
// cancelled in September.
func TestRecallOfThenNewerVersion(t *testing.T) {
	ctx := context.Background()
	s, space := ingestedWithWords(t, []realm.Observation{
		{ID: "o1", SessionID: "s1", Speaker: "Maya", Content: "Kat and I are planning a trip to Lisbon in October, just the two of us.", ObservedAt: day(6, 12)},
		{ID: "o2", SessionID: "s1", Speaker: "Sam", Content: "Lisbon is lovely in autumn.", ObservedAt: day(6, 12).Add(time.Minute)},
		{ID: "o3", SessionID: "s2", Speaker: "Maya", Content: "Kat and I cancelled the Lisbon trip. Work is too busy and flights were too expensive.", ObservedAt: day(9, 5)},
	})
	r := retrieval.New(s, wordEmbedder{}, offline.New(offline.Options{}), retrieval.DefaultOptions(), zerolog.Nop())
	at := day(11, 28)
	res, err := r.Recall(ctx, space, realm.RecallRequest{Query: "Is Maya going to Lisbon in October?", Time: &at})
	if err != nil {
		t.Fatal(err)
	}
	if rankOf(res, "o3") < 0 {
		t.Errorf("no memory of the cancellation (o3) among %d nodes", len(res.Nodes))
	}
}

// TestRecallPlannedMonthPast: a question about what was planned for a month, asked when
// the coming one is nearer than the last ("Where were we going to go in May?", in
// December), finds the plan told for the last May, though it changed since.
func TestRecallPlannedMonthPast(t *testing.T) {
	ctx := context.Background()
	s, space := ingestedWithWords(t, []realm.Observation{
		{ID: "o1", SessionID: "s1", Speaker: "user", Content: "We're going to Lisbon in May.", ObservedAt: day(4, 2)},
		{ID: "o2", SessionID: "s2", Speaker: "user", Content: "The Lisbon trip moved to June.", ObservedAt: day(4, 20)},
	})
	r := retrieval.New(s, wordEmbedder{}, offline.New(offline.Options{}), retrieval.DefaultOptions(), zerolog.Nop())
	at := day(12, 10)
	for _, q := range []string{"Where were we going to go in May?", "Where were we supposed to go in May?"} {
		res, err := r.Recall(ctx, space, realm.RecallRequest{Query: q, Time: &at})
		if err != nil {
			t.Fatal(err)
		}
		if rankOf(res, "o1") < 0 {
			t.Errorf("%q: no memory of the plan for May (o1) among %d nodes", q, len(res.Nodes))
		}
	}
}

// TestRecallLatestOfRepeats: a question about the latest of something said alike on many
// days ("Dishwasher finished", every night for two weeks) ranks the newest first, though
// every one of them is as close to the question and k is small: among memories alike the
// newer are gathered and expanded first.
func TestRecallLatestOfRepeats(t *testing.T) {
	var obs []realm.Observation
	for d := range 14 {
		at := time.Date(2026, 11, 23+d, 21, 40, 0, 0, time.UTC)
		obs = append(obs, realm.Observation{ID: fmt.Sprintf("d%02d", d), SessionID: "bridge-" + at.Format(time.DateOnly), Speaker: "dishwasher", Role: "tool", Content: "Dishwasher finished", ObservedAt: at})
	}
	s, space := ingestedWithWords(t, obs)
	r := retrieval.New(s, wordEmbedder{}, offline.New(offline.Options{}), retrieval.DefaultOptions(), zerolog.Nop())
	asked := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	res, err := r.Recall(context.Background(), space, realm.RecallRequest{Query: "When did the dishwasher last finish?", K: 4, Time: &asked})
	if err != nil {
		t.Fatal(err)
	}
	if rankOf(res, "d13") != 0 {
		t.Errorf("6 December's at %d, want first", rankOf(res, "d13"))
	}
}
