package api

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// correctMessages say a name the client then corrects.
var correctMessages = []map[string]string{
	{"id": "c1", "session_id": "s1", "speaker": "Ana", "content": "My new colleague Marta joined the design team and sits next to me.", "timestamp": "2023-05-08T10:00:00Z"},
	{"id": "c2", "session_id": "s1", "speaker": "Ana", "content": "I love hiking in the mountains on weekends.", "timestamp": "2023-05-08T10:01:00Z"},
}

// correctableSpace serves a space told correctMessages: its client, its path and the
// memory to correct.
func correctableSpace(t *testing.T) (client, string, realm.Node) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, correctMessages)
	return c, sp, correctable(t, c, space)
}

// memoryDoc is GET …/memories/{id}'s body.
type memoryDoc struct {
	Memory realm.Node
	Edges  []realm.Edge
}

// recallDoc is what the tests read of a recall.
type recallDoc struct {
	TraceID string `json:"trace_id"`
	Nodes   []struct{ Node realm.Node }
}

func (r recallDoc) index(id string) int {
	return slices.IndexFunc(r.Nodes, func(n struct{ Node realm.Node }) bool { return n.Node.ID == id })
}

// correctable returns the event or fact of space that says Marta.
func correctable(t *testing.T, c client, space string) realm.Node {
	t.Helper()
	memories := c.memories("/v1/spaces/"+space, "q=Marta&limit=50")
	for _, m := range memories {
		if (m.Type == realm.Event || m.Type == realm.Fact) && strings.Contains(m.Content, "Marta") {
			return m
		}
	}
	t.Fatalf("no event or fact says Marta: %+v", memories)
	return realm.Node{}
}

