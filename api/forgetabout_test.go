package api

import (
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/retrieval"
)

// aboutTwoToms are messages about two people of the same first name: Tom Becker (b1-b3,
// named by full name or by email address) and Tom Schmidt (s1, s2).
var aboutTwoToms = []map[string]string{
	{"id": "b1", "session_id": "crm", "role": "user", "content": "I had lunch with Tom Becker from Acme; he is moving to Lisbon in March.", "timestamp": "2024-03-04T10:00:00Z"},
	{"id": "s1", "session_id": "crm", "role": "user", "content": "Tom Schmidt plays the trumpet in a jazz band on Fridays.", "timestamp": "2024-03-04T10:01:00Z"},
	{"id": "b2", "session_id": "crm", "role": "user", "content": "Send the signed contract to tom.becker@acme.com before the audit.", "timestamp": "2024-03-04T10:02:00Z"},
	{"id": "s2", "session_id": "crm", "role": "user", "content": "Tom Schmidt asked about the quarterly budget review.", "timestamp": "2024-03-04T10:03:00Z"},
	{"id": "b3", "session_id": "crm", "role": "user", "content": "TOM BECKER prefers green tea over coffee.", "timestamp": "2024-03-04T10:04:00Z"},
}

// forgetAboutDoc is POST …/forget's body.
type forgetAboutDoc struct {
	DryRun       bool `json:"dry_run"`
	Observations []string
	Memories     []string
	Episodes     []string
	Traces       []string
	Counts       struct{ Observations, Memories, Episodes, Traces int }
}

