package api

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// residentsEmail is a long message (about 4 KB) whose last line says what a question
// asks: the embedder reads about the first 1,000 characters of a text and cuts the rest.
const residentsEmail = `Dear residents of Linden Court,

As many of you have noticed, the renovation of the east stairwell started on Monday. The contractor, Hallberg Builders, expects the work to take about six weeks, weather permitting. During that time the stairwell between the second and the fourth floor will be closed on weekdays from eight in the morning until five in the afternoon. Please use the west stairwell or the lift instead, and keep the fire doors closed at all times.

The scaffolding on the courtyard side will stay up until the facade has been repainted. The painters asked us to keep balconies on that side clear of plants, bicycles and laundry racks from the fifteenth onwards, so that they can reach the railings. Anything left on a balcony may be covered with plastic sheeting, and we cannot be responsible for damage to it.

Parking in the courtyard will be limited while the skip for building waste is there. The two spaces nearest the gate are reserved for the contractor's van on weekdays. If you have a visitor who needs to park, please ask them to use the public car park on Mill Street, which is free after six in the evening and on Sundays.

The annual general meeting of the residents' association will take place on the twenty-second in the community room on the ground floor, starting at seven. On the agenda are the budget for next year, the proposal to replace the old washing machines in the laundry room, and the election of a new treasurer, since Margit is stepping down after nine years. If you would like to add an item, send it to the secretary at least a week before the meeting.

A few reminders about recycling, since the bins have been overflowing lately. Glass goes into the green container, paper and cardboard into the blue one, and please flatten boxes before you put them in. Electronic waste, batteries and old paint must not go into any of the bins; the municipal collection point on Harbour Road takes them on Saturdays between nine and one.

The heating system will be serviced on the first Thursday of next month. The boiler will be switched off from nine until roughly three, so there will be no hot water during that time. The technician also needs to check the radiator valves in every flat, so please make sure somebody can let him in, or leave a key with the caretaker.

The window cleaners come twice a year and will clean the outside of all windows from a cradle hung from the roof. They cannot reach windows blocked by satellite dishes or flower boxes fixed to the frames, so please take those down beforehand if you can. The inside of the windows is, as always, up to each household.

We have received several complaints about noise late in the evening. The house rules ask for quiet between ten at night and seven in the morning, and on Sundays and public holidays all day. Drilling, hammering and moving furniture are allowed on weekdays only. Thank you for keeping this in mind, especially for the families with small children on the third floor.

Parcels that do not fit into the letter boxes are now kept in the locked cabinet next to the caretaker's office. The caretaker hands them out on weekdays between four and six. If you expect something large or urgent, tell the courier to ring your bell directly, because the cabinet is often full by Thursday.

The lift will be inspected by the safety authority some time this spring. The inspection takes most of a day, and the lift cannot be used while it lasts. We will put up a notice as soon as we know the date, and residents who cannot manage the stairs can ask the caretaker for help with shopping on that day.

Finally, the garden committee is looking for volunteers to help plant the new herb beds behind the building in spring. No experience is needed, just a pair of gloves and an hour or two on a Saturday morning. Anyone interested can leave their name on the list pinned to the notice board in the entrance hall.

Kind regards,
The building management

P.S. The lock of the bike room has been replaced, and its new door code is 4417.`

// rememberLong serves the API over a new space and remembers in it a few short
// messages, then the email; it returns the client and the space's path.
func rememberLong(t *testing.T) (client, string) {
	t.Helper()
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	at := "2024-03-04T09:00:00Z"
	c.remember(sp, []map[string]string{
		{"id": "n1", "speaker": "Jonas", "content": "The guest wifi password is on the fridge in the community room.", "timestamp": at},
		{"id": "n2", "speaker": "Jonas", "content": "My bike got a flat tyre on the way to work this morning.", "timestamp": at},
		{"id": "n3", "speaker": "Jonas", "content": "The caretaker keeps a spare key for the laundry room.", "timestamp": at},
		{"id": "email", "speaker": "Management", "content": residentsEmail, "timestamp": at},
	})
	return c, sp
}

// embedderReads is about how much of a memory the embedder reads (256 word pieces).
const embedderReads = 1200

// TestLongMessageEnd: a fact stated at the end of a long message is found by a question
// about it, over HTTP and a real Neo4j: the message becomes parts the embedder reads
// whole, and the part that says the code is among the top 3 of the recall.
func TestLongMessageEnd(t *testing.T) {
	c, sp := rememberLong(t)

	var rec recallDoc
	if code := c.do("POST", sp+"/recall", map[string]any{"query": "What is the code of the bike room door?", "k": 3}, &rec).StatusCode; code != http.StatusOK {
		t.Fatalf("recall: %d", code)
	}
	var got []string
	found := false
	for _, n := range rec.Nodes {
		got = append(got, fmt.Sprintf("%s (%d chars): %.80q", n.Node.Type, len(n.Node.Content), n.Node.Content))
		if strings.Contains(n.Node.Content, "4417") && len(n.Node.Content) <= embedderReads {
			found = true
		}
	}
	if !found {
		t.Errorf("no memory the embedder reads whole says the code among the top 3:\n%s", strings.Join(got, "\n"))
	}
}

// TestForgetLongMessage: a long message is stored in parts, each leading to the next;
// forgetting the message forgets every part of it.
func TestForgetLongMessage(t *testing.T) {
	c, sp := rememberLong(t)
	var parts []realm.Node
	for _, m := range c.memories(sp, "limit=500") {
		if slices.Contains(m.Sources, "email") && (m.Type == realm.Event || m.Type == realm.Fact) {
			parts = append(parts, m)
		}
	}
	// The first and the last part, each read whole by the embedder; the part before the
	// last leads to it.
	var last realm.Node
	for _, words := range []string{"Dear residents", "4417"} {
		i := slices.IndexFunc(parts, func(m realm.Node) bool { return strings.Contains(m.Content, words) && len(m.Content) <= embedderReads })
		if i < 0 {
			t.Fatalf("no part of the email says %q", words)
		}
		last = parts[i]
	}
	var doc memoryDoc
	if code := c.do("GET", sp+"/memories/"+last.ID, nil, &doc).StatusCode; code != http.StatusOK {
		t.Fatalf("the last part: %d", code)
	}
	if !slices.ContainsFunc(doc.Edges, func(e realm.Edge) bool {
		return e.Predicate == realm.Precedes && e.To == last.ID && slices.ContainsFunc(parts, func(m realm.Node) bool { return m.ID == e.From })
	}) {
		t.Errorf("no part of the email precedes the last: %+v", doc.Edges)
	}
	var gone observationDeletedDoc
	if code := c.do("DELETE", sp+"/observations/email", nil, &gone).StatusCode; code != http.StatusOK {
		t.Fatalf("delete: %d", code)
	}
	for _, p := range parts {
		if !slices.Contains(gone.MemoryIDs, p.ID) {
			t.Errorf("part %s stays: %.60q", p.ID, p.Content)
		}
	}
	for _, m := range c.memories(sp, "limit=500") {
		if slices.Contains(m.Sources, "email") || strings.Contains(m.Content, "4417") {
			t.Errorf("still listed: %.80q", m.Content)
		}
	}
}
