package api

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestRecallCustomerChanges: a customer's change said as a request ("Switch my plan to Pro
// please", "Upgrade me to Premium please"), a contact preference switched, and a move or a
// new number said in German or Spanish supersede the message they replace, and a question
// about the present gets the newer message first.
func TestRecallCustomerChanges(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	tests := []struct{ name, older, newer, query string }{
		{"PlanRequested", "Please switch my plan to Plus", "Switch my plan to Pro please", "What plan is the customer on?"},
		{"PlanUpgradeMe", "I'm on the Basic plan", "Upgrade me to Premium please", "What plan is the customer on?"},
		{"ContactSwitched", "Please contact me by email only", "Actually, you can call me now instead of emailing", "How should we contact the customer?"},
		{"MovedGerman", "Ich wohne in München", "Ich bin nach Hamburg umgezogen", "Wo wohnt der Kunde?"},
		{"NewNumberGerman", "Meine Telefonnummer ist 0171 5551234.", "Meine neue Telefonnummer ist 0176 9998877.", "Wie lautet die Telefonnummer des Kunden?"},
		{"MovedSpanish", "Vivo en Madrid.", "Me mudé a Valencia", "¿Dónde vive el cliente?"},
		{"NewNumberSpanish", "Mi número es 612 345 678.", "Mi nuevo número es 699 111 222.", "¿Cuál es el número de teléfono del cliente?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := client{t: t, base: srv.URL}
			sp := "/v1/spaces/" + cyphertest.NewSpace(t)
			c.remember(sp, []any{
				userSaid("old", tt.older, "2026-03-10T10:00:00Z"),
				userSaid("new", tt.newer, "2026-06-10T10:00:00Z"),
			})
			var rec realm.RecallResult
			if code := c.do("POST", sp+"/recall", map[string]any{"query": tt.query, "time": "2026-06-20T10:00:00Z"}, &rec).StatusCode; code != http.StatusOK {
				t.Fatalf("recall: %d", code)
			}
			rank := func(source string) int {
				return slices.IndexFunc(rec.Nodes, func(n realm.RecalledNode) bool {
					return (n.Node.Type == realm.Event || n.Node.Type == realm.Fact) && slices.Contains(n.Node.Sources, source)
				})
			}
			if newer, older := rank("new"), rank("old"); newer < 0 || older >= 0 && older < newer {
				var got []string
				for _, n := range rec.Nodes {
					got = append(got, n.Node.Content)
				}
				t.Errorf("newer at %d, older at %d, want the newer first: %s", newer, older, strings.Join(got, " | "))
			}
			// A supersedes edge from a memory of the newer message to one of the older.
			of := map[string]string{}
			for _, n := range c.memories(sp, "limit=100") {
				for _, s := range n.Sources {
					of[n.ID] = s
				}
			}
			found := false
			for id, source := range of {
				if source != "new" {
					continue
				}
				var doc memoryDoc
				c.do("GET", sp+"/memories/"+id, nil, &doc)
				found = found || slices.ContainsFunc(doc.Edges, func(e realm.Edge) bool {
					return e.Predicate == realm.Supersedes && e.From == id && of[e.To] == "old"
				})
			}
			if !found {
				t.Errorf("no supersedes edge from %q to %q", tt.newer, tt.older)
			}
		})
	}
}