// TestForgetAbout: POST …/forget forgets one person of a space, over HTTP and a real
// Neo4j, found by full name and email address: a dry run answers the messages naming them,
// the memories forgetting those deletes (as GET …/observations/{id} says of each) and the
// traces of questions naming them, and changes nothing; then the call forgets them, and
// the person is nowhere (memories?q=, recall, the messages, the traces, their edits, the
// export), while the other person of the same first name keeps their messages, memories
// and trace; a second call finds nothing.
func TestForgetAbout(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, aboutTwoToms)
	about := []string{"Tom Becker", "tom.becker@acme.com"}

	type recalled struct {
		TraceID string `json:"trace_id"`
		Nodes   []struct{ Node struct{ ID string } }
	}
	var becker, schmidt recalled
	const asked = "Where is Tom Becker moving to?"
	if code := c.do("POST", sp+"/recall", map[string]any{"query": asked, "k": 5}, &becker).StatusCode; code != http.StatusOK || len(becker.Nodes) < 2 {
		t.Fatalf("recall: %d %+v", code, becker)
	}
	// Feedback makes edits, and a learned link, that hold the question.
	var fb struct{ Edits []struct{ ID string } }
	feedback := map[string]any{"correct": true, "useful_node_ids": []string{becker.Nodes[0].Node.ID, becker.Nodes[1].Node.ID}}
	if code := c.do("POST", sp+"/traces/"+becker.TraceID+"/feedback", feedback, &fb).StatusCode; code != http.StatusOK || len(fb.Edits) == 0 {
		t.Fatalf("feedback: %d, %d edits", code, len(fb.Edits))
	}
	if code := c.do("POST", sp+"/recall", map[string]any{"query": "What does Tom Schmidt play?"}, &schmidt).StatusCode; code != http.StatusOK {
		t.Fatalf("recall: %d", code)
	}
	before := c.memories(sp, "limit=500")
	schmidts := c.memories(sp, "limit=500&q=Schmidt")
	exported := withoutExportedAt(export(t, c, space))
	if len(schmidts) == 0 || !strings.Contains(exported, "Becker") || !strings.Contains(exported, asked) {
		t.Fatalf("want memories of Tom Schmidt (%d) and an export naming Tom Becker and the question", len(schmidts))
	}
	// What forgetting each message alone deletes goes when they go together too.
	var goes []string
	for _, id := range []string{"b1", "b2", "b3"} {
		var doc struct {
			Memories []struct {
				ID            string
				DeletedWithIt bool `json:"deleted_with_it"`
			}
		}
		c.do("GET", sp+"/observations/"+id, nil, &doc)
		for _, m := range doc.Memories {
			if m.DeletedWithIt {
				goes = append(goes, m.ID)
			}
		}
	}

	var dry forgetAboutDoc
	if code := c.do("POST", sp+"/forget", map[string]any{"about": about, "dry_run": true}, &dry).StatusCode; code != http.StatusOK {
		t.Fatalf("dry run: %d", code)
	}
	t.Run("DryRun", func(t *testing.T) {
		if !dry.DryRun || !slices.Equal(dry.Observations, []string{"b1", "b2", "b3"}) || !slices.Equal(dry.Traces, []string{becker.TraceID}) {
			t.Errorf("dry run %+v, want b1 b2 b3 and the trace %s", dry, becker.TraceID)
		}
		if dry.Counts.Observations != 3 || dry.Counts.Memories != len(dry.Memories) || dry.Counts.Traces != 1 {
			t.Errorf("counts %+v", dry.Counts)
		}
		for _, id := range goes {
			if !slices.Contains(dry.Memories, id) {
				t.Errorf("memory %s, deleted with its message, not in the dry run's %v", id, dry.Memories)
			}
		}
		for _, m := range before {
			named := strings.Contains(strings.ToLower(m.Name+" "+m.Content), "becker")
			// An event or fact goes when one of its messages names Tom Becker (b1-b3).
			if slices.Contains(dry.Memories, m.ID) != slices.ContainsFunc(m.Sources, func(s string) bool { return s[0] == 'b' }) && (m.Type == realm.Event || m.Type == realm.Fact) {
				t.Errorf("%s %s %q (sources %v): in the dry run %v", m.Type, m.ID, m.Content, m.Sources, slices.Contains(dry.Memories, m.ID))
			}
			if named && !slices.Contains(dry.Memories, m.ID) {
				t.Errorf("%s %s %q names Tom Becker and would stay", m.Type, m.ID, m.Content)
			}
		}
		if after := withoutExportedAt(export(t, c, space)); after != exported {
			t.Error("the dry run changed the space's export")
		}
	})

	var got forgetAboutDoc
	if code := c.do("POST", sp+"/forget", map[string]any{"about": about}, &got).StatusCode; code != http.StatusOK {
		t.Fatalf("forget: %d", code)
	}
	t.Run("Answer", func(t *testing.T) {
		if got.DryRun || !slices.Equal(got.Observations, dry.Observations) || !slices.Equal(got.Traces, dry.Traces) || got.Counts.Memories != len(got.Memories) {
			t.Errorf("forget %+v, want the dry run's %+v", got, dry)
		}
		for _, id := range dry.Memories {
			if !slices.Contains(got.Memories, id) {
				t.Errorf("memory %s of the dry run not deleted: %v", id, got.Memories)
			}
		}
	})
	t.Run("NowhereAfter", func(t *testing.T) {
		for _, q := range []string{"Becker", "tom.becker@acme.com"} {
			if ms := c.memories(sp, "limit=500&q="+q); len(ms) != 0 {
				t.Errorf("memories?q=%s: %+v", q, ms)
			}
		}
		rec := c.recall(sp, map[string]any{"query": "Tom Becker", "k": 20})
		for _, n := range rec.Nodes {
			if strings.Contains(strings.ToLower(n.Node.Name+" "+n.Node.Content), "becker") {
				t.Errorf("recall finds %+v", n.Node)
			}
		}
		checkForgotten(t, c, sp, becker.TraceID, http.StatusNotFound)
		var edits struct {
			Edits []struct{ Query *string }
		}
		c.do("GET", sp+"/edits?trace="+becker.TraceID, nil, &edits)
		if len(edits.Edits) != len(fb.Edits) || slices.ContainsFunc(edits.Edits, func(e struct{ Query *string }) bool { return e.Query != nil }) {
			t.Errorf("edits of the trace: %+v, want the %d made, without the question", edits.Edits, len(fb.Edits))
		}
		// A recall above and this export's traces name Tom Becker; the one just asked is
		// the only one left that does.
		body := string(export(t, c, space))
		for _, line := range strings.Split(body, "\n") {
			if strings.Contains(strings.ToLower(line), "becker") && !strings.Contains(line, rec.TraceID) {
				t.Errorf("the export still names Tom Becker: %s", line)
			}
		}
	})
	t.Run("OtherStays", func(t *testing.T) {
		after := c.memories(sp, "limit=500&q=Schmidt")
		for _, m := range schmidts {
			if !slices.ContainsFunc(after, func(n realm.Node) bool { return n.ID == m.ID }) {
				t.Errorf("a memory of Tom Schmidt is gone: %+v", m)
			}
		}
		if code := c.status("GET", sp+"/traces/"+schmidt.TraceID, nil); code != http.StatusOK {
			t.Errorf("the trace of the question about Tom Schmidt: %d", code)
		}
	})
	t.Run("Again", func(t *testing.T) {
		var again forgetAboutDoc
		c.do("POST", sp+"/forget", map[string]any{"about": about}, &again)
		// The recall of NowhereAfter asked about Tom Becker: its trace goes now.
		if len(again.Observations) != 0 || len(again.Memories) != 0 || len(again.Traces) != 1 {
			t.Errorf("a second forget: %+v, want only the trace of the recall since", again)
		}
	})
}

