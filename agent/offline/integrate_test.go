package offline

import (
	"context"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/internal/text"
)

func span(d time.Time) (*time.Time, *time.Time) {
	s, e := text.DaySpan(d)
	return &s, &e
}

func event(content string, d time.Time, participants ...string) agent.Candidate {
	s, e := span(d)
	return agent.Candidate{Type: realm.Event, Name: shortName(content, 8), Content: content, TStart: s, TEnd: e, Participants: participants}
}

func eventNode(id, content string, d time.Time, emb []float32, participants ...string) realm.Node {
	s, e := span(d)
	return realm.Node{ID: id, Type: realm.Event, Name: shortName(content, 8), Content: content, TStart: s, TEnd: e, Participants: participants, Embedding: emb}
}

func mustIntegrate(tb testing.TB, in agent.IntegrateInput) []agent.Integration {
	tb.Helper()
	out, usage, err := New(Options{}).Integrate(context.Background(), in)
	if err != nil {
		tb.Fatal(err)
	}
	if len(usage) != 0 {
		tb.Fatalf("usage = %v", usage)
	}
	if len(out) != len(in.Candidates) {
		tb.Fatalf("%d integrations for %d candidates", len(out), len(in.Candidates))
	}
	checkEdges(tb, in, out)
	return out
}

// checkEdges asserts the invariants of every integration: known ends, whitelisted
// predicates, weights in [0.3, 1], no duplicates, no edges on skipped candidates.
func checkEdges(tb testing.TB, in agent.IntegrateInput, out []agent.Integration) {
	tb.Helper()
	ids := map[string]bool{agent.Self: true}
	for _, cc := range in.Candidates {
		for _, nb := range cc.Neighbours {
			ids[nb.Node.ID] = true
		}
	}
	for j, o := range out {
		if o.Action != agent.ActionSkip {
			ids[agent.CandidateRef(j)] = true
		}
	}
	seen := map[string]bool{}
	for i, o := range out {
		switch o.Action {
		case agent.ActionAdd, agent.ActionSkip:
		case agent.ActionMerge:
			if !ids[o.MergeInto] || o.MergeInto == agent.Self {
				tb.Errorf("candidate %d merges into unknown %q", i, o.MergeInto)
			}
		default:
			tb.Errorf("candidate %d: action %q", i, o.Action)
		}
		if o.Action == agent.ActionSkip && len(o.Edges) > 0 {
			tb.Errorf("skipped candidate %d has edges", i)
		}
		for _, e := range o.Edges {
			if !ids[e.From] || !ids[e.To] || e.From == e.To {
				tb.Errorf("candidate %d: edge %+v has an unknown end", i, e)
			}
			if !e.Predicate.Valid() || e.Op != agent.EdgeAdd || e.Weight < 0.3 || e.Weight > 1 {
				tb.Errorf("candidate %d: bad edge %+v", i, e)
			}
			from, to := e.From, e.To
			if from == agent.Self {
				from = agent.CandidateRef(i)
			}
			if to == agent.Self {
				to = agent.CandidateRef(i)
			}
			key := from + ">" + to + ":" + string(e.Predicate)
			if seen[key] {
				tb.Errorf("duplicate edge %s", key)
			}
			seen[key] = true
		}
	}
}

func findEdge(es []agent.EdgeOp, from, to string, p realm.Predicate) *agent.EdgeOp {
	for i, e := range es {
		if e.From == from && e.To == to && e.Predicate == p {
			return &es[i]
		}
	}
	return nil
}

func countPred(es []agent.EdgeOp, p realm.Predicate) int {
	n := 0
	for _, e := range es {
		if e.Predicate == p {
			n++
		}
	}
	return n
}

// vec is a unit vector at the given cosine to (1, 0).
func vec(cos float64) []float32 {
	return []float32{float32(cos), float32(math.Sqrt(1 - cos*cos))}
}

var base = []float32{1, 0}

