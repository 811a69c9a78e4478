package api

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/llm"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// observationPage is a page of GET …/observations.
type observationPage struct {
	Observations []realm.Observation
	NextCursor   string `json:"next_cursor"`
}

// observationDoc is GET …/observations/{id}'s body.
type observationDoc struct {
	Observation realm.Observation
	Memories    []cypher.ObservationMemory
}

// listedObservations reads every page of GET sp/observations?query with the given
// limit and returns the ids in the order served.
func listedObservations(t *testing.T, c client, sp, query string, limit int) []string {
	t.Helper()
	var ids []string
	cursor := ""
	for pages := 0; ; pages++ {
		q, err := url.ParseQuery(query)
		if err != nil {
			t.Fatal(err)
		}
		q.Set("limit", fmt.Sprint(limit))
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		var page observationPage
		if code := c.do("GET", sp+"/observations?"+q.Encode(), nil, &page).StatusCode; code != http.StatusOK {
			t.Fatalf("GET observations?%s: %d", q.Encode(), code)
		}
		if len(page.Observations) > limit || pages > 20 {
			t.Fatalf("GET observations?%s: %d observations, page %d", q.Encode(), len(page.Observations), pages)
		}
		for _, o := range page.Observations {
			ids = append(ids, o.ID)
		}
		if cursor = page.NextCursor; cursor == "" {
			return ids
		}
	}
}

