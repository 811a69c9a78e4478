package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// readFields is the object under name (observation, memory) of GET path's body, as JSON
// fields, so that an absent field is told from an empty one.
func readFields(t *testing.T, c client, path, name string) map[string]any {
	t.Helper()
	var doc map[string]json.RawMessage
	if code := c.do("GET", path, nil, &doc).StatusCode; code != http.StatusOK {
		t.Fatalf("GET %s: %d", path, code)
	}
	var fields map[string]any
	if err := json.Unmarshal(doc[name], &fields); err != nil {
		t.Fatalf("GET %s: %s: %v", path, name, err)
	}
	return fields
}

// TestSentBy: two keys write one space, over HTTP and MCP, on a real server and Neo4j;
// each message says the key that first sent it (sent again by the other key, it keeps
// the first), each correction the key that made it; export and import keep both, and an
// export without them still imports.
func TestSentBy(t *testing.T) {
	space, older := cyphertest.NewSpace(t), cyphertest.NewSpace(t)
	keys, err := ParseKeys("test keys", fmt.Sprintf(`
		recruiter-a sk-ra-0123456789abcdef read,write %[1]s
		recruiter-b sk-rb-0123456789abcdef read,write %[1]s
		ops         sk-op-0123456789abcdef admin      *`, space))
	if err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, apitest.New(t), Config{Keys: keys})
	a := client{t: t, base: srv.URL, key: "sk-ra-0123456789abcdef"}
	b := client{t: t, base: srv.URL, key: "sk-rb-0123456789abcdef"}
	ops := client{t: t, base: srv.URL, key: "sk-op-0123456789abcdef"}
	sp := "/v1/spaces/" + space

	a.remember(sp, correctMessages[:1])
	b.remember(sp, correctMessages) // c1 again, and c2
	cs := mustConnectMCP(t, srv.URL, "sk-rb-0123456789abcdef")
	if got := callTool(t, cs, "remember", map[string]any{"space": space, "messages": []map[string]any{
		{"id": "c3", "session_id": "s1", "speaker": "Ana", "content": "Ana's salary offer is 85,000 euros.", "timestamp": "2023-05-08T10:02:00Z"},
	}}); got.isError {
		t.Fatalf("remember: %s", got.text)
	}
	sentBy := map[string]string{"c1": "recruiter-a", "c2": "recruiter-b", "c3": "recruiter-b"}
	t.Run("Observations", func(t *testing.T) {
		for id, want := range sentBy {
			if got := readFields(t, a, sp+"/observations/"+id, "observation")["sent_by"]; got != want {
				t.Errorf("observation %s sent_by %v, want %q", id, got, want)
			}
		}
		var page struct{ Observations []map[string]any }
		a.do("GET", sp+"/observations", nil, &page)
		if len(page.Observations) != len(sentBy) {
			t.Fatalf("listed %d observations, want %d", len(page.Observations), len(sentBy))
		}
		for _, o := range page.Observations {
			if id, _ := o["id"].(string); o["sent_by"] != sentBy[id] {
				t.Errorf("listed observation %s sent_by %v, want %q", id, o["sent_by"], sentBy[id])
			}
		}
	})

	// b corrects over HTTP what a said; a corrects over MCP the salary b said.
	old := correctable(t, a, space)
	var patched struct{ Memory map[string]any }
	if code := b.do("PATCH", sp+"/memories/"+old.ID, map[string]any{"content": "Ana's new colleague Marina joined the design team."}, &patched).StatusCode; code != http.StatusOK {
		t.Fatalf("correct: %d", code)
	}
	salary := ""
	for _, m := range a.memories(sp, "q=salary&limit=50") {
		if strings.Contains(m.Content, "85,000") && m.ValidUntil == nil {
			salary = m.ID
		}
	}
	if salary == "" {
		t.Fatal("no memory says the salary")
	}
	mcpA := mustConnectMCP(t, srv.URL, "sk-ra-0123456789abcdef")
	fixed := callTool(t, mcpA, "correct", map[string]any{"space": space, "memory_id": salary, "content": "Ana's salary offer is 90,000 euros."})
	if fixed.isError {
		t.Fatalf("correct over MCP: %s", fixed.text)
	}
	correctedBy := map[string]string{patched.Memory["id"].(string): "recruiter-b", fixed.out["memory_id"].(string): "recruiter-a"}
	t.Run("Corrections", func(t *testing.T) {
		for id, want := range correctedBy {
			m := readFields(t, a, sp+"/memories/"+id, "memory")
			if desc, _ := m["description"].(string); m["corrected_by"] != want || !strings.HasPrefix(desc, "corrected by "+want+" on ") {
				t.Errorf("correction %s: corrected_by %v, description %q; want %q", id, m["corrected_by"], desc, want)
			}
		}
	})

	t.Run("ExportImport", func(t *testing.T) {
		// Restored as a backup is, under its own name and ids.
		body := export(t, ops, space)
		if code := ops.status("DELETE", sp, nil); code != http.StatusOK {
			t.Fatalf("delete: %d", code)
		}
		if code, res, p := importInto(t, ops, space, body); code != http.StatusCreated || res.IDsRewritten {
			t.Fatalf("import: %d %+v %+v", code, res, p)
		}
		for id, want := range sentBy {
			if got := readFields(t, ops, sp+"/observations/"+id, "observation")["sent_by"]; got != want {
				t.Errorf("imported observation %s sent_by %v, want %q", id, got, want)
			}
		}
		for id, want := range correctedBy {
			if got := readFields(t, ops, sp+"/memories/"+id, "memory")["corrected_by"]; got != want {
				t.Errorf("imported correction %s corrected_by %v, want %q", id, got, want)
			}
		}
		// An export of a REALM that did not keep them imports as it did.
		var without bytes.Buffer
		for _, rec := range lines(t, body) {
			if props, ok := rec["props"].(map[string]any); ok {
				delete(props, "sent_by")
				delete(props, "corrected_by")
			}
			line, err := json.Marshal(rec)
			if err != nil {
				t.Fatal(err)
			}
			without.Write(append(line, '\n'))
		}
		if code, _, p := importInto(t, ops, older, without.Bytes()); code != http.StatusCreated {
			t.Fatalf("import of an export without sent_by: %d %+v", code, p)
		}
		var page struct{ Observations []map[string]any }
		ops.do("GET", "/v1/spaces/"+older+"/observations", nil, &page)
		if len(page.Observations) != len(sentBy) {
			t.Fatalf("imported %d observations, want %d", len(page.Observations), len(sentBy))
		}
		for _, o := range page.Observations {
			if o["sent_by"] != nil {
				t.Errorf("observation imported without sent_by has one: %v", o)
			}
		}
	})
}

// TestSentByWithoutKeys: a server without keys, whose every caller is the same, stores no
// sender: a message has no sent_by, a correction no corrected_by, and its description
// says the client corrected it.
func TestSentByWithoutKeys(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, correctMessages)
	if o := readFields(t, c, sp+"/observations/c1", "observation"); o["id"] != "c1" || o["sent_by"] != nil {
		t.Errorf("observation %v, want no sent_by", o)
	}
	old := correctable(t, c, space)
	var patched struct{ Memory map[string]any }
	if code := c.do("PATCH", sp+"/memories/"+old.ID, map[string]any{"content": "Ana's new colleague Marina joined the design team."}, &patched).StatusCode; code != http.StatusOK {
		t.Fatalf("correct: %d", code)
	}
	if m := patched.Memory; m["corrected_by"] != nil || !strings.HasPrefix(m["description"].(string), "corrected by the client on ") {
		t.Errorf("correction %v, want no corrected_by and the client's description", m)
	}
}