// TestCorrectMemory: PATCH …/memories/{id} corrects a fact the REALM way, over HTTP and a
// real Neo4j: a new memory supersedes the old one, whose validity ends; recall offers the
// new one first for the present and the past (the old one was wrong) and still finds the
// old one for the past; the new one is found by its
// own words; export and import carry both.
func TestCorrectMemory(t *testing.T) {
	var store *cypher.Store
	srv := newTestServer(t, apitest.New(t), Config{}, func(d *Deps) { store = d.Store })
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, correctMessages)
	old := correctable(t, c, space)
	var before memoryDoc
	c.do("GET", sp+"/memories/"+old.ID, nil, &before)
	// This process holds the space's keyword index and graph snapshot, which must follow
	// the correction.
	ctx := context.Background()
	if _, err := store.LoadKeywordIndex(ctx, space); err != nil {
		t.Fatal(err)
	}
	if g, err := store.LoadGraph(ctx, space); err != nil || g.Memories == 0 {
		t.Fatalf("graph snapshot %+v %v", g, err)
	}

	const content = "Ana's new colleague Marina joined the design team and sits next to Ana."
	var got memoryDoc
	resp := c.do("PATCH", sp+"/memories/"+old.ID, map[string]any{"content": content}, &got)
	if resp.StatusCode != http.StatusOK || got.Memory.Content != content || got.Memory.ID == old.ID {
		t.Fatalf("correct: %d %+v", resp.StatusCode, got)
	}
	corrected := got.Memory
	if loc := resp.Header.Get("Location"); loc != sp+"/memories/"+corrected.ID {
		t.Errorf("Location %q", loc)
	}

	// Before any recall reads them again: the keyword index and graph snapshot this
	// process holds followed the correction.
	t.Run("CachesFollow", func(t *testing.T) {
		counts, err := store.SpaceCounts(ctx, space)
		if err != nil {
			t.Fatal(err)
		}
		read := func(log *cypher.StatementLog, names ...string) bool {
			return slices.ContainsFunc(log.Statements, func(st cypher.Statement) bool { return slices.Contains(names, st.Name) })
		}
		logged, log := cypher.WithStatementLog(ctx)
		seeds, err := store.SeedByFullText(logged, space, cypher.SeedQuery{Keywords: []string{"marina"}, Limit: 5, SpaceSize: counts.InSpace, SpaceVersion: counts.Version})
		if err != nil || len(seeds) == 0 || seeds[0].Node.ID != corrected.ID || read(log, "seed_fulltext", "memory_texts") {
			t.Errorf("seeds for marina %v %v, read by %+v; want %s, from the keyword index followed", seedIDs(seeds), err, log.Statements, corrected.ID)
		}
		logged, log = cypher.WithStatementLog(ctx)
		if g, err := store.LoadGraph(logged, space); err != nil || g.Memories == 0 || read(log, "graph_snapshot") {
			t.Errorf("graph snapshot %+v %v, read by %+v; want the one followed", g, err, log.Statements)
		}
	})
	t.Run("NewMemory", func(t *testing.T) {
		if corrected.Type != old.Type || !slices.Equal(corrected.Sources, old.Sources) ||
			!strings.Contains(corrected.Description, "corrected by the client") || corrected.ValidUntil != nil {
			t.Errorf("new memory %+v, want the type and sources of %+v, a correction's description, valid", corrected, old)
		}
		// The old name was the old content's first words: the new one is the correction's.
		if !strings.HasPrefix(old.Content, strings.TrimSuffix(old.Name, "…")) || strings.Contains(corrected.Name, "Marta") ||
			!strings.HasPrefix(content, strings.TrimSuffix(corrected.Name, "…")) {
			t.Errorf("name %q, want the first words of %q (the old one: %q)", corrected.Name, content, old.Name)
		}
		if !slices.Contains(corrected.Keywords, "marina") {
			t.Errorf("keywords %v, want the correction's words", corrected.Keywords)
		}
		sup := slices.IndexFunc(got.Edges, func(e realm.Edge) bool {
			return e.Predicate == realm.Supersedes && e.From == corrected.ID && e.To == old.ID
		})
		if sup < 0 || got.Edges[sup].Weight != 0.9 || !strings.Contains(got.Edges[sup].Description, "Marta") {
			t.Fatalf("edges %+v, want a supersedes edge of 0.9 to %s naming its content", got.Edges, old.ID)
		}
		// Its edges to entities and episodes are copied, but for the entity it takes back
		// (Marta); the others stay with the old memory.
		ends, names := map[string]realm.NodeType{}, map[string]string{}
		for _, m := range c.memories(sp, "limit=500") {
			ends[m.ID], names[m.ID] = m.Type, m.Name
		}
		other := func(e realm.Edge, self string) string {
			return map[bool]string{true: e.To, false: e.From}[e.From == self]
		}
		want, copied, marta := 0, 0, 0
		for _, e := range before.Edges {
			switch o := other(e, old.ID); {
			case ends[o] == realm.Entity && names[o] == "Marta":
				marta++
			case (ends[o] == realm.Entity || ends[o] == realm.Episode) && e.Query == "":
				want++
			}
		}
		for _, e := range got.Edges {
			if o := other(e, corrected.ID); o != old.ID {
				copied++
				if k := ends[o]; k != realm.Entity && k != realm.Episode || names[o] == "Marta" {
					t.Errorf("copied an edge to a %s %q: %+v", k, names[o], e)
				}
			}
		}
		if want == 0 || marta == 0 || copied != want {
			t.Errorf("%d edges copied, want %d of %+v, none of the %d to Marta", copied, want, before.Edges, marta)
		}
	})
	t.Run("OldMemoryHistory", func(t *testing.T) {
		var doc memoryDoc
		c.do("GET", sp+"/memories/"+old.ID, nil, &doc)
		if doc.Memory.Content != old.Content || doc.Memory.ValidUntil == nil || doc.Memory.SupersededAt == nil ||
			time.Since(*doc.Memory.ValidUntil) > time.Minute {
			t.Errorf("old memory %+v, want its content, its validity ended now", doc.Memory)
		}
		if !slices.ContainsFunc(doc.Edges, func(e realm.Edge) bool { return e.Predicate == realm.Supersedes && e.From == corrected.ID }) {
			t.Errorf("old memory's edges %+v hold no supersedes edge from %s", doc.Edges, corrected.ID)
		}
	})
	// Sent without valid_from, the correction says the old memory was wrong, which never
	// held: a question about the past ranks the correction first too, the old one demoted,
	// and still finds it.
	for _, q := range []struct{ name, query string }{
		{"RecallPresent", "Who is Ana's new colleague in the design team now?"},
		{"RecallPast", "Who was Ana's colleague in the design team?"},
	} {
		t.Run(q.name, func(t *testing.T) {
			var rec recallDoc
			c.do("POST", sp+"/recall", map[string]any{"query": q.query}, &rec)
			n, o := rec.index(corrected.ID), rec.index(old.ID)
			if n < 0 || o >= 0 && o < n {
				t.Errorf("recall %q: the correction at %d, the old memory at %d", q.query, n, o)
			}
			var trace realm.Trace
			c.do("GET", sp+"/traces/"+rec.TraceID, nil, &trace)
			if !slices.ContainsFunc(trace.Validity, func(v realm.TraceValidity) bool { return v.ID == old.ID && v.Action == realm.ValidityDemoted }) {
				t.Errorf("trace validity %+v, want %s demoted", trace.Validity, old.ID)
			}
		})
	}
	t.Run("RecallPastFindsIt", func(t *testing.T) {
		var rec recallDoc
		c.do("POST", sp+"/recall", map[string]any{"query": "Who was Ana's colleague in the design team before?"}, &rec)
		if rec.index(old.ID) < 0 {
			t.Errorf("recall about the past misses the old memory %s", old.ID)
		}
	})
	t.Run("FoundByItsWords", func(t *testing.T) {
		var rec recallDoc
		c.do("POST", sp+"/recall", map[string]any{"query": "Marina"}, &rec)
		if rec.index(corrected.ID) != 0 {
			t.Errorf("recall of Marina: the correction at %d", rec.index(corrected.ID))
		}
		seeds, err := store.SeedByFullText(ctx, space, cypher.SeedQuery{Keywords: []string{"marina"}, Limit: 5})
		if err != nil || len(seeds) == 0 || seeds[0].Node.ID != corrected.ID {
			t.Errorf("Neo4j's full-text seeds for marina: %v %v, want %s", seedIDs(seeds), err, corrected.ID)
		}
		embs, err := embedder.Embed(ctx, []string{corrected.Name + ": " + content})
		if err != nil {
			t.Fatal(err)
		}
		seeds, err = store.SeedByExactScan(ctx, space, cypher.SeedQuery{Embedding: embs[0], Limit: 1})
		if err != nil || len(seeds) == 0 || seeds[0].Node.ID != corrected.ID || seeds[0].Score < 0.99 {
			t.Errorf("nearest memory to the correction's text: %v %v, want %s", seedIDs(seeds), err, corrected.ID)
		}
	})
	t.Run("SentAgain", func(t *testing.T) {
		var again memoryDoc
		if code := c.do("PATCH", sp+"/memories/"+old.ID, map[string]any{"content": content}, &again).StatusCode; code != http.StatusOK || again.Memory.ID != corrected.ID {
			t.Errorf("the same correction again: %d %s, want 200 %s", code, again.Memory.ID, corrected.ID)
		}
		var p problemDoc
		if code := c.do("PATCH", sp+"/memories/"+old.ID, map[string]any{"content": "Ana's colleague is called Maria."}, &p).StatusCode; code != http.StatusConflict || !strings.Contains(p.Detail, "superseded") {
			t.Errorf("another correction of the superseded memory: %d %+v, want 409", code, p)
		}
	})
	t.Run("ExportImport", func(t *testing.T) {
		target := cyphertest.NewSpace(t)
		if code, res, p := importInto(t, c, target, export(t, c, space)); code != http.StatusCreated {
			t.Fatalf("import: %d %+v %+v", code, res, p)
		}
		marina := c.memories("/v1/spaces/"+target, "q=Marina")
		if len(marina) != 1 || marina[0].Content != content {
			t.Fatalf("imported memories saying Marina: %+v", marina)
		}
		var doc memoryDoc
		c.do("GET", "/v1/spaces/"+target+"/memories/"+marina[0].ID, nil, &doc)
		i := slices.IndexFunc(doc.Edges, func(e realm.Edge) bool { return e.Predicate == realm.Supersedes && e.From == doc.Memory.ID })
		if i < 0 {
			t.Fatalf("imported correction's edges %+v: no supersedes edge", doc.Edges)
		}
		var imported memoryDoc
		c.do("GET", "/v1/spaces/"+target+"/memories/"+doc.Edges[i].To, nil, &imported)
		if imported.Memory.Content != old.Content || imported.Memory.ValidUntil == nil {
			t.Errorf("the imported superseded memory: %+v", imported.Memory)
		}
	})
}

// TestCorrectionDatedIsAChange: a correction sent with valid_from says when the memory
// changed, which held until then: its supersedes edge is no correction's, and a question
// about the past keeps the old memory's score.
func TestCorrectionDatedIsAChange(t *testing.T) {
	c, sp, old := correctableSpace(t)
	var got memoryDoc
	body := map[string]any{"content": "Ana's new colleague Marina joined the design team and sits next to Ana.", "valid_from": "2023-06-01T10:00:00Z"}
	if code := c.do("PATCH", sp+"/memories/"+old.ID, body, &got).StatusCode; code != http.StatusOK {
		t.Fatalf("correct: %d", code)
	}
	sup := slices.IndexFunc(got.Edges, func(e realm.Edge) bool { return e.Predicate == realm.Supersedes && e.To == old.ID })
	if sup < 0 || realm.IsCorrection(got.Edges[sup].Description) || !strings.HasPrefix(got.Edges[sup].Description, "changed by the client as of 2023-06-01T10:00:00Z: ") {
		t.Fatalf("edges %+v, want a supersedes edge that says the memory changed", got.Edges)
	}
	var rec recallDoc
	c.do("POST", sp+"/recall", map[string]any{"query": "Who was Ana's colleague in the design team before?"}, &rec)
	var trace realm.Trace
	c.do("GET", sp+"/traces/"+rec.TraceID, nil, &trace)
	if !slices.ContainsFunc(trace.Validity, func(v realm.TraceValidity) bool { return v.ID == old.ID && v.Action == realm.ValidityKept }) {
		t.Errorf("trace validity %+v, want %s kept for the past", trace.Validity, old.ID)
	}
}

