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

// plumberNote is a note in two versions: the second changes the phone and the rate.
var plumberNote = []string{
	"Plumber: Marco Rossi, phone 0170 555 0123, recommended by our neighbour Mrs. Weber. Charges €65 per hour plus call-out fee.",
	"Plumber: Marco Rossi, new phone 0170 555 0199 (the old number no longer works), recommended by our neighbour Mrs. Weber. Charges €70 per hour plus call-out fee.",
	"Plumber: Marco Rossi, phone 0170 555 0199, recommended by our neighbour Mrs. Weber. Charges €75 per hour plus call-out fee.",
}

// note is a message of the note's author with id, content and time, replacing replaces
// ("" for none).
func note(id, content, at, replaces string) map[string]any {
	m := map[string]any{"id": id, "speaker": "me", "content": content, "timestamp": at}
	if replaces != "" {
		m["replaces"] = replaces
	}
	return m
}

// ingestResults posts messages to the space at sp and returns the status and results.
func ingestResults(c client, sp string, messages ...map[string]any) (int, []struct {
	Status     string
	Superseded []string
}, problemDoc) {
	var body struct {
		Results []struct {
			Status     string
			Superseded []string
		}
		problemDoc
	}
	code := c.do("POST", sp+"/observations", map[string]any{"messages": messages}, &body).StatusCode
	return code, body.Results, body.problemDoc
}