func TestOfflineIntegrateDecisions(t *testing.T) {
	may7 := day(2023, 5, 7)
	support := "Caroline went to a LGBTQ support group yesterday (7 May 2023)."
	tests := []struct {
		name      string
		cand      agent.Candidate
		emb       []float32
		nbs       []agent.Neighbour
		action    string
		mergeInto string
		merged    string
	}{
		{
			name: "SkipSaidAlready", cand: event(support, may7, "Caroline"), emb: base,
			nbs:    []agent.Neighbour{{Node: eventNode("n1", support+" It was powerful.", may7, vec(0.97), "Caroline")}},
			action: agent.ActionSkip, mergeInto: "n1", // the neighbour that holds it
		},
		{
			name: "NoSkipOnNewWords", cand: event(support+" She met Jon there.", may7, "Caroline"), emb: base,
			nbs:    []agent.Neighbour{{Node: eventNode("n1", support, may7, vec(0.97), "Caroline")}},
			action: agent.ActionMerge, mergeInto: "n1", merged: support + " She met Jon there.",
		},
		{
			name: "NoMergeOnTimeChange", cand: event(support, day(2023, 5, 14), "Caroline"), emb: base,
			nbs:    []agent.Neighbour{{Node: eventNode("n1", support, may7, vec(0.99), "Caroline")}},
			action: agent.ActionAdd,
		},
		{
			name: "AddWhenUnsure", cand: event("Caroline went to a pride parade.", may7, "Caroline"), emb: base,
			nbs:    []agent.Neighbour{{Node: eventNode("n1", support, may7, vec(0.85), "Caroline")}},
			action: agent.ActionAdd,
		},
		{
			name: "SimilarityGivenWins", cand: event(support+" Great talks.", may7, "Caroline"), emb: base,
			nbs:    []agent.Neighbour{{Node: eventNode("n1", support, may7, vec(0.2), "Caroline"), Similarity: 0.92}},
			action: agent.ActionMerge, mergeInto: "n1", merged: support + " Great talks.",
		},
		{
			name: "MergeKeepsNeighbourText", cand: event("Caroline went to the LGBTQ support group (7 May 2023) with Jon.", may7, "Caroline"), emb: base,
			nbs:    []agent.Neighbour{{Node: eventNode("n1", "Caroline went to the LGBTQ support group (7 May 2023), a powerful evening.", may7, vec(0.95), "Caroline")}},
			action: agent.ActionAdd, // coverage 0.6 < 0.8: merging would lose "powerful evening"
		},
		{
			name: "EntityMergeByName", cand: agent.Candidate{Type: realm.Entity, Name: "Caroline", Content: "Caroline (person)."},
			nbs: []agent.Neighbour{
				{Node: realm.Node{ID: "e2", Type: realm.Entity, Name: "Carol"}},
				{Node: realm.Node{ID: "e1", Type: realm.Entity, Name: "caroline's"}},
			},
			action: agent.ActionMerge, mergeInto: "e1",
		},
		{
			name: "EntityMergeByAlias", cand: agent.Candidate{Type: realm.Entity, Name: "Mel"},
			nbs:    []agent.Neighbour{{Node: realm.Node{ID: "e1", Type: realm.Entity, Name: "Melanie", Aliases: []string{"Mel"}}}},
			action: agent.ActionMerge, mergeInto: "e1",
		},
		{
			// The speaker, told to be called Alice Nguyen, stays the speaker's entity beside
			// another entity of that name (e1, the first by id).
			name: "SpeakerOwnEntityFirst", cand: agent.Candidate{Type: realm.Entity, Name: "user", Aliases: []string{"Alice Nguyen"}},
			nbs: []agent.Neighbour{
				{Node: realm.Node{ID: "e1", Type: realm.Entity, Name: "Alice Nguyen"}},
				{Node: realm.Node{ID: "e2", Type: realm.Entity, Name: "user"}},
			},
			action: agent.ActionMerge, mergeInto: "e2",
		},
		{
			name: "SpeakerIntoEntityOfTheName", cand: agent.Candidate{Type: realm.Entity, Name: "user", Aliases: []string{"Alice Nguyen"}},
			nbs:    []agent.Neighbour{{Node: realm.Node{ID: "e1", Type: realm.Entity, Name: "Alice Nguyen"}}},
			action: agent.ActionMerge, mergeInto: "e1",
		},
		{
			name: "FirstNameIsNotTheName", cand: agent.Candidate{Type: realm.Entity, Name: "user", Aliases: []string{"Alice Nguyen"}},
			nbs:    []agent.Neighbour{{Node: realm.Node{ID: "e1", Type: realm.Entity, Name: "Alice"}}},
			action: agent.ActionAdd,
		},
		{
			name: "FirstNameIsNotAnAlias", cand: agent.Candidate{Type: realm.Entity, Name: "Alice"},
			nbs:    []agent.Neighbour{{Node: realm.Node{ID: "e1", Type: realm.Entity, Name: "user", Aliases: []string{"Alice Nguyen"}}}},
			action: agent.ActionAdd,
		},
		{
			// A nickname told with a relation joins the person of that relation whose
			// name it begins; another name of the same relation is another person.
			name: "KinNickname", cand: agent.Candidate{Type: realm.Entity, Name: "Kat", Category: "person", Aliases: []string{"user's sister"}},
			nbs:    []agent.Neighbour{{Node: realm.Node{ID: "e1", Type: realm.Entity, Name: "Katherine Thompson", Category: "person", Aliases: []string{"user's sister"}}}},
			action: agent.ActionMerge, mergeInto: "e1",
		},
		{
			name: "KinOtherName", cand: agent.Candidate{Type: realm.Entity, Name: "Marta", Category: "person", Aliases: []string{"user's sister"}},
			nbs:    []agent.Neighbour{{Node: realm.Node{ID: "e1", Type: realm.Entity, Name: "Marina", Category: "person", Aliases: []string{"user's sister"}}}},
			action: agent.ActionAdd,
		},
		{
			// A first name joins the one person whose full name it opens, also after a
			// place's preposition ("visited Katherine"); not one of two.
			name: "FirstNameOfFullName", cand: agent.Candidate{Type: realm.Entity, Name: "Katherine", Category: "place"},
			nbs:    []agent.Neighbour{{Node: realm.Node{ID: "e1", Type: realm.Entity, Name: "Katherine Thompson", Category: "person"}}},
			action: agent.ActionMerge, mergeInto: "e1",
		},
		{
			name: "FirstNameOfTwoFullNames", cand: agent.Candidate{Type: realm.Entity, Name: "Katherine", Category: "person"},
			nbs: []agent.Neighbour{
				{Node: realm.Node{ID: "e1", Type: realm.Entity, Name: "Katherine Thompson", Category: "person"}},
				{Node: realm.Node{ID: "e2", Type: realm.Entity, Name: "Katherine Lee", Category: "person"}},
			},
			action: agent.ActionAdd,
		},
		{
			// A full name joins the one entity named before by its first name alone ("Tom
			// called.", then "Tom Becker confirmed"); not when another person of that first
			// name is named in full.
			name: "FullNameAfterFirstName", cand: agent.Candidate{Type: realm.Entity, Name: "Tom Becker", Category: "person", Content: "Tom Becker (person), mentioned by Sam."},
			nbs:    []agent.Neighbour{{Node: realm.Node{ID: "e1", Type: realm.Entity, Name: "Tom", Category: "person"}}},
			action: agent.ActionMerge, mergeInto: "e1", merged: "Tom Becker (person), mentioned by Sam, called Tom.",
		},
		{
			name: "FullNameAfterFirstNameOfTwo", cand: agent.Candidate{Type: realm.Entity, Name: "Tom Becker", Category: "person"},
			nbs: []agent.Neighbour{
				{Node: realm.Node{ID: "e1", Type: realm.Entity, Name: "Tom", Category: "person"}},
				{Node: realm.Node{ID: "e2", Type: realm.Entity, Name: "Tom Ruiz", Category: "person"}},
			},
			action: agent.ActionAdd,
		},
		{
			name: "FirstNameOfAPlace", cand: agent.Candidate{Type: realm.Entity, Name: "Santa", Category: "person"},
			nbs:    []agent.Neighbour{{Node: realm.Node{ID: "e1", Type: realm.Entity, Name: "Santa Monica", Category: "place"}}},
			action: agent.ActionAdd,
		},
		{
			name: "EntityNewName", cand: agent.Candidate{Type: realm.Entity, Name: "Jon"},
			nbs:    []agent.Neighbour{{Node: realm.Node{ID: "e1", Type: realm.Entity, Name: "Melanie"}}},
			action: agent.ActionAdd,
		},
		{
			name: "EpisodeSameSessionMerges", cand: agent.Candidate{Type: realm.Episode, Name: "s1", Content: "Conversation"},
			nbs:    []agent.Neighbour{{Node: realm.Node{ID: "p0", Type: realm.Episode, Name: "s0"}}, {Node: realm.Node{ID: "p1", Type: realm.Episode, Name: "s1"}}},
			action: agent.ActionMerge, mergeInto: "p1",
		},
		{
			name: "NoSkipOnAnotherNumber", cand: event("Ana bought item number 17 at the Greenfield market (7 May 2023).", may7, "Ana"), emb: base,
			nbs:    []agent.Neighbour{{Node: eventNode("n1", "Ana bought item number 3 at the Greenfield market (7 May 2023).", may7, vec(0.99), "Ana")}},
			action: agent.ActionAdd,
		},
		{
			name: "NoMergeOverANumber", cand: agent.Candidate{Type: realm.Fact, Content: "Ana's gym costs 45 euros a month."}, emb: base,
			nbs:    []agent.Neighbour{{Node: realm.Node{ID: "f1", Type: realm.Fact, Content: "Ana's gym costs 30 euros a month.", Embedding: vec(0.93)}}},
			action: agent.ActionAdd,
		},
		{
			name: "StateChangeNotSkipped",
			cand: agent.Candidate{Type: realm.Fact, Content: "Caroline lives in Boston.", Subject: "Caroline", Attribute: "lives in"}, emb: base,
			nbs:    []agent.Neighbour{{Node: realm.Node{ID: "f1", Type: realm.Fact, Content: "Caroline lives in Sweden.", Embedding: vec(0.99)}}},
			action: agent.ActionAdd,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := agent.IntegrateInput{Observation: obsAt("o9", "s1", "Caroline", tt.cand.Content), Candidates: []agent.CandidateContext{{Candidate: tt.cand, Embedding: tt.emb, Neighbours: tt.nbs}}}
			got := mustIntegrate(t, in)[0]
			if got.Action != tt.action || got.MergeInto != tt.mergeInto || got.Merged != tt.merged {
				t.Fatalf("got %s into %q (%q), want %s into %q (%q)", got.Action, got.MergeInto, got.Merged, tt.action, tt.mergeInto, tt.merged)
			}
		})
	}
}