// TestCorrectMemoryErrors: what a correction refuses, and that it writes nothing then.
func TestCorrectMemoryErrors(t *testing.T) {
	keys, err := ParseKeys("test", "ana sk-ana-0123456789abcdef read,write *;reader sk-reader-0123456789abcdef read *")
	if err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, apitest.New(t), Config{Keys: keys, MaxBodyBytes: 64 << 10})
	c := client{t: t, base: srv.URL, key: "sk-ana-0123456789abcdef"}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, correctMessages)
	fact := correctable(t, c, space)
	before := c.memories(sp, "limit=500")
	other := map[realm.NodeType]string{}
	for _, m := range before {
		other[m.Type] = m.ID
	}
	if other[realm.Entity] == "" || other[realm.Episode] == "" {
		t.Fatalf("no entity or episode among %+v", before)
	}
	tests := []struct {
		name, key, id string
		body          any
		code          int
		problem, text string
	}{
		{"ErrContentEmpty", "", fact.ID, map[string]any{"content": "  "}, http.StatusBadRequest, "invalid", "content"},
		{"ErrContentMissing", "", fact.ID, map[string]any{}, http.StatusBadRequest, "invalid", "content"},
		{"ErrContentTooLong", "", fact.ID, map[string]any{"content": strings.Repeat("a", 20001)}, http.StatusBadRequest, "invalid", "at most 20000 bytes"},
		{"ErrContentSame", "", fact.ID, map[string]any{"content": fact.Content}, http.StatusConflict, "conflict", "says this already"},
		{"ErrUnknownField", "", fact.ID, map[string]any{"content": "Marina.", "name": "x"}, http.StatusBadRequest, "invalid", "name"},
		{"ErrValidFrom", "", fact.ID, map[string]any{"content": "Marina.", "valid_from": "yesterday"}, http.StatusBadRequest, "invalid", "valid_from"},
		{"ErrEntity", "", other[realm.Entity], map[string]any{"content": "Marina."}, http.StatusConflict, "conflict", "only events and facts"},
		{"ErrEpisode", "", other[realm.Episode], map[string]any{"content": "Marina."}, http.StatusConflict, "conflict", "only events and facts"},
		{"ErrUnknownMemory", "", "no-such-memory", map[string]any{"content": "Marina."}, http.StatusNotFound, "not_found", "no-such-memory"},
		{"ErrReadScope", "sk-reader-0123456789abcdef", fact.ID, map[string]any{"content": "Marina."}, http.StatusForbidden, "forbidden", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cc := c
			if tt.key != "" {
				cc.key = tt.key
			}
			var p problemDoc
			code := cc.do("PATCH", sp+"/memories/"+tt.id, tt.body, &p).StatusCode
			if code != tt.code || p.Code != tt.problem || !strings.Contains(p.Detail+strings.Join(fieldsOf(p), " "), tt.text) {
				t.Errorf("%d %+v, want %d %s mentioning %q", code, p, tt.code, tt.problem, tt.text)
			}
		})
	}
	t.Run("ErrUnknownSpace", func(t *testing.T) {
		var p problemDoc
		if code := c.do("PATCH", "/v1/spaces/"+cyphertest.NewSpace(t)+"/memories/"+fact.ID, map[string]any{"content": "Marina."}, &p).StatusCode; code != http.StatusNotFound {
			t.Errorf("%d %+v", code, p)
		}
	})
	after := c.memories(sp, "limit=500")
	var doc memoryDoc
	c.do("GET", sp+"/memories/"+fact.ID, nil, &doc)
	if len(after) != len(before) || doc.Memory.ValidUntil != nil {
		t.Errorf("refused corrections wrote: %d memories, then %d; the fact's validity %v", len(before), len(after), doc.Memory.ValidUntil)
	}
}

// fieldsOf is a problem's field errors as "field: reason".
func fieldsOf(p problemDoc) []string {
	var out []string
	for f, reason := range p.Fields {
		out = append(out, f+": "+reason)
	}
	return out
}

// seedIDs are the ids of seeds, with their scores.
func seedIDs(seeds []cypher.ScoredMemory) []string {
	var out []string
	for _, s := range seeds {
		out = append(out, fmt.Sprintf("%s %.3f", s.Node.ID, s.Score))
	}
	return out
}

// TestCorrectMemoryMCP: the correct tool corrects as PATCH does, and refuses what it refuses.
func TestCorrectMemoryMCP(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{Version: "test"})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	if code := c.status("POST", "/v1/spaces/"+space+"/observations", map[string]any{"messages": correctMessages}); code != http.StatusOK {
		t.Fatalf("ingest: %d", code)
	}
	old := correctable(t, c, space)
	cs := mustConnectMCP(t, srv.URL, "")
	got := callTool(t, cs, "correct", map[string]any{"space": space, "memory_id": old.ID, "content": "Ana's new colleague is Marina."})
	newID, _ := got.out["memory_id"].(string)
	if got.isError || got.out["corrected"] != old.ID || newID == "" || newID == old.ID {
		t.Fatalf("correct: %+v", got)
	}
	var doc memoryDoc
	c.do("GET", "/v1/spaces/"+space+"/memories/"+newID, nil, &doc)
	if doc.Memory.Content != "Ana's new colleague is Marina." ||
		!slices.ContainsFunc(doc.Edges, func(e realm.Edge) bool { return e.Predicate == realm.Supersedes && e.To == old.ID }) {
		t.Errorf("the correction %+v", doc)
	}
	for _, tt := range []struct {
		name string
		args map[string]any
		code string
	}{
		{"ErrMemoryRequired", map[string]any{"space": space, "memory_id": "", "content": "x"}, "invalid"},
		{"ErrContentNUL", map[string]any{"space": space, "memory_id": newID, "content": "Mari\x00na"}, "invalid"},
		{"ErrSuperseded", map[string]any{"space": space, "memory_id": old.ID, "content": "Ana's colleague is Maria."}, "conflict"},
		{"ErrUnknownMemory", map[string]any{"space": space, "memory_id": "no-such-memory", "content": "x"}, "not_found"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := callTool(t, cs, "correct", tt.args); !got.isError || got.code() != tt.code {
				t.Errorf("%+v, want the tool error %s", got, tt.code)
			}
		})
	}
}