// TestForgetAboutInvalid: a forget request without phrases, with too many, an empty one
// or one too long is refused, naming the field, and forgets nothing.
func TestForgetAboutInvalid(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, aboutTwoToms)
	many := make([]string, 21)
	for i := range many {
		many[i] = "Tom Becker"
	}
	for _, tc := range []struct {
		name  string
		about []string
		field string
	}{
		{"ErrNoPhrase", []string{}, "about"},
		{"ErrTooMany", many, "about"},
		{"ErrEmpty", []string{"Tom Becker", "  "}, "about[1]"},
		{"ErrTooLong", []string{strings.Repeat("é", 257)}, "about[0]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p problemDoc
			if code := c.do("POST", sp+"/forget", map[string]any{"about": tc.about}, &p).StatusCode; code != http.StatusBadRequest || p.Fields[tc.field] == "" {
				t.Errorf("%d %+v, want 400 naming %s", code, p, tc.field)
			}
		})
	}
	var list struct{ Observations []realm.Observation }
	if c.do("GET", sp+"/observations?limit=100", nil, &list); len(list.Observations) != len(aboutTwoToms) {
		t.Errorf("%d observations after the refused requests, want %d", len(list.Observations), len(aboutTwoToms))
	}
	var p problemDoc
	if code := c.do("POST", "/v1/spaces/"+cyphertest.NewSpace(t)+"/forget", map[string]any{"about": []string{"Tom"}, "dry_run": true}, &p).StatusCode; code != http.StatusNotFound {
		t.Errorf("a space that does not exist: %d %+v, want 404", code, p)
	}
}

// TestForgetAboutWords: a phrase is found as whole words, in any case, with any white
// space between its words (a no-break space too), composed or decomposed alike; an email
// address as a whole token, not inside a longer one; a number (an IBAN, a card's, a
// phone's) in any grouping, not inside a longer one but after a country code; a session
// id holding a phrase as whole words makes its messages found.
func TestForgetAboutWords(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	texts := []struct {
		content string
		named   bool
		session string
	}{
		{"Tom Beckerman called about the lease.", false, ""},
		{"Mail ops.tom.becker@acme.com for access.", false, ""},
		{"Write to tom.becker@acme.com.au instead.", false, ""},
		{"Ask btom.becker@acme.com about the invoice.", false, ""},
		{"I met tom   becker\nat the fair.", true, ""},
		{"Ask TOM.BECKER@ACME.COM.", true, ""},
		{"These are (Tom Becker's) notes.", true, ""},
		{"Reach him at <tom.becker@acme.com>, please.", true, ""},
		{"My IBAN is DE89370400440532013000.", true, ""},
		{"Wire it to DE89-3704-0044-0532-0130-00 today.", true, ""},
		{"The other account is DE89 3704 0044 0532 0130 001.", false, ""},
		{"Card 4111 1111 1111 1111 expires in May.", true, ""},
		{"Card 4111111111111112 is the new one.", false, ""},
		{"I met Ju\u0308rgen Mu\u0308ller at the fair.", true, ""}, // decomposed, found by the composed phrase
		{"Anna Köhler sent the invoice.", true, ""},                // composed, found by the decomposed phrase
		{"Call Tom\u00a0Becker tomorrow.", true, ""},               // a no-break space
		{"Call +420 777 123 456 after six.", true, ""},             // a national number in its international form
		{"Or +420777123456 on weekends.", true, ""},
		{"The code 1777123456 is someone else's.", false, ""},
		{"Noted, the appointment moves to Monday.", true, "ticket-tom.becker@acme.com"}, // a session named after him
		{"Noted, the invoice goes out today.", false, "ticket-tom.beckerman@acme.com"},
	}
	var messages []map[string]string
	var want []string
	for i, text := range texts {
		id := fmt.Sprintf("w%d", i)
		messages = append(messages, map[string]string{"id": id, "role": "user", "content": text.content, "timestamp": fmt.Sprintf("2024-03-04T10:%02d:00Z", i), "session_id": text.session})
		if text.named {
			want = append(want, id)
		}
	}
	c.remember(sp, messages)
	var dry forgetAboutDoc
	if code := c.do("POST", sp+"/forget", map[string]any{"about": []string{"Tom Becker", "tom.becker@acme.com", "DE89 3704 0044 0532 0130 00", "4111-1111-1111-1111", "Jürgen Müller", "Anna Ko\u0308hler", "777 123 456"}, "dry_run": true}, &dry).StatusCode; code != http.StatusOK {
		t.Fatalf("dry run: %d", code)
	}
	if !slices.Equal(dry.Observations, want) {
		for _, m := range messages {
			t.Logf("%s %q", m["id"], m["content"])
		}
		t.Errorf("found %v, want %v", dry.Observations, want)
	}
}

