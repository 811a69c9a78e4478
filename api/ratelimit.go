package api

import (
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"github.com/realm-memory/realm"
)

// bucket is a token bucket: it holds up to burst tokens and gains rate tokens a second;
// each request spends one.
type bucket struct {
	mu     sync.Mutex
	rate   float64 // tokens a second
	burst  float64
	tokens float64
	last   time.Time
}

func newBucket(rate float64, burst int, now time.Time) *bucket {
	return &bucket{rate: rate, burst: float64(burst), tokens: float64(burst), last: now}
}

// quota is what a bucket holds once a request has been counted: whether it may go,
// how many more may go at once, how long until the next token (when it may not) and
// until the bucket is full again.
type quota struct {
	ok        bool
	remaining int
	wait      time.Duration
	reset     time.Duration
}

// take spends a token at now, or says how long until one is there.
func (b *bucket) take(now time.Time) quota {
	return b.count(now, true)
}

// peek is take without spending: whether a token is there at now.
func (b *bucket) peek(now time.Time) quota {
	return b.count(now, false)
}

func (b *bucket) count(now time.Time, spend bool) quota {
	b.mu.Lock()
	defer b.mu.Unlock()
	if now.After(b.last) {
		b.tokens = math.Min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
		b.last = now
	}
	q := quota{ok: b.tokens >= 1}
	if q.ok && spend {
		b.tokens--
	}
	if !q.ok {
		q.wait = b.after(1 - b.tokens)
	}
	q.remaining = int(b.tokens)
	q.reset = b.after(b.burst - b.tokens)
	return q
}

// after is how long the bucket takes to gain n tokens.
func (b *bucket) after(n float64) time.Duration {
	return time.Duration(n / b.rate * float64(time.Second))
}

// seconds rounds d up to whole seconds, as Retry-After and RateLimit-Reset count.
func seconds(d time.Duration) string {
	return strconv.Itoa(int(math.Ceil(d.Seconds())))
}

// newBuckets gives each key its own bucket; nil when there is no limit. Without keys
// (loopback only) nothing is limited.
func newBuckets(cfg Config) map[string]*bucket {
	if cfg.RateLimit <= 0 {
		return nil
	}
	now := time.Now()
	buckets := map[string]*bucket{}
	for _, k := range cfg.Keys {
		buckets[k.Name] = newBucket(cfg.RateLimit, cfg.RateBurst, now)
	}
	return buckets
}

// rateLimit spends a token of the key's bucket (RateLimit requests a second, bursts of
// RateBurst); a request finding it empty is 429 with Retry-After. It runs after
// authenticate, so a key's probes of other spaces count too. Every response it lets
// through or refuses says the key's quota, so that a client can pace itself, in the
// fields of the IETF draft "RateLimit header fields for HTTP" (its versions up to
// -06): RateLimit-Limit (the burst), RateLimit-Remaining (the requests the key may
// still send at once) and RateLimit-Reset (seconds until the bucket is full again).
func (s *server) rateLimit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b := s.buckets[keyOf(r.Context()).Name]
		if b == nil {
			next.ServeHTTP(w, r)
			return
		}
		q := b.take(time.Now())
		h := w.Header()
		h.Set("RateLimit-Limit", strconv.Itoa(s.cfg.RateBurst))
		h.Set("RateLimit-Remaining", strconv.Itoa(q.remaining))
		h.Set("RateLimit-Reset", seconds(q.reset))
		if !q.ok {
			h.Set("Retry-After", seconds(q.wait))
			writeError(w, r, realm.Errorf(realm.ERateLimited,
				"this API key may send %g requests a second (bursts of %d); retry later", s.cfg.RateLimit, s.cfg.RateBurst))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Failed authentications are limited by client address, so that wrong or missing keys
// cannot be sent at full speed: DefaultAuthFailureBurst in a row, then one every
// 1/DefaultAuthFailureRate seconds (a valid key always passes: authenticate).
const (
	DefaultAuthFailureRate  = 1.0 / 6
	DefaultAuthFailureBurst = 10
	// addrSweep: past this many addresses, those whose buckets have refilled are dropped.
	addrSweep = 1024
)

// addrBuckets are the failed-authentication buckets of client addresses, created at an
// address's first failure and dropped once full again.
type addrBuckets struct {
	mu    sync.Mutex
	rate  float64
	burst int
	m     map[netip.Prefix]*bucket
	sweep int // the size at which to drop the full buckets next
}

func newAddrBuckets(rate float64, burst int) *addrBuckets {
	if rate <= 0 {
		rate = DefaultAuthFailureRate
	}
	if burst < 1 {
		burst = DefaultAuthFailureBurst
	}
	return &addrBuckets{rate: rate, burst: burst, m: map[netip.Prefix]*bucket{}, sweep: addrSweep}
}

// get is the bucket of addr, a new one when it has none yet.
func (a *addrBuckets) get(addr netip.Prefix, now time.Time) *bucket {
	a.mu.Lock()
	defer a.mu.Unlock()
	b := a.m[addr]
	if b != nil {
		return b
	}
	if len(a.m) >= a.sweep {
		for k, old := range a.m {
			if old.peek(now).reset == 0 {
				delete(a.m, k)
			}
		}
		a.sweep = max(addrSweep, 2*len(a.m)) // a sweep per doubling: constant time a failure
	}
	b = newBucket(a.rate, a.burst, now)
	a.m[addr] = b
	return b
}

// clientAddr is the address whose failures count together: the peer's IP (behind a
// reverse proxy, the proxy's), an IPv6 one by its /64, which one host holds whole. It
// is false for a loopback peer, whose failures are not limited: it is this host, a
// process of its own or a reverse proxy on it, in front of which every client would
// share one address, so that one client's wrong key would refuse all the others; and
// for a peer that is no IP address.
func clientAddr(r *http.Request) (netip.Prefix, bool) {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	ip := ap.Addr().Unmap() // an IPv4 address as IPv6 (::ffff:a.b.c.d) counts as IPv4
	if err != nil || ip.IsLoopback() {
		return netip.Prefix{}, false
	}
	bits := ip.BitLen()
	if ip.Is6() {
		bits = 64
	}
	p, _ := ip.Prefix(bits)
	return p, true
}

// authThrottled answers 429 with Retry-After when the request's address spent its
// failed authentications; it is checked before the key, whatever the key is, since a
// guess that could still succeed while the address is throttled would not be slowed.
func (s *server) authThrottled(w http.ResponseWriter, r *http.Request, q quota) bool {
	if q.ok {
		return false
	}
	w.Header().Set("Retry-After", seconds(q.wait))
	writeError(w, r, realm.Errorf(realm.ERateLimited,
		"too many requests with a wrong or missing API key from this address; retry later"))
	return true
}
