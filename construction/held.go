package construction

import (
	"sync"

	"github.com/realm-memory/realm/cypher"
)

// The lease of an observation says which process integrates it, not which of that
// process's workers: a synchronous ingest, an asynchronous job and ResumePending all
// lease to the same owner. So that one process never integrates an observation twice at
// once (twice the LLM's extraction, the second write then finding it done), its workers
// also hold the observations they are about to integrate in heldObservations, from the
// moment they got their lease until they are done with them:
//
//   - Ingest and a job hold every claimed observation of their batch at once, right after
//     storing it, then integrate those in order; one that another worker holds is not
//     integrated again: a job waits for that worker's result at the end (holding nothing
//     by then, so two waiting workers cannot wait for each other), Ingest reports it
//     pending, as it would one leased to another process;
//   - ResumePending claims only observations no worker of this process holds (the claim
//     statement is given them to leave out) and holds each one as it comes to it, skipping
//     one that a job or Ingest took meanwhile.
//
// The set is one per process, keyed by lease owner, because the default owner is one
// per process (owner.go): pipelines of one process that share an owner share the set.

// heldKey names an observation held by the workers of one lease owner.
type heldKey struct{ owner, space, id string }

// holding is one held observation: done closes when its holder lets go of it, after
// setting res, what it made of the observation.
type holding struct {
	done chan struct{}
	res  Result
}

type holdSet struct {
	mu sync.Mutex
	m  map[heldKey]*holding
}

var heldObservations = &holdSet{m: map[heldKey]*holding{}}

// hold takes the observation for the caller unless another worker holds it; then it
// returns that worker's holding, to wait on, and false.
func (h *holdSet) hold(owner, space, id string) (*holding, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	k := heldKey{owner, space, id}
	if other, ok := h.m[k]; ok {
		return other, false
	}
	h.m[k] = &holding{done: make(chan struct{})}
	return nil, true
}

// release lets go of an observation the caller holds, telling waiters res.
func (h *holdSet) release(owner, space, id string, res Result) {
	h.mu.Lock()
	defer h.mu.Unlock()
	k := heldKey{owner, space, id}
	if held, ok := h.m[k]; ok {
		held.res = res
		close(held.done)
		delete(h.m, k)
	}
}

// refs lists the observations the workers of owner hold.
func (h *holdSet) refs(owner string) []cypher.ObservationRef {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []cypher.ObservationRef
	for k := range h.m {
		if k.owner == owner {
			out = append(out, cypher.ObservationRef{Space: k.space, ID: k.id})
		}
	}
	return out
}