// blenderMessages say a delivery date the client then corrects; the question's turn is
// also told in an exchange of two turns that quotes the date.
var blenderMessages = []map[string]string{
	{"id": "q1", "session_id": "s1", "role": "user", "content": "I ordered a blender last week, order 5521.", "timestamp": "2026-06-01T10:00:00Z"},
	{"id": "q2", "session_id": "s1", "role": "assistant", "content": "Thanks for waiting. Your blender will arrive on June 3.", "timestamp": "2026-06-01T10:01:00Z"},
	{"id": "q3", "session_id": "s1", "role": "user", "content": "Okay, I will be home that day to receive the blender.", "timestamp": "2026-06-01T10:02:00Z"},
}

// TestCorrectionRecalledFirst: a correction keeps the provenance of the memory it
// corrects, so a memory of more turns holds all its sources; it still does not give way
// to that memory, which quotes the words corrected, and comes back first.
func TestCorrectionRecalledFirst(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, blenderMessages)
	memories := c.memories(sp, "limit=100")
	i := slices.IndexFunc(memories, func(m realm.Node) bool {
		return (m.Type == realm.Event || m.Type == realm.Fact) && slices.Equal(m.Sources, []string{"q2"})
	})
	if i < 0 {
		t.Fatalf("no event or fact of q2 alone: %+v", memories)
	}
	const content = "The blender will arrive on June 9 (9 June 2026)."
	var got memoryDoc
	if code := c.do("PATCH", sp+"/memories/"+memories[i].ID, map[string]any{"content": content}, &got).StatusCode; code != http.StatusOK {
		t.Fatalf("correct: %d", code)
	}
	var rec recallDoc
	c.do("POST", sp+"/recall", map[string]any{"query": "When will the blender arrive?", "k": 10}, &rec)
	if n := rec.index(got.Memory.ID); n != 0 {
		var contents []string
		for _, n := range rec.Nodes {
			contents = append(contents, n.Node.Content)
		}
		t.Errorf("the correction at %d of %q, want first", n, contents)
	}
}

// TestDeleteCorrection: deleting a correction gives the memory it corrected back its
// validity, in the same write, so that it can be corrected again; while another newer
// version stands, the memory stays history and the refusal names that version.
func TestDeleteCorrection(t *testing.T) {
	var store *cypher.Store
	srv := newTestServer(t, apitest.New(t), Config{}, func(d *Deps) { store = d.Store })
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, correctMessages)
	old := correctable(t, c, space)
	patch := func(id, content string) (int, memoryDoc, problemDoc) {
		var doc memoryDoc
		var p problemDoc
		resp := c.do("PATCH", sp+"/memories/"+id, map[string]any{"content": content}, nil)
		code := resp.StatusCode
		if code == http.StatusOK {
			c.do("GET", resp.Header.Get("Location"), nil, &doc)
		} else {
			c.do("PATCH", sp+"/memories/"+id, map[string]any{"content": content}, &p)
		}
		return code, doc, p
	}
	get := func(id string) realm.Node {
		var doc memoryDoc
		if code := c.do("GET", sp+"/memories/"+id, nil, &doc).StatusCode; code != http.StatusOK {
			t.Fatalf("GET %s: %d", id, code)
		}
		return doc.Memory
	}

	code, first, _ := patch(old.ID, "Ana's new colleague Marina joined the design team.")
	if code != http.StatusOK {
		t.Fatalf("correct: %d", code)
	}
	t.Run("OK", func(t *testing.T) {
		if code := c.status("DELETE", sp+"/memories/"+first.Memory.ID, nil); code != http.StatusNoContent {
			t.Fatalf("delete the correction: %d", code)
		}
		if m := get(old.ID); m.ValidUntil != nil || m.SupersededAt != nil {
			t.Errorf("the corrected memory after its correction's deletion: valid until %v, superseded at %v; want it to hold", m.ValidUntil, m.SupersededAt)
		}
		if code, _, p := patch(old.ID, "Ana's new colleague Mariana joined the design team."); code != http.StatusOK {
			t.Errorf("correct it again: %d %+v, want 200", code, p)
		}
	})
	t.Run("AnotherNewerVersion", func(t *testing.T) {
		// old is superseded by Mariana's correction and by a memory the write path would
		// have written from a later message, which began to hold at its start.
		var doc memoryDoc
		c.do("GET", sp+"/memories/"+old.ID, nil, &doc)
		i := slices.IndexFunc(doc.Edges, func(e realm.Edge) bool { return e.Predicate == realm.Supersedes && e.To == old.ID })
		if i < 0 {
			t.Fatalf("edges of %s: %+v, want Mariana's supersedes edge", old.ID, doc.Edges)
		}
		mariana := doc.Edges[i].From
		start := time.Date(2023, 6, 1, 9, 0, 0, 0, time.UTC)
		later := realm.Node{ID: "later-" + old.ID, Space: space, Type: realm.Fact, Name: old.Name, Content: "Ana's colleague Marisol joined the design team.", TStart: &start}
		edge := realm.Edge{ID: "later-edge-" + old.ID, From: later.ID, To: old.ID, Predicate: realm.Supersedes, Weight: 0.9}
		if err := store.PutMemories(context.Background(), space, []realm.Node{later}, []realm.Edge{edge}); err != nil {
			t.Fatal(err)
		}
		if code := c.status("DELETE", sp+"/memories/"+mariana, nil); code != http.StatusNoContent {
			t.Fatalf("delete the correction: %d", code)
		}
		if m := get(old.ID); m.ValidUntil == nil || !m.ValidUntil.Equal(start) || m.SupersededAt == nil {
			t.Errorf("the corrected memory after its correction's deletion: valid until %v, superseded at %v; want %v, the other newer version's start", m.ValidUntil, m.SupersededAt, start)
		}
		code, _, p := patch(old.ID, "Ana's new colleague Maria joined the design team.")
		if code != http.StatusConflict || !strings.Contains(p.Detail, later.ID) {
			t.Errorf("correct the superseded memory: %d %+v, want 409 naming %s", code, p, later.ID)
		}
	})
}

// TestListMemoriesCurrent: `current=true` lists what holds now, as a Mem0 get_all would;
// `current=false` only what a newer version superseded; any other value is 400 naming it.
func TestListMemoriesCurrent(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	said := func(id, content, at string) map[string]string {
		return map[string]string{"id": id, "session_id": id, "speaker": "Ana", "content": content, "timestamp": at}
	}
	c.remember(sp, []map[string]string{said("l1", "I live in Lisbon.", "2024-05-01T10:00:00Z")})
	c.remember(sp, []map[string]string{said("l2", "I moved to Berlin last month.", "2024-09-01T10:00:00Z")})
	all, current, ended := c.memories(sp, "limit=100"), c.memories(sp, "limit=100&current=true"), c.memories(sp, "limit=100&current=false")
	if len(current)+len(ended) != len(all) || len(ended) == 0 {
		t.Fatalf("%d memories: %d current, %d ended; want them split, some ended", len(all), len(current), len(ended))
	}
	for _, m := range current {
		if m.ValidUntil != nil {
			t.Errorf("current=true lists %q, valid until %v", m.Content, m.ValidUntil)
		}
	}
	for _, m := range ended {
		if m.ValidUntil == nil || !slices.Contains(m.Sources, "l1") {
			t.Errorf("current=false lists %q (sources %v, valid until %v); want only what the move ended", m.Content, m.Sources, m.ValidUntil)
		}
	}
	var p problemDoc
	if code := c.do("GET", sp+"/memories?current=yes", nil, &p).StatusCode; code != http.StatusBadRequest || p.Fields["current"] == "" {
		t.Errorf("current=yes: %d %+v; want 400 naming current", code, p)
	}
}

