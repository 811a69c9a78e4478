package offline_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/agent/offline"
)

func TestOfflinePlanSeeds(t *testing.T) {
	d := offline.New(offline.Options{})
	now := time.Date(2023, 5, 24, 0, 0, 0, 0, time.UTC)
	plans, _, err := d.PlanSeeds(context.Background(), agent.PlanInput{Query: "What did Caroline's sister paint in May 2023?", Time: now})
	if err != nil || len(plans) != 1 {
		t.Fatalf("plans %v, err %v", plans, err)
	}
	p := plans[0]
	if p.Mode != realm.HybridMatch || !slices.Equal(p.Keywords, []string{"caroline", "sister", "paint"}) {
		t.Errorf("plan %+v", p)
	}
	if p.TimeRange == nil || p.TimeRange.From.Month() != time.May {
		t.Errorf("time range %v", p.TimeRange)
	}
	plans, _, _ = d.PlanSeeds(context.Background(), agent.PlanInput{Query: "What is it?", Time: now})
	if plans[0].Mode != realm.QueryMatch {
		t.Errorf("a query without keywords: %+v", plans[0])
	}
}

// TestOfflinePlanSeedsIDs: the number of an identifier is a keyword, one written in groups
// also whole, and a query that is only an identifier searches the keyword index; counts,
// short numbers, ranges and years are not, but for a year after an author's name, part of
// the citation ("Smith et al. 2021" is not Smith's 2019 paper); "et al." is in every
// citation, no keyword; a month's year stays a time.
func TestOfflinePlanSeedsIDs(t *testing.T) {
	d := offline.New(offline.Options{})
	now := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		query string
		want  []string
		mode  realm.MatchMode
	}{
		{"T-7788", []string{"7788"}, realm.HybridMatch},
		{"What about ticket T-7788?", []string{"ticket", "7788"}, realm.HybridMatch},
		{"Where is order A-10456?", []string{"order", "10456"}, realm.HybridMatch},
		{"Is PR #512 merged?", []string{"pr", "merged", "512"}, realm.HybridMatch},
		{"Which card ends in 4417?", []string{"card", "ends", "4417"}, realm.HybridMatch},
		{"What happened in 2023?", []string{"happened"}, realm.HybridMatch},
		{"How many of the 12 tickets are open?", []string{"tickets", "open"}, realm.HybridMatch},
		{"Did she run 5 km?", []string{"run", "km"}, realm.HybridMatch},
		{"Whose number is 0088 412 390?", []string{"number", "0088", "0088412390"}, realm.HybridMatch},
		{"Is 4417-203-998 my number?", []string{"number", "4417", "4417203998"}, realm.HybridMatch},
		{"Are rooms 14-18 free?", []string{"rooms", "free"}, realm.HybridMatch},
		{"What is the notice period in Section 28.9?", []string{"notice", "period", "section", "28.9"}, realm.HybridMatch},
		{"Compare § 7.2 and clause 12.10", []string{"compare", "clause", "7.2", "12.10"}, realm.HybridMatch},
		{"What were the results of Smith et al. 2021?", []string{"results", "smith", "2021"}, realm.HybridMatch},
		{"What did Smith et al. (2021) find?", []string{"smith", "find", "2021"}, realm.HybridMatch},
		{"What did Garcia & Lee, 2019 report?", []string{"garcia", "lee", "report", "2019"}, realm.HybridMatch},
		{"What did Smith find in 2021?", []string{"smith", "find"}, realm.HybridMatch},
		{"What did Maria donate in December 2023?", []string{"maria", "donate"}, realm.HybridMatch},
	} {
		plans, _, err := d.PlanSeeds(context.Background(), agent.PlanInput{Query: tt.query, Time: now})
		if err != nil || len(plans) != 1 || !slices.Equal(plans[0].Keywords, tt.want) || plans[0].Mode != tt.mode {
			t.Errorf("%q: plans %+v (%v), want keywords %q, mode %s", tt.query, plans, err, tt.want, tt.mode)
		}
	}
}

