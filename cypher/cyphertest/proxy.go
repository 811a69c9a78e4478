package cyphertest

import (
	"bytes"
	"context"
	"net"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/realm-memory/realm/cypher"
)

// Proxy forwards TCP to Neo4j until Cut: then it refuses connections and drops the open
// ones, as a Neo4j that went away would, without stopping the Neo4j other tests use.
// While it hangs (Hang), it accepts connections but forwards nothing either way, as a
// Neo4j that hangs would, or one that is starting (it takes the Bolt handshake once its
// database is up).
type Proxy struct {
	tb     testing.TB
	addr   string // host:port the store dials
	target string

	mu    sync.Mutex
	ln    net.Listener
	conns []net.Conn
	held  chan struct{}     // closed when the proxy stops hanging; nil while it forwards
	cutAt func([]byte) bool // what a client sends is not forwarded when it says so (CutAt)
}

func newProxy(tb testing.TB, target string) *Proxy {
	p := &Proxy{tb: tb, target: target}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	p.addr = ln.Addr().String()
	p.serve(ln)
	tb.Cleanup(p.Cut)
	return p
}

func (p *Proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			p.conns = append(p.conns, in)
			p.mu.Unlock()
			go p.forward(in)
		}
	}()
}

// forward connects in to Neo4j once the proxy does not hang, and copies both ways.
func (p *Proxy) forward(in net.Conn) {
	p.wait()
	out, err := net.Dial("tcp", p.target)
	if err != nil {
		in.Close()
		return
	}
	p.mu.Lock()
	p.conns = append(p.conns, out)
	p.mu.Unlock()
	go p.copy(out, in, true)
	p.copy(in, out, false)
}

// copy copies src to dst, holding what it read while the proxy hangs; what a client
// sends (fromClient) goes through CutAt's check first.
func (p *Proxy) copy(dst, src net.Conn, fromClient bool) {
	defer dst.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.wait()
			p.mu.Lock()
			cutAt := p.cutAt
			p.mu.Unlock()
			if fromClient && cutAt != nil && cutAt(buf[:n]) {
				return
			}
			if _, err := dst.Write(buf[:n]); err != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// wait returns when the proxy does not hang.
func (p *Proxy) wait() {
	p.mu.Lock()
	held := p.held
	p.mu.Unlock()
	if held != nil {
		<-held
	}
}

// Hang stops forwarding: connections are accepted, and nothing they send is answered.
func (p *Proxy) Hang() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held == nil {
		p.held = make(chan struct{})
	}
}

// Unhang forwards again what was held and what comes.
func (p *Proxy) Unhang() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held != nil {
		close(p.held)
		p.held = nil
	}
}

// Cut closes the listener and every forwarded connection.
func (p *Proxy) Cut() {
	p.Unhang()
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

// CutAt cuts the proxy off (Cut) for outage, the first times a client sends text, before
// Neo4j receives it: the statement saying it meets a Neo4j that went away (restarted) as
// it is sent, each of those times.
func (p *Proxy) CutAt(text string, times int, outage time.Duration) {
	var left atomic.Int64
	left.Store(int64(times))
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cutAt = func(b []byte) bool {
		if !bytes.Contains(b, []byte(text)) || left.Add(-1) < 0 {
			return false
		}
		p.Cut()
		time.AfterFunc(outage, p.Restore)
		return true
	}
}

// Restore listens again on the same address.
func (p *Proxy) Restore() {
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.tb.Fatalf("listening again on %s: %v", p.addr, err)
	}
	p.serve(ln)
}

// BehindProxy opens a store with cfg (Config's, with other durations as a test needs)
// that reaches the tests' Neo4j through a Proxy, so a test can cut it off or hang it
// without stopping the Neo4j other tests use.
func BehindProxy(tb testing.TB, cfg cypher.Config) (*cypher.Store, *Proxy) {
	tb.Helper()
	MustOpen(tb)
	u, err := url.Parse(cfg.URI)
	if err != nil {
		tb.Fatal(err)
	}
	proxy := newProxy(tb, u.Host)
	cfg.URI = "bolt://" + proxy.addr
	store, err := cypher.Open(context.Background(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { store.Close(context.Background()) })
	return store, proxy
}