func TestOfflineIntegrateSupersedes(t *testing.T) {
	old := realm.Node{ID: "f1", Type: realm.Fact, Content: "Caroline lives in Sweden.", Embedding: vec(0.99)}
	other := realm.Node{ID: "f2", Type: realm.Fact, Content: "Melanie lives in Sweden.", Embedding: vec(0.9)}
	cand := agent.Candidate{Type: realm.Fact, Content: "Caroline lives in Boston now.", Subject: "Caroline", Attribute: "lives in"}
	in := agent.IntegrateInput{Observation: obsAt("o9", "", "Caroline", cand.Content), Candidates: []agent.CandidateContext{{Candidate: cand, Embedding: base, Neighbours: []agent.Neighbour{{Node: old}, {Node: other}}}}}
	got := mustIntegrate(t, in)[0]
	e := findEdge(got.Edges, agent.Self, "f1", realm.Supersedes)
	if got.Action != agent.ActionAdd || e == nil || e.Weight != 0.9 {
		t.Fatalf("got %+v, want add with supersedes → f1", got)
	}
	if !strings.Contains(e.Description, "Boston") || !strings.Contains(e.Description, "Sweden") {
		t.Errorf("description = %q", e.Description)
	}
	if findEdge(got.Edges, agent.Self, "f2", realm.Supersedes) != nil {
		t.Error("another subject's fact superseded")
	}
	if findEdge(got.Edges, agent.Self, "f1", realm.Correlates) != nil {
		t.Error("superseded node also correlated")
	}
	if findEdge(got.Edges, agent.Self, "f2", realm.Correlates) == nil {
		t.Error("similar fact f2 (0.9) not correlated")
	}

	// Same value: no state change.
	same := in
	same.Candidates = []agent.CandidateContext{{Candidate: agent.Candidate{Type: realm.Fact, Content: "Caroline lives in Sweden.", Subject: "Caroline", Attribute: "lives in"}, Embedding: base, Neighbours: []agent.Neighbour{{Node: old}}}}
	if got := mustIntegrate(t, same)[0]; got.Action != agent.ActionSkip {
		t.Errorf("same value: got %s, want skip", got.Action)
	}
}