// The planner's time policy: which expressions filter the seeds, how far the window
// reaches, and which words stay among the keywords.
func TestOfflinePlanSeedsTime(t *testing.T) {
	now := time.Date(2024, 1, 13, 15, 0, 0, 0, time.UTC) // a Saturday
	day := func(m time.Month, d int) time.Time { return time.Date(2023, m, d, 0, 0, 0, 0, time.UTC) }
	end := func(t time.Time) time.Time { return t.Add(-time.Second) } // the window ends a second before
	tests := []struct {
		name, q  string
		lag      time.Duration
		from, to time.Time // zero: no window
		keywords []string
	}{
		{"a day without its year admits three days after, and keeps its words",
			"What did John's teammates give him when they met on Aug 15th?", 0,
			day(8, 15), end(day(8, 19)), []string{"john", "teammates", "give", "met", "aug", "15th"}},
		{"a day with its year: the window holds its words",
			"What did Tim say on 16 November, 2023?", 0,
			day(11, 16), end(day(11, 20)), []string{"tim", "say"}},
		{"the lag is an option",
			"What did Tim say on 16 November, 2023?", 24 * time.Hour,
			day(11, 16), end(day(11, 18)), []string{"tim", "say"}},
		{"a month without its year: no lag, the month stays a keyword",
			"Which country was Tim visiting in November?", 0,
			day(11, 1), end(day(12, 1)), []string{"country", "tim", "visiting", "november"}},
		{"a week of a month without its year: that week, no lag, the month stays a keyword",
			"Which country was Tim visiting in the second week of November?", 0,
			day(11, 8), end(day(11, 15)), []string{"country", "tim", "visiting", "second", "november"}},
		{"a month with its year",
			"What did John organise in October 2023?", 0,
			day(10, 1), end(day(11, 1)), []string{"john", "organise"}},
		{"a short relative span filters, admits three days after, and its words leave the keywords",
			"What event did John volunteer at last weekend?", 0,
			time.Date(2024, 1, 6, 0, 0, 0, 0, time.UTC), end(time.Date(2024, 1, 11, 0, 0, 0, 0, time.UTC)), []string{"event", "john", "volunteer"}},
		{"yesterday filters",
			"What did Joanna write yesterday?", 0,
			time.Date(2024, 1, 12, 0, 0, 0, 0, time.UTC), end(time.Date(2024, 1, 16, 0, 0, 0, 0, time.UTC)), []string{"joanna", "write"}},
		{"days ago filter",
			"What did Joanna cook two days ago?", 0,
			time.Date(2024, 1, 11, 0, 0, 0, 0, time.UTC), end(time.Date(2024, 1, 15, 0, 0, 0, 0, time.UTC)), []string{"joanna", "cook"}},
		{"a weekend without which: the last one",
			"What did Joanna bake over the weekend?", 0,
			time.Date(2024, 1, 13, 0, 0, 0, 0, time.UTC), end(time.Date(2024, 1, 18, 0, 0, 0, 0, time.UTC)), []string{"joanna", "bake"}},
		{"a relative week filters, without lag",
			"What did Joanna find last week?", 0,
			time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), end(time.Date(2024, 1, 8, 0, 0, 0, 0, time.UTC)), []string{"joanna", "find"}},
		{"a relative season filters, its words out",
			"Where did Joanna go last summer?", 0,
			day(6, 1), end(day(9, 1)), []string{"joanna"}},
		{"a relative month",
			"What did Joanna buy this month?", 0,
			time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), end(time.Date(2024, 2, 1, 0, 0, 0, 0, time.UTC)), []string{"joanna", "buy"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plans, _, err := offline.New(offline.Options{TimeLag: tt.lag}).PlanSeeds(context.Background(), agent.PlanInput{Query: tt.q, Time: now})
			if err != nil || len(plans) != 1 {
				t.Fatalf("plans %v, err %v", plans, err)
			}
			p := plans[0]
			switch w := p.TimeRange; {
			case tt.from.IsZero() && w != nil:
				t.Errorf("window %v – %v, want none", w.From, w.To)
			case !tt.from.IsZero() && (w == nil || !w.From.Equal(tt.from) || !w.To.Equal(tt.to)):
				t.Errorf("window %v, want %v – %v", w, tt.from, tt.to)
			}
			if !slices.Equal(p.Keywords, tt.keywords) {
				t.Errorf("keywords %q, want %q", p.Keywords, tt.keywords)
			}
		})
	}
}