// TestForgetAboutPhoneNumber: a phone number named in its international form finds every
// message that writes it, in any spelling ("0034 600-111-222", the national "600111222"),
// and none that writes another person's; the call forgets what its dry run listed, no
// more, and the number is nowhere after it, in no spelling.
func TestForgetAboutPhoneNumber(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	var messages []map[string]string
	for i, content := range []string{
		"Ines Duarte's phone is +34 600 111 222.",
		"Ines Duarte can also be reached on 0034 600-111-222.",
		"Call Ines on 600111222 after 5pm.",
		"Ines's email is INES.Duarte@Example.org.",
		"Our other candidate called from +34 600 111 223.",
	} {
		messages = append(messages, map[string]string{"id": fmt.Sprint("ph", i), "speaker": "Tom Baker", "content": content, "timestamp": fmt.Sprintf("2026-10-0%dT10:00:00Z", i+1)})
	}
	c.remember(sp, messages)
	about := map[string]any{"about": []string{"+34600111222"}, "dry_run": true}
	var dry, got, again forgetAboutDoc
	if code := c.do("POST", sp+"/forget", about, &dry).StatusCode; code != http.StatusOK {
		t.Fatalf("dry run: %d", code)
	}
	if want := []string{"ph0", "ph1", "ph2"}; !slices.Equal(dry.Observations, want) || len(dry.Memories) == 0 {
		t.Fatalf("dry run %+v, want %v and their memories", dry, want)
	}
	about["dry_run"] = false
	if code := c.do("POST", sp+"/forget", about, &got).StatusCode; code != http.StatusOK {
		t.Fatalf("forget: %d", code)
	}
	if !slices.Equal(got.Observations, dry.Observations) || !slices.Equal(got.Memories, dry.Memories) || got.Counts != dry.Counts {
		t.Errorf("forget %+v, want the dry run's %+v", got, dry)
	}
	for _, m := range c.memories(sp, "limit=500") {
		if strings.Contains(strings.Join(strings.FieldsFunc(m.Name+" "+m.Content, func(r rune) bool { return r == ' ' || r == '-' }), ""), "600111222") {
			t.Errorf("%s %s %q still holds the number", m.Type, m.ID, m.Content)
		}
	}
	if c.do("POST", sp+"/forget", map[string]any{"about": []string{"600 111 222"}, "dry_run": true}, &again); len(again.Observations)+len(again.Memories) != 0 {
		t.Errorf("the national form still finds %+v", again)
	}
}