func TestOfflineIntegratePrecedes(t *testing.T) {
	cand := event("Caroline ran a race (7 May 2023).", day(2023, 5, 7), "Caroline")
	nbs := []agent.Neighbour{
		{Node: eventNode("e-may1", "Caroline baked bread.", day(2023, 5, 1), nil, "Caroline")},
		{Node: eventNode("e-may3", "Caroline painted a lake.", day(2023, 5, 3), nil, "Caroline")},
		{Node: eventNode("e-may5", "Jon sang a song.", day(2023, 5, 5), nil, "Jon")},
		{Node: eventNode("e-may7", "Caroline met Jon.", day(2023, 5, 7), nil, "Caroline")},
		{Node: eventNode("e-may20", "Caroline will travel.", day(2023, 5, 20), nil, "caroline")},
		{Node: eventNode("e-jun", "Caroline will move.", day(2023, 6, 20), nil, "Caroline")},
	}
	in := agent.IntegrateInput{Observation: obsAt("o9", "", "Caroline", cand.Content), Candidates: []agent.CandidateContext{{Candidate: cand, Neighbours: nbs}}}
	got := mustIntegrate(t, in)[0]
	if findEdge(got.Edges, "e-may3", agent.Self, realm.Precedes) == nil || findEdge(got.Edges, agent.Self, "e-may20", realm.Precedes) == nil {
		t.Fatalf("edges = %+v, want e-may3 → self → e-may20", got.Edges)
	}
	if n := countPred(got.Edges, realm.Precedes); n != 2 {
		t.Errorf("%d precedes edges, want only the nearest on each side: %+v", n, got.Edges)
	}
	if e := findEdge(got.Edges, "e-may3", agent.Self, realm.Precedes); e.Weight != 0.7 {
		t.Errorf("weight = %v", e.Weight)
	}
}

