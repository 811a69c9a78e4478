package offline

import "sync"

// memo remembers what a function gave for its last memoSize keys. Every candidate of an
// observation reads each of its neighbours' texts, mostly the same memories from one
// observation to the next: their content words and claims are worked out once, not once
// per candidate and observation. The values are shared: read them, never change them.
type memo[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
}

const memoSize = 8192

func (m *memo[K, V]) get(key K, f func(K) V) V {
	m.mu.Lock()
	v, ok := m.m[key]
	m.mu.Unlock()
	if ok {
		return v
	}
	v = f(key)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil || len(m.m) >= memoSize {
		m.m = make(map[K]V) // a new map rather than clear: clear keeps a full map's buckets
	}
	m.m[key] = v
	return v
}

// lazy is a value worked out when first asked for, if ever.
type lazy[T any] struct {
	f    func() T
	done bool
	v    T
}

func (l *lazy[T]) get() T {
	if !l.done {
		l.v, l.done = l.f(), true
	}
	return l.v
}