// TestObservations: GET …/observations lists a space's messages as stored, in the order
// they were said (a tie in the order received), a page at a time, by session, status and
// time; GET …/observations/{id} reads one with the memories derived from it, those
// forgetting it would delete marked exactly as DELETE then deletes them; 404 and keys as
// elsewhere.
func TestObservations(t *testing.T) {
	var store *cypher.Store
	check := apitest.New(t)
	srv := newTestServer(t, check, Config{}, func(d *Deps) { store = d.Store })
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	day := func(d int) string { return fmt.Sprintf("2023-03-%02dT10:00:00Z", d) }
	// Received in another order than said; a and b said at the same time, a received first.
	c.remember(sp, []map[string]string{
		{"id": "c", "session_id": "s2", "speaker": "Ana", "content": "I moved to Lisbon with my partner Tomás.", "timestamp": day(3)},
		{"id": "a", "session_id": "s1", "role": "user", "content": "We adopted a grey cat called Pixel.", "timestamp": day(1)},
	})
	c.remember(sp, []map[string]string{
		{"id": "b", "session_id": "s1", "speaker": "Ana", "content": "Pixel likes sleeping on my keyboard.", "timestamp": day(1)},
		{"id": "d/1", "speaker": "Ana", "content": "I started learning the cello at a music school.", "timestamp": day(2)},
	})
	// One still pending (leased to this test, so no resumption takes it) and one failed.
	ctx := context.Background()
	lease := cypher.Lease{Owner: "owner-" + space, Until: time.Now().Add(time.Hour)}
	at := func(d int) time.Time { t, _ := time.Parse(time.RFC3339, day(d)); return t }
	stored := []realm.Observation{
		{ID: "p", SessionID: "s2", Speaker: "Ana", Content: "Tomás is learning Portuguese.", ObservedAt: at(4)},
		{ID: "f", SessionID: "s1", Speaker: "Ana", Content: "Pixel hid under the sofa.", ObservedAt: at(5)},
	}
	if _, err := store.SaveObservations(ctx, space, embedder.ID(), embedder.Dim(), stored, lease); err != nil {
		t.Fatal(err)
	}
	if status, err := store.MarkObservationError(ctx, space, "f", "the extraction failed", 1, true, nil); err != nil || status != realm.ObservationFailed {
		t.Fatalf("mark f failed: %q %v", status, err)
	}
	all := []string{"a", "b", "d/1", "c", "p", "f"}

	t.Run("OK", func(t *testing.T) {
		var page observationPage
		if code := c.do("GET", sp+"/observations", nil, &page).StatusCode; code != http.StatusOK || page.NextCursor != "" {
			t.Fatalf("list: %d, next %q", code, page.NextCursor)
		}
		var ids []string
		for _, o := range page.Observations {
			ids = append(ids, o.ID)
		}
		if !slices.Equal(ids, all) {
			t.Fatalf("order %v, want %v", ids, all)
		}
		a, d, p, f := page.Observations[0], page.Observations[2], page.Observations[4], page.Observations[5]
		if a.SessionID != "s1" || a.Speaker != "user" || a.Content != "We adopted a grey cat called Pixel." ||
			!a.ObservedAt.Equal(at(1)) || a.Status != realm.ObservationIntegrated || a.Space != space {
			t.Errorf("a as listed: %+v", a)
		}
		if d.SessionID != "" || d.Speaker != "Ana" {
			t.Errorf("d/1 as listed: %+v", d)
		}
		if p.Status != realm.ObservationPending || f.Status != realm.ObservationFailed {
			t.Errorf("statuses of p and f: %q %q", p.Status, f.Status)
		}
		if a.Seq >= page.Observations[1].Seq {
			t.Errorf("a (seq %d) received before b (seq %d)", a.Seq, page.Observations[1].Seq)
		}
	})
	t.Run("Pages", func(t *testing.T) {
		for _, limit := range []int{1, 2, 4} {
			if got := listedObservations(t, c, sp, "", limit); !slices.Equal(got, all) {
				t.Errorf("pages of %d: %v, want %v", limit, got, all)
			}
		}
	})
	t.Run("Filters", func(t *testing.T) {
		for query, want := range map[string][]string{
			"session_id=s1":                        {"a", "b", "f"},
			"session_id=s2":                        {"c", "p"},
			"session_id=":                          {"d/1"},
			"session_id=s9":                        nil,
			"status=pending":                       {"p"},
			"status=failed":                        {"f"},
			"status=integrated":                    {"a", "b", "d/1", "c"},
			"since=" + day(2):                      {"d/1", "c", "p", "f"},
			"until=" + day(2):                      {"a", "b"},
			"since=" + day(2) + "&until=" + day(4): {"d/1", "c"},
			"session_id=s1&status=integrated":      {"a", "b"},
			"session_id=s1&since=" + day(1) + "&until=" + day(5): {"a", "b"},
		} {
			for _, limit := range []int{1, 50} {
				if got := listedObservations(t, c, sp, query, limit); !slices.Equal(got, want) {
					t.Errorf("%s, pages of %d: %v, want %v", query, limit, got, want)
				}
			}
		}
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		for query, field := range map[string]string{
			"status=done": "status", "status=": "status", "limit=0": "limit", "limit=501": "limit",
			"since=yesterday": "since", "until=": "until", "sesion_id=s1": "sesion_id",
			"status=pending&status=failed": "status", "session_id=s1&session_id=s2": "session_id",
		} {
			var p problemDoc
			if resp := c.do("GET", sp+"/observations?"+query, nil, &p); resp.StatusCode != http.StatusBadRequest || p.Code != "invalid" || p.Fields[field] == "" {
				t.Errorf("GET observations?%s: %d %+v, want 400 naming %s", query, resp.StatusCode, p, field)
			}
		}
		var p problemDoc
		if resp := c.do("GET", sp+"/observations?cursor=forged", nil, &p); resp.StatusCode != http.StatusBadRequest || p.Code != "invalid" {
			t.Errorf("a forged cursor: %d %+v", resp.StatusCode, p)
		}
	})
	t.Run("Get", func(t *testing.T) {
		var doc observationDoc
		if code := c.do("GET", sp+"/observations/d%2F1", nil, &doc).StatusCode; code != http.StatusOK {
			t.Fatalf("get d/1: %d", code)
		}
		if doc.Observation.ID != "d/1" || doc.Observation.Content != "I started learning the cello at a music school." || doc.Observation.Status != realm.ObservationIntegrated {
			t.Errorf("d/1: %+v", doc.Observation)
		}
		// The memories derived from it are those whose sources hold it.
		var fromD []string
		for _, m := range c.memories("/v1/spaces/"+space, "limit=500") {
			if slices.Contains(m.Sources, "d/1") {
				fromD = append(fromD, m.ID)
			}
		}
		var got []string
		for _, m := range doc.Memories {
			got = append(got, m.ID)
			if !m.Type.Valid() {
				t.Errorf("memory %s of type %q", m.ID, m.Type)
			}
		}
		slices.Sort(fromD)
		if len(got) == 0 || !slices.Equal(got, fromD) {
			t.Errorf("derived from d/1: %v, memories with d/1 among their sources: %v", got, fromD)
		}
		if code := c.do("GET", sp+"/observations/p", nil, &doc).StatusCode; code != http.StatusOK || doc.Observation.Status != realm.ObservationPending || len(doc.Memories) != 0 {
			t.Errorf("pending p: %d %+v", code, doc)
		}
	})
	// What GET says goes with a message is what DELETE deletes; what it says stays, stays:
	// f1's event goes, and the episode of its session, which f1 began, stays
	// (TestDeleteObservation).
	chat := cyphertest.NewSpace(t)
	forgotten := "/v1/spaces/" + chat
	t.Run("DerivedAsDeleted", func(t *testing.T) {
		c.remember(forgotten, forgetMessages)
		var doc observationDoc
		if code := c.do("GET", forgotten+"/observations/f1", nil, &doc).StatusCode; code != http.StatusOK {
			t.Fatalf("get f1: %d", code)
		}
		var going, staying []string
		for _, m := range doc.Memories {
			if m.DeletedWithIt {
				going = append(going, m.ID)
			} else {
				staying = append(staying, m.ID)
			}
		}
		if len(going) == 0 || len(staying) == 0 {
			t.Fatalf("derived from f1: %+v, want some to go and some to stay", doc.Memories)
		}
		var deleted observationDeletedDoc
		if code := c.do("DELETE", forgotten+"/observations/f1", nil, &deleted).StatusCode; code != http.StatusOK {
			t.Fatalf("delete f1: %d", code)
		}
		slices.Sort(deleted.MemoryIDs)
		if !slices.Equal(deleted.MemoryIDs, going) {
			t.Errorf("DELETE deleted %v; GET said %v would go", deleted.MemoryIDs, going)
		}
		for _, id := range staying {
			if code := c.status("GET", forgotten+"/memories/"+url.PathEscape(id), nil); code != http.StatusOK {
				t.Errorf("memory %s, said to stay: %d", id, code)
			}
		}
		if got := listedObservations(t, c, forgotten, "", 50); !slices.Equal(got, []string{"f2", "f3", "f4"}) {
			t.Errorf("after forgetting f1 the chat lists %v", got)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		for _, path := range []string{forgotten + "/observations/f1", sp + "/observations/no-such-message", "/v1/spaces/nowhere_" + space + "/observations/b"} {
			var p problemDoc
			if resp := c.do("GET", path, nil, &p); resp.StatusCode != http.StatusNotFound || p.Code != "not_found" || p.Detail == "" {
				t.Errorf("GET %s: %d %+v, want 404 not_found", path, resp.StatusCode, p)
			}
		}
		var p problemDoc
		if code := c.do("GET", "/v1/spaces/nowhere_"+space+"/observations", nil, &p).StatusCode; code != http.StatusNotFound || p.Code != "not_found" {
			t.Errorf("the messages of a space that does not exist: %d %+v, want 404 not_found", code, p)
		}
	})
	// A read key reads them; another space's key gets what a space that does not exist gets.
	t.Run("Keys", func(t *testing.T) {
		other := cyphertest.NewSpace(t)
		keys, err := ParseKeys("test keys", fmt.Sprintf(`
			reader sk-r-0123456789abcdef read  %s
			other  sk-o-0123456789abcdef admin %s`, space, other))
		if err != nil {
			t.Fatal(err)
		}
		keyed := newTestServer(t, check, Config{Keys: keys})
		reader := client{t: t, base: keyed.URL, key: "sk-r-0123456789abcdef"}
		if got := listedObservations(t, reader, sp, "session_id=s1", 50); !slices.Equal(got, []string{"a", "b", "f"}) {
			t.Errorf("a read key lists %v", got)
		}
		if code := reader.status("GET", sp+"/observations/b", nil); code != http.StatusOK {
			t.Errorf("a read key gets b: %d", code)
		}
		stranger := client{t: t, base: keyed.URL, key: "sk-o-0123456789abcdef"}
		for _, path := range []string{"/observations", "/observations/b"} {
			var got, want problemDoc
			gotCode := stranger.do("GET", sp+path, nil, &got).StatusCode
			wantCode := stranger.do("GET", "/v1/spaces/nowhere_"+space+path, nil, &want).StatusCode
			if gotCode != http.StatusNotFound || wantCode != gotCode || got.Code != want.Code {
				t.Errorf("GET %s with another space's key: %d %+v; on a space that does not exist: %d %+v", path, gotCode, got, wantCode, want)
			}
		}
	})
}

// TestObservationsSaySuperseded: the result of a batch, synchronous or its job's, names
// per message the memories it superseded, as the remember tool does; a message that
// changes nothing names none.
func TestObservationsSaySuperseded(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	home := []map[string]string{{"speaker": "user", "content": "I live in Lisbon with my wife.", "timestamp": "2026-01-10T10:00:00Z"}}
	batch := map[string]any{"messages": []map[string]string{
		{"speaker": "user", "content": "I bought a new bike for my commute.", "timestamp": "2026-05-01T10:00:00Z"},
		{"speaker": "user", "content": "We moved from Lisbon to Berlin last month.", "timestamp": "2026-06-10T10:00:00Z"},
	}}
	// checkSuperseded checks that the move alone superseded, and only memories of Lisbon it ended.
	checkSuperseded := func(how, sp string, superseded [][]string) {
		t.Helper()
		if len(superseded) != 2 || len(superseded[0]) != 0 || len(superseded[1]) == 0 {
			t.Fatalf("%s: superseded %v, want the move alone to name what it superseded", how, superseded)
		}
		for _, id := range superseded[1] {
			var m memoryDoc
			c.do("GET", sp+"/memories/"+id, nil, &m)
			if m.Memory.ValidUntil == nil || !strings.Contains(m.Memory.Content, "Lisbon") {
				t.Errorf("%s: superseded %s: %+v; want a Lisbon memory, ended", how, id, m.Memory)
			}
		}
	}

	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	c.remember(sp, home)
	var sync struct {
		Results []struct{ Superseded []string }
	}
	if code := c.do("POST", sp+"/observations", batch, &sync).StatusCode; code != http.StatusOK {
		t.Fatalf("ingest: %d", code)
	}
	var got [][]string
	for _, r := range sync.Results {
		got = append(got, r.Superseded)
	}
	checkSuperseded("synchronous", sp, got)

	sp = "/v1/spaces/" + cyphertest.NewSpace(t)
	c.remember(sp, home)
	var job struct {
		JobID string `json:"job_id"`
	}
	if code := c.do("POST", sp+"/observations?async=true", batch, &job).StatusCode; code != http.StatusAccepted {
		t.Fatalf("async ingest: %d", code)
	}
	var j struct {
		Results []struct {
			ID, Status string
			Superseded []string
		}
	}
	c.awaitJob(job.JobID, &j)
	got = nil
	for _, r := range j.Results {
		if r.Status != "integrated" {
			t.Errorf("job: message %s is %s", r.ID, r.Status)
		}
		got = append(got, r.Superseded)
	}
	checkSuperseded("job", sp, got)
}

// TestSpeakerComposed: a speaker sent composed ("Zoë", NFC) and decomposed ("Zoe" and a
// combining diaeresis, NFD, as macOS and iOS often send it) is one speaker: one person,
// whose move supersedes where they lived. The content is kept as sent, byte for byte.
func TestSpeakerComposed(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	const composed, decomposed = "Zo\u00eb", "Zoe\u0308"
	moved := "I moved to Hamburg last week, to a cafe\u0301 owner's flat."
	var res struct {
		Results []struct{ Superseded []string }
	}
	if code := c.do("POST", sp+"/observations", map[string]any{"messages": []map[string]any{
		{"id": "m1", "speaker": composed, "content": "I live in Munich and I work as a doctor.", "timestamp": "2024-05-01T10:00:00Z"},
		{"id": "m2", "speaker": decomposed, "content": moved, "timestamp": "2024-05-08T10:00:00Z"},
	}}, &res).StatusCode; code != http.StatusOK || len(res.Results) != 2 {
		t.Fatalf("ingest: %d %+v", code, res)
	}
	if len(res.Results[1].Superseded) == 0 {
		t.Error("the move of the decomposed speaker supersedes nothing of the composed one")
	}
	var people []string
	for _, m := range c.memories(sp, "type=entity&limit=100") {
		if m.Category == "person" {
			people = append(people, m.Name)
		}
	}
	if !slices.Equal(people, []string{composed}) {
		t.Errorf("people %q, want one, %q", people, composed)
	}
	var doc observationDoc
	if code := c.do("GET", sp+"/observations/m2", nil, &doc).StatusCode; code != http.StatusOK {
		t.Fatalf("GET observation: %d", code)
	}
	if doc.Observation.Content != moved || doc.Observation.Speaker != composed {
		t.Errorf("stored %q said %q, want %q said %q as sent", doc.Observation.Speaker, doc.Observation.Content, composed, moved)
	}
}

// TestJobUsage: an async job's results say what their integration spent on the LLM, calls
// and fallbacks, as a synchronous ingestion's results do, in the same fields.
func TestJobUsage(t *testing.T) {
	c, _, _, _ := llmJobServer(t) // each decision the offline agent's, counted as a fallback
	batch := map[string]any{"messages": []map[string]string{
		{"id": "u1", "speaker": "Ana", "content": "I adopted a cat named Pixel last spring.", "timestamp": "2024-05-01T10:00:00Z"}}}

	var sync struct{ Results []struct{ Usage realm.Usage } }
	if code := c.do("POST", "/v1/spaces/"+cyphertest.NewSpace(t)+"/observations", batch, &sync).StatusCode; code != http.StatusOK || len(sync.Results) != 1 {
		t.Fatalf("sync ingest: %d %+v", code, sync)
	}
	var accepted struct {
		JobID string `json:"job_id"`
	}
	if code := c.do("POST", "/v1/spaces/"+cyphertest.NewSpace(t)+"/observations?async=true", batch, &accepted).StatusCode; code != http.StatusAccepted {
		t.Fatalf("async ingest: %d", code)
	}
	var job struct {
		Status  string
		Results []struct {
			ID    string
			Usage realm.Usage
		}
	}
	c.awaitJob(accepted.JobID, &job)
	if job.Status != cypher.JobDone || len(job.Results) != 1 {
		t.Fatalf("job %+v", job)
	}
	want, got := sync.Results[0].Usage, job.Results[0].Usage
	if want[llm.StageExtract].Fallbacks == 0 {
		t.Fatalf("sync usage %+v: no fallback to compare", want)
	}
	for stage, w := range want {
		g := got[stage]
		if g.Calls != w.Calls || g.Failures != w.Failures || g.Fallbacks != w.Fallbacks {
			t.Errorf("job's %s usage %+v, want the synchronous one's calls, failures and fallbacks %+v", stage, g, w)
		}
	}
}

// TestUsageIsAnObject: a message's usage is an object whether it was integrated now or
// before (already_integrated), {} when no LLM call was made (the offline agent): never
// null, as openapi.yaml's Usage says (apitest checks every usage of every test).
func TestUsageIsAnObject(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	batch := map[string]any{"messages": []map[string]string{
		{"id": "u1", "speaker": "Ana", "content": "I moved to Lisbon in 2021.", "timestamp": "2023-01-10T09:00:00Z"}}}
	for _, want := range []string{"integrated", "already_integrated"} {
		var res struct {
			Results []struct {
				Status string
				Usage  any
			}
		}
		if code := c.do("POST", sp+"/observations", batch, &res).StatusCode; code != http.StatusOK || len(res.Results) != 1 {
			t.Fatalf("ingest: %d %+v", code, res)
		}
		if got := res.Results[0]; got.Status != want || !reflect.DeepEqual(got.Usage, map[string]any{}) {
			t.Errorf("usage of a message %s: %#v, want {}", got.Status, got.Usage)
		}
	}
}
