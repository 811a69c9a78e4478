package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// exportMessages are the conversation the export tests remember.
var exportMessages = []map[string]string{
	{"id": "x1", "session_id": "s1", "speaker": "Caroline", "content": "I went to a pottery class in Lisbon yesterday.", "timestamp": "2023-05-08T13:56:00Z"},
	{"id": "x2", "session_id": "s1", "speaker": "Melanie", "content": "Nice! I adopted a grey cat called Pixel last month.", "timestamp": "2023-05-08T13:57:00Z"},
	{"id": "x3", "session_id": "s1", "speaker": "Caroline", "content": "My pottery teacher Ana is from Porto and loves blue glazes.", "timestamp": "2023-05-08T13:58:00Z"},
	{"id": "x4", "session_id": "s2", "speaker": "Melanie", "content": "Pixel broke my favourite blue bowl this morning.", "timestamp": "2023-06-02T09:10:00Z"},
	{"id": "x5", "session_id": "s2", "speaker": "Caroline", "content": "I will make you a new bowl at the pottery class next week.", "timestamp": "2023-06-02T09:12:00Z"},
}

// buildSpace fills a space through the real pipelines: observations (one batch async, so
// a job exists), a recall and confirmed feedback, so the space holds memories, edges,
// provenance, a trace, edits and a job.
func buildSpace(t *testing.T, c client, space string, msgs []map[string]string) {
	t.Helper()
	sp := "/v1/spaces/" + space
	if code := c.status("POST", sp+"/observations", map[string]any{"messages": msgs[:len(msgs)-1]}); code != http.StatusOK {
		t.Fatalf("ingest: %d", code)
	}
	var job struct {
		JobID string `json:"job_id"`
	}
	c.do("POST", sp+"/observations?async=true", map[string]any{"messages": msgs[len(msgs)-1:]}, &job)
	c.awaitJob(job.JobID, nil)
	var rec struct {
		TraceID string `json:"trace_id"`
		Nodes   []struct{ Node struct{ ID string } }
	}
	c.do("POST", sp+"/recall", map[string]any{"query": "What did Caroline promise Melanie after Pixel broke the bowl?"}, &rec)
	if rec.TraceID == "" || len(rec.Nodes) < 2 {
		t.Fatalf("recall: %+v", rec)
	}
	useful := []string{rec.Nodes[0].Node.ID, rec.Nodes[1].Node.ID}
	var fb struct{ Edits []any }
	c.do("POST", sp+"/traces/"+rec.TraceID+"/feedback", map[string]any{"correct": true, "useful_node_ids": useful}, &fb)
	if len(fb.Edits) == 0 {
		t.Fatalf("feedback applied no edit")
	}
}

// export returns the export of a space, failing the test unless it is 200 JSON Lines.
func export(t *testing.T, c client, space string) []byte {
	t.Helper()
	resp, body := raw(t, c, "GET", "/v1/spaces/"+space+"/export", nil)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/x-ndjson" || resp.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("export %s: %d %s, Cache-Control %q, %s", space, resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"), body)
	}
	return body
}

// raw sends a request with a JSON Lines body and returns the response and its body.
func raw(t *testing.T, c client, method, path string, body []byte) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, c.base+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-ndjson")
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

type importResult struct {
	Space        string
	SourceSpace  string `json:"source_space"`
	IDsRewritten bool   `json:"ids_rewritten"`
	Counts       map[string]int64
}

func importInto(t *testing.T, c client, space string, body []byte) (int, importResult, problemDoc) {
	t.Helper()
	resp, b := raw(t, c, "POST", "/v1/spaces/"+space+"/import", body)
	var res importResult
	var p problemDoc
	if resp.StatusCode == http.StatusCreated {
		if err := json.Unmarshal(b, &res); err != nil {
			t.Fatal(err)
		}
	} else if err := json.Unmarshal(b, &p); err != nil {
		t.Fatalf("import: %d %s", resp.StatusCode, b)
	}
	return resp.StatusCode, res, p
}

// lines splits an export into its records, with the header's exported_at removed.
func lines(t *testing.T, export []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSuffix(string(export), "\n"), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("export line %q: %v", line, err)
		}
		out = append(out, rec)
	}
	return out
}