func TestOfflineIntegrateObservation(t *testing.T) {
	may7 := day(2023, 5, 7)
	ep := agent.Candidate{Type: realm.Episode, Name: "s1", Content: "Conversation between Caroline and Melanie on 8 May 2023 (session s1)."}
	whole := event("Caroline ran a race with Jon yesterday (7 May 2023) – it was rewarding.", may7, "Caroline", "Jon")
	clause := event("Caroline ran a race with Jon yesterday (7 May 2023)", may7, "Caroline", "Jon")
	car := agent.Candidate{Type: realm.Entity, Name: "Caroline"}
	jon := agent.Candidate{Type: realm.Entity, Name: "Jon"}
	carNode := realm.Node{ID: "ent-car", Type: realm.Entity, Name: "Caroline"}
	same := eventNode("dup", clause.Content+".", may7, vec(0.99), "Caroline")
	similar := eventNode("sim", "Caroline trained for a race in April.", day(2023, 4, 10), vec(0.8), "Melanie")
	in := agent.IntegrateInput{
		Observation: obsAt("o9", "s1", "Caroline", "…"),
		Candidates: []agent.CandidateContext{
			{Candidate: ep},
			{Candidate: whole, Embedding: base, Neighbours: []agent.Neighbour{{Node: carNode}, {Node: similar}}},
			{Candidate: clause, Embedding: base, Neighbours: []agent.Neighbour{{Node: same}}},
			{Candidate: car, Neighbours: []agent.Neighbour{{Node: carNode}}},
			{Candidate: jon},
		},
	}
	out := mustIntegrate(t, in)
	wantActions := []string{agent.ActionAdd, agent.ActionAdd, agent.ActionSkip, agent.ActionMerge, agent.ActionAdd}
	for i, w := range wantActions {
		if out[i].Action != w {
			t.Errorf("candidate %d: %s, want %s", i, out[i].Action, w)
		}
	}
	e := out[1].Edges
	if findEdge(e, agent.CandidateRef(0), agent.Self, realm.Contextualizes) == nil {
		t.Errorf("no contextualizes from the episode: %+v", e)
	}
	if findEdge(e, agent.Self, agent.CandidateRef(3), realm.Instantiates) == nil || findEdge(e, agent.Self, agent.CandidateRef(4), realm.Instantiates) == nil {
		t.Errorf("no instantiates to Caroline and Jon: %+v", e)
	}
	if findEdge(e, agent.Self, "ent-car", realm.Instantiates) != nil {
		t.Errorf("instantiates written twice to ent-car (candidate 3 merges into it): %+v", e)
	}
	if c := findEdge(e, agent.Self, "sim", realm.Correlates); c == nil || c.Weight < 0.5 || c.Weight > 0.8 {
		t.Errorf("correlates to sim = %+v", c)
	} else if math.Abs(c.Weight-0.56) > 1e-9 {
		t.Errorf("correlates weight = %v, want 0.5 + 0.3·(0.8−0.75)/0.25 = 0.56", c.Weight)
	}
	if findEdge(e, "sim", agent.Self, realm.Precedes) != nil {
		t.Error("precedes without a shared participant")
	}
	// The clause was skipped as "dup": the whole turn comprises dup instead.
	if findEdge(e, agent.Self, "dup", realm.Comprises) != nil || len(out[2].Edges) != 0 {
		t.Errorf("edges on or from the skipped clause: %+v / %+v", e, out[2].Edges)
	}
	// Entities and episodes carry no edges of their own here.
	for _, i := range []int{0, 3, 4} {
		if len(out[i].Edges) != 0 {
			t.Errorf("candidate %d edges: %+v", i, out[i].Edges)
		}
	}
}

func TestOfflineIntegrateComprisesAndEpisodeNeighbour(t *testing.T) {
	may7 := day(2023, 5, 7)
	whole := event("Caroline ran a race yesterday (7 May 2023) – it was rewarding.", may7, "Caroline")
	clause := event("Caroline ran a race yesterday (7 May 2023)", may7, "Caroline")
	epNode := realm.Node{ID: "ep1", Type: realm.Episode, Name: "s1"}
	otherEp := realm.Node{ID: "ep0", Type: realm.Episode, Name: "s0"}
	in := agent.IntegrateInput{
		Observation: obsAt("o9", "s1", "Caroline", "…"),
		Candidates: []agent.CandidateContext{
			{Candidate: whole, Neighbours: []agent.Neighbour{{Node: otherEp}, {Node: epNode}}},
			{Candidate: clause},
		},
	}
	out := mustIntegrate(t, in)
	if findEdge(out[0].Edges, "ep1", agent.Self, realm.Contextualizes) == nil || findEdge(out[0].Edges, "ep0", agent.Self, realm.Contextualizes) != nil {
		t.Errorf("contextualizes = %+v, want from ep1 only", out[0].Edges)
	}
	if findEdge(out[1].Edges, agent.CandidateRef(0), agent.Self, realm.Comprises) == nil {
		t.Errorf("clause edges = %+v, want the whole turn comprising it", out[1].Edges)
	}
	if findEdge(out[0].Edges, agent.Self, agent.CandidateRef(1), realm.Comprises) != nil {
		t.Error("comprises written in both directions")
	}
}