// A question that names a time as the end of what it asks about ("by", "before", or
// after another time counted back from it) gets a window open at the start, up to that
// time's window's end: every memory up to then may answer it.
func TestOfflinePlanSeedsCountsBack(t *testing.T) {
	now := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for q, to := range map[string]time.Time{
		"How many video game tournaments has Nate won by July 10, 2022?":      time.Date(2022, 7, 13, 23, 59, 59, 0, time.UTC),
		"What did John do the week before August 3, 2023 involving his kids?": time.Date(2023, 8, 6, 23, 59, 59, 0, time.UTC),
		"What did Joanna just finish last Friday on 23 January, 2022?":        time.Date(2022, 1, 26, 23, 59, 59, 0, time.UTC),
		"What did Maria participate in last weekend before April 10, 2023?":   time.Date(2023, 4, 13, 23, 59, 59, 0, time.UTC),
	} {
		plans, _, err := offline.New(offline.Options{}).PlanSeeds(context.Background(), agent.PlanInput{Query: q, Time: now})
		if err != nil || len(plans) != 1 {
			t.Fatalf("%s: plans %v, err %v", q, plans, err)
		}
		if w := plans[0].TimeRange; w == nil || !w.From.IsZero() || !w.To.Equal(to) {
			t.Errorf("%s: window %v, want up to %v", q, w, to)
		}
	}
	// The end of a span named is no count back: the window does not reach back before it.
	for _, q := range []string{"Where was Ana between March 3 and March 9 2023?", "What did Ana read from May 1 to May 5, 2023?"} {
		plans, _, err := offline.New(offline.Options{}).PlanSeeds(context.Background(), agent.PlanInput{Query: q, Time: now})
		if err != nil || len(plans) != 1 {
			t.Fatalf("%s: plans %v, err %v", q, plans, err)
		}
		if w := plans[0].TimeRange; w == nil || w.From.IsZero() {
			t.Errorf("%s: window %v, want one that does not reach back before the span", q, w)
		}
	}
}