// TestForgetCorrected: a correction has the provenance of the memory it corrects, so
// forgetting the message that memory came from forgets the correction too (its content
// restates the message's).
func TestForgetCorrected(t *testing.T) {
	c, sp, old := correctableSpace(t)
	var got memoryDoc
	if resp := c.do("PATCH", sp+"/memories/"+old.ID, map[string]any{"content": "Ana's new colleague Marina sits next to Ana."}, &got); resp.StatusCode != http.StatusOK {
		t.Fatalf("correct: %d", resp.StatusCode)
	}
	var forgotten observationDeletedDoc
	if resp := c.do("DELETE", sp+"/observations/"+old.Sources[0], nil, &forgotten); resp.StatusCode != http.StatusOK ||
		!slices.Contains(forgotten.MemoryIDs, got.Memory.ID) || !slices.Contains(forgotten.MemoryIDs, old.ID) {
		t.Fatalf("forget %s: %d %+v, want the memory %s and its correction %s deleted", old.Sources[0], resp.StatusCode, forgotten, old.ID, got.Memory.ID)
	}
	if code := c.status("GET", sp+"/memories/"+got.Memory.ID, nil); code != http.StatusNotFound {
		t.Errorf("the correction after its message was forgotten: %d, want 404", code)
	}
}

// TestCorrectionDatedByItsWords: a correction that names when it happens ("…on 12 February
// 2024") is dated so, its "tomorrow" read as of when it holds from (valid_from); one that
// names no time keeps the corrected memory's.
func TestCorrectionDatedByItsWords(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	for _, tc := range []struct {
		name, content, validFrom string
		want                     time.Time // zero: the corrected memory's own time
	}{
		{"Named", "Ana's colleague Marta moves to the design team on 12 February 2024.", "", day("2024-02-12")},
		{"Relative", "Ana's colleague Marta joins the design team tomorrow.", "2023-06-01T09:00:00Z", day("2023-06-02")},
		{"None", "Ana's colleague Marina joined the design team and sits next to Ana.", "", time.Time{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old, got := correctSaid(t, c, correctMessages, tc.content, tc.validFrom)
			want, wantEnd := old.TStart, old.TEnd
			if !tc.want.IsZero() {
				end := tc.want.AddDate(0, 0, 1).Add(-time.Second)
				want, wantEnd = &tc.want, &end
			}
			if !sameTime(got.TStart, want) || !sameTime(got.TEnd, wantEnd) {
				t.Errorf("t_start %v t_end %v, want %v %v", got.TStart, got.TEnd, want, wantEnd)
			}
		})
	}
}

// TestCorrectionDatedInItsOffset: a correction's dates are days where its memory's days
// are, in the UTC offset of the message it derives from (Boston's here: midnight is 05:00Z),
// or in that of a valid_from sent with one; a range is one span, to the end of its last day.
func TestCorrectionDatedInItsOffset(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	boston, tokyo := time.FixedZone("", -5*3600), time.FixedZone("", 9*3600)
	said := []map[string]string{{"id": "c1", "session_id": "s1", "speaker": "Ana", "content": correctMessages[0]["content"], "timestamp": "2023-05-08T10:00:00-05:00"}}
	for _, tc := range []struct {
		name, content, validFrom string
		from, to                 time.Time
	}{
		{"Named", "Ana's colleague Marta moves to the design team on 12 February 2024.", "",
			time.Date(2024, 2, 12, 0, 0, 0, 0, boston), time.Date(2024, 2, 12, 23, 59, 59, 0, boston)},
		{"Range", "Ana's colleague Marta visits the design team from 12 to 16 February 2024.", "2023-06-01T09:00:00Z",
			time.Date(2024, 2, 12, 0, 0, 0, 0, boston), time.Date(2024, 2, 16, 23, 59, 59, 0, boston)},
		{"ValidFromOffset", "Ana's colleague Marta joins the design team tomorrow.", "2023-06-01T23:30:00+09:00",
			time.Date(2023, 6, 2, 0, 0, 0, 0, tokyo), time.Date(2023, 6, 2, 23, 59, 59, 0, tokyo)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, got := correctSaid(t, c, said, tc.content, tc.validFrom)
			if !sameTime(got.TStart, &tc.from) || !sameTime(got.TEnd, &tc.to) {
				t.Errorf("t_start %v t_end %v, want %v %v", got.TStart, got.TEnd, tc.from, tc.to)
			}
		})
	}
}

// correctSaid remembers messages in a new space and corrects the memory that says Marta to
// content, valid from validFrom ("": none sent); it returns the memory and its correction.
func correctSaid(t *testing.T, c client, messages []map[string]string, content, validFrom string) (old, corrected realm.Node) {
	t.Helper()
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, messages)
	old = correctable(t, c, space)
	body := map[string]any{"content": content}
	if validFrom != "" {
		body["valid_from"] = validFrom
	}
	var got memoryDoc
	if resp := c.do("PATCH", sp+"/memories/"+old.ID, body, &got); resp.StatusCode != http.StatusOK {
		t.Fatalf("correct: %d", resp.StatusCode)
	}
	return old, got.Memory
}

// sameTime: both absent, or the same instant.
func sameTime(a, b *time.Time) bool {
	return a == nil && b == nil || a != nil && b != nil && a.Equal(*b)
}

// TestCorrectLongWords: a correction whose first words are long (one word of 19,000
// characters) is stored, its name cut short: Neo4j refuses to index a name of more than
// about 8 kB, which answered 500.
func TestCorrectLongWords(t *testing.T) {
	c, sp, old := correctableSpace(t)
	var got memoryDoc
	content := strings.Repeat("x", 19000) + " joined the team."
	if resp := c.do("PATCH", sp+"/memories/"+old.ID, map[string]any{"content": content}, &got); resp.StatusCode != http.StatusOK || got.Memory.Content != content {
		t.Fatalf("correct: %d, content of %d characters", resp.StatusCode, len(got.Memory.Content))
	}
	if n := utf8.RuneCountInString(got.Memory.Name); n > 200 {
		t.Errorf("name of %d characters", n)
	}
}

