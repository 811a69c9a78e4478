package construction

import (
	"context"
	"sync"
)

// spaceLocks lets one worker of a pipeline at a time read, decide and apply the
// integration of a space's observation, so that the workers of one process never decide
// on a neighbourhood another of them is about to change (which would send the apply
// back to deciding again, an LLM call each time). Across processes the apply
// transaction's check of the neighbourhood does that work (cypher.ApplyIntegration).
// Nothing here is held while waiting for Neo4j's lock on the space: no transaction is
// open while deciding.
type spaceLocks struct {
	mu    sync.Mutex
	byKey map[string]*spaceLock
}

type spaceLock struct {
	sem   chan struct{} // holds one token while locked
	users int           // workers holding or waiting: the entry goes when none is left
}

// lock waits for space's lock, or for ctx to end; the returned function unlocks.
func (l *spaceLocks) lock(ctx context.Context, space string) (func(), error) {
	l.mu.Lock()
	if l.byKey == nil {
		l.byKey = map[string]*spaceLock{}
	}
	s := l.byKey[space]
	if s == nil {
		s = &spaceLock{sem: make(chan struct{}, 1)}
		l.byKey[space] = s
	}
	s.users++
	l.mu.Unlock()
	leave := func() {
		l.mu.Lock()
		if s.users--; s.users == 0 {
			delete(l.byKey, space)
		}
		l.mu.Unlock()
	}
	select {
	case s.sem <- struct{}{}:
		return func() { <-s.sem; leave() }, nil
	case <-ctx.Done():
		leave()
		return nil, ctx.Err()
	}
}
