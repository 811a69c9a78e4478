package api

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestDeleteSpace: erasing a space removes everything in it and nothing of another
// space holding the same messages.
func TestDeleteSpace(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	spaceA, spaceB := cyphertest.NewSpace(t), cyphertest.NewSpace(t)
	msgs := map[string]any{"messages": []map[string]string{
		{"id": "d1", "speaker": "Ana", "content": "I moved to Lisbon in 2021 for a job at a bakery.", "timestamp": "2023-01-10T09:00:00Z"},
		{"id": "d2", "speaker": "Ana", "content": "The bakery makes pastel de nata every morning.", "timestamp": "2023-01-11T09:00:00Z"},
	}}
	type stats struct {
		Memories, Edges, Observations int
	}
	traces := map[string]string{}
	for _, space := range []string{spaceA, spaceB} {
		if code := c.status("POST", "/v1/spaces/"+space+"/observations", msgs); code != http.StatusOK {
			t.Fatalf("ingest into %s: %d", space, code)
		}
		var rec struct {
			TraceID string `json:"trace_id"`
		}
		c.do("POST", "/v1/spaces/"+space+"/recall", map[string]any{"query": "Where does Ana work?"}, &rec)
		c.do("POST", "/v1/spaces/"+space+"/traces/"+rec.TraceID+"/feedback", map[string]any{"correct": true}, nil)
		traces[space] = rec.TraceID
	}
	var before stats
	c.do("GET", "/v1/spaces/"+spaceB+"/stats", nil, &before)
	var editsBefore struct{ Edits []any }
	c.do("GET", "/v1/spaces/"+spaceB+"/edits", nil, &editsBefore)

	var del struct {
		DeletedNodes int `json:"deleted_nodes"`
	}
	if code := c.do("DELETE", "/v1/spaces/"+spaceA, nil, &del).StatusCode; code != http.StatusOK || del.DeletedNodes < 4 {
		t.Fatalf("delete: %d, %d nodes", code, del.DeletedNodes)
	}

	var a stats
	c.do("GET", "/v1/spaces/"+spaceA+"/stats", nil, &a)
	if a != (stats{}) {
		t.Errorf("space A after its deletion: %+v", a)
	}
	var list struct{ Memories []any }
	c.do("GET", "/v1/spaces/"+spaceA+"/memories", nil, &list)
	var rec struct{ Nodes []any }
	c.do("POST", "/v1/spaces/"+spaceA+"/recall", map[string]any{"query": "Where does Ana work?"}, &rec)
	if len(list.Memories) != 0 || len(rec.Nodes) != 0 {
		t.Errorf("space A still lists %d memories, recalls %d", len(list.Memories), len(rec.Nodes))
	}
	if code := c.status("GET", "/v1/spaces/"+spaceA+"/traces/"+traces[spaceA], nil); code != http.StatusNotFound {
		t.Errorf("space A's trace: %d", code)
	}
	var editsA struct{ Edits []any }
	c.do("GET", "/v1/spaces/"+spaceA+"/edits", nil, &editsA)
	if len(editsA.Edits) != 0 {
		t.Errorf("space A keeps %d edits", len(editsA.Edits))
	}

	var after stats
	c.do("GET", "/v1/spaces/"+spaceB+"/stats", nil, &after)
	var editsAfter struct{ Edits []any }
	c.do("GET", "/v1/spaces/"+spaceB+"/edits", nil, &editsAfter)
	if after != before || after.Memories == 0 || len(editsAfter.Edits) != len(editsBefore.Edits) {
		t.Errorf("space B changed: %+v then %+v; %d then %d edits", before, after, len(editsBefore.Edits), len(editsAfter.Edits))
	}
	if code := c.status("GET", "/v1/spaces/"+spaceB+"/traces/"+traces[spaceB], nil); code != http.StatusOK {
		t.Errorf("space B's trace: %d", code)
	}
}

