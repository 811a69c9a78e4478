package api

import (
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestNeo4jDown: with Neo4j unreachable (refusing connections, or accepting them and
// answering nothing, as a hung or starting Neo4j does), /readyz and the API answer 503
// with Retry-After and the process keeps serving; once Neo4j is back, both recover
// without a restart.
func TestNeo4jDown(t *testing.T) {
	for _, o := range outages {
		t.Run(o.name, func(t *testing.T) { testNeo4jDown(t, o.down, o.up) })
	}
}

// outages are the ways the fault tests take Neo4j away and bring it back: refusing
// connections, or taking them and answering nothing, as a hung or starting Neo4j does.
var outages = []struct {
	name     string
	down, up func(*cyphertest.Proxy)
}{
	{name: "Refused", down: (*cyphertest.Proxy).Cut, up: (*cyphertest.Proxy).Restore},
	{name: "Hung", down: (*cyphertest.Proxy).Hang, up: (*cyphertest.Proxy).Unhang},
}

func testNeo4jDown(t *testing.T, down, up func(*cyphertest.Proxy)) {
	store, proxy := cyphertest.BehindProxy(t, cyphertest.Config())
	srv := newTestServer(t, apitest.New(t), Config{}, func(d *Deps) { *d = testDepsOn(t, store) })
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	msg := func(id string) map[string]any {
		return map[string]any{"messages": []map[string]string{{"id": id, "speaker": "Ana", "content": "I water the plants on " + id + ".", "timestamp": "2023-01-10T09:00:00Z"}}}
	}
	if code := c.status("GET", "/readyz", nil); code != http.StatusOK {
		t.Fatalf("readyz before the cut: %d", code)
	}
	if code := c.status("POST", sp+"/observations", msg("monday")); code != http.StatusOK {
		t.Fatalf("ingest before the cut: %d", code)
	}

	down(proxy)
	// At once: the driver retries an unreachable server for a while before giving up, and
	// waits for a hung one for as long as it hangs.
	var wg sync.WaitGroup
	for _, req := range []struct{ method, path string }{{"GET", "/readyz"}, {"GET", sp + "/stats"}, {"POST", sp + "/observations"}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var body any
			if req.method == "POST" {
				body = msg("tuesday")
			}
			var p problemDoc
			resp := c.do(req.method, req.path, body, &p)
			retry, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
			if resp.StatusCode != http.StatusServiceUnavailable || retry < 1 {
				t.Errorf("%s %s with neo4j down: %d %+v, Retry-After %q", req.method, req.path, resp.StatusCode, p, resp.Header.Get("Retry-After"))
			}
			if req.path != "/readyz" && p.Code != "unavailable" {
				t.Errorf("%s %s: problem %+v, want code unavailable", req.method, req.path, p)
			}
		}()
	}
	wg.Wait()
	if code := c.status("GET", "/healthz", nil); code != http.StatusOK {
		t.Errorf("healthz with neo4j down: %d (the process must live on)", code)
	}

	up(proxy)
	deadline := time.Now().Add(2 * time.Minute)
	for c.status("GET", "/readyz", nil) != http.StatusOK {
		if time.Now().After(deadline) {
			t.Fatal("not ready again two minutes after neo4j came back")
		}
		time.Sleep(200 * time.Millisecond)
	}
	var res struct{ Results []struct{ Status string } }
	if code := c.do("POST", sp+"/observations", msg("tuesday"), &res).StatusCode; code != http.StatusOK || len(res.Results) != 1 {
		t.Fatalf("ingest after neo4j came back: %d %+v", code, res)
	}
	var st struct{ Observations int }
	c.do("GET", sp+"/stats", nil, &st)
	if st.Observations != 2 {
		t.Errorf("%d observations after the outage, want 2 (monday, tuesday)", st.Observations)
	}
}