func TestOfflineIntegrateEpisodePrecedes(t *testing.T) {
	s, e := span(day(2023, 5, 25))
	ep := agent.Candidate{Type: realm.Episode, Name: "s2", TStart: s, TEnd: e}
	s0, e0 := span(day(2023, 5, 8))
	s1, e1 := span(day(2023, 5, 1))
	in := agent.IntegrateInput{Candidates: []agent.CandidateContext{{Candidate: ep, Neighbours: []agent.Neighbour{
		{Node: realm.Node{ID: "ep-s1", Type: realm.Episode, Name: "s1", TStart: s0, TEnd: e0}},
		{Node: realm.Node{ID: "ep-s0", Type: realm.Episode, Name: "s0", TStart: s1, TEnd: e1}},
	}}}}
	out := mustIntegrate(t, in)
	if len(out[0].Edges) != 1 || findEdge(out[0].Edges, "ep-s1", agent.Self, realm.Precedes) == nil {
		t.Fatalf("edges = %+v, want ep-s1 precedes the new session", out[0].Edges)
	}
}

func TestOfflineIntegrateDeterministic(t *testing.T) {
	may7 := day(2023, 5, 7)
	cand := event("Caroline went to the support group with Jon (7 May 2023).", may7, "Caroline", "Jon")
	var nbs []agent.Neighbour
	for i, c := range []float64{0.8, 0.8, 0.9, 0.76, 0.95, 0.78} {
		nbs = append(nbs, agent.Neighbour{Node: eventNode("n"+string(rune('a'+i)), "Caroline did thing "+string(rune('a'+i))+".", day(2023, 5, 1+i), vec(c), "Caroline")})
	}
	nbs = append(nbs, agent.Neighbour{Node: realm.Node{ID: "jon", Type: realm.Entity, Name: "Jon"}})
	mk := func(nbs []agent.Neighbour) agent.IntegrateInput {
		return agent.IntegrateInput{Observation: obsAt("o", "s", "Caroline", ""), Candidates: []agent.CandidateContext{{Candidate: cand, Embedding: base, Neighbours: nbs}}}
	}
	first := mustIntegrate(t, mk(nbs))
	if n := countPred(first[0].Edges, realm.Correlates); n != 3 {
		t.Errorf("%d correlates, want MaxCorrelates = 3", n)
	}
	rev := slices.Clone(nbs)
	slices.Reverse(rev)
	if got := mustIntegrate(t, mk(rev)); !reflect.DeepEqual(got, first) {
		t.Fatalf("neighbour order changed the result:\n%+v\n%+v", got, first)
	}
}

