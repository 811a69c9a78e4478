package api

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

func TestParseKeys(t *testing.T) {
	sum := sha256.Sum256([]byte("sk-ops-0123456789abcdef"))
	t.Run("OK", func(t *testing.T) {
		keys, err := ParseKeys("REALM_API_KEYS", `
			# name  key  scopes  spaces
			alice sk-alice-0123456789abcdef read,write alice,alice-*   # a comment
			ops sha256:`+hex.EncodeToString(sum[:])+` admin *; ci sk-ci-0123456789abcdef read ci`)
		if err != nil {
			t.Fatal(err)
		}
		if len(keys) != 3 || keys[0].Name != "alice" || keys[1].Hash != sum || keys[2].Spaces[0] != "ci" {
			t.Fatalf("keys %+v", keys)
		}
		if !keys[0].allows("alice-work") || keys[0].allows("bob") || keys[0].allows("alicex") {
			t.Error("alice's patterns match wrongly")
		}
		if !keys[0].has(ScopeWrite) || keys[0].has(ScopeAdmin) || !keys[1].has(ScopeRead) {
			t.Error("scopes are wrong (admin has all, others only theirs)")
		}
	})
	tests := []struct {
		name, text, want string
	}{
		{"ErrFields", "alice sk-alice-0123456789abcdef read", "4 fields"},
		{"ErrShortKey", "alice short read alice", "shorter than 16"},
		{"ErrWeakKey", "alice aaaaaaaaaaaaaaaaaaaaaaaa read alice", "too few characters (1 different"},
		{"ErrRepeatedKey", "alice sk-abababababababab read alice", "too few characters (5 different"},
		{"ErrBadHash", "alice sha256:abcd read alice", "64 hex"},
		{"ErrScope", "alice sk-alice-0123456789abcdef owner alice", `scope "owner"`},
		{"ErrPattern", "alice sk-alice-0123456789abcdef read alice[", "glob pattern"},
		{"ErrPatternEmail", "ana sk-ana-00123456789abcdef read ana@example.com", `"ana@example.com" matches no space id`},
		{"ErrPatternDot", "ana sk-ana-00123456789abcdef read ana,team.a-*", `"team.a-*" matches no space id`},
		{"ErrPatternClass", "ana sk-ana-00123456789abcdef read team[.@]*", `"team[.@]*" matches no space id`},
		{"ErrPatternLong", "ana sk-ana-00123456789abcdef read " + strings.Repeat("?", 65) + "*", "matches no space id"},
		{"ErrDuplicateName", "a sk-alice-0123456789abcdef read a; a sk-bob-00123456789abcdef read b", "used twice"},
		{"ErrDuplicateSecret", "a sk-alice-0123456789abcdef read a; b sk-alice-0123456789abcdef read b", "another key's secret"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseKeys("REALM_API_KEYS", tt.text)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "REALM_API_KEYS entry") {
				t.Fatalf("got %v, want an error naming the entry and %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "sk-alice") {
				t.Errorf("the error repeats a secret: %v", err)
			}
		})
	}
}

// publicRoutes need no key: probes, the spec and the explorer's static files say nothing
// about any space.
var publicRoutes = []string{"GET /healthz", "GET /readyz", "GET /openapi.yaml", "GET /metrics", "GET /ui*"}