// A question of nothing but a time asks for what was told then (a short window reaching
// three days after it); over more than a month it is a hybrid plan, for its window to
// filter the seeds, of the question without the time: "summer" draws no memory that says it.
func TestOfflinePlanSeedsOnlyTime(t *testing.T) {
	now := time.Date(2026, 11, 29, 23, 0, 0, 0, time.UTC) // a Sunday
	day := func(m time.Month, d int) time.Time { return time.Date(2026, m, d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		q, query string
		from, to time.Time // SaidIn; zero: none
	}{
		{"What did I do last weekend?", "What did I do last weekend?", day(11, 21), day(11, 26).Add(-time.Second)},
		{"What happened last week?", "What happened last week?", day(11, 16), day(11, 23).Add(-time.Second)},
		{"Where did I go two days ago?", "Where did I go two days ago?", day(11, 27), day(12, 1).Add(-time.Second)},
		{"What did I do this month?", "What did I do this month?", day(11, 1), day(12, 1).Add(-time.Second)},
		{"What did I do over the summer?", "What did I do ?", time.Time{}, time.Time{}},
		{"What did I do in 2025?", "What did I do ?", time.Time{}, time.Time{}},
		// A time to come: nothing is told then yet; its window filters what was planned for it.
		{"What do I have tomorrow?", "What do I have ?", time.Time{}, time.Time{}},
		{"What happens next week?", "What happens next week?", time.Time{}, time.Time{}},
	}
	for _, tt := range tests {
		plans, _, err := offline.New(offline.Options{}).PlanSeeds(context.Background(), agent.PlanInput{Query: tt.q, Time: now})
		if err != nil || len(plans) != 1 {
			t.Fatalf("%q: plans %v, err %v", tt.q, plans, err)
		}
		p := plans[0]
		if p.TimeRange == nil || p.Query != tt.query || slices.ContainsFunc(p.Keywords, func(k string) bool { return k != "happened" && k != "happens" }) {
			t.Errorf("%q: plan %+v, want the query %q, a window and no keyword but \"happened\" or \"happens\"", tt.q, p, tt.query)
		}
		switch in := p.SaidIn; {
		case tt.from.IsZero() && (in != nil || p.Mode != realm.HybridMatch):
			t.Errorf("%q: said in %v, mode %s, want a hybrid plan", tt.q, in, p.Mode)
		case !tt.from.IsZero() && (in == nil || !in.From.Equal(tt.from) || !in.To.Equal(tt.to)):
			t.Errorf("%q: said in %v, want %v – %v", tt.q, in, tt.from, tt.to)
		}
	}
}

// A question of nothing but a past time also asks for what is dated then, told whenever:
// its span, without the window's lag, is DatedIn; so does one of what we did then, besides
// what was said then.
func TestOfflinePlanSeedsDatedIn(t *testing.T) {
	now := time.Date(2026, 11, 29, 23, 0, 0, 0, time.UTC) // a Sunday
	day := func(m time.Month, d int) time.Time { return time.Date(2026, m, d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		q        string
		from, to time.Time // DatedIn; zero: none
	}{
		{"Where did I go last weekend?", day(11, 21), day(11, 23).Add(-time.Second)},
		{"What happened last week?", day(11, 16), day(11, 23).Add(-time.Second)},
		{"What did we do last Friday?", day(11, 27), day(11, 28).Add(-time.Second)},   // what was said then, and what we did then
		{"What did we do on October 13?", day(10, 13), day(10, 14).Add(-time.Second)}, // a day named by its date, its month a keyword
		{"What happened on 13 October 2026?", day(10, 13), day(10, 14).Add(-time.Second)},
		{"What did Caroline do on October 13?", time.Time{}, time.Time{}},
		{"What did we talk about yesterday?", time.Time{}, time.Time{}}, // what was said then only
		{"What did we decide last week?", time.Time{}, time.Time{}},
		{"What did Caroline do last weekend?", time.Time{}, time.Time{}}, // not nothing but a time
	}
	for _, tt := range tests {
		plans, _, err := offline.New(offline.Options{}).PlanSeeds(context.Background(), agent.PlanInput{Query: tt.q, Time: now})
		if err != nil || len(plans) != 1 {
			t.Fatalf("%q: plans %v, err %v", tt.q, plans, err)
		}
		switch in := plans[0].DatedIn; {
		case tt.from.IsZero() && in != nil:
			t.Errorf("%q: dated in %v – %v, want none", tt.q, in.From, in.To)
		case !tt.from.IsZero() && (in == nil || !in.From.Equal(tt.from) || !in.To.Equal(tt.to)):
			t.Errorf("%q: dated in %v, want %v – %v", tt.q, in, tt.from, tt.to)
		}
	}
}

// A question ahead, of a time to come or of what one has then, reads its time forward
// and filters by that time alone, in a hybrid plan of the question without it: what is
// planned for then, and what has no time of its own. What it asks with ("doing") is no
// keyword.
func TestOfflinePlanSeedsAhead(t *testing.T) {
	now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.FixedZone("", -5*3600)) // a Sunday
	day := func(m time.Month, d int) time.Time { return time.Date(2026, m, d, 0, 0, 0, 0, now.Location()) }
	tests := []struct {
		q        string
		from, to time.Time
		keywords []string
	}{
		{"What do I have tomorrow?", day(11, 30), day(12, 1), nil},
		{"What do I have today?", day(11, 29), day(11, 30), nil},
		{"What's on today?", day(11, 29), day(11, 30), nil},
		{"What do I have on Tuesday?", day(12, 1), day(12, 2), nil},
		{"What am I doing this weekend?", day(11, 28), day(11, 30), nil},
		// A date without its year keeps its words (TestOfflinePlanSeedsTime).
		{"Do I have anything on December 3?", day(12, 3), day(12, 4), []string{"december"}},
	}
	for _, tt := range tests {
		plans, _, err := offline.New(offline.Options{}).PlanSeeds(context.Background(), agent.PlanInput{Query: tt.q, Time: now})
		if err != nil || len(plans) != 1 {
			t.Fatalf("%q: plans %v, err %v", tt.q, plans, err)
		}
		p := plans[0]
		if w := p.TimeRange; w == nil || !w.From.Equal(tt.from) || !w.To.Equal(tt.to.Add(-time.Second)) {
			t.Errorf("%q: window %v, want %v – %v", tt.q, w, tt.from, tt.to)
		}
		if p.SaidIn != nil || p.DatedIn != nil || p.Mode != realm.HybridMatch || !slices.Equal(p.Keywords, tt.keywords) {
			t.Errorf("%q: plan %+v, want a hybrid plan with the keywords %q, without SaidIn or DatedIn", tt.q, p, tt.keywords)
		}
	}
}

// TestOfflinePlanSeedsSaidIn: a question about what was said at a time asks for the
// memories said then; relative times count from the question's time.
func TestOfflinePlanSeedsSaidIn(t *testing.T) {
	now := time.Date(2024, 1, 13, 15, 0, 0, 0, time.UTC) // a Saturday
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		q        string
		from, to time.Time // zero: not SaidIn
	}{
		{"What did we talk about yesterday?", day(2024, 1, 12), day(2024, 1, 13).Add(-time.Second)},
		{"What did Tim say about his injury on 16 November, 2023?", day(2023, 11, 16), day(2023, 11, 17).Add(-time.Second)},
		{"What was Tim's huge writing issue last week, as mentioned on November 6, 2023?", day(2023, 11, 6), day(2023, 11, 7).Add(-time.Second)},
		{"What did I tell you last week?", day(2024, 1, 1), day(2024, 1, 8).Add(-time.Second)},
		{"What did Joanna write yesterday?", time.Time{}, time.Time{}}, // not about what was said
		{"What did we talk about with Tim?", time.Time{}, time.Time{}}, // no time
		{"What did we discuss in 2023?", time.Time{}, time.Time{}},     // longer than a month
		{"What did we discuss in December 2023?", day(2023, 12, 1), day(2024, 1, 1).Add(-time.Second)},
		// What we (the speakers) or you did then is what was said then; what someone else did
		// is an event of its own time.
		{"What did we do last Tuesday?", day(2024, 1, 9), day(2024, 1, 10).Add(-time.Second)},
		{"What did we work on on January 3?", day(2024, 1, 3), day(2024, 1, 4).Add(-time.Second)},
		{"What did we decide last week?", day(2024, 1, 1), day(2024, 1, 8).Add(-time.Second)},
		{"What did we do yesterday?", day(2024, 1, 12), day(2024, 1, 13).Add(-time.Second)},
		{"What did you fix on Monday?", day(2024, 1, 8), day(2024, 1, 9).Add(-time.Second)},
		{"What were we working on yesterday?", day(2024, 1, 12), day(2024, 1, 13).Add(-time.Second)},
		{"What did Caroline do last weekend?", time.Time{}, time.Time{}},
		// Whatever the verb: what we or you did then is what was said then.
		{"What did we cover in December 2023?", day(2023, 12, 1), day(2024, 1, 1).Add(-time.Second)},
		{"What topics did we go over yesterday?", day(2024, 1, 12), day(2024, 1, 13).Add(-time.Second)},
		{"What were you reviewing on Monday?", day(2024, 1, 8), day(2024, 1, 9).Add(-time.Second)},
		// Nothing but a time: what was told then or up to three days after (the window).
		{"What did I do yesterday?", day(2024, 1, 12), day(2024, 1, 16).Add(-time.Second)},
		{"What did we do in Rome?", time.Time{}, time.Time{}}, // no time
	}
	for _, tt := range tests {
		plans, _, err := offline.New(offline.Options{}).PlanSeeds(context.Background(), agent.PlanInput{Query: tt.q, Time: now})
		if err != nil || len(plans) != 1 {
			t.Fatalf("%q: plans %v, err %v", tt.q, plans, err)
		}
		switch in := plans[0].SaidIn; {
		case tt.from.IsZero() && in != nil:
			t.Errorf("%q: said in %v – %v, want no SaidIn", tt.q, in.From, in.To)
		case !tt.from.IsZero() && (in == nil || !in.From.Equal(tt.from) || !in.To.Equal(tt.to)):
			t.Errorf("%q: said in %v, want %v – %v", tt.q, in, tt.from, tt.to)
		}
	}
}