func withoutExportedAt(export []byte) string {
	first, rest, _ := bytes.Cut(export, []byte("\n"))
	var h map[string]any
	_ = json.Unmarshal(first, &h)
	delete(h, "exported_at")
	b, _ := json.Marshal(h)
	return string(b) + "\n" + string(rest)
}

func cut(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}

func kinds(recs []map[string]any) map[string]int {
	out := map[string]int{}
	for _, r := range recs {
		out[r["kind"].(string)]++
	}
	return out
}

func recallIDs(t *testing.T, c client, space, query string) []string {
	t.Helper()
	var rec struct {
		Nodes []struct{ Node struct{ ID, Content string } }
	}
	// A fixed "now": the temporal decay of expansion depends on it.
	c.do("POST", "/v1/spaces/"+space+"/recall", map[string]any{"query": query, "time": "2023-06-03T00:00:00Z"}, &rec)
	var out []string
	for _, n := range rec.Nodes {
		out = append(out, n.Node.ID+" "+n.Node.Content)
	}
	// Scores of expanded nodes drift in the 6th decimal with the wall clock even at a
	// fixed "time", enough to swap near ties: the nodes are compared, not their order.
	sort.Strings(out)
	return out
}

// TestExportImport: a space built by the real pipelines, exported, erased and imported
// again is the same graph: its export is the same byte for byte (every node, edge,
// weight, edit, provenance link, time and embedding) and a recall returns the same nodes
// with the same scores. An import into a space that is not empty, a malformed or
// truncated file and another embedder are refused with nothing written; an import under
// another name makes a copy with new ids beside the original.
func TestExportImport(t *testing.T) {
	check := apitest.New(t)
	srv := newTestServer(t, check, Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	buildSpace(t, c, space, exportMessages)

	before := export(t, c, space)
	recs := lines(t, before)
	got := kinds(recs)
	for _, k := range []string{"observation", "memory", "edge", "trace", "edit", "job"} {
		if got[k] == 0 {
			t.Errorf("the export holds no %s record: %v", k, got)
		}
	}
	if got["space"] != 1 || recs[0]["kind"] != "space" || recs[len(recs)-1]["kind"] != "end" {
		t.Fatalf("export is not framed by its space and end records: %v", got)
	}
	const query = "What did Caroline promise Melanie after Pixel broke the bowl?"
	recalled := recallIDs(t, c, space, query)

	if code := c.status("DELETE", "/v1/spaces/"+space, nil); code != http.StatusOK {
		t.Fatalf("delete: %d", code)
	}
	code, res, p := importInto(t, c, space, before)
	if code != http.StatusCreated || res.IDsRewritten || res.Counts["memory"] != int64(got["memory"]) || res.Counts["edge"] != int64(got["edge"]) {
		t.Fatalf("import: %d %+v %+v", code, res, p)
	}

	t.Run("SameGraph", func(t *testing.T) {
		after := export(t, c, space)
		if withoutExportedAt(after) != withoutExportedAt(before) {
			a, b := strings.Split(withoutExportedAt(before), "\n"), strings.Split(withoutExportedAt(after), "\n")
			for i := range min(len(a), len(b)) {
				if a[i] != b[i] {
					t.Fatalf("line %d differs:\nbefore %s\nafter  %s", i+1, cut(a[i]), cut(b[i]))
				}
			}
			t.Fatalf("exports differ in length: %d and %d lines", len(a), len(b))
		}
	})
	t.Run("SameRecall", func(t *testing.T) {
		again := recallIDs(t, c, space, query)
		if len(again) == 0 || strings.Join(again, "\n") != strings.Join(recalled, "\n") {
			t.Errorf("recall before:\n%s\nafter import:\n%s", strings.Join(recalled, "\n"), strings.Join(again, "\n"))
		}
	})
	t.Run("ErrNotEmpty", func(t *testing.T) {
		code, _, p := importInto(t, c, space, before)
		if code != http.StatusConflict || p.Code != "conflict" || !strings.Contains(p.Detail, "not empty") {
			t.Errorf("import into a full space: %d %+v", code, p)
		}
	})
	t.Run("ErrMalformedLine", func(t *testing.T) {
		target := cyphertest.NewSpace(t)
		bad := strings.Split(string(before), "\n")
		bad[4] = `{"kind":"memory","props":{"id":"m","type":"event"` // cut short
		code, _, p := importInto(t, c, target, []byte(strings.Join(bad, "\n")))
		if code != http.StatusBadRequest || p.Code != "invalid" || p.Fields["line"] != "5" || !strings.HasPrefix(p.Detail, "line 5:") {
			t.Errorf("malformed line 5: %d %+v", code, p)
		}
		if code := c.status("GET", "/v1/spaces/"+target+"/export", nil); code != http.StatusNotFound {
			t.Errorf("after a refused import the space exists: export %d", code)
		}
	})
	t.Run("ErrTruncated", func(t *testing.T) {
		target := cyphertest.NewSpace(t)
		all := strings.Split(strings.TrimSuffix(string(before), "\n"), "\n")
		code, _, p := importInto(t, c, target, []byte(strings.Join(all[:len(all)-3], "\n")+"\n"))
		if code != http.StatusBadRequest || !strings.Contains(p.Detail, "truncated") {
			t.Errorf("truncated file: %d %+v", code, p)
		}
		if code := c.status("GET", "/v1/spaces/"+target+"/export", nil); code != http.StatusNotFound {
			t.Errorf("after a refused import the space exists: export %d", code)
		}
	})
	t.Run("ErrEmbedder", func(t *testing.T) {
		target := cyphertest.NewSpace(t)
		first, rest, _ := bytes.Cut(before, []byte("\n"))
		var h map[string]any
		_ = json.Unmarshal(first, &h)
		h["dims"] = 768
		hb, _ := json.Marshal(h)
		code, _, p := importInto(t, c, target, append(append(hb, '\n'), rest...))
		if code != http.StatusConflict || !strings.Contains(p.Detail, "768 dimensions") {
			t.Errorf("another dimension: %d %+v", code, p)
		}
	})
	t.Run("CopyUnderAnotherName", func(t *testing.T) {
		target := cyphertest.NewSpace(t)
		code, res, p := importInto(t, c, target, before)
		if code != http.StatusCreated || !res.IDsRewritten || res.SourceSpace != space {
			t.Fatalf("copy: %d %+v %+v", code, res, p)
		}
		copied := lines(t, export(t, c, target))
		if kinds(copied)["memory"] != got["memory"] || kinds(copied)["edge"] != got["edge"] {
			t.Errorf("copy holds %v, the original %v", kinds(copied), got)
		}
		// Same contents and weights, other ids.
		summary := func(recs []map[string]any) (contents, weights []string, ids map[string]bool) {
			ids = map[string]bool{}
			for _, r := range recs {
				props, _ := r["props"].(map[string]any)
				switch r["kind"] {
				case "memory":
					contents = append(contents, fmt.Sprint(props["type"], props["content"], len(props["embedding"].([]any))))
					ids[props["id"].(string)] = true
				case "edge":
					weights = append(weights, fmt.Sprint(r["predicate"], props["weight"], props["initial_weight"]))
				}
			}
			sort.Strings(contents)
			sort.Strings(weights)
			return contents, weights, ids
		}
		c1, w1, ids1 := summary(recs)
		c2, w2, ids2 := summary(copied)
		if strings.Join(c1, "|") != strings.Join(c2, "|") || strings.Join(w1, "|") != strings.Join(w2, "|") {
			t.Errorf("the copy's memories or edge weights differ from the original's")
		}
		for id := range ids2 {
			if ids1[id] {
				t.Errorf("the copy reuses memory id %s", id)
			}
		}
		orig, cp := recallIDs(t, c, space, query), recallIDs(t, c, target, query)
		if len(cp) != len(orig) || len(cp) == 0 {
			t.Fatalf("recall on the copy: %d nodes, on the original %d", len(cp), len(orig))
		}
		contents := func(recalled []string) string {
			var out []string
			for _, r := range recalled {
				_, content, _ := strings.Cut(r, " ")
				out = append(out, content)
			}
			sort.Strings(out)
			return strings.Join(out, "\n")
		}
		if contents(orig) != contents(cp) {
			t.Errorf("recall on the original:\n%s\non the copy:\n%s", contents(orig), contents(cp))
		}
	})
}

// TestExportImportTenancy: the export of space A holds nothing of space B, and a key of
// space A can neither read B's export nor import into B.
func TestExportImportTenancy(t *testing.T) {
	check := apitest.New(t)
	spaceA, spaceB := cyphertest.NewSpace(t), cyphertest.NewSpace(t)
	keys, err := ParseKeys("test keys", fmt.Sprintf(`
		a sk-a-0123456789abcdef read,write %[1]s,%[1]s-*
		b sk-b-0123456789abcdef admin      %[2]s`, spaceA, spaceB))
	if err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, check, Config{Keys: keys})
	a := client{t: t, base: srv.URL, key: "sk-a-0123456789abcdef"}
	b := client{t: t, base: srv.URL, key: "sk-b-0123456789abcdef"}
	buildSpace(t, a, spaceA, exportMessages)
	otherMsgs := []map[string]string{
		{"id": "x1", "speaker": "Bruno", "content": "I sold my red bicycle to Tiago in Madrid.", "timestamp": "2023-02-01T10:00:00Z"},
		{"id": "x2", "speaker": "Bruno", "content": "Tiago rides the red bicycle to his chess club.", "timestamp": "2023-02-02T10:00:00Z"},
		{"id": "x3", "speaker": "Bruno", "content": "The chess club of Tiago meets on Sundays.", "timestamp": "2023-02-03T10:00:00Z"},
	}
	buildSpace(t, b, spaceB, otherMsgs)

	exportA, exportB := export(t, a, spaceA), export(t, b, spaceB)
	idsB := map[string]bool{}
	for _, r := range lines(t, exportB) {
		if props, ok := r["props"].(map[string]any); ok && r["kind"] != "observation" && r["kind"] != "space" {
			idsB[props["id"].(string)] = true
		}
	}
	for i, r := range lines(t, exportA) {
		props, _ := r["props"].(map[string]any)
		if id, _ := props["id"].(string); idsB[id] {
			t.Errorf("line %d of A's export holds %s %s of space B", i+1, r["kind"], id)
		}
	}
	if bytes.Contains(exportA, []byte(spaceB)) || bytes.Contains(exportA, []byte("bicycle")) {
		t.Errorf("A's export names space B or holds its content")
	}
	if resp, _ := raw(t, a, "GET", "/v1/spaces/"+spaceB+"/export", nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("key a exports space B: %d", resp.StatusCode)
	}
	// Key a cannot import into B, not even B's own (erased) data.
	if code := b.status("DELETE", "/v1/spaces/"+spaceB, nil); code != http.StatusOK {
		t.Fatalf("delete B: %d", code)
	}
	if code, _, p := importInto(t, a, spaceB, exportB); code != http.StatusNotFound {
		t.Errorf("key a imports into B: %d %+v", code, p)
	}
	if resp, _ := raw(t, b, "GET", "/v1/spaces/"+spaceB+"/export", nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("space B exists after key a's refused import: %d", resp.StatusCode)
	}
	// B's export imported by key a lands in a space of A's, as A's, and writes nothing of B.
	copyA := spaceA + "-copy"
	t.Cleanup(func() { _, _ = cyphertest.MustOpen(t).DeleteSpace(context.Background(), copyA) })
	code, res, p := importInto(t, a, copyA, exportB)
	if code != http.StatusCreated || !res.IDsRewritten {
		t.Fatalf("key a imports B's export into %s: %d %+v", copyA, code, p)
	}
	if bytes.Contains(export(t, a, copyA), []byte(spaceB)) {
		t.Errorf("the copy names space B")
	}
	if resp, _ := raw(t, b, "GET", "/v1/spaces/"+spaceB+"/export", nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("importing into %s wrote space B: %d", copyA, resp.StatusCode)
	}
}