// routeScopes is the scopes every authenticated route needs (none for any key); a route
// missing here fails TestTenancy, so each new route states its scopes.
var routeScopes = map[string][]Scope{
	"GET /v1/info":                                 nil,
	"GET /v1/spaces":                               nil, // any key, listing only its spaces (TestListSpaces)
	"GET /v1/jobs/{id}":                            nil, // any key of the job's space; without read, no superseded ids (TestWriteOnlyLearnsNoContent)
	"POST /v1/spaces/{space}/observations":         {ScopeWrite},
	"GET /v1/spaces/{space}/memories":              {ScopeRead},
	"GET /v1/spaces/{space}/memories/{id}":         {ScopeRead},
	"PATCH /v1/spaces/{space}/memories/{id}":       {ScopeWrite},
	"DELETE /v1/spaces/{space}/memories/{id}":      {ScopeWrite},
	"GET /v1/spaces/{space}/observations":          {ScopeRead},
	"GET /v1/spaces/{space}/observations/{id}":     {ScopeRead},
	"DELETE /v1/spaces/{space}/observations/{id}":  {ScopeWrite},
	"DELETE /v1/spaces/{space}/observations":       {ScopeWrite}, // counts alone, as DELETE …/observations/{id} answers whether it was there
	"POST /v1/spaces/{space}/forget":               {ScopeRead, ScopeWrite},
	"GET /v1/spaces/{space}/stats":                 {ScopeRead},
	"GET /v1/spaces/{space}/graph":                 {ScopeRead},
	"POST /v1/spaces/{space}/recall":               {ScopeRead},
	"POST /v1/spaces/{space}/answer":               {ScopeRead},
	"GET /v1/spaces/{space}/traces/{id}":           {ScopeRead},
	"POST /v1/spaces/{space}/traces/{id}/feedback": {ScopeRead, ScopeWrite}, // what a recall read (TestWriteOnlyGivesNoFeedback)
	"GET /v1/spaces/{space}/edits":                 {ScopeRead},
	"POST /v1/spaces/{space}/edits/{id}/revert":    {ScopeRead, ScopeWrite},
	"DELETE /v1/spaces/{space}":                    {ScopeAdmin},
	"GET /v1/spaces/{space}/export":                {ScopeRead},
	"POST /v1/spaces/{space}/import":               {ScopeWrite},
	// Any key reaches /mcp; each tool checks its space and scope (TestMCPTenancy).
	"POST /mcp": nil, "GET /mcp": nil, "DELETE /mcp": nil,
}

// lacks reports whether a key with the one scope has falls short of scopes.
func lacks(scopes []Scope, has Scope) bool {
	return slices.ContainsFunc(scopes, func(s Scope) bool { return s != has })
}