// TestOfflinePlanSeedsLatest: a question asking for the last, latest or most recent of
// something plans for the newest (Latest), without "last" among its keywords; "last" with
// a time ("last Friday", "the last two weeks", "from last season") names a time, and a
// question that names a time asks for the memories of then.
func TestOfflinePlanSeedsLatest(t *testing.T) {
	now := time.Date(2024, 1, 13, 15, 0, 0, 0, time.UTC)
	tests := []struct {
		q      string
		latest bool
	}{
		{"What was Ana's last quiz score?", true},
		{"When did I last go for a run?", true},
		{"When was the last time I went swimming?", true},
		{"What is her most recent job?", true},
		{"When was the front door last left open?", true},
		{"When did the washing machine last finish?", true},
		{"Has Sarah's new phone last synced?", true},
		{"Did the kids go to the lake last summer?", false},
		{"What did Mel and her kids paint in their latest project in July 2023?", false}, // the latest then
		{"What did Joanna just finish last Friday on 23 January, 2022?", false},
		{"What did I do last week?", false},
		{"What did we discuss in the last two weeks?", false},
		{"How did John overcome his ankle injury from last season?", false},
		{"Where did John explore on a road trip last year?", false},
		{"What did Melanie paint recently?", false},
		{"What is Caroline's last name?", false},
	}
	for _, tt := range tests {
		plans, _, err := offline.New(offline.Options{}).PlanSeeds(context.Background(), agent.PlanInput{Query: tt.q, Time: now})
		if err != nil || len(plans) != 1 {
			t.Fatalf("%q: plans %v, err %v", tt.q, plans, err)
		}
		if plans[0].Latest != tt.latest {
			t.Errorf("%q: latest %v, want %v", tt.q, plans[0].Latest, tt.latest)
		}
		if tt.latest && slices.ContainsFunc(plans[0].Keywords, func(k string) bool { return k == "last" || k == "latest" }) {
			t.Errorf("%q: keywords %v hold last or latest", tt.q, plans[0].Keywords)
		}
	}
}

