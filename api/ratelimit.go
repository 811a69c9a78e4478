package api

import (
	"math"
	"net/http"
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

// take spends a token at now, or says how long until one is there.
func (b *bucket) take(now time.Time) (ok bool, wait time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if now.After(b.last) {
		b.tokens = math.Min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
		b.last = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / b.rate * float64(time.Second))
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
// authenticate, so a key's probes of other spaces count too.
func (s *server) rateLimit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b := s.buckets[keyOf(r.Context()).Name]
		if b == nil {
			next.ServeHTTP(w, r)
			return
		}
		if ok, wait := b.take(time.Now()); !ok {
			w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
			writeError(w, r, realm.Errorf(realm.ERateLimited,
				"this API key may send %g requests a second (bursts of %d); retry later", s.cfg.RateLimit, s.cfg.RateBurst))
			return
		}
		next.ServeHTTP(w, r)
	})
}
