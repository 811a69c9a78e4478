package api

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// manyTickets is a support desk's tickets, one a day from 2026-01-01, five messages
// each: all about the screens of orders but T-118, about a garden, which a question
// about a cracked screen does not resemble.
func manyTickets(tickets int) []map[string]string {
	garden := []string{
		"I planted tomatoes and basil in the garden this spring.",
		"The roses by the fence need watering every evening.",
		"My neighbour Greta lent me her lawnmower for the weekend.",
		"We built a wooden shed for the garden tools.",
		"The old apple tree finally has blossoms again.",
	}
	screens := []string{
		"My order %d arrived with a cracked screen.",
		"The screen of order %d flickers since the update.",
		"Can you replace the scratched screen of order %d?",
		"The display of order %d shows dead pixels near the corner.",
		"The touch screen of order %d stopped responding yesterday.",
	}
	var msgs []map[string]string
	day := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	for i := range tickets {
		session := fmt.Sprintf("T-%d", 100+i)
		for j := range 5 {
			content := fmt.Sprintf(screens[j], 4000+10*i+j)
			if session == "T-118" {
				content = garden[j]
			}
			msgs = append(msgs, map[string]string{
				"id": fmt.Sprintf("%s-%d", session, j), "session_id": session, "role": "user", "content": content,
				"timestamp": day.AddDate(0, 0, i).Add(time.Duration(j) * time.Minute).Format(time.RFC3339),
			})
		}
	}
	return msgs
}

// ticketSpace writes the tickets of manyTickets into a new space with the bulk writers
// (no construction): the messages, an event per message and an episode per ticket, each
// said by its messages, embedded by the server's embedder. It returns the space and the
// ids of the memories said in T-118.
func ticketSpace(t *testing.T, msgs []map[string]string) (string, []string) {
	t.Helper()
	ctx := context.Background()
	store, space := cyphertest.MustOpen(t), cyphertest.NewSpace(t)
	obs := make([]realm.Observation, len(msgs))
	texts := make([]string, len(msgs))
	sessions := map[string][]string{}
	var order []string
	for i, m := range msgs {
		at, err := time.Parse(time.RFC3339, m["timestamp"])
		if err != nil {
			t.Fatal(err)
		}
		obs[i] = realm.Observation{ID: m["id"], SessionID: m["session_id"], Speaker: m["role"], Content: m["content"], ObservedAt: at, Seq: int64(i + 1)}
		texts[i] = m["content"]
		if sessions[m["session_id"]] == nil {
			order = append(order, m["session_id"])
		}
		sessions[m["session_id"]] = append(sessions[m["session_id"]], m["id"])
	}
	for _, s := range order {
		texts = append(texts, "Support ticket "+s+": "+msgs[slices.IndexFunc(msgs, func(m map[string]string) bool { return m["session_id"] == s })]["content"])
	}
	vecs, err := embedder.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	var nodes []realm.Node
	var ofT118 []string
	for i, o := range obs {
		at := o.ObservedAt
		nodes = append(nodes, realm.Node{ID: space + ":" + o.ID, Type: realm.Event, Name: o.ID, Content: o.Content, Embedding: vecs[i], TStart: &at, Sources: []string{o.ID}})
	}
	for j, s := range order {
		nodes = append(nodes, realm.Node{ID: space + ":" + s, Type: realm.Episode, Name: s, Content: texts[len(obs)+j], Embedding: vecs[len(obs)+j], Sources: sessions[s]})
	}
	for _, n := range nodes {
		if slices.ContainsFunc(n.Sources, func(id string) bool { return slices.Contains(sessions["T-118"], id) }) {
			ofT118 = append(ofT118, n.ID)
		}
	}
	if err := store.PutScaleSpace(ctx, space, embedder.ID(), embedder.Dim(), int64(len(obs)), ""); err != nil {
		t.Fatal(err)
	}
	if err := store.PutScaleObservations(ctx, space, obs); err != nil {
		t.Fatal(err)
	}
	if _, err := store.PutScaleMemories(ctx, space, nodes); err != nil {
		t.Fatal(err)
	}
	return space, ofT118
}

// TestRecallNarrowFilters: in a space of hundreds of memories over many sessions, a
// filter on one session, or on one day, whose memories the question does not resemble
// returns k of them (all of them when it has fewer), and only them.
func TestRecallNarrowFilters(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space, ofT118 := ticketSpace(t, manyTickets(60))
	sp := "/v1/spaces/" + space

	const query = "What did the customer say about the cracked screen of the order?"
	for name, filters := range map[string]map[string]any{
		"Session": {"session_ids": []string{"T-118"}},
		"OneDay":  {"said_since": "2026-01-19T00:00:00Z", "said_until": "2026-01-19T23:59:59Z"},
	} {
		for _, k := range []int{3, 10} {
			t.Run(fmt.Sprintf("%s/k%d", name, k), func(t *testing.T) {
				got := c.recall(sp, map[string]any{"query": query, "k": k, "filters": filters})
				if want := min(k, len(ofT118)); len(got.Nodes) != want {
					t.Errorf("%d nodes, want %d: %s", len(got.Nodes), want, said(got.Nodes))
				}
				for _, n := range got.Nodes {
					if !slices.Contains(ofT118, n.Node.ID) {
						t.Errorf("%s %q (sources %v) is not said in T-118", n.Node.Type, n.Node.Content, n.Node.Sources)
					}
				}
			})
		}
	}
}