// TestTenancy walks every route of routes.go and proves that it needs a key, that a key
// of another space gets exactly the answer a nonexistent space gets, and that a key of
// the space without the route's scope gets 403.
func TestTenancy(t *testing.T) {
	check := apitest.New(t)
	spaceA, spaceB := cyphertest.NewSpace(t), cyphertest.NewSpace(t)
	keyText := fmt.Sprintf(`
		a       sk-a-0123456789abcdef   admin      %[1]s
		a-read  sk-ar-0123456789abcdef  read       %[1]s
		a-write sk-aw-0123456789abcdef  write      %[1]s
		b       sk-b-0123456789abcdef   admin      %[2]s,%[2]s-*`, spaceA, spaceB)
	keys, err := ParseKeys("test keys", keyText)
	if err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, check, Config{Keys: keys})
	as := func(key string) client { return client{t: t, base: srv.URL, key: key} }
	a, b := as("sk-a-0123456789abcdef"), as("sk-b-0123456789abcdef")

	// Space A holds memories, a trace, an edit log and a job.
	msgs := map[string]any{"messages": []map[string]string{
		{"id": "t1", "speaker": "Ana", "content": "I adopted a grey cat called Pixel in March.", "timestamp": "2023-03-02T09:00:00Z"},
		{"id": "t2", "speaker": "Ana", "content": "Pixel likes sleeping on my keyboard.", "timestamp": "2023-03-05T09:00:00Z"},
	}}
	if code := a.status("POST", "/v1/spaces/"+spaceA+"/observations", msgs); code != http.StatusOK {
		t.Fatalf("ingest into A: %d", code)
	}
	var job struct {
		JobID string `json:"job_id"`
	}
	a.do("POST", "/v1/spaces/"+spaceA+"/observations?async=true", msgs, &job)
	var rec struct {
		TraceID string `json:"trace_id"`
		Nodes   []struct{ Node struct{ ID string } }
	}
	a.do("POST", "/v1/spaces/"+spaceA+"/recall", map[string]any{"query": "What is Ana's cat called?"}, &rec)
	if rec.TraceID == "" || len(rec.Nodes) == 0 {
		t.Fatalf("recall in A: %+v", rec)
	}
	var fb struct{ Edits []struct{ ID string } }
	a.do("POST", "/v1/spaces/"+spaceA+"/traces/"+rec.TraceID+"/feedback", map[string]any{"correct": true}, &fb)
	editID := "no-edit"
	if len(fb.Edits) > 0 {
		editID = fb.Edits[0].ID
	}
	ids := map[string]string{"memories": rec.Nodes[0].Node.ID, "traces": rec.TraceID, "edits": editID, "jobs": job.JobID, "observations": "t2"}
	bodies := map[string]any{
		"observations": msgs, "recall": map[string]any{"query": "cat"}, "answer": map[string]any{"query": "cat"},
		"feedback": map[string]any{"correct": true},
	}

	// fill makes a concrete path of a route in space, with the ids of space A.
	fill := func(route, space string) string {
		parts := strings.Split(route, "/")
		for i, p := range parts {
			switch p {
			case "{space}":
				parts[i] = space
			case "{id}":
				parts[i] = ids[parts[i-1]]
			}
		}
		return strings.Join(parts, "/")
	}
	bodyOf := func(route string) any {
		parts := strings.Split(route, "/")
		return bodies[parts[len(parts)-1]]
	}

	var routes []string
	err = chi.Walk(NewServer(Config{}, Deps{}).(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		routes = append(routes, method+" "+route)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Deletions last, so that every other route finds space A's data.
	slices.SortFunc(routes, func(x, y string) int {
		if dx, dy := strings.HasPrefix(x, "DELETE"), strings.HasPrefix(y, "DELETE"); dx != dy {
			if dx {
				return 1
			}
			return -1
		}
		return strings.Compare(x, y)
	})
	for _, r := range routes {
		if slices.Contains(publicRoutes, r) {
			continue
		}
		scopes, ok := routeScopes[r]
		if !ok {
			t.Errorf("%s: state its scope in routeScopes", r)
			continue
		}
		method, route, _ := strings.Cut(r, " ")
		inA := fill(route, spaceA)
		t.Run(r, func(t *testing.T) {
			for _, key := range []string{"", "sk-unknown-0123456789", "Bearer"} {
				var p problemDoc
				resp := as(key).do(method, inA, bodyOf(route), &p)
				if resp.StatusCode != http.StatusUnauthorized || p.Code != "unauthorized" || resp.Header.Get("WWW-Authenticate") == "" {
					t.Errorf("key %q: status %d %+v, want 401", key, resp.StatusCode, p)
				}
			}
			if route == "/v1/info" || route == "/v1/spaces" || route == "/mcp" {
				return
			}
			// Key b on space A answers as key b on a space that does not exist.
			var got, want problemDoc
			gotCode := b.do(method, inA, bodyOf(route), &got).StatusCode
			hidden, nowhere := spaceA, "nowhere_"+spaceA
			if !strings.Contains(route, "{space}") {
				hidden, nowhere = ids["jobs"], "no-such-job"
			}
			wantCode := b.do(method, strings.ReplaceAll(inA, hidden, nowhere), bodyOf(route), &want).StatusCode
			want.Detail = strings.ReplaceAll(want.Detail, nowhere, hidden)
			if gotCode != http.StatusNotFound || gotCode != wantCode || got.Code != want.Code || got.Detail != want.Detail {
				t.Errorf("another tenant's key: %d %+v; on a space that does not exist: %d %+v", gotCode, got, wantCode, want)
			}
			// Scopes: a key of space A without one of the route's scopes is refused with 403.
			for _, k := range []struct {
				secret string
				has    Scope
			}{{"sk-ar-0123456789abcdef", ScopeRead}, {"sk-aw-0123456789abcdef", ScopeWrite}} {
				var p problemDoc
				code := as(k.secret).do(method, inA, bodyOf(route), &p).StatusCode
				if refused := code == http.StatusForbidden; refused != lacks(scopes, k.has) {
					t.Errorf("key with only %s: status %d %+v, needs %v", k.has, code, p, scopes)
				}
			}
		})
	}

	t.Run("OwnKeyReachesHandlers", func(t *testing.T) {
		for _, r := range routes {
			if _, ok := routeScopes[r]; !ok {
				continue
			}
			method, route, _ := strings.Cut(r, " ")
			var p problemDoc
			var v any = &p
			if route == "/mcp" {
				v = nil // the MCP library's own 4xx are plain text
			}
			code := a.do(method, fill(route, spaceA), bodyOf(route), v).StatusCode
			if code == http.StatusUnauthorized || code == http.StatusForbidden || strings.Contains(p.Detail, fmt.Sprintf("space %q not found", spaceA)) {
				t.Errorf("%s with space A's own key: %d %+v", r, code, p)
			}
		}
	})
	t.Run("ErrSpaceIDTricks", func(t *testing.T) {
		// Variants of space A's id that a sloppy matcher could let through to A.
		for _, space := range []string{
			strings.ToUpper(spaceA), spaceA + "%2F..", "..%2F" + spaceA, spaceA + "%20", "%2A", "*", spaceA[:len(spaceA)-1] + "%3F",
			spaceB + "%2F..%2F" + spaceA, spaceA + "x", spaceB + "-" + spaceA[len(spaceA)-1:],
		} {
			resp := b.do("GET", "/v1/spaces/"+space+"/memories", nil, nil)
			if resp.StatusCode < 400 && !strings.HasPrefix(space, spaceB+"-") {
				t.Errorf("space %q answered %d to key b", space, resp.StatusCode)
			}
			var list struct{ Memories []struct{ Space string } }
			b.do("GET", "/v1/spaces/"+space+"/memories", nil, &list)
			for _, m := range list.Memories {
				if m.Space == spaceA {
					t.Fatalf("space %q gave key b a memory of space A", space)
				}
			}
		}
	})
}

// TestInfoNamesTheKey: /v1/info tells the calling key its name, scopes and spaces (the
// explorer offers feedback and revert only to a key that may send them), and a keyless
// server's caller is the local admin.
func TestInfoNamesTheKey(t *testing.T) {
	check := apitest.New(t)
	keys, err := ParseKeys("test keys", "reader sk-r-0123456789abcdef read team-*,alice")
	if err != nil {
		t.Fatal(err)
	}
	type info struct {
		Key struct {
			Name   string
			Scopes []string
			Spaces []string
		}
	}
	var got info
	keyed := newTestServer(t, check, Config{Keys: keys})
	client{t: t, base: keyed.URL, key: "sk-r-0123456789abcdef"}.do("GET", "/v1/info", nil, &got)
	if got.Key.Name != "reader" || !slices.Equal(got.Key.Scopes, []string{"read"}) || !slices.Equal(got.Key.Spaces, []string{"team-*", "alice"}) {
		t.Errorf("a read key's info: %+v", got.Key)
	}
	got = info{}
	keyless := newTestServer(t, check, Config{})
	client{t: t, base: keyless.URL}.do("GET", "/v1/info", nil, &got)
	if got.Key.Name != "local" || !slices.Equal(got.Key.Scopes, []string{"admin"}) || !slices.Equal(got.Key.Spaces, []string{"*"}) {
		t.Errorf("a keyless server's info: %+v", got.Key)
	}
}

// TestKeyPatterns: a pattern that some space id matches is taken, and one that ends a
// prefix without a separator is warned of, naming its key, since it reaches the spaces of
// other tenants whose ids begin alike.
func TestKeyPatterns(t *testing.T) {
	keys, err := ParseKeys("REALM_API_KEYS", `
		a  sk-a-0123456789abcdef  read  alice,alice-*,t_?,team[ab]-*,[^x]*
		b  sk-b-0123456789abcdef  read  alice*,t0*
		c  sk-c-0123456789abcdef  read  *`)
	if err != nil {
		t.Fatal(err)
	}
	got := LoosePrefixes(keys)
	if len(got) != 2 || !strings.Contains(got[0], `"b"`) || !strings.Contains(got[0], `"alice*"`) || !strings.Contains(got[1], `"t0*"`) {
		t.Errorf("warnings %q, want one for each of b's patterns alice* and t0*", got)
	}
}
