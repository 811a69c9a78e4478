package agent

import (
	"context"
	"sync"
)

// RecallScope remembers, for one recall, the decision stages whose model failed (no
// usable answer after its retries and repair). A recall asks the same stage many times
// (sufficiency once a depth, the expansion policy once a frontier node); asking again a
// model that just failed costs as much and most likely fails the same way, so an agent
// takes its fallback decision at once for the rest of the recall. It is safe for
// concurrent use; a nil scope (outside a recall) remembers nothing.
type RecallScope struct {
	mu     sync.Mutex
	failed map[string]bool
}

type recallScopeKey struct{}

// WithRecallScope returns ctx carrying a new scope: the retriever opens one per recall.
func WithRecallScope(ctx context.Context) context.Context {
	return context.WithValue(ctx, recallScopeKey{}, &RecallScope{failed: map[string]bool{}})
}

// RecallScopeOf is the scope ctx carries, nil outside a recall.
func RecallScopeOf(ctx context.Context) *RecallScope {
	s, _ := ctx.Value(recallScopeKey{}).(*RecallScope)
	return s
}

// Fail records that stage failed in this recall.
func (s *RecallScope) Fail(stage string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failed[stage] = true
}

// Failed reports whether stage failed earlier in this recall.
func (s *RecallScope) Failed(stage string) bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failed[stage]
}