// TestReplaces: an edited note sent again under a new id with `replaces` naming the old
// one, on a real server and Neo4j: the old version's memories end at the new one's time,
// superseded, so that recall ranks the new rate first, a question about the past still
// finds the old one, and current=true lists only the new; sent again it changes nothing;
// an unknown, its own or a later message of the batch is refused, nothing stored; the
// observation shows what it replaces, over MCP too, export and import keep it, and
// forgetting the new version gives the old one back its validity.
func TestReplaces(t *testing.T) {
	space, copied := cyphertest.NewSpace(t), cyphertest.NewSpace(t)
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + space
	c.remember(sp, []map[string]any{note("plumber", plumberNote[0], "2025-11-05T09:00:00Z", "")})
	const question = "How much does the plumber charge per hour?"

	t.Run("Errors", func(t *testing.T) {
		for _, tc := range []struct {
			name     string
			messages []map[string]any
			code     int
			says     string
		}{
			{"ErrUnknown", []map[string]any{note("v2", plumberNote[1], "2025-11-07T16:00:00Z", "plumber-x")}, http.StatusNotFound, `messages[0].replaces "plumber-x" is no message of space`},
			{"ErrItself", []map[string]any{note("v2", plumberNote[1], "2025-11-07T16:00:00Z", "v2")}, http.StatusBadRequest, "names the message itself"},
			{"ErrLaterInBatch", []map[string]any{
				note("v2", plumberNote[1], "2025-11-07T16:00:00Z", "v3"), note("v3", plumberNote[2], "2025-11-08T16:00:00Z", ""),
			}, http.StatusBadRequest, "names messages[1], which comes after it"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				code, _, p := ingestResults(c, sp, tc.messages...)
				if code != tc.code || !strings.Contains(p.Detail+p.Fields["messages[0].replaces"], tc.says) {
					t.Errorf("%d %+v, want %d saying %q", code, p, tc.code, tc.says)
				}
				if code := c.status("GET", sp+"/observations/v2", nil); code != http.StatusNotFound {
					t.Errorf("GET the refused message: %d, want 404 (nothing stored)", code)
				}
			})
		}
	})

	v2 := note("plumber-v2", plumberNote[1], "2025-11-07T16:00:00Z", "plumber")
	code, results, p := ingestResults(c, sp, v2)
	if code != http.StatusOK || results[0].Status != "integrated" || len(results[0].Superseded) == 0 {
		t.Fatalf("new version: %d %+v %+v, want integrated, superseding the old one", code, results, p)
	}
	asks := func(t *testing.T, at, want string) {
		t.Helper()
		body := map[string]any{"query": question, "k": 3}
		if at != "" {
			body["time"] = at
		}
		if rec := c.recall(sp, body); len(rec.Nodes) == 0 || !strings.Contains(rec.Nodes[0].Node.Content, want) {
			t.Errorf("recall at %q: %s, want %s first", at, said(rec.Nodes), want)
		}
	}
	t.Run("Recall", func(t *testing.T) {
		asks(t, "", "€70")
		asks(t, "2025-11-06T10:00:00Z", "€65") // before the edit
	})
	t.Run("Current", func(t *testing.T) {
		current := c.memories(sp, "current=true&limit=100")
		if slices.ContainsFunc(current, func(m realm.Node) bool { return strings.Contains(m.Content, "€65") }) ||
			!slices.ContainsFunc(current, func(m realm.Node) bool { return strings.Contains(m.Content, "€70") }) {
			t.Errorf("current memories %v, want the new version's, none of the old one's", contents(current))
		}
		if old := c.memories(sp, "current=false&limit=100"); !slices.ContainsFunc(old, func(m realm.Node) bool { return strings.Contains(m.Content, "€65") }) {
			t.Errorf("ended memories %v, want the old version's (history)", contents(old))
		}
		if got := readFields(t, c, sp+"/observations/plumber-v2", "observation")["replaces"]; got != "plumber" {
			t.Errorf("observation replaces %v, want plumber", got)
		}
		if code := c.status("GET", sp+"/observations/plumber", nil); code != http.StatusOK {
			t.Errorf("GET the replaced message: %d, want it kept", code)
		}
	})
	t.Run("SentAgain", func(t *testing.T) {
		before := len(c.memories(sp, "limit=100"))
		code, results, _ := ingestResults(c, sp, v2)
		if code != http.StatusOK || results[0].Status != "already_integrated" || len(c.memories(sp, "limit=100")) != before {
			t.Errorf("sent again: %d %+v, want already_integrated and nothing written", code, results)
		}
		other := note("plumber-v2", plumberNote[1], "2025-11-07T16:00:00Z", "")
		if code, _, p := ingestResults(c, sp, other); code != http.StatusConflict || !strings.Contains(p.Detail, "replaces differs") {
			t.Errorf("sent again replacing nothing: %d %+v, want 409 naming replaces", code, p)
		}
	})
	t.Run("MCP", func(t *testing.T) {
		cs := mustConnectMCP(t, srv.URL, "")
		v3 := note("plumber-v3", plumberNote[2], "2025-11-08T16:00:00Z", "plumber-v2")
		if got := callTool(t, cs, "remember", map[string]any{"space": space, "messages": []map[string]any{v3}}); got.isError {
			t.Fatalf("remember: %s", got.text)
		}
		asks(t, "", "€75")
		asks(t, "2025-11-07T20:00:00Z", "€70")
	})
	t.Run("ExportImport", func(t *testing.T) {
		if code, _, p := importInto(t, c, copied, export(t, c, space)); code != http.StatusCreated {
			t.Fatalf("import: %d %+v", code, p)
		}
		if got := readFields(t, c, "/v1/spaces/"+copied+"/observations/plumber-v3", "observation")["replaces"]; got != "plumber-v2" {
			t.Errorf("imported observation replaces %v, want plumber-v2", got)
		}
	})
	t.Run("ForgetNewVersion", func(t *testing.T) {
		// Forgotten, the newest version gives the one it replaced back its validity.
		if code := c.status("DELETE", sp+"/observations/plumber-v3", nil); code != http.StatusOK {
			t.Fatalf("forget: %d", code)
		}
		if current := c.memories(sp, "current=true&limit=100"); !slices.ContainsFunc(current, func(m realm.Node) bool { return strings.Contains(m.Content, "€70") }) {
			t.Errorf("current memories %v, want the second version's again", contents(current))
		}
		asks(t, "", "€70")
	})
}

// TestReplacesInOneBatch: a message replacing an earlier one of its batch ends what that
// one said, as when sent later (the two are not integrated as one run).
func TestReplacesInOneBatch(t *testing.T) {
	space := cyphertest.NewSpace(t)
	c := client{t: t, base: newTestServer(t, apitest.New(t), Config{}).URL}
	sp := "/v1/spaces/" + space
	code, results, p := ingestResults(c, sp, note("plumber", plumberNote[0], "2025-11-05T09:00:00Z", ""),
		note("plumber-v2", plumberNote[1], "2025-11-07T16:00:00Z", "plumber"))
	if code != http.StatusOK || len(results) != 2 || len(results[1].Superseded) == 0 {
		t.Fatalf("%d %+v %+v, want the second superseding the first", code, results, p)
	}
	if current := c.memories(sp, "current=true&limit=100"); slices.ContainsFunc(current, func(m realm.Node) bool { return strings.Contains(m.Content, "€65") }) {
		t.Errorf("current memories %v, want none of the replaced message's", contents(current))
	}
}

// contents are the memories' contents, for a failure message.
func contents(nodes []realm.Node) []string {
	out := make([]string, len(nodes))
	for i, n := range nodes {
		out[i] = n.Content
	}
	return out
}