// An answer to the question just asked is linked to it by triggers, the edge carrying the
// question so that a query asking it again reaches the answer.
func TestOfflineReply(t *testing.T) {
	a := New(Options{})
	question := obsAt("o1", "s1", "Melanie", "That's great! Anything you're excited for in the adoption process?")
	answer := obsAt("o2", "s1", "Caroline", "I'm thrilled to make a family for kids who need one.")
	tests := []struct {
		name   string
		recent []realm.Observation
		want   string
	}{
		{"OK", []realm.Observation{question}, "o1"},
		{"NotAQuestion", []realm.Observation{obsAt("o1", "s1", "Melanie", "That's great.")}, ""},
		{"SameSpeaker", []realm.Observation{obsAt("o1", "s1", "Caroline", "Any news?")}, ""},
		{"OtherSession", []realm.Observation{obsAt("o1", "s0", "Melanie", "Any news?")}, ""},
		{"NotTheLast", []realm.Observation{question, obsAt("o1b", "s1", "Caroline", "Well.")}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ext, _, err := a.Extract(context.Background(), agent.ExtractInput{Observation: answer, Recent: tt.recent})
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(ext.Candidates, func(c agent.Candidate) bool { return c.Type != realm.Episode })
			turn := ext.Candidates[i]
			if got := turn.InReplyTo; got != tt.want {
				t.Errorf("InReplyTo = %q, want %q", got, tt.want)
			}
			// The answer's whole-turn unit is the exchange: the question, then the answer,
			// derived from both turns; any other turn is itself alone.
			asked := strings.HasPrefix(turn.Content, `Melanie asked: "Anything Caroline is excited for in the adoption process?" `)
			if want := tt.want != ""; asked != want || (len(turn.AlsoFrom) == 1) != want {
				t.Errorf("content %q, also from %v; want the question in it: %v", turn.Content, turn.AlsoFrom, want)
			}
			if !strings.HasSuffix(turn.Content, "Caroline is thrilled to make a family for kids who need one.") {
				t.Errorf("content %q does not end with the answer", turn.Content)
			}
			if replied := strings.HasSuffix(turn.Description, ", in reply to Melanie."); replied != asked || !strings.HasPrefix(turn.Description, "Said by Caroline on ") {
				t.Errorf("description %q; want said by Caroline, in reply to Melanie: %v", turn.Description, asked)
			}
		})
	}

	// Without session ids, a turn an hour or more after the one before it starts anew;
	// within a session, one hours after it: a chat resumed after the night or half a day
	// answers nothing said before the pause.
	for _, tt := range []struct {
		session string
		gaps    map[time.Duration]string // gap after the question: the question replied to
	}{
		{"", map[time.Duration]string{time.Minute: "o1", 2 * time.Hour: ""}},
		{"s1", map[time.Duration]string{time.Minute: "o1", 2 * time.Hour: "o1", 6 * time.Hour: "", 20 * time.Hour: ""}},
	} {
		t.Run("Gap"+tt.session, func(t *testing.T) {
			asked, reply := obsAt("o1", tt.session, "assistant", "Which city do you live in?"), obsAt("o2", tt.session, "user", "I live in Berlin with my wife.")
			for gap, want := range tt.gaps {
				reply.ObservedAt = asked.ObservedAt.Add(gap)
				ext := mustExtract(t, a, agent.ExtractInput{Observation: reply, Recent: []realm.Observation{asked}})
				i := slices.IndexFunc(ext.Candidates, func(c agent.Candidate) bool { return c.Type != realm.Episode && c.Type != realm.Entity })
				if got := ext.Candidates[i]; got.InReplyTo != want || strings.Contains(got.Content, "asked") != (want != "") {
					t.Errorf("%v after the question: in reply to %q, content %q; want %q", gap, got.InReplyTo, got.Content, want)
				}
			}
		})
	}

	// A reply to a statement that says something carries its last sentence, and derives
	// from it too; it answers no question, so no triggers edge will come of it.
	t.Run("ReplyToStatement", func(t *testing.T) {
		said := obsAt("o1", "s1", "Melanie", "Hey! I finally finished my painting of the lake at dawn.")
		ext, _, err := a.Extract(context.Background(), agent.ExtractInput{Observation: answer, Recent: []realm.Observation{said}})
		if err != nil {
			t.Fatal(err)
		}
		turn := ext.Candidates[0]
		want := `Melanie said: "Melanie finally finished Melanie's painting of the lake at dawn." Caroline is thrilled`
		if !strings.HasPrefix(turn.Content, want) || !slices.Equal(turn.AlsoFrom, []string{"o1"}) || turn.InReplyTo != "" {
			t.Errorf("content %q, also from %v, in reply to %q; want %q…, [o1], none", turn.Content, turn.AlsoFrom, turn.InReplyTo, want)
		}
	})

	ext, _, _ := a.Extract(context.Background(), agent.ExtractInput{Observation: answer, Recent: []realm.Observation{question}})
	turn := ext.Candidates[0]
	asked := realm.Node{ID: "q", Type: realm.Fact, Sources: []string{"o1"},
		Content: "Melanie: That's great, Caroline! Anything Caroline is excited for in the adoption process?"}
	clause := realm.Node{ID: "q-clause", Type: realm.Fact, Sources: []string{"o1"}, Content: "Caroline is excited"}
	in := agent.IntegrateInput{Observation: answer, Candidates: []agent.CandidateContext{{Candidate: turn, Neighbours: []agent.Neighbour{
		{Node: clause, Recent: true}, {Node: asked, Recent: true},
	}}}}
	got := mustIntegrate(t, in)[0]
	e := findEdge(got.Edges, "q", agent.Self, realm.Triggers)
	if e == nil {
		t.Fatalf("no triggers edge from the question: %+v", got.Edges)
	}
	if e.Description != "Anything Caroline is excited for in the adoption process?" || e.Weight != weightTriggers {
		t.Errorf("edge = %+v, want the question sentence as description", e)
	}
	if findEdge(got.Edges, "q-clause", agent.Self, realm.Triggers) != nil {
		t.Error("the clause of the question got the edge too")
	}

	// The question's turn is itself an exchange (it replied to o0): the edge starts there and
	// carries the turn's own question, not the one the exchange quotes before it.
	exchange := realm.Node{ID: "q-exchange", Type: realm.Fact, Sources: []string{"o0", "o1"},
		Content: `Caroline asked: "How are the kids?" Melanie: That's great, Caroline! Anything Caroline is excited for in the adoption process?`}
	in.Candidates[0].Neighbours = []agent.Neighbour{{Node: clause, Recent: true}, {Node: exchange, Recent: true}}
	got = mustIntegrate(t, in)[0]
	e = findEdge(got.Edges, "q-exchange", agent.Self, realm.Triggers)
	if e == nil || e.Description != "Anything Caroline is excited for in the adoption process?" {
		t.Errorf("triggers edge %+v, want one from the exchange carrying its own question", e)
	}
}