// TestForgetAboutCorrection: a memory whose content a client's correction wrote, naming
// someone its messages do not name (the correction keeps the corrected memory's
// provenance), is found by a phrase of its content and forgotten; the memory it corrected
// holds again, and the message stays.
func TestForgetAboutCorrection(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, []map[string]string{{"id": "m1", "speaker": "Maria Lopez", "role": "user",
		"content": "I moved to Calle Mayor 5 in Madrid last spring.", "timestamp": "2024-03-04T10:00:00Z"}})
	var old realm.Node
	for _, m := range c.memories(sp, "limit=500") {
		if m.Type == realm.Event || m.Type == realm.Fact {
			old = m
		}
	}
	if old.ID == "" {
		t.Fatal("no event or fact to correct")
	}
	var corrected struct{ Memory realm.Node }
	patch := map[string]any{"content": "Maria Lopez lives at Calle Mayor 5; her emergency contact is Peter Novak, IBAN CZ65 0800 0000 1920 0014 5399."}
	if code := c.do("PATCH", sp+"/memories/"+old.ID, patch, &corrected).StatusCode; code != http.StatusOK || corrected.Memory.ID == "" {
		t.Fatalf("correct: %d %+v", code, corrected)
	}
	for _, about := range [][]string{{"Peter Novak"}, {"CZ6508000000192000145399"}} {
		var dry forgetAboutDoc
		c.do("POST", sp+"/forget", map[string]any{"about": about, "dry_run": true}, &dry)
		if len(dry.Observations) != 0 || !slices.Equal(dry.Memories, []string{corrected.Memory.ID}) {
			t.Errorf("dry run %v: %+v, want the correction %s alone", about, dry, corrected.Memory.ID)
		}
	}
	var got forgetAboutDoc
	if code := c.do("POST", sp+"/forget", map[string]any{"about": []string{"Peter Novak"}}, &got).StatusCode; code != http.StatusOK || !slices.Equal(got.Memories, []string{corrected.Memory.ID}) {
		t.Fatalf("forget: %d %+v, want the correction %s", code, got, corrected.Memory.ID)
	}
	for _, q := range []string{"Novak", "CZ65"} {
		if ms := c.memories(sp, "limit=500&q="+q); len(ms) != 0 {
			t.Errorf("memories?q=%s: %+v", q, ms)
		}
	}
	var held struct{ Memory realm.Node }
	if code := c.do("GET", sp+"/memories/"+old.ID, nil, &held).StatusCode; code != http.StatusOK || held.Memory.ValidUntil != nil {
		t.Errorf("the memory corrected: %d %+v, want it to hold again", code, held.Memory)
	}
	if code := c.status("GET", sp+"/observations/m1", nil); code != http.StatusOK {
		t.Errorf("the message: %d, want it kept", code)
	}
}

