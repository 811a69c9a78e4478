package offline

import (
	"context"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// TestOfflineDiscourse: a reply that says outright how it relates to the turn before it
// draws that predicate; a near miss, which only looks like it, draws none.
func TestOfflineDiscourse(t *testing.T) {
	tests := []struct {
		name, prev, reply string
		want              realm.Predicate // "" for a near miss
		forward           bool            // previous turn → reply
	}{
		{"ResultsIn", "I lost my job at the bakery in March.", "That's why I started my own catering business.", realm.ResultsIn, true},
		{"ResultsInNearMiss", "I lost my job at the bakery in March.", "So what are you doing this weekend?", "", false},
		{"Because", "Why did you move to Denver last year?", "Because I got a job at the hospital there.", realm.ResultsIn, false},
		{"BecauseNearMiss", "Where did you move to last year?", "Because of the snow I stayed home all week.", "", false},
		{"Enables", "My sister lent me her car for the whole summer.", "Thanks to that I could visit every national park.", realm.Enables, true},
		{"EnablesNearMiss", "My sister lent me her car for the whole summer.", "Thanks for the lovely photos of the parks!", "", false},
		{"Implies", "The shop closes at five on Sundays.", "That means we have to leave before four.", realm.Implies, true},
		{"ImpliesNearMiss", "The shop closes at five on Sundays.", "I mean, five is early for a shop.", "", false},
		{"Verifies", "I heard the museum reopened after the flood.", "I can confirm, I went there on Saturday.", realm.Verifies, false},
		{"VerifiesNearMiss", "I heard the museum reopened after the flood.", "I can't wait to go there on Saturday.", "", false},
		{"Summarizes", "The trip had delays, lost luggage and two cancelled trains.", "In short, the trip was a mess from start to finish.", realm.Summarizes, false},
		{"SummarizesNearMiss", "The trip had delays, lost luggage and two cancelled trains.", "Short trips are the worst for delays.", "", false},
		{"AnalogousTo", "I adopted a rescue dog from the shelter last month.", "Me too! I adopted a rescue cat in June.", realm.AnalogousTo, false},
		{"AnalogousToAfterPhatic", "I adopted a rescue dog from the shelter last month. How are you?", "Me too! I adopted a rescue cat in June.", realm.AnalogousTo, false},
		{"AnalogousToNearMiss", "I adopted a rescue dog from the shelter last month.", "Tell me more about the rescue dog.", "", false},
	}
	a := New(Options{})
	discourse := map[realm.Predicate]bool{realm.ResultsIn: true, realm.Enables: true, realm.Implies: true, realm.Verifies: true, realm.Summarizes: true, realm.AnalogousTo: true}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prev := obsAt("o1", "s1", "Jon", tt.prev)
			reply := obsAt("o2", "s1", "Gina", tt.reply)
			prevNode := realm.Node{ID: "prev", Type: realm.Event, Content: "Jon: " + tt.prev, Sources: []string{"o1"}}
			ext := mustExtract(t, a, agent.ExtractInput{Observation: reply, Recent: []realm.Observation{prev}})
			in := agent.IntegrateInput{Observation: reply}
			for _, c := range ext.Candidates {
				in.Candidates = append(in.Candidates, agent.CandidateContext{Candidate: c, Neighbours: []agent.Neighbour{{Node: prevNode, Recent: true}}})
			}
			out, _, err := a.Integrate(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			var got []agent.EdgeOp
			for _, d := range out {
				for _, e := range d.Edges {
					if discourse[e.Predicate] {
						got = append(got, e)
					}
				}
			}
			if tt.want == "" {
				if len(got) > 0 {
					t.Errorf("near miss drew %+v", got)
				}
				return
			}
			from, to := agent.Self, "prev"
			if tt.forward {
				from, to = "prev", agent.Self
			}
			if len(got) != 1 || got[0].Predicate != tt.want || got[0].From != from || got[0].To != to {
				t.Errorf("edges %+v, want one %s %s → %s", got, tt.want, from, to)
			}
		})
	}
}