// TestDeleteMemoryForgets: a deleted memory is gone from the vector index, the full-text
// index and every later recall.
func TestDeleteMemoryForgets(t *testing.T) {
	check := apitest.New(t)
	srv := newTestServer(t, check, Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	if code := c.status("POST", "/v1/spaces/"+space+"/observations", map[string]any{"messages": exportMessages}); code != http.StatusOK {
		t.Fatalf("ingest: %d", code)
	}
	const query = "Who broke the blue bowl?"
	var rec struct {
		Nodes []struct{ Node struct{ ID, Content string } }
	}
	c.do("POST", "/v1/spaces/"+space+"/recall", map[string]any{"query": query}, &rec)
	if len(rec.Nodes) == 0 {
		t.Fatal("recall found nothing")
	}
	gone := rec.Nodes[0].Node
	store := cyphertest.MustOpen(t)
	ctx := context.Background()
	nodes, err := store.MemoriesByIDs(ctx, space, []string{gone.ID})
	if err != nil || len(nodes) != 1 || len(nodes[0].Embedding) == 0 {
		t.Fatalf("memory %s: %v %d", gone.ID, err, len(nodes))
	}
	seed := cypher.SeedQuery{Embedding: nodes[0].Embedding, Keywords: strings.Fields(nodes[0].Content), Limit: 50}
	found := func() (vector, text bool) {
		t.Helper()
		byVector, err := store.SeedByVectorIndex(ctx, space, seed, 2000)
		if err != nil {
			t.Fatal(err)
		}
		byText, err := store.SeedByFullText(ctx, space, seed)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range byVector {
			vector = vector || m.Node.ID == gone.ID
		}
		for _, m := range byText {
			text = text || m.Node.ID == gone.ID
		}
		return vector, text
	}
	if v, x := found(); !v || !x {
		t.Fatalf("before the delete the indexes find it: vector %t, full-text %t", v, x)
	}
	if code := c.status("DELETE", "/v1/spaces/"+space+"/memories/"+gone.ID, nil); code != http.StatusNoContent {
		t.Fatalf("delete: %d", code)
	}
	if v, x := found(); v || x {
		t.Errorf("after the delete: vector index %t, full-text index %t", v, x)
	}
	for _, q := range []string{query, gone.Content} {
		c.do("POST", "/v1/spaces/"+space+"/recall", map[string]any{"query": q}, &rec)
		for _, n := range rec.Nodes {
			if n.Node.ID == gone.ID {
				t.Errorf("recall %q still returns the deleted memory", q)
			}
		}
	}
}

// TestImportBodyLimit: an import is not held to the JSON body limit but to its own.
func TestImportBodyLimit(t *testing.T) {
	check := apitest.New(t)
	store := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	srv := newTestServer(t, check, Config{MaxBodyBytes: 2048, MaxImportBytes: 1 << 20})
	c := client{t: t, base: srv.URL}
	obs := []realm.Observation{{ID: "l1", Speaker: "Ana", Content: "Ana likes tea.", ObservedAt: time.Now()}}
	lease := cypher.Lease{Owner: "owner-" + space, Until: time.Now().Add(time.Hour)}
	if _, err := store.SaveObservations(ctx, space, embedder.ID(), embedder.Dim(), obs, lease); err != nil {
		t.Fatal(err)
	}
	vecs, err := embedder.Embed(ctx, []string{"Ana likes tea."})
	if err != nil {
		t.Fatal(err)
	}
	node := realm.Node{ID: uuid.NewString(), Type: realm.Fact, Name: "tea", Content: "Ana likes tea.", Embedding: vecs[0]}
	if err := store.PutMemories(ctx, space, []realm.Node{node}, nil); err != nil {
		t.Fatal(err)
	}
	file := export(t, c, space)
	if len(file) <= 2048 {
		t.Fatalf("the export is only %d bytes", len(file))
	}
	if code := c.status("DELETE", "/v1/spaces/"+space, nil); code != http.StatusOK {
		t.Fatalf("delete: %d", code)
	}
	if code, res, p := importInto(t, c, space, file); code != http.StatusCreated || res.Counts["memory"] != 1 {
		t.Errorf("an import of %d bytes over a JSON limit of 2048: %d %+v", len(file), code, p)
	}

	small := newTestServer(t, check, Config{MaxBodyBytes: 2048, MaxImportBytes: 4096})
	other := cyphertest.NewSpace(t)
	code, _, p := importInto(t, client{t: t, base: small.URL}, other, file)
	if code != http.StatusRequestEntityTooLarge || p.Code != "too_large" || !strings.Contains(p.Detail, "REALM_MAX_IMPORT_BYTES") {
		t.Errorf("an import over REALM_MAX_IMPORT_BYTES: %d %+v", code, p)
	}
}