// TestForgetAboutEpisode: the episode of a session that opened with the person's message
// and goes on with another's is derived again from what stays, before the answer: its
// content, participants, keywords and embedding (recall, memories?q=) no longer name
// them, a dry run finds nothing more, and a message of the session said afterwards is
// still contextualized by the session's episode.
func TestForgetAboutEpisode(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	said := func(id, speaker, content, at string) map[string]string {
		return map[string]string{"id": id, "session_id": "visit", "speaker": speaker, "role": "user", "content": content, "timestamp": at}
	}
	c.remember(sp, []map[string]string{
		said("e1", "Tom Becker", "My knee surgery is on Friday at the city clinic.", "2024-03-04T10:00:00Z"),
		said("e2", "Maria Lopez", "I will drive to the airport on Friday morning.", "2024-03-04T10:01:00Z"),
		said("e3", "Maria Lopez", "I booked a hotel in Lisbon for May.", "2024-03-04T10:02:00Z"),
	})
	episode := func() realm.Node {
		t.Helper()
		eps := c.memories(sp, "limit=500&type=episode")
		if len(eps) != 1 {
			t.Fatalf("episodes: %+v, want the session's one", eps)
		}
		return eps[0]
	}
	names := func(n realm.Node) bool {
		return strings.Contains(strings.ToLower(strings.Join(append(append([]string{n.Name, n.Content, n.Description}, n.Participants...), n.Keywords...), " ")), "becker")
	}
	if ep := episode(); !names(ep) {
		t.Fatalf("the episode before: %+v, want it to name Tom Becker", ep)
	}
	if code := c.status("POST", sp+"/forget", map[string]any{"about": []string{"Tom Becker"}}); code != http.StatusOK {
		t.Fatalf("forget: %d", code)
	}
	ep := episode()
	if names(ep) || !strings.Contains(ep.Content, "Maria Lopez") {
		t.Errorf("the episode after: %+v, want it derived from Maria Lopez's messages alone", ep)
	}
	if ms := c.memories(sp, "limit=500&q=Becker"); len(ms) != 0 {
		t.Errorf("memories?q=Becker: %+v", ms)
	}
	for _, n := range c.recall(sp, map[string]any{"query": "Tom Becker", "k": 20}).Nodes {
		if names(n.Node) {
			t.Errorf("recall finds %+v", n.Node)
		}
	}
	var dry forgetAboutDoc
	c.do("POST", sp+"/forget", map[string]any{"about": []string{"Tom Becker"}, "dry_run": true}, &dry)
	if len(dry.Observations)+len(dry.Memories) != 0 {
		t.Errorf("a dry run after: %+v, want nothing", dry)
	}

	c.remember(sp, []map[string]string{said("e4", "Maria Lopez", "I adopted a grey cat named Pixel.", "2024-03-04T10:03:00Z")})
	if eps := c.memories(sp, "limit=500&type=episode"); len(eps) != 1 || eps[0].ID != ep.ID {
		t.Fatalf("episodes after a new message: %+v, want %s alone", eps, ep.ID)
	}
	var doc struct{ Edges []realm.Edge }
	c.do("GET", sp+"/memories/"+ep.ID, nil, &doc)
	contextualized := false
	for _, m := range c.memories(sp, "limit=500") {
		if slices.Contains(m.Sources, "e4") && (m.Type == realm.Event || m.Type == realm.Fact) {
			contextualized = contextualized || slices.ContainsFunc(doc.Edges, func(e realm.Edge) bool {
				return e.From == ep.ID && e.To == m.ID && e.Predicate == realm.Contextualizes
			})
		}
	}
	if !contextualized {
		t.Errorf("no event or fact of the new message is contextualized by the episode: %+v", doc.Edges)
	}
}

// TestForgetAboutFinishedAgain: a forget that fails between its messages and its traces
// (the embedder, which keeps each erased question's vector on the learned links, is away)
// answers 503 with the messages forgotten and the trace still there; the same call again,
// the embedder back, finishes it: the trace goes, and the answer names it.
func TestForgetAboutFinishedAgain(t *testing.T) {
	emb := &switchedEmbedder{Embedder: embedder}
	srv := newTestServer(t, apitest.New(t), Config{}, func(d *Deps) {
		emb.Embedder = embedder // set up by testDeps
		d.Recall = retrieval.New(d.Store, emb, offline.New(offline.Options{}), retrieval.Options{}, zerolog.New(io.Discard))
	})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, aboutTwoToms)
	about := map[string]any{"about": []string{"Tom Becker", "tom.becker@acme.com"}}
	rec := c.recall(sp, map[string]any{"query": "Where is Tom Becker moving to?", "k": 20})
	// Feedback adds learned links that hold the question, between memories of Tom Schmidt
	// that stay: forgetting the trace embeds the question, for the links to keep its vector.
	var stay []string
	for _, n := range rec.Nodes {
		if !slices.ContainsFunc(n.Node.Sources, func(s string) bool { return s[0] == 'b' }) {
			stay = append(stay, n.Node.ID)
		}
	}
	if len(stay) < 2 {
		t.Fatalf("recall: %d memories of Tom Schmidt alone, want 2 at least", len(stay))
	}
	feedback := map[string]any{"correct": true, "useful_node_ids": stay[:2]}
	if code := c.status("POST", sp+"/traces/"+rec.TraceID+"/feedback", feedback); code != http.StatusOK {
		t.Fatalf("feedback: %d", code)
	}

	emb.down.Store(true)
	if code := c.status("POST", sp+"/forget", about); code != http.StatusServiceUnavailable {
		t.Fatalf("forget, the embedder away: %d, want 503", code)
	}
	emb.down.Store(false)
	if left := checkForgotten(t, c, sp, rec.TraceID, http.StatusOK); left {
		t.Fatal("after the failed forget: want the messages forgotten and the trace still there")
	}

	var again forgetAboutDoc
	if code := c.do("POST", sp+"/forget", about, &again).StatusCode; code != http.StatusOK {
		t.Fatalf("forget again: %d", code)
	}
	if len(again.Observations) != 0 || !slices.Equal(again.Traces, []string{rec.TraceID}) {
		t.Errorf("forget again: %+v, want the trace the failed call left, and no message", again)
	}
	if code := c.status("GET", sp+"/traces/"+rec.TraceID, nil); code != http.StatusNotFound {
		t.Errorf("after forgetting again: the trace %d, want 404", code)
	}
}

