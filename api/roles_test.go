package api

import (
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestMessageRoles: a message sent with a speaker and a role keeps both, the role in lower
// case, shown wherever the message is: its lookup, the list, the export, and the space
// imported from it. The role decides what is extracted, whatever the speaker: "Ops bot"'s
// system prompt makes no memory, "Weather API"'s tool output makes memories and no
// person, and Maya's message as the user is Maya's. OpenAI's "developer" is a system
// prompt; a role that is no chat role names who spoke, as before, and is not kept (Lee,
// a "moderator", is a person). An empty role is refused, naming the field, and nothing of
// its batch is stored; a stored message sent again with another role is a conflict.
func TestMessageRoles(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space

	var p problemDoc
	code := c.do("POST", sp+"/observations", map[string]any{"messages": []map[string]any{
		{"id": "ok", "speaker": "Maya", "content": "I live in Porto.", "timestamp": "2024-05-01T09:00:00Z"},
		{"id": "bad", "role": "\u200e", "content": "Deploys are frozen.", "timestamp": "2024-05-01T09:01:00Z"},
	}}, &p).StatusCode
	if code != http.StatusBadRequest || !strings.Contains(p.Fields["messages[1].role"], "must not be empty") {
		t.Errorf("an empty role: %d %+v, want 400 naming messages[1].role", code, p)
	}
	if code := c.status("GET", sp+"/observations/ok", nil); code != http.StatusNotFound {
		t.Errorf("GET the refused batch's other message: %d, want 404 (nothing stored)", code)
	}

	sent := []map[string]string{
		{"id": "sys", "session_id": "s1", "speaker": "Ops bot", "role": "SYSTEM", "content": "Deploy token XYZZY-4242. Maya Chen adopted a greyhound called Comet.", "timestamp": "2024-05-01T09:00:00Z"},
		{"id": "user", "session_id": "s1", "speaker": "Maya", "role": "User", "content": "I adopted a cat called Pixel last week.", "timestamp": "2024-05-01T09:01:00Z"},
		{"id": "tool", "session_id": "s1", "speaker": "Weather API", "role": "tool", "content": "Forecast for Lisbon on Saturday: sunny, 24 degrees.", "timestamp": "2024-05-01T09:02:00Z"},
		{"id": "plain", "session_id": "s1", "speaker": "Ana", "content": "I moved to Lisbon with my partner Tomás.", "timestamp": "2024-05-01T09:03:00Z"},
		{"id": "dev", "session_id": "s1", "speaker": "Setup", "role": "developer", "content": "Answer in French. Maya Chen owns a boat called Osprey.", "timestamp": "2024-05-01T09:04:00Z"},
		{"id": "named", "session_id": "s1", "speaker": "Lee", "role": "moderator", "content": "I am taking over this thread from Maya.", "timestamp": "2024-05-01T09:05:00Z"},
	}
	c.remember(sp, sent)
	want := map[string]string{"sys": "system", "user": "user", "tool": "tool", "plain": "", "dev": "system", "named": ""}
	checkRoles := func(how string, got []realm.Observation) {
		t.Helper()
		if len(got) != len(want) {
			t.Errorf("%s: %d observations, want %d", how, len(got), len(want))
		}
		for _, o := range got {
			i := slices.IndexFunc(sent, func(m map[string]string) bool { return m["id"] == o.ID })
			if i < 0 || o.Role != want[o.ID] || o.Speaker != sent[i]["speaker"] {
				t.Errorf("%s: %s said by %q as %q, want the speaker sent as %q", how, o.ID, o.Speaker, o.Role, want[o.ID])
			}
		}
	}
	var got []realm.Observation
	for id := range want {
		var doc observationDoc
		if code := c.do("GET", sp+"/observations/"+id, nil, &doc).StatusCode; code != http.StatusOK {
			t.Fatalf("GET observation %s: %d", id, code)
		}
		got = append(got, doc.Observation)
		if (id == "sys" || id == "dev") && len(doc.Memories) > 0 {
			t.Errorf("the system prompt derives memories %+v, want none", doc.Memories)
		}
	}
	checkRoles("GET …/observations/{id}", got)
	var page observationPage
	c.do("GET", sp+"/observations", nil, &page)
	checkRoles("GET …/observations", page.Observations)

	var people []string
	toolSaid := false
	for _, m := range c.memories(sp, "limit=500") {
		if m.Type == realm.Entity && m.Category == "person" {
			people = append(people, m.Name)
		}
		toolSaid = toolSaid || slices.Contains(m.Sources, "tool") && strings.Contains(m.Content, "sunny")
	}
	for _, name := range []string{"Ops bot", "Weather API", "system", "tool", "Comet", "Setup", "Osprey"} {
		if slices.Contains(people, name) {
			t.Errorf("people %q: %q is one", people, name)
		}
	}
	for _, name := range []string{"Maya", "Ana", "Lee"} {
		if !slices.Contains(people, name) {
			t.Errorf("people %q: %q is not one", people, name)
		}
	}
	if !toolSaid {
		t.Error("no memory of the tool's forecast: a tool's output is extracted")
	}

	// Sent again with its role, or without one, the system prompt is the same message; with
	// another role, it is another, which its id cannot name.
	again := func(role string) int {
		m := maps.Clone(sent[0])
		if m["role"] = role; role == "" {
			delete(m, "role")
		}
		return c.status("POST", sp+"/observations", map[string]any{"messages": []map[string]string{m}})
	}
	for role, code := range map[string]int{"system": http.StatusOK, "": http.StatusOK, "user": http.StatusConflict} {
		if got := again(role); got != code {
			t.Errorf("the system prompt sent again as %q: %d, want %d", role, got, code)
		}
	}

	body := export(t, c, space)
	exported := 0
	for _, rec := range lines(t, body) {
		if props, _ := rec["props"].(map[string]any); rec["kind"] == "observation" {
			exported++
			if role, _ := props["role"].(string); role != want[props["id"].(string)] {
				t.Errorf("exported observation %v: role %q, want %q", props["id"], role, want[props["id"].(string)])
			}
		}
	}
	if exported != len(want) {
		t.Errorf("%d observations exported, want %d", exported, len(want))
	}
	target := cyphertest.NewSpace(t)
	if code, res, p := importInto(t, c, target, body); code != http.StatusCreated {
		t.Fatalf("import: %d %+v %+v", code, res, p)
	}
	page = observationPage{}
	c.do("GET", "/v1/spaces/"+target+"/observations", nil, &page)
	checkRoles("imported", page.Observations)
}