// TestCorrectionOfClause: a correction of a clause of a message keeps the clause's
// provenance, which lies within that of the whole message; the whole message, which says
// the clause word for word, is corrected alike: its new version says the new home beside
// the work, and a recall asked about both returns it, not the old home.
func TestCorrectionOfClause(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, []map[string]string{
		{"id": "m1", "session_id": "s1", "speaker": "Maya", "content": "I live in a small flat on Elm Street in Leeds. Work at Brightline keeps me busy.", "timestamp": "2026-03-02T09:00:00Z"},
		{"id": "m2", "session_id": "s1", "speaker": "Maya", "content": "My parents live in a house in York.", "timestamp": "2026-03-02T09:01:00Z"},
		{"id": "m3", "session_id": "s1", "speaker": "Maya", "content": "My brother lives near the coast in Whitby.", "timestamp": "2026-03-02T09:02:00Z"},
		{"id": "m4", "session_id": "s1", "speaker": "Maya", "content": "My colleague Tom works at Brightline too.", "timestamp": "2026-03-02T09:03:00Z"},
		{"id": "m5", "session_id": "s1", "speaker": "Maya", "content": "I work on the design of the new booking app.", "timestamp": "2026-03-02T09:04:00Z"},
		{"id": "m6", "session_id": "s1", "speaker": "Maya", "content": "My sister works in a bakery in Harrogate.", "timestamp": "2026-03-02T09:05:00Z"},
	})
	var clause, whole realm.Node
	for _, m := range c.memories(sp, "q=Leeds&limit=50") {
		switch {
		case m.Type != realm.Event && m.Type != realm.Fact || !strings.Contains(m.Content, "Leeds"):
		case strings.Contains(m.Content, "Brightline"):
			whole = m
		default:
			clause = m
		}
	}
	if clause.ID == "" || whole.ID == "" {
		t.Fatalf("want a clause and the whole message saying Leeds: %+v %+v", clause, whole)
	}
	var got siblingsDoc
	if code := c.do("PATCH", sp+"/memories/"+clause.ID, map[string]any{"content": "Maya lives on Canal Road in Manchester.", "valid_from": "2026-09-12T21:00:00+01:00"}, &got).StatusCode; code != http.StatusOK {
		t.Fatalf("correct: %d", code)
	}
	i := slices.IndexFunc(got.AlsoCorrected, func(a alsoDoc) bool { return a.Corrected == whole.ID })
	if i < 0 {
		t.Fatalf("also corrected %+v, want the whole message %s", got.AlsoCorrected, whole.ID)
	}
	var doc memoryDoc
	c.do("GET", sp+"/memories/"+got.AlsoCorrected[i].MemoryID, nil, &doc)
	if !strings.Contains(doc.Memory.Content, "Canal Road in Manchester") || !strings.Contains(doc.Memory.Content, "Brightline") || strings.Contains(doc.Memory.Content, "Leeds") {
		t.Errorf("the whole message corrected: %q", doc.Memory.Content)
	}
	var rec recallDoc
	c.do("POST", sp+"/recall", map[string]any{"query": "Where do I live and where do I work?", "k": 3}, &rec)
	if n, w := rec.index(doc.Memory.ID), rec.index(whole.ID); n < 0 || w >= 0 {
		var contents []string
		for _, r := range rec.Nodes {
			contents = append(contents, r.Node.Content)
		}
		t.Errorf("where do I live and work: the whole message corrected at %d, the old one at %d: %q", n, w, contents)
	}
}

// decisionMessages: two speakers' three turns; the second is stored in two exchanges (with
// the question before it and the reply after it), both of its words.
var decisionMessages = []map[string]string{
	{"id": "d1", "session_id": "s1", "speaker": "Jonas", "content": "Which database should the billing service use?", "timestamp": "2026-03-02T09:00:00Z"},
	{"id": "d2", "session_id": "s1", "speaker": "Priya", "content": "We go with MySQL for the billing service.", "timestamp": "2026-03-02T09:01:00Z"},
	{"id": "d3", "session_id": "s1", "speaker": "Jonas", "content": "Great, I will set up the schema this week.", "timestamp": "2026-03-02T09:02:00Z"},
}

// alsoDoc is a memory a correction corrected alike, and its new version.
type alsoDoc struct {
	Corrected string
	MemoryID  string `json:"memory_id"`
}

// siblingsDoc is what a correction answers of the corrected memory's siblings.
type siblingsDoc struct {
	Memory        realm.Node
	AlsoCorrected []alsoDoc                     `json:"also_corrected"`
	NotCorrected  []struct{ ID, Reason string } `json:"not_corrected"`
}

// exchanges remembers decisionMessages in a new space and returns its path and the two
// copies of d2: its exchanges with d1 and with d3.
func exchanges(t *testing.T, c client) (sp string, before, after realm.Node) {
	t.Helper()
	sp = "/v1/spaces/" + cyphertest.NewSpace(t)
	c.remember(sp, decisionMessages)
	for _, m := range c.memories(sp, "limit=100") {
		switch {
		case m.Type != realm.Event && m.Type != realm.Fact || !strings.Contains(m.Content, "We go with MySQL"):
		case slices.Equal(m.Sources, []string{"d1", "d2"}):
			before = m
		case slices.Equal(m.Sources, []string{"d2", "d3"}):
			after = m
		}
	}
	if before.ID == "" || after.ID == "" {
		t.Fatalf("the exchanges of d2: %+v %+v", before, after)
	}
	return sp, before, after
}

