package api

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/agenttest"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// tenancyMarker is a word only space A's messages hold: no answer to another key may
// carry it.
const tenancyMarker = "Zorblatt"

// fuzzSpaceIDs are space ids aimed at space a from a key of space b (patterns b and
// b-*): case variants, paths, globs, look-alike unicode, control characters, very long
// and empty ids, then n random strings of seed.
func fuzzSpaceIDs(a, b string, seed uint64, n int) []string {
	flip := func(s string, i int) string {
		r := []rune(s)
		if strings.ToUpper(string(r[i])) == string(r[i]) {
			r[i] = []rune(strings.ToLower(string(r[i])))[0]
		} else {
			r[i] = []rune(strings.ToUpper(string(r[i])))[0]
		}
		return string(r)
	}
	ids := []string{
		strings.ToUpper(a), flip(a, 0), flip(a, len(a)-1), strings.ToUpper(a[:1]) + a[1:],
		a + " ", " " + a, a + "\t", a + "\n", a + "\x00", "\x00" + a, a + "\u200b", "\u202e" + a, a + "\r\n",
		a + "/", a + "/..", "../" + a, "./" + a, b + "/../" + a, b + "/./../" + a, "..", ".", "", "/", "//",
		"*", "**", "?", "[a-z]*", "[!x]*", "test_*", a[:len(a)-1] + "?", a[:len(a)-1] + "*", a[:6] + "*", "[", "]", `\*`, `\` + a,
		b + "*", b + "-*", b + "?" + a, b + "-" + a, b + "-../" + a, b + "/" + a, b + "," + a, a + "," + b, b + ";" + a,
		strings.Replace(a, "e", "е", 1) /* Cyrillic е */, "ｔｅｓｔ" + a[4:], /* fullwidth */
		strings.Replace(a, "t", "ť", 1), a + "\u0301", "İ" + a,
		strings.Repeat("a", 64), strings.Repeat("a", 65), strings.Repeat(a, 100), strings.Repeat("x", 10000),
		"%2A", "%2F..%2F" + a, "%00", url.PathEscape(a), `{"$ne":null}`, "' OR 1=1 --", "$space", "space: " + a,
		"`" + a + "`", `"` + a + `"`, a + "#", a + "?x=1", "${" + a + "}",
	}
	alphabet := []rune("abcXYZ019_-*?[]\\/.%:;,'\" \t\x00\x7féü日本🙂\u200bİıſ")
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	for range n {
		r := make([]rune, 1+rng.IntN(80))
		for i := range r {
			r[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if rng.IntN(3) == 0 { // half of these beside a's id
			ids = append(ids, string(r)+a)
		} else {
			ids = append(ids, string(r))
		}
	}
	return ids
}

// TestTenancyFuzz sends, with the key of space B, every space route and every MCP tool
// a fuzzed set of space ids and bodies aimed at space A, and proves that none reached
// A: A's memories, edges, weights, observations and edit log are the same before and
// after, no answer carries a word only A holds, and nothing answered 500.
func TestTenancyFuzz(t *testing.T) {
	seed := uint64(20261202)
	if s := os.Getenv("REALM_FUZZ_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		seed = n
	}
	t.Logf("seed %d (REALM_FUZZ_SEED)", seed)
	check := apitest.New(t)
	spaceA, spaceB := cyphertest.NewSpace(t), cyphertest.NewSpace(t)
	keys, err := ParseKeys("test keys", fmt.Sprintf(`
		a  sk-a-0123456789abcdef  admin  %[1]s
		b  sk-b-0123456789abcdef  admin  %[2]s,%[2]s-*`, spaceA, spaceB))
	if err != nil {
		t.Fatal(err)
	}
	// With an LLM on a fake OpenAI, so that /answer and the answer tool read their bodies.
	fake := agenttest.NewFakeOpenAI(t)
	fake.Handle(citeFirstTwo(t))
	base := newAnswerServer(t, check, Config{Keys: keys}, fake).base
	store := cyphertest.MustOpen(t)
	a := client{t: t, base: base, key: "sk-a-0123456789abcdef"}
	b := client{t: t, base: base, key: "sk-b-0123456789abcdef"}
	mcpB := mustConnectMCP(t, base, "sk-b-0123456789abcdef")

	// Space A: memories, a trace, an edit log, a job.
	msgs := map[string]any{"messages": []map[string]string{
		{"id": "f1", "speaker": "Ana", "content": "My neighbour " + tenancyMarker + " repairs bicycles in Porto.", "timestamp": "2023-03-02T09:00:00Z"},
		{"id": "f2", "speaker": "Ana", "content": tenancyMarker + " lent me a blue bicycle last week.", "timestamp": "2023-03-05T09:00:00Z"},
	}}
	if code := a.status("POST", "/v1/spaces/"+spaceA+"/observations", msgs); code != http.StatusOK {
		t.Fatalf("ingest into A: %d", code)
	}
	var job struct {
		JobID string `json:"job_id"`
	}
	a.do("POST", "/v1/spaces/"+spaceA+"/observations?async=true", msgs, &job)
	var rec mcpRecall
	a.do("POST", "/v1/spaces/"+spaceA+"/recall", map[string]any{"query": "Who repairs bicycles?"}, &rec)
	if rec.TraceID == "" || len(rec.Nodes) == 0 || !strings.Contains(fmt.Sprint(rec), tenancyMarker) {
		t.Fatalf("recall in A does not show the marker: %+v", rec)
	}
	var fb struct{ Edits []struct{ ID string } }
	a.do("POST", "/v1/spaces/"+spaceA+"/traces/"+rec.TraceID+"/feedback", map[string]any{"correct": true}, &fb)
	editID := "no-edit"
	if len(fb.Edits) > 0 {
		editID = fb.Edits[0].ID
	}
	// What key b sends: A's message ids, without A's marker (b's own spaces may keep them).
	msgsB := map[string]any{"messages": []map[string]string{
		{"id": "f1", "speaker": "Ana", "content": "My neighbour Bruno repairs bicycles in Porto.", "timestamp": "2023-03-02T09:00:00Z"},
		{"id": "f2", "speaker": "Ana", "content": "Bruno lent me a blue bicycle last week.", "timestamp": "2023-03-05T09:00:00Z"},
	}}
	ids := map[string]string{"memories": rec.Nodes[0].Node.ID, "traces": rec.TraceID, "edits": editID, "jobs": job.JobID}
	before := tenantData(t, store, spaceA)

	spaces := fuzzSpaceIDs(spaceA, spaceB, seed, 30)
	// Ids key b may use (its own b-* spaces): they are written to, so erase them after.
	for _, id := range spaces {
		if realm.ValidSpace(id) && keys[1].allows(id) {
			t.Cleanup(func() { _, _ = store.DeleteSpace(context.Background(), id) })
		}
	}
	bodies := []any{
		msgsB, // A's message ids
		map[string]any{"query": "Who repairs bicycles?", "space": spaceA},
		map[string]any{"messages": []map[string]string{{"speaker": "x", "content": "y", "timestamp": "2023-01-01T00:00:00Z", "space": spaceA}}},
		map[string]any{"query": tenancyMarker},
		map[string]any{"correct": false, "misleading_node_ids": []string{ids["memories"]}},
		[]byte(`{"query":`), []byte(`null`), []byte(`[]`), []byte(`{"query":"a","query":"` + spaceA + `"}`),
		[]byte(strings.Repeat(`{"a":`, 500)),
	}

	// leaks reports an answer to key b that carries A's marker, and any 500.
	leaks := func(what string, status int, body []byte) {
		t.Helper()
		if strings.Contains(strings.ToLower(string(body)), strings.ToLower(tenancyMarker)) {
			t.Errorf("%s: the answer to key b carries space A's data: %.300s", what, body)
		}
		if status == http.StatusInternalServerError {
			t.Errorf("%s: 500: %.300s", what, body)
		}
	}

	var routes []string
	err = chi.Walk(NewServer(Config{}, Deps{}).(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if strings.Contains(route, "{space}") {
			routes = append(routes, method+" "+route)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("HTTP", func(t *testing.T) {
		n := 0
		for i, space := range spaces {
			for j, r := range routes {
				method, route, _ := strings.Cut(r, " ")
				// Each route gets the id escaped, and raw where that is a URL at all.
				for _, p := range []string{url.PathEscape(space), space} {
					parts := strings.Split(route, "/")
					for k, part := range parts {
						switch part {
						case "{space}":
							parts[k] = p
						case "{id}":
							parts[k] = ids[parts[k-1]]
						}
					}
					path := strings.Join(parts, "/")
					var body any
					if method == "POST" {
						body = bodies[(i+j)%len(bodies)]
					}
					resp, raw := rawDo(t, base, b.key, method, path, body)
					if resp == nil {
						continue // not a URL Go can send
					}
					n++
					leaks(fmt.Sprintf("%s %q", method, path), resp.StatusCode, raw)
					// The space the server saw: the id, or for a raw one what the URL made of it
					// (b?x is space b with a query).
					seen := space
					if p == space {
						if segs := strings.Split(resp.Request.URL.Path, "/"); len(segs) > 3 {
							seen = segs[3]
						}
					}
					if resp.StatusCode < 400 && !(realm.ValidSpace(seen) && keys[1].allows(seen)) {
						t.Errorf("%s %q: %d to key b", method, path, resp.StatusCode)
					}
				}
			}
		}
		t.Logf("%d requests over %d routes and %d space ids", n, len(routes), len(spaces))
	})
	t.Run("MCP", func(t *testing.T) {
		argsIn := func(tool, space string, i int) map[string]any {
			switch tool {
			case "remember":
				return map[string]any{"space": space, "messages": msgsB["messages"]}
			case "feedback":
				return map[string]any{"space": space, "trace_id": ids["traces"], "correct": i%2 == 0, "misleading_node_ids": []string{ids["memories"]}}
			case "forget":
				return map[string]any{"space": space, "memory_id": ids["memories"]}
			case "correct":
				return map[string]any{"space": space, "memory_id": ids["memories"], "content": "Bicycles are repaired on Mondays."}
			default:
				return map[string]any{"space": space, "query": []string{"Who repairs bicycles?", tenancyMarker}[i%2]}
			}
		}
		for i, space := range spaces {
			for tool := range toolScopes {
				got := callTool(t, mcpB, tool, argsIn(tool, space, i))
				raw, _ := json.Marshal(got)
				leaks(fmt.Sprintf("%s in %q", tool, space), 0, []byte(got.text+string(raw)))
				if !got.isError && !(realm.ValidSpace(space) && keys[1].allows(space)) {
					t.Errorf("%s in %q answered key b: %.300s", tool, space, got.text)
				}
			}
		}
		// Arguments no schema-abiding client sends: duplicate keys (either order), A's id
		// spelt with JSON escapes, a space that is not a string, a space beside the arguments.
		escaped := ""
		for _, r := range spaceA {
			escaped += fmt.Sprintf(`\u%04x`, r)
		}
		for _, c := range []struct {
			args      string
			mayAnswer bool // the space the server decodes is b's
		}{
			{`{"space":"` + spaceB + `","query":"bicycles","space":"` + spaceA + `"}`, false},
			{`{"space":"` + spaceA + `","query":"bicycles","space":"` + spaceB + `"}`, true},
			{`{"space":"` + escaped + `","query":"bicycles"}`, false},
			{`{"space":["` + spaceA + `"],"query":"bicycles"}`, false},
			{`{"space":{"$eq":"` + spaceA + `"},"query":"bicycles"}`, false},
			{`{"space":null,"query":"bicycles"}`, false},
			{`{"space":1,"query":"bicycles"}`, false},
			{`{"query":"bicycles"}`, false},
			{`{"space":"` + spaceB + `","query":"bicycles","Space":"` + spaceA + `"}`, false},
		} {
			for _, tool := range []string{"recall", "forget", "remember"} {
				msg := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + c.args + `,"space":"` + spaceA + `"}}`
				resp, body := postMCP(t, base, b.key, []byte(msg))
				leaks(tool+" "+c.args, resp.StatusCode, body)
				var res struct {
					Result *struct {
						IsError bool `json:"isError"`
					}
				}
				if err := json.Unmarshal(body, &res); err != nil {
					t.Errorf("%s %s: %d %s", tool, c.args, resp.StatusCode, body)
				}
				if res.Result != nil && !res.Result.IsError && !c.mayAnswer {
					t.Errorf("%s %s answered key b: %.300s", tool, c.args, body)
				}
			}
		}
		// Key b remembers messages with A's ids in its own space: they land there, new.
		got := callTool(t, mcpB, "remember", map[string]any{"space": spaceB, "messages": msgsB["messages"]})
		var ingest struct{ Results []struct{ Status string } }
		got.decode(t, &ingest)
		if got.isError || len(ingest.Results) != 2 || ingest.Results[0].Status != "integrated" {
			t.Errorf("key b remembering A's message ids in B: %+v %s", ingest, got.text)
		}
	})

	if after := tenantData(t, store, spaceA); after != before {
		t.Errorf("key b reached space A:\nbefore %s\nafter  %s", before, after)
	}
}

// rawDo sends method path with body (JSON unless []byte) and key; nil when Go cannot
// make the request (the path is not a URL).
func rawDo(t *testing.T, base, key, method, path string, body any) (*http.Response, []byte) {
	t.Helper()
	var buf []byte
	switch v := body.(type) {
	case nil:
	case []byte:
		buf = v
	default:
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		buf = b
	}
	req, err := http.NewRequest(method, base+path, strings.NewReader(string(buf)))
	if err != nil {
		return nil, nil
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, nil // e.g. a control character Go refuses to send
	}
	defer resp.Body.Close()
	var out strings.Builder
	_, _ = io.Copy(&out, resp.Body)
	return resp, []byte(out.String())
}
