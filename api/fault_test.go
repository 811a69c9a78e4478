package api

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// boltProxy forwards TCP to Neo4j until cut: then it refuses connections and drops the
// open ones, as a Neo4j that went away would, without stopping the Neo4j other tests use.
type boltProxy struct {
	t      *testing.T
	addr   string // host:port the store dials
	target string

	mu    sync.Mutex
	ln    net.Listener
	conns []net.Conn
}

func newBoltProxy(t *testing.T, target string) *boltProxy {
	p := &boltProxy{t: t, target: target}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.addr = ln.Addr().String()
	p.serve(ln)
	t.Cleanup(p.cut)
	return p
}

func (p *boltProxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", p.target)
			if err != nil {
				in.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, in, out)
			p.mu.Unlock()
			go func() { io.Copy(out, in); out.Close() }()
			go func() { io.Copy(in, out); in.Close() }()
		}
	}()
}

// cut closes the listener and every forwarded connection.
func (p *boltProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// restore listens again on the same address.
func (p *boltProxy) restore() {
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.t.Fatalf("listening again on %s: %v", p.addr, err)
	}
	p.serve(ln)
}

// storeBehindProxy opens a store that reaches the test Neo4j through a boltProxy, so a
// test can cut it off without stopping the Neo4j other tests use.
func storeBehindProxy(t *testing.T) (*cypher.Store, *boltProxy) {
	t.Helper()
	cyphertest.MustOpen(t)
	cfg := cyphertest.Config()
	u, err := url.Parse(cfg.URI)
	if err != nil {
		t.Fatal(err)
	}
	proxy := newBoltProxy(t, u.Host)
	cfg.URI = "bolt://" + proxy.addr
	store, err := cypher.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close(context.Background()) })
	return store, proxy
}

// TestNeo4jDown: with Neo4j unreachable, /readyz and the API answer 503 with
// Retry-After and the process keeps serving; once Neo4j is back, both recover without a
// restart.
func TestNeo4jDown(t *testing.T) {
	store, proxy := storeBehindProxy(t)
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

	proxy.cut()
	// At once: the driver retries an unreachable server for a while before giving up.
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

	proxy.restore()
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