// Events of one session share their time: precedes picks among equal times the event told
// last (created last, then by content), whatever ids the memories got, so that ingesting
// the same conversation twice gives the same graph.
func TestOfflineIntegratePrecedesTie(t *testing.T) {
	cand := event("Caroline ran a race (7 May 2023).", day(2023, 5, 7), "Caroline")
	early, late := time.Date(2023, 6, 1, 10, 0, 0, 0, time.UTC), time.Date(2023, 6, 1, 11, 0, 0, 0, time.UTC)
	node := func(id, content string, d, created time.Time) agent.Neighbour {
		n := eventNode(id, content, d, nil, "Caroline")
		n.CreatedAt = created
		return agent.Neighbour{Node: n}
	}
	precedes := func(nbs []agent.Neighbour) (before, after string) {
		in := agent.IntegrateInput{Observation: obsAt("o9", "", "Caroline", cand.Content), Candidates: []agent.CandidateContext{{Candidate: cand, Neighbours: nbs}}}
		for _, e := range mustIntegrate(t, in)[0].Edges {
			if e.Predicate == realm.Precedes && e.To == agent.Self {
				before = e.From
			}
			if e.Predicate == realm.Precedes && e.From == agent.Self {
				after = e.To
			}
		}
		return before, after
	}
	for _, ids := range [][4]string{{"e-a", "e-z", "l-a", "l-z"}, {"e-z", "e-a", "l-z", "l-a"}} {
		// ids[1] and ids[3] were told last, whichever sorts first.
		before, after := precedes([]agent.Neighbour{
			node(ids[0], "Caroline baked bread.", day(2023, 5, 3), early),
			node(ids[1], "Caroline painted a lake.", day(2023, 5, 3), late),
			node(ids[2], "Caroline will travel.", day(2023, 5, 20), early),
			node(ids[3], "Caroline will move.", day(2023, 5, 20), late),
		})
		if before != ids[1] || after != ids[3] {
			t.Errorf("ids %v: %s → self → %s, want %s → self → %s (told last)", ids, before, after, ids[1], ids[3])
		}
		// Told together: the content decides, not the id.
		before, _ = precedes([]agent.Neighbour{
			node(ids[0], "Caroline baked bread.", day(2023, 5, 3), early),
			node(ids[1], "Caroline painted a lake.", day(2023, 5, 3), early),
		})
		if before != ids[1] {
			t.Errorf("ids %v: %s precedes, want %s (\"Caroline painted …\" sorts after \"Caroline baked …\")", ids, before, ids[1])
		}
	}
}

// TestOfflineReplyNotMerged: another speaker's reply quoting a statement covers its words,
// yet is no telling of it again: it is added beside the statement, said by its own speaker,
// never merged into the statement, which would read as the first speaker's words.
func TestOfflineReplyNotMerged(t *testing.T) {
	a := New(Options{})
	stated := obsAt("o1", "s1", "Chandra", "My phone plan is with Verizon, $70 a month.")
	reply := obsAt("o2", "s1", "Sam", "That's on the pricey side.")
	fact := turnOf(t, mustExtract(t, a, agent.ExtractInput{Observation: stated}))
	node := realm.Node{ID: "plan", Type: fact.Type, Content: fact.Content, Description: fact.Description, Sources: []string{"o1"}}
	ext := mustExtract(t, a, agent.ExtractInput{Observation: reply, Recent: []realm.Observation{stated}})
	in := agent.IntegrateInput{Observation: reply}
	for _, c := range ext.Candidates {
		// Embedded, the exchange reads as close to the statement as a telling of it again.
		in.Candidates = append(in.Candidates, agent.CandidateContext{Candidate: c, Neighbours: []agent.Neighbour{{Node: node, Similar: true, Similarity: 0.92}}})
	}
	out, _, err := a.Integrate(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	turn := slices.IndexFunc(ext.Candidates, func(c agent.Candidate) bool { return strings.Contains(c.Content, "pricey") })
	if turn < 0 || !strings.HasPrefix(ext.Candidates[turn].Description, "Said by Sam ") {
		t.Fatalf("no reply said by Sam among %+v", ext.Candidates)
	}
	if d := out[turn]; d.Action != agent.ActionAdd {
		t.Errorf("%q (%s): %s into %q (%s), want it added", ext.Candidates[turn].Content, ext.Candidates[turn].Description, d.Action, d.MergeInto, node.Description)
	}
}