func TestOfflineExpansionPolicy(t *testing.T) {
	d := offline.New(offline.Options{})
	tests := []struct {
		q       string
		mode    realm.ExpansionMode
		inhibit bool
	}{
		{"Why did Alice move to Berlin?", realm.PathSearch, true},
		{"How did Alice get the job?", realm.PathSearch, true},
		{"What led to the breakup?", realm.PathSearch, true},
		{"How many children does Mel have?", realm.SubgraphBeam, true},
		{"Where does Alice live?", realm.SubgraphBeam, true},
		{"Does Alice still live in Munich?", realm.SubgraphBeam, false},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			pol, _, err := d.ExpansionPolicy(context.Background(), agent.PolicyInput{Query: tt.q})
			if err != nil {
				t.Fatal(err)
			}
			if pol.Atom.Mode != tt.mode || pol.Atom.ConflictInhibit != tt.inhibit || pol.Reasoning == "" {
				t.Errorf("policy %+v", pol)
			}
		})
	}
	t.Run("QuestionLeadsToItsAnswer", func(t *testing.T) {
		node := agent.Gathered{Node: realm.Node{Content: "Bob: where did Alice move?"}}
		pol, _, _ := d.ExpansionPolicy(context.Background(), agent.PolicyInput{Query: "Where does Alice live?", Node: node})
		if !slices.Equal(pol.Atom.Predicates, []realm.Predicate{realm.Triggers}) || pol.Atom.Mode != realm.SubgraphBeam {
			t.Errorf("policy %+v, want subgraph_beam over triggers only", pol)
		}
	})
	t.Run("DecayFromPlanWindow", func(t *testing.T) {
		may := &realm.TimeRange{From: time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2023, 5, 31, 0, 0, 0, 0, time.UTC)}
		pol, _, _ := d.ExpansionPolicy(context.Background(), agent.PolicyInput{Query: "q", Plans: []realm.Plan{{TimeRange: may}}})
		if pol.Atom.Decay == nil || pol.Atom.Decay.Mode != realm.DecaySoft || pol.Atom.Decay.Time.Day() != 16 {
			t.Errorf("decay %+v", pol.Atom.Decay)
		}
	})
}