// TestMCPForgetAbout: the MCP tool forget_about is POST …/forget: the same validation
// (tool errors naming the field, NUL refused as the JSON body refuses it), the same dry
// run and the same answer (the route's documented schema), and it forgets the person as
// the route does.
func TestMCPForgetAbout(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	cs := mustConnectMCP(t, srv.URL, "")
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, aboutTwoToms)
	about := []string{"Tom Becker", "tom.becker@acme.com"}
	rec := c.recall(sp, map[string]any{"query": "Where is Tom Becker moving to?", "k": 5})

	for _, tt := range []struct {
		name  string
		about []string
		field string
	}{
		{"ErrNoPhrase", []string{}, "about"},
		{"ErrEmpty", []string{"Tom Becker", " "}, "about[1]"},
		{"ErrNUL", []string{"Tom\x00Becker"}, "about[0]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := callTool(t, cs, "forget_about", map[string]any{"space": space, "about": tt.about})
			if fields, _ := got.out["fields"].(map[string]any); !got.isError || got.code() != "invalid" || fields[tt.field] == nil {
				t.Errorf("%+v, want the tool error invalid naming %s", got, tt.field)
			}
		})
	}

	var httpDry, dry forgetAboutDoc
	c.do("POST", sp+"/forget", map[string]any{"about": about, "dry_run": true}, &httpDry)
	got := callTool(t, cs, "forget_about", map[string]any{"space": space, "about": about, "dry_run": true})
	checkDocumented(t, "forget_about", got)
	got.decode(t, &dry)
	if got.isError || !reflect.DeepEqual(dry, httpDry) || !slices.Equal(dry.Observations, []string{"b1", "b2", "b3"}) {
		t.Fatalf("dry run: %+v, want POST …/forget's %+v", got, httpDry)
	}

	var gone forgetAboutDoc
	got = callTool(t, cs, "forget_about", map[string]any{"space": space, "about": about})
	checkDocumented(t, "forget_about", got)
	got.decode(t, &gone)
	if got.isError || gone.DryRun || !slices.Equal(gone.Observations, dry.Observations) || !slices.Equal(gone.Traces, []string{rec.TraceID}) ||
		gone.Counts.Memories != len(dry.Memories) {
		t.Errorf("forget_about: %+v, want the dry run's %+v", got, dry)
	}
	checkForgotten(t, c, sp, rec.TraceID, http.StatusNotFound)
}

// checkForgotten checks that the space holds the messages of Tom Schmidt alone (those of
// Tom Becker forgotten), and that GET of the trace answers want; it reports whether
// either check failed.
func checkForgotten(t *testing.T, c client, sp, trace string, want int) (failed bool) {
	t.Helper()
	var list struct{ Observations []realm.Observation }
	c.do("GET", sp+"/observations?limit=100", nil, &list)
	var ids []string
	for _, o := range list.Observations {
		ids = append(ids, o.ID)
	}
	if !slices.Equal(ids, []string{"s1", "s2"}) {
		t.Errorf("messages %v, want s1 s2", ids)
		failed = true
	}
	if code := c.status("GET", sp+"/traces/"+trace, nil); code != want {
		t.Errorf("the trace: %d, want %d", code, want)
		failed = true
	}
	return failed
}

// meeting is a message of a team's weekly meeting, said on day at minute past ten.
func meeting(id, day, speaker, content string, minute int) map[string]string {
	return map[string]string{"id": id, "session_id": "weekly-" + day, "speaker": speaker, "content": content,
		"timestamp": fmt.Sprintf("%sT10:%02d:00+01:00", day, minute)}
}