// TestListSpaces: GET /v1/spaces pages through the spaces a key's patterns reach and no
// other; a space appears with its first observation, not with a read, and goes with its
// erasure. The database may hold other spaces, of other test runs, made with other
// embedders (one is made here): the key of every space lists them too.
func TestListSpaces(t *testing.T) {
	spaceA, spaceB := cyphertest.NewSpace(t), cyphertest.NewSpace(t)
	spaceB2, spaceB3 := spaceB+"-2", spaceB+"-3"
	foreign := cyphertest.NewSpace(t)
	if err := cyphertest.MustOpen(t).PutScaleSpace(context.Background(), foreign, "another-embedder", 8, 0, ""); err != nil {
		t.Fatal(err)
	}
	keys, err := ParseKeys("test keys", fmt.Sprintf(`
		a    sk-a-0123456789abcdef    admin  %s
		b    sk-b-0123456789abcdef    admin  %s,%s-*
		ab   sk-ab-0123456789abcdef   write  %[3]s,%[1]s
		all  sk-all-0123456789abcdef  read   *`, spaceA, spaceB, spaceB))
	if err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, apitest.New(t), Config{Keys: keys})
	a := client{t: t, base: srv.URL, key: "sk-a-0123456789abcdef"}
	b := client{t: t, base: srv.URL, key: "sk-b-0123456789abcdef"}
	all := client{t: t, base: srv.URL, key: "sk-all-0123456789abcdef"}
	msgs := map[string]any{"messages": []map[string]string{
		{"id": "s1", "speaker": "Ana", "content": "I keep bees on the roof of our building.", "timestamp": "2023-04-01T09:00:00Z"},
	}}
	for _, space := range []string{spaceA, spaceB, spaceB2} {
		c := a
		if space != spaceA {
			c = b
		}
		if code := c.status("POST", "/v1/spaces/"+space+"/observations", msgs); code != http.StatusOK {
			t.Fatalf("ingest into %s: %d", space, code)
		}
	}
	// A read of a space holding nothing does not make it.
	if code := b.status("POST", "/v1/spaces/"+spaceB3+"/recall", map[string]any{"query": "bees"}); code != http.StatusNotFound {
		t.Fatalf("recall in an empty space: %d", code)
	}

	type page struct {
		Spaces []struct {
			ID        string    `json:"id"`
			CreatedAt time.Time `json:"created_at"`
			Embedder  string    `json:"embedder"`
		} `json:"spaces"`
		NextCursor string `json:"next_cursor"`
	}
	list := func(c client, query string) (ids []string, next string) {
		t.Helper()
		var p page
		if code := c.do("GET", "/v1/spaces"+query, nil, &p).StatusCode; code != http.StatusOK {
			t.Fatalf("list%s: %d", query, code)
		}
		for _, s := range p.Spaces {
			ours := slices.Contains([]string{spaceA, spaceB, spaceB2}, s.ID)
			if ours && (s.CreatedAt.IsZero() || s.Embedder != embedder.ID()) {
				t.Errorf("space %s: created %v, embedder %q", s.ID, s.CreatedAt, s.Embedder)
			}
			ids = append(ids, s.ID)
		}
		return ids, p.NextCursor
	}
	if got, next := list(a, ""); !slices.Equal(got, []string{spaceA}) || next != "" {
		t.Errorf("key a lists %v (next %q), want only %s", got, next, spaceA)
	}
	if got, _ := list(b, ""); !slices.Equal(got, []string{spaceB, spaceB2}) {
		t.Errorf("key b lists %v, want %s and %s", got, spaceB, spaceB2)
	}
	ab := client{t: t, base: srv.URL, key: "sk-ab-0123456789abcdef"}
	both := slices.Sorted(slices.Values([]string{spaceA, spaceB}))
	if got, _ := list(ab, ""); !slices.Equal(got, both) {
		t.Errorf("the key of %s and %s lists %v", spaceB, spaceA, got)
	}
	// Its two patterns are two ranges read apart, paged through in id order.
	if first, next := list(ab, "?limit=1"); !slices.Equal(first, both[:1]) || next != both[0] {
		t.Errorf("the key of two spaces, a page of one: %v (next %q)", first, next)
	} else if second, last := list(ab, "?limit=1&cursor="+next); !slices.Equal(second, both[1:]) || last != "" {
		t.Errorf("the key of two spaces, its second page: %v (next %q)", second, last)
	}
	first, next := list(b, "?limit=1")
	second, last := list(b, "?limit=1&cursor="+next)
	if !slices.Equal(first, []string{spaceB}) || next != spaceB || !slices.Equal(second, []string{spaceB2}) || last != "" {
		t.Errorf("pages of one: %v (next %q), then %v (next %q)", first, next, second, last)
	}
	var everything []string
	for next := ""; ; {
		query := "?limit=1000"
		if next != "" {
			query += "&cursor=" + next
		}
		var ids []string
		ids, next = list(all, query)
		everything = append(everything, ids...)
		if next == "" {
			break
		}
	}
	for _, want := range []string{spaceA, spaceB, spaceB2, foreign} {
		if !slices.Contains(everything, want) {
			t.Errorf("the key of every space does not list %s", want)
		}
	}
	if slices.Contains(everything, spaceB3) {
		t.Errorf("%s is listed after a read only", spaceB3)
	}

	if code := b.status("DELETE", "/v1/spaces/"+spaceB2, nil); code != http.StatusOK {
		t.Fatalf("delete %s: %d", spaceB2, code)
	}
	if got, _ := list(b, ""); !slices.Equal(got, []string{spaceB}) {
		t.Errorf("after erasing %s key b lists %v", spaceB2, got)
	}

	for _, query := range []string{"?cursor=", "?cursor=..%2Fx", "?limit=0", "?limit=1001", "?limit=x"} {
		var p problemDoc
		if code := b.do("GET", "/v1/spaces"+query, nil, &p).StatusCode; code != http.StatusBadRequest || p.Code != "invalid" || len(p.Fields) != 1 {
			t.Errorf("%s: %d %+v, want 400 naming the parameter", query, code, p)
		}
	}
}