func TestOfflineSufficiency(t *testing.T) {
	d := offline.New(offline.Options{})
	node := func(id, content string, score float64) agent.Gathered {
		return agent.Gathered{Node: realm.Node{ID: id, Content: content}, Score: score}
	}
	plans := []realm.Plan{{Keywords: []string{"alice", "berlin", "moved"}}}
	tests := []struct {
		name   string
		query  string
		depth  int
		k      int
		nodes  []agent.Gathered
		enough bool
		first  string
	}{
		{"CoveredWithGap", "Where did Alice move?", 1, 10, []agent.Gathered{node("a", "Alice moves to Berlin", 0.9), node("b", "Bob", 0.5)}, true, ""},
		{"CoveredNoGap", "Where did Alice move?", 1, 10, []agent.Gathered{node("a", "Alice moves to Berlin", 0.6), node("b", "Bob", 0.55)}, false, "a"},
		{"UncoveredTermFirst", "Where did Alice move?", 1, 1, []agent.Gathered{node("a", "Bob likes chess", 0.9), node("b", "Alice lives in Munich", 0.3)}, false, "b"},
		{"CausalNeedsOneExpansion", "Why did Alice move?", 1, 10, []agent.Gathered{node("a", "Alice moved to Berlin", 0.9), node("b", "Bob", 0.5)}, false, "a"},
		{"CausalAfterExpansion", "Why did Alice move?", 2, 10, []agent.Gathered{node("a", "Alice moved to Berlin", 0.9), node("b", "Bob", 0.5)}, true, ""},
		{"QuestionInTopK", "Where did Alice move?", 1, 10, []agent.Gathered{node("a", "Alice moves to Berlin", 0.9), node("b", "Bob: where did Alice move?", 0.5)}, false, "b"},
		// A question reached by expansion (an answer asking back) is not followed, first or at all.
		{"ReachedQuestionNotFollowed", "Where did Alice move?", 2, 10, []agent.Gathered{node("a", "Alice moves to Berlin", 0.9), {Node: realm.Node{ID: "b", Content: "Bob: where?"}, Score: 0.5, Depth: 1}}, true, ""},
		{"ReachedQuestionNotExpanded", "Where did Alice move?", 2, 10, []agent.Gathered{node("a", "Alice likes tea", 0.6), {Node: realm.Node{ID: "b", Content: "Bob: where?"}, Score: 0.55, Depth: 1}}, false, "a"},
		{"QuestionExpanded", "Where did Alice move?", 2, 10, []agent.Gathered{node("a", "Alice moves to Berlin", 0.9), {Node: realm.Node{ID: "b", Content: "Bob: where?"}, Score: 0.5, Expanded: true}}, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _, err := d.Sufficiency(context.Background(), agent.SufficiencyInput{Query: tt.query, Plans: plans, Depth: tt.depth, MaxDepth: 3, K: tt.k, Nodes: tt.nodes})
			if err != nil {
				t.Fatal(err)
			}
			if s.IsEnough != tt.enough {
				t.Fatalf("is_enough %v (%s), want %v", s.IsEnough, s.Reason, tt.enough)
			}
			if !tt.enough && (len(s.NodesToExpand) == 0 || s.NodesToExpand[0] != tt.first) {
				t.Errorf("nodes to expand %v, want %s first", s.NodesToExpand, tt.first)
			}
		})
	}
}

// A question about what was or is planned for a day takes the nearest such day, ahead too:
// asked in March, "Where were we going on April 9?" and "Is Maya going to Lisbon in April?"
// are of this April; "What did we do on April 9?" of last April. What was planned is of the
// last one too: asked in December, "Where were we going to go in May?" is of the coming May
// and of the last.
func TestOfflinePlanSeedsPlannedThen(t *testing.T) {
	march := time.Date(2026, 3, 21, 10, 0, 0, 0, time.UTC)
	december := time.Date(2026, 12, 10, 10, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		q     string
		now   time.Time
		month time.Month
		years []int // the years of the plans' windows, in order
	}{
		{"Where were we going on April 9?", march, time.April, []int{2026, 2025}},
		{"What was Ana supposed to bring on April 9?", march, time.April, []int{2026, 2025}},
		{"What did we do on April 9?", march, time.April, []int{2025}},
		{"Is Maya going to Lisbon in April?", march, time.April, []int{2026}},
		{"Where are we going in April?", march, time.April, []int{2026}},
		{"What will Tom bring on April 9?", march, time.April, []int{2026}},
		{"Where did Maya go in April?", march, time.April, []int{2025}},
		{"Where were we going to go in May?", december, time.May, []int{2027, 2026}},
		{"Where were we supposed to go in May?", december, time.May, []int{2027, 2026}},
		{"Where were we going in November?", december, time.November, []int{2026}},
	} {
		plans, _, err := offline.New(offline.Options{}).PlanSeeds(context.Background(), agent.PlanInput{Query: tt.q, Time: tt.now})
		if err != nil || len(plans) != len(tt.years) {
			t.Errorf("%s: plans %v, err %v, want %d", tt.q, plans, err, len(tt.years))
			continue
		}
		for i, p := range plans {
			w := p.TimeRange
			if p.SaidIn != nil {
				w = p.SaidIn
			}
			if w == nil || w.To.Year() != tt.years[i] || w.To.Month() != tt.month {
				t.Errorf("%s: plan %d window %v, want %s %d", tt.q, i, w, tt.month, tt.years[i])
			}
		}
	}
}