// TestForgetAboutEpisodeNaming: POST …/forget derives again an episode that names the
// person though none of its messages is theirs (the session's first speaker taken to
// answer them, who spoke to her in an earlier meeting): a dry run lists it under
// episodes, the forget derives it again without the name, and a dry run after finds
// nothing.
func TestForgetAboutEpisodeNaming(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, []map[string]string{
		meeting("e1", "2026-01-28", "Diego", "Checkout tests are in; the suite runs nightly.", 0),
		meeting("e2", "2026-01-28", "Mei", "I'll run five user interviews next week.", 3),
		meeting("e3", "2026-02-04", "Mei", "Interviews done: users want a dark mode.", 0),
		meeting("e4", "2026-02-04", "Sara", "Decision: dark mode is postponed until after launch.", 3),
	})
	names := func(n realm.Node) bool {
		return strings.Contains(strings.ToLower(strings.Join(append(append([]string{n.Name, n.Content, n.Description}, n.Participants...), n.Keywords...), " ")), "diego")
	}
	var naming []string
	for _, ep := range c.memories(sp, "limit=500&type=episode") {
		if names(ep) && !slices.Contains(ep.Sources, "e1") {
			naming = append(naming, ep.ID)
		}
	}
	if len(naming) == 0 {
		t.Fatal("no episode names Diego but by his message: nothing to test")
	}
	about := map[string]any{"about": []string{"Diego"}}
	var dry, got, again forgetAboutDoc
	c.do("POST", sp+"/forget", map[string]any{"about": []string{"Diego"}, "dry_run": true}, &dry)
	for _, id := range naming {
		if !slices.Contains(dry.Episodes, id) || dry.Counts.Episodes != len(dry.Episodes) {
			t.Errorf("dry run %+v: want the episode %s, which names Diego, among its episodes", dry, id)
		}
	}
	if code := c.do("POST", sp+"/forget", about, &got).StatusCode; code != http.StatusOK {
		t.Fatalf("forget: %d", code)
	}
	if !slices.Equal(got.Episodes, dry.Episodes) || !slices.Equal(got.Memories, dry.Memories) {
		t.Errorf("forget %+v, want the dry run's %+v", got, dry)
	}
	for _, m := range c.memories(sp, "limit=500") {
		if names(m) {
			t.Errorf("%s %s %q (participants %v, keywords %v) names Diego after the forget", m.Type, m.ID, m.Content, m.Participants, m.Keywords)
		}
		if m.Type == realm.Episode && slices.Contains(naming, m.ID) && !strings.Contains(m.Content, "10:00 am") {
			t.Errorf("episode %q derived again, want it said at 10:00 am, where the message was sent", m.Content)
		}
	}
	if ms := c.memories(sp, "limit=500&q=Diego"); len(ms) != 0 {
		t.Errorf("memories?q=Diego: %+v", ms)
	}
	c.do("POST", sp+"/forget", map[string]any{"about": []string{"Diego"}, "dry_run": true}, &again)
	if again.Counts.Memories+again.Counts.Episodes+again.Counts.Observations != 0 {
		t.Errorf("a dry run after: %+v, want nothing", again)
	}
}

// TestForgetAboutAsDryRun: the forget deletes the memories its dry run listed, no more,
// when the person's message is followed by another message naming them (forgetting the
// first does not integrate again the second, which goes next).
func TestForgetAboutAsDryRun(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	const day = "2026-03-04"
	c.remember(sp, []map[string]string{
		meeting("m1", day, "Tom", "The billing migration is done.", 0),
		meeting("m2", day, "Diego", "I'm leaving the company at the end of March; my last day is March 27.", 1),
		meeting("m3", day, "Sara", "Action item: Priya takes over the end-to-end test suite from Diego.", 2),
		meeting("m4", day, "Priya", "Fine by me, I will read the handover doc.", 3),
	})
	var dry, got forgetAboutDoc
	c.do("POST", sp+"/forget", map[string]any{"about": []string{"Diego"}, "dry_run": true}, &dry)
	if code := c.do("POST", sp+"/forget", map[string]any{"about": []string{"Diego"}}, &got).StatusCode; code != http.StatusOK {
		t.Fatalf("forget: %d", code)
	}
	if !slices.Equal(dry.Observations, []string{"m2", "m3"}) || !slices.Equal(got.Memories, dry.Memories) || got.Counts != dry.Counts {
		t.Errorf("forget:\n%+v\nwant the dry run's\n%+v", got, dry)
	}
}
