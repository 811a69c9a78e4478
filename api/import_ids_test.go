package api

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestImportIDsTenancy: memory ids derive by a public formula (cypher.MemoryID), so a
// file can hold the ids another space holds or will derive. A key confined to its own
// spaces imports every file with new ids: it can neither block another space's
// ingestion by taking the ids its next message derives, nor learn from an import's
// answer whether another space holds an id. A key that reads every space restores a
// backup with its ids; a confined key restores its own with the same content, new ids.
// Should a trusted import hold ids another space derives, that space's messages are
// integrated under other ids.
func TestImportIDsTenancy(t *testing.T) {
	check := apitest.New(t)
	evil, victim := cyphertest.NewSpace(t), cyphertest.NewSpace(t)
	keys, err := ParseKeys("test keys", fmt.Sprintf(`
		evil   sk-evil-0123456789abcdef   read,write %[1]s,%[1]s-*
		victim sk-victim-0123456789abcdef admin      %[2]s
		ops    sk-ops-0123456789abcdef    admin      *`, evil, victim))
	if err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, check, Config{Keys: keys})
	attacker := client{t: t, base: srv.URL, key: "sk-evil-0123456789abcdef"}
	owner := client{t: t, base: srv.URL, key: "sk-victim-0123456789abcdef"}
	ops := client{t: t, base: srv.URL, key: "sk-ops-0123456789abcdef"}
	store := cyphertest.MustOpen(t)
	evilSpace := func(name string) string { // a space of the attacker's, erased after the test
		sp := evil + "-" + name
		t.Cleanup(func() { _, _ = store.DeleteSpace(context.Background(), sp) })
		return sp
	}

	// The attacker's files: an export of its own space, its memories given the ids wanted
	// (as many as it holds; the others, ids nobody holds) and its header the space
	// imported into.
	attacker.remember("/v1/spaces/"+evil, exportMessages[:3])
	src := export(t, attacker, evil)
	var held []string
	for _, r := range lines(t, src) {
		if props, ok := r["props"].(map[string]any); ok && r["kind"] == "memory" {
			held = append(held, props["id"].(string))
		}
	}
	forge := func(target string, ids ...string) []byte {
		t.Helper()
		if len(ids) > len(held) {
			t.Fatalf("%d ids to plant, %d memories to hold them", len(ids), len(held))
		}
		file := bytes.ReplaceAll(src, []byte(evil), []byte(target))
		for i, old := range held {
			id := cypher.DerivedID(target, fmt.Sprint("unheld\x00", i))
			if i < len(ids) {
				id = ids[i]
			}
			file = bytes.ReplaceAll(file, []byte(old), []byte(id))
		}
		return file
	}
	futureIDs := func(message string) []string { // what the victim's message will add, as many as held
		ids := make([]string, len(held))
		for i := range ids {
			ids[i] = cypher.MemoryID(victim, message, i)
		}
		return ids
	}
	type ingestResult struct {
		Results []struct {
			ID, Status, Error string
			Added             []string
		}
	}
	send := func(id, content string) ingestResult {
		t.Helper()
		var out ingestResult
		msg := map[string]string{"id": id, "speaker": "Bruno", "content": content, "timestamp": "2023-02-01T10:00:00Z"}
		if code := owner.do("POST", "/v1/spaces/"+victim+"/observations", map[string]any{"messages": []any{msg}}, &out).StatusCode; code != http.StatusOK || len(out.Results) != 1 {
			t.Fatalf("ingest %s: %d %+v", id, code, out)
		}
		return out
	}

	t.Run("CannotBlock", func(t *testing.T) {
		plant := evilSpace("plant")
		code, res, p := importInto(t, attacker, plant, forge(plant, futureIDs("m1")...))
		if code != http.StatusCreated || !res.IDsRewritten {
			t.Errorf("the attacker's import: %d %+v %+v, want 201 with ids rewritten", code, res, p)
		}
		got := send("m1", "I sold my red bicycle to Tiago in Madrid.").Results[0]
		if got.Status != "integrated" || len(got.Added) == 0 || got.Added[0] != cypher.MemoryID(victim, "m1", 0) {
			t.Errorf("the victim's message: %+v, want integrated under its derived ids", got)
		}
	})

	t.Run("CannotProbe", func(t *testing.T) {
		got := send("m2", "Tiago rides the red bicycle to his chess club.").Results[0]
		has := cypher.MemoryID(victim, "m2", 0)
		if got.Status != "integrated" || !slices.Contains(got.Added, has) {
			t.Fatalf("the victim's message: %+v, want integrated, adding %s", got, has)
		}
		answer := func(name, id string) string {
			sp := evilSpace(name)
			code, res, p := importInto(t, attacker, sp, forge(sp, id))
			return fmt.Sprintf("%d rewritten=%v %v %s %s", code, res.IDsRewritten, res.Counts, p.Code, p.Detail)
		}
		// One file holds an id the victim holds, the other one nobody holds.
		a, b := answer("probe-held", has), answer("probe-free", cypher.MemoryID(victim, "never-sent", 0))
		if a != b || !strings.HasPrefix(a, "201 rewritten=true") {
			t.Errorf("imports answer differently for an id another space holds:\nheld %s\nfree %s", a, b)
		}
	})

	summary := func(export []byte) (contents string, ids map[string]bool) {
		var out []string
		ids = map[string]bool{}
		for _, r := range lines(t, export) {
			props, _ := r["props"].(map[string]any)
			switch r["kind"] {
			case "memory":
				out = append(out, fmt.Sprint(props["type"], props["content"]))
				ids[props["id"].(string)] = true
			case "edge", "observation":
				out = append(out, fmt.Sprint(r["kind"], r["predicate"], props["weight"], props["content"], props["status"]))
			}
		}
		sort.Strings(out)
		return strings.Join(out, "\n"), ids
	}

	t.Run("AdminRestoresIDs", func(t *testing.T) {
		before := export(t, ops, victim)
		if code := ops.status("DELETE", "/v1/spaces/"+victim, nil); code != http.StatusOK {
			t.Fatalf("erase: %d", code)
		}
		code, res, p := importInto(t, ops, victim, before)
		if code != http.StatusCreated || res.IDsRewritten {
			t.Fatalf("restore by an admin of every space: %d %+v %+v, want its ids kept", code, res, p)
		}
		if after := export(t, ops, victim); withoutExportedAt(after) != withoutExportedAt(before) {
			t.Errorf("the restored space differs from the one exported")
		}
	})

	t.Run("ConfinedRestoresContent", func(t *testing.T) {
		before := export(t, owner, victim)
		if code := owner.status("DELETE", "/v1/spaces/"+victim, nil); code != http.StatusOK {
			t.Fatalf("erase: %d", code)
		}
		code, res, p := importInto(t, owner, victim, before)
		if code != http.StatusCreated || !res.IDsRewritten || res.SourceSpace != victim {
			t.Fatalf("restore by the space's own admin: %d %+v %+v, want its ids rewritten", code, res, p)
		}
		was, oldIDs := summary(before)
		is, newIDs := summary(export(t, owner, victim))
		if is != was || len(newIDs) != len(oldIDs) {
			t.Errorf("restored content:\n%s\nexported:\n%s", is, was)
		}
		for id := range newIDs {
			if oldIDs[id] {
				t.Errorf("memory id %s kept", id)
			}
		}
		if got := send("m1", "I sold my red bicycle to Tiago in Madrid.").Results[0]; got.Status != "already_integrated" {
			t.Errorf("m1 sent again after the restore: %+v", got)
		}
		if got := send("m3", "The chess club of Tiago meets on Sundays.").Results[0]; got.Status != "integrated" {
			t.Errorf("a new message after the restore: %+v", got)
		}
	})

	t.Run("TrustedImportCannotBlock", func(t *testing.T) {
		// An admin of every space imports a file that holds the victim's future ids, under
		// its own header: its ids are kept.
		plant := evilSpace("trusted")
		future := futureIDs("m4")
		code, res, p := importInto(t, ops, plant, forge(plant, future...))
		if code != http.StatusCreated || res.IDsRewritten {
			t.Fatalf("the trusted import: %d %+v %+v, want its ids kept", code, res, p)
		}
		got := send("m4", "Bruno bought a blue scooter in Lisbon.").Results[0]
		if got.Status != "integrated" || len(got.Added) == 0 {
			t.Fatalf("the victim's message: %+v, want integrated", got)
		}
		for _, id := range got.Added {
			if slices.Contains(future, id) {
				t.Errorf("memory %s added under an id of space %s", id, plant)
			}
			if code := owner.status("GET", "/v1/spaces/"+victim+"/memories/"+id, nil); code != http.StatusOK {
				t.Errorf("memory %s added: %d", id, code)
			}
		}
		for _, id := range future[:1] {
			if code := ops.status("GET", "/v1/spaces/"+plant+"/memories/"+id, nil); code != http.StatusOK {
				t.Errorf("the imported memory %s: %d", id, code)
			}
		}
	})

	t.Run("TrustedImportCannotBlockCorrection", func(t *testing.T) {
		// The same for the id a correction derives (from the memory and the new content).
		var old realm.Node
		for _, m := range owner.memories("/v1/spaces/"+victim, "q=scooter&limit=50") {
			if m.Type == realm.Event || m.Type == realm.Fact {
				old = m
			}
		}
		if old.ID == "" {
			t.Fatalf("no event or fact of the victim's says scooter")
		}
		const content = "Bruno bought a green scooter in Lisbon."
		planted := cypher.DerivedID(victim, "correction\x00"+old.ID+"\x00"+content)
		plant := evilSpace("trusted-correction")
		if code, res, p := importInto(t, ops, plant, forge(plant, planted)); code != http.StatusCreated || res.IDsRewritten {
			t.Fatalf("the trusted import: %d %+v %+v, want its ids kept", code, res, p)
		}
		var got memoryDoc
		code := owner.do("PATCH", "/v1/spaces/"+victim+"/memories/"+old.ID, map[string]any{"content": content}, &got).StatusCode
		if code != http.StatusOK || got.Memory.Content != content || got.Memory.ID == planted {
			t.Errorf("correction: %d %+v, want a new memory under another id than %s", code, got.Memory, planted)
		}
	})
}