// TestCorrectSiblings: a correction of one copy of a turn corrects the other copies that
// say the corrected words (the exchange with the turn after it), each superseded by a new
// memory with those words replaced, kept for the past and revertible; the answer names
// them, and the other copies of the turn left as they are. Before, the other copy
// stayed current, listed by `current=true` and recalled with the correction.
func TestCorrectSiblings(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp, found, other := exchanges(t, c)
	// said are the events and facts that hold now and say words.
	said := func(words string) []realm.Node {
		var out []realm.Node
		for _, m := range c.memories(sp, "limit=100&current=true") {
			if (m.Type == realm.Event || m.Type == realm.Fact) && strings.Contains(m.Content, words) {
				out = append(out, m)
			}
		}
		return out
	}
	content := strings.Replace(found.Content, "MySQL", "Postgres", 1)
	var got siblingsDoc
	if code := c.do("PATCH", sp+"/memories/"+found.ID, map[string]any{"content": content}, &got).StatusCode; code != http.StatusOK {
		t.Fatalf("correct: %d", code)
	}
	if len(got.AlsoCorrected) != 1 || got.AlsoCorrected[0].Corrected != other.ID {
		t.Fatalf("also corrected %+v, want %s", got.AlsoCorrected, other.ID)
	}
	sibling := got.AlsoCorrected[0].MemoryID
	var doc memoryDoc
	c.do("GET", sp+"/memories/"+sibling, nil, &doc)
	if want := strings.Replace(other.Content, "MySQL", "Postgres", 1); doc.Memory.Content != want || !slices.Equal(doc.Memory.Sources, other.Sources) ||
		!slices.ContainsFunc(doc.Edges, func(e realm.Edge) bool { return e.Predicate == realm.Supersedes && e.To == other.ID }) {
		t.Errorf("the other copy's correction %+v %+v, want %q superseding %s", doc.Memory, doc.Edges, want, other.ID)
	}
	if left := said("MySQL"); len(left) != 0 {
		t.Errorf("current=true still lists %+v", left)
	}
	// Nor by its name: an exchange's names its second turn's first words.
	for _, m := range c.memories(sp, "q=MySQL&current=true&limit=100") {
		if m.Type == realm.Event || m.Type == realm.Fact {
			t.Errorf("q=MySQL&current=true lists %q, named %q", m.Content, m.Name)
		}
	}
	if now := said("We go with Postgres"); len(now) != 2 {
		t.Errorf("current copies saying Postgres: %+v, want both", now)
	}
	// Only the copies of Priya's turn (d2) are candidates: the memories of the question
	// alone (d1), which the corrected exchange derives from too, are none, and not named.
	for _, n := range got.NotCorrected {
		var m memoryDoc
		c.do("GET", sp+"/memories/"+n.ID, nil, &m)
		if !slices.Contains(m.Memory.Sources, "d2") || strings.Contains(m.Memory.Content, "MySQL") || m.Memory.ValidUntil != nil ||
			!strings.Contains(n.Reason, "We go with MySQL for the billing service.") {
			t.Errorf("left %+v (%q, of %v), want a copy of d2 that holds, not saying the corrected words", n, m.Memory.Content, m.Memory.Sources)
		}
	}
	t.Run("SentAgain", func(t *testing.T) {
		var again siblingsDoc
		if code := c.do("PATCH", sp+"/memories/"+found.ID, map[string]any{"content": content}, &again).StatusCode; code != http.StatusOK ||
			again.Memory.ID != got.Memory.ID || !slices.Equal(again.AlsoCorrected, got.AlsoCorrected) || !slices.Equal(again.NotCorrected, got.NotCorrected) {
			t.Errorf("the same correction again: %d %+v, want 200 and the first answer %+v", code, again, got)
		}
		if left := said("MySQL"); len(left) != 0 {
			t.Errorf("current=true lists %+v", left)
		}
	})
	t.Run("Reverted", func(t *testing.T) {
		if code := c.status("DELETE", sp+"/memories/"+sibling, nil); code != http.StatusNoContent {
			t.Fatalf("delete the sibling's correction: %d", code)
		}
		var m memoryDoc
		c.do("GET", sp+"/memories/"+other.ID, nil, &m)
		if m.Memory.ValidUntil != nil {
			t.Errorf("the other copy after its correction's deletion: valid until %v, want it to hold", m.Memory.ValidUntil)
		}
		// The same correction sent again since makes it again: nothing tells a copy whose
		// correction was deleted from one a failed attempt left undone (docs/api.md).
		var again siblingsDoc
		if code := c.do("PATCH", sp+"/memories/"+found.ID, map[string]any{"content": content}, &again).StatusCode; code != http.StatusOK ||
			len(again.AlsoCorrected) != 1 || again.AlsoCorrected[0].Corrected != other.ID {
			t.Fatalf("the same correction after the copy's was deleted: %d, also corrected %+v, want %s", code, again.AlsoCorrected, other.ID)
		}
		if c.do("GET", sp+"/memories/"+other.ID, nil, &m); m.Memory.ValidUntil == nil {
			t.Errorf("the other copy: current, want it corrected again by %s", again.AlsoCorrected[0].MemoryID)
		}
	})
}

// TestCorrectSiblingsRetried: a correction stopped after the memory's own correction (the
// embedder away as it embeds the other copy's) answers 503, the other copy current; sent
// again, it finishes: the other copy is corrected, and the answer is the one a correction
// that never stopped gives. Before, the same correction sent again corrected no copy,
// and the other one stayed current for good.
func TestCorrectSiblingsRetried(t *testing.T) {
	emb := &switchedEmbedder{words: "schema this week"} // of the other copy (d2 with d3) alone
	srv := newTestServer(t, apitest.New(t), Config{}, func(d *Deps) {
		emb.Embedder = embedder // set up by testDeps
		ingest := construction.New(d.Store, offline.New(offline.Options{}), emb, construction.Options{}, zerolog.New(io.Discard))
		t.Cleanup(ingest.Wait)
		d.Ingest = ingest
	})
	c := client{t: t, base: srv.URL}
	sp, found, other := exchanges(t, c)
	content := strings.Replace(found.Content, "MySQL", "Postgres", 1)
	emb.down.Store(true)
	if code := c.status("PATCH", sp+"/memories/"+found.ID, map[string]any{"content": content}); code != http.StatusServiceUnavailable {
		t.Fatalf("correct, the embedder away for the other copy: %d, want 503", code)
	}
	emb.down.Store(false)
	var m memoryDoc
	if c.do("GET", sp+"/memories/"+other.ID, nil, &m); m.Memory.ValidUntil != nil {
		t.Fatalf("the other copy after the failed correction: valid until %v, want it current", m.Memory.ValidUntil)
	}
	var got siblingsDoc
	if code := c.do("PATCH", sp+"/memories/"+found.ID, map[string]any{"content": content}, &got).StatusCode; code != http.StatusOK {
		t.Fatalf("the same correction again: %d", code)
	}
	if len(got.AlsoCorrected) != 1 || got.AlsoCorrected[0].Corrected != other.ID {
		t.Fatalf("sent again: also corrected %+v, want %s", got.AlsoCorrected, other.ID)
	}
	for _, n := range got.NotCorrected {
		if n.ID == got.AlsoCorrected[0].MemoryID {
			t.Errorf("not corrected %+v: names the other copy's correction", got.NotCorrected)
		}
	}
	if c.do("GET", sp+"/memories/"+other.ID, nil, &m); m.Memory.ValidUntil == nil {
		t.Errorf("the other copy: current, want it superseded by %s", got.AlsoCorrected[0].MemoryID)
	}
	var third siblingsDoc
	if c.do("PATCH", sp+"/memories/"+found.ID, map[string]any{"content": content}, &third); third.Memory.ID != got.Memory.ID ||
		!slices.Equal(third.AlsoCorrected, got.AlsoCorrected) || !slices.Equal(third.NotCorrected, got.NotCorrected) {
		t.Errorf("a third time: %+v, want %+v", third, got)
	}
}

// TestCorrectSiblingsWordsNotFound: a correction that rewrites the memory leaves a copy that
// does not say what it changed word for word, and names it.
func TestCorrectSiblingsWordsNotFound(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp, found, other := exchanges(t, c)
	var got siblingsDoc
	if code := c.do("PATCH", sp+"/memories/"+found.ID, map[string]any{"content": "Priya chose Postgres for the billing service."}, &got).StatusCode; code != http.StatusOK {
		t.Fatalf("correct: %d", code)
	}
	k := slices.IndexFunc(got.NotCorrected, func(n struct{ ID, Reason string }) bool { return n.ID == other.ID })
	if len(got.AlsoCorrected) != 0 || k < 0 || !strings.Contains(got.NotCorrected[k].Reason, "does not say") {
		t.Errorf("also corrected %+v, not corrected %+v; want %s left and named", got.AlsoCorrected, got.NotCorrected, other.ID)
	}
	var m memoryDoc
	c.do("GET", sp+"/memories/"+other.ID, nil, &m)
	if m.Memory.ValidUntil != nil {
		t.Errorf("the copy left: valid until %v", m.Memory.ValidUntil)
	}
}