func TestKeyPrefixes(t *testing.T) {
	for _, c := range []struct {
		patterns, want []string
	}{
		{[]string{"alice", "team-a-*"}, []string{"alice", "team-a-"}},
		{[]string{"a?c", `x\*`, "y[0-9]"}, []string{"a", "x", "y"}},
		{[]string{"alice", "*-shared"}, []string{""}},
		{nil, []string{}},
	} {
		k := Key{Spaces: c.patterns}
		if got := k.prefixes(); !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.patterns, got, c.want)
		}
	}
}

// TestSpaceReadsWhenAbsent: a space that does not exist, never written or erased, reads
// alike everywhere: every read of the whole space is 404 not_found, as its export, a
// recall and its erasure are; and a key learns no more of a space outside its patterns,
// which existing or not reads the same. A space that exists lists what it holds.
func TestSpaceReadsWhenAbsent(t *testing.T) {
	written, never, other := cyphertest.NewSpace(t), cyphertest.NewSpace(t), cyphertest.NewSpace(t)
	keys, err := ParseKeys("test keys", fmt.Sprintf(`
		admin  sk-admin-0123456789abcdef  admin  *
		mine   sk-mine-0123456789abcdef   admin  %s`, never))
	if err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, apitest.New(t), Config{Keys: keys})
	c := client{t: t, base: srv.URL, key: "sk-admin-0123456789abcdef"}
	mine := client{t: t, base: srv.URL, key: "sk-mine-0123456789abcdef"}
	for _, space := range []string{written, other} {
		c.remember("/v1/spaces/"+space, []map[string]string{
			{"speaker": "Ana", "content": "I keep bees on the roof of our building.", "timestamp": "2023-04-01T09:00:00Z"},
		})
	}
	reads := []struct{ method, path string }{
		{"GET", "/memories"}, {"GET", "/observations"}, {"GET", "/stats"}, {"GET", "/graph"}, {"GET", "/edits"},
		{"GET", "/export"}, {"POST", "/recall"},
	}
	read := func(c client, space string, method, path string) (int, string) {
		t.Helper()
		var body any
		if method == "POST" {
			body = map[string]any{"query": "bees"}
		}
		var p problemDoc
		code := c.do(method, "/v1/spaces/"+space+path, body, &p).StatusCode
		return code, p.Code
	}
	for _, r := range reads {
		if code, _ := read(c, written, r.method, r.path); code != http.StatusOK {
			t.Errorf("%s %s of a space written to: %d", r.method, r.path, code)
		}
	}
	if code := c.status("DELETE", "/v1/spaces/"+written, nil); code != http.StatusOK {
		t.Fatalf("delete: %d", code)
	}
	for _, absent := range []struct {
		name  string
		c     client
		space string
	}{{"erased", c, written}, {"never written", c, never}, {"never written, by its key", mine, never}, {"outside the key's patterns", mine, other}} {
		for _, r := range reads {
			if code, pc := read(absent.c, absent.space, r.method, r.path); code != http.StatusNotFound || pc != "not_found" {
				t.Errorf("%s: %s %s: %d %q, want 404 not_found", absent.name, r.method, r.path, code, pc)
			}
		}
	}
	if code := c.status("DELETE", "/v1/spaces/"+written, nil); code != http.StatusNotFound {
		t.Errorf("erasing a space again: %d", code)
	}
}