// TestCorrectSiblingsMCP: the correct tool corrects the other copies of a turn as PATCH
// does, and says which.
func TestCorrectSiblingsMCP(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{Version: "test"})
	c := client{t: t, base: srv.URL}
	sp, found, other := exchanges(t, c)
	cs := mustConnectMCP(t, srv.URL, "")
	got := callTool(t, cs, "correct", map[string]any{"space": strings.TrimPrefix(sp, "/v1/spaces/"), "memory_id": found.ID,
		"content": strings.Replace(found.Content, "MySQL", "Postgres", 1)})
	also, _ := got.out["also_corrected"].([]any)
	if got.isError || len(also) != 1 {
		t.Fatalf("correct: %+v, want %s also corrected", got, other.ID)
	}
	if first, _ := also[0].(map[string]any); first["corrected"] != other.ID || first["memory_id"] == "" {
		t.Errorf("also corrected %+v, want %s and its new version", first, other.ID)
	}
}

// noticeClause is a contract's notice period, told a month ago.
func noticeClause() map[string]string {
	return map[string]string{"id": "c1", "session_id": "contract", "speaker": "Paralegal",
		"content":   "Section 7.2 (Termination for Convenience): the termination notice period is 30 days written notice.",
		"timestamp": time.Now().UTC().AddDate(0, -1, 0).Format(time.RFC3339)}
}

// TestCorrectionFromADayToCome: a correction sent with a valid_from to come (an amendment
// effective in three months) has not begun to hold before then: a recall now, or as of a
// day before it, ranks the clause in force first and the correction just below it, which
// current=true leaves out (current=false lists it); a recall as of a day after it ranks
// the correction first, and the clause is demoted.
func TestCorrectionFromADayToCome(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	c.remember(sp, []map[string]string{noticeClause()})
	var old realm.Node
	for _, m := range c.memories(sp, "q=30%20days&limit=50") {
		if m.Type == realm.Event || m.Type == realm.Fact {
			old = m
		}
	}
	effective := time.Now().UTC().AddDate(0, 3, 0).Truncate(24 * time.Hour)
	var got memoryDoc
	body := map[string]any{"content": "Section 7.2 (Termination for Convenience): the termination notice period is 60 days written notice (Amendment 2).", "valid_from": effective.Format(time.RFC3339)}
	if code := c.do("PATCH", sp+"/memories/"+old.ID, body, &got).StatusCode; code != http.StatusOK {
		t.Fatalf("correct: %d", code)
	}
	const q = "What is the termination notice period?"
	for _, tt := range []struct {
		at       string
		newFirst bool
	}{
		{"", false},
		{time.Now().UTC().AddDate(0, 1, 0).Format(time.RFC3339), false},
		{effective.AddDate(0, 0, 30).Format(time.RFC3339), true},
	} {
		r := recallAt(c, sp, q, tt.at)
		oldAt, newAt := r.index(old.ID), r.index(got.Memory.ID)
		if oldAt < 0 || newAt < 0 || (newAt < oldAt) != tt.newFirst {
			t.Errorf("time %q: the correction at %d, the clause at %d; want both, the correction first: %v (trace %+v)", tt.at, newAt, oldAt, tt.newFirst, r.trace.Validity)
		}
	}
	current, ended := c.memories(sp, "limit=100&current=true"), c.memories(sp, "limit=100&current=false")
	holds := func(list []realm.Node, id string) bool {
		return slices.ContainsFunc(list, func(m realm.Node) bool { return m.ID == id })
	}
	if !holds(current, old.ID) || holds(current, got.Memory.ID) || !holds(ended, got.Memory.ID) {
		t.Errorf("current=true holds the clause %v, the correction %v; current=false the correction %v: want the clause alone current",
			holds(current, old.ID), holds(current, got.Memory.ID), holds(ended, got.Memory.ID))
	}
}

// TestCorrectedNumberAsideOfWhatElse: "Correction: the Section 7.2 notice period was 60
// days, not 30" says the 30 days never held: a question about the notice period ranks it
// above the clause it corrected, though the question names "termination", which only the
// clause says.
func TestCorrectedNumberAsideOfWhatElse(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	clause := noticeClause()
	correction := map[string]string{"id": "a2", "session_id": "amend2", "speaker": "Paralegal",
		"content": "Correction: the Section 7.2 notice period was 60 days, not 30.", "timestamp": time.Now().UTC().AddDate(0, 0, -7).Format(time.RFC3339)}
	c.remember(sp, []map[string]string{clause, correction})
	for _, q := range []string{"What is the termination notice period?", "What was the termination notice period?"} {
		r := recallAt(c, sp, q, "")
		if oldAt, newAt := r.says("30 days"), r.says("60 days"); newAt < 0 || oldAt >= 0 && oldAt < newAt {
			t.Errorf("%q: the correction at %d, the corrected clause at %d; want the correction first (trace %+v)", q, newAt, oldAt, r.trace.Validity)
		}
	}
}

// TestChangeToComeOfSeveralClauses: an amendment effective in three months that changes
// two clauses has not begun to hold: a question about one of them ranks that clause, in
// force, first and the amendment just below it (not the other clause); asked as of a day
// after it took effect, the amendment comes first.
func TestChangeToComeOfSeveralClauses(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	effective := time.Now().UTC().AddDate(0, 3, 0)
	said := time.Now().UTC().AddDate(0, 0, -7).Format(time.RFC3339)
	c.remember(sp, []map[string]string{noticeClause(),
		{"id": "c7", "session_id": "contract", "speaker": "Paralegal", "content": "Section 4.3: license fees are payable within 45 days of invoice.", "timestamp": noticeClause()["timestamp"]},
		{"id": "a2", "session_id": "amend2", "speaker": "Paralegal", "timestamp": said, "content": "Amendment 2, effective " + effective.Format("January 2 2006") +
			": the notice period in Section 7.2 is changed to 60 days; the payment term in Section 4.3 is changed to 30 days."},
	})
	const q = "What is the payment term?"
	for _, tt := range []struct {
		at       string
		newFirst bool
	}{
		{"", false},
		{effective.AddDate(0, 0, 30).Format(time.RFC3339), true},
	} {
		r := recallAt(c, sp, q, tt.at)
		clause, amendment := r.says("45 days"), r.says("Amendment 2")
		if amendment < 0 || (amendment < clause || clause < 0) != tt.newFirst {
			t.Errorf("time %q: the amendment at %d, the 45-day clause at %d; want the amendment first: %v (trace %+v)", tt.at, amendment, clause, tt.newFirst, r.trace.Validity)
		}
		if !tt.newFirst && r.says("notice period is 30 days") == 0 {
			t.Errorf("time %q: the notice period clause first, want the payment clause", tt.at)
		}
	}
}
