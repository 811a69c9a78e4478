package construction

import (
	"sync"

	"github.com/realm-memory/realm/cypher"
)

// The lease of an observation says which process integrates it, not which of that
// process's workers: a synchronous ingest, an asynchronous job and ResumePending all
// lease to the same owner. So that one worker of a process at a time attempts an
// observation (twice the LLM's extraction, the second write then finding it done,
// otherwise), its workers also hold the observations they are about to integrate in
// heldObservations, from the moment they got their lease until they are done with them:
//
//   - Ingest and a job hold every observation of their batch at once, from before storing
//     it (holdAhead: stored, it is leased to this owner, which ResumePending may claim),
//     let go of those the store did not lease to them, and integrate the others in
//     order; one that another worker holds is not integrated again: a job waits for that worker's result at the end (holding nothing
//     by then, so two waiting workers cannot wait for each other) and integrates it in
//     turn if that worker left it pending; Ingest reports it pending, as it would one
//     leased to another process;
//   - ResumePending claims only observations no worker of this process holds (the claim
//     statement is given them to leave out) and holds each one as it comes to it, skipping
//     one that a job or Ingest holds.
//
// A lease taken in the store is not yet a hold: between a worker's claim (storing its
// batch, or ClaimPending) and its hold, another worker may hold the observation,
// integrate it and let go of it, and the claimer would then integrate it again. So a
// worker follows its claim from before it is made (holdSet.claim) until it is done with
// what it claimed: what another worker lets go of meanwhile is recorded on the claim, and
// claim.hold refuses an observation let go of integrated or failed since then, as it
// refuses one held (ResumePending skips it, Ingest and a job take that result). One let
// go of pending is free to take: the store has it pending, its attempt recorded.
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

// settled reports whether the holder let go of the observation with a result other than
// pending: integrated (by it or before), or failed for good.
func (h *holding) settled() bool {
	select {
	case <-h.done:
		return h.res.Status != StatusPending
	default:
		return false
	}
}

type holdSet struct {
	mu     sync.Mutex
	m      map[heldKey]*holding
	claims map[*claim]struct{} // the claims being followed
}

var heldObservations = &holdSet{m: map[heldKey]*holding{}, claims: map[*claim]struct{}{}}

// claim is what one worker claimed in the store: from claim (before the store's claim)
// to end, it records, per observation, the last holding let go of by a worker of its
// owner, so that the worker does not integrate again what another one did meanwhile.
type claim struct {
	set   *holdSet
	owner string
	want  map[heldKey]bool     // what was claimed, once known (only); nil: every observation
	left  map[heldKey]*holding // the last holding let go of since the claim began
	// ahead is what holdAhead took before a batch was stored: nil for an observation the
	// claim holds, another worker's holding for one it could not; the claimer takes them
	// over (take), and end lets go of the ones it did not.
	ahead map[heldKey]*holding
}

// claim begins following a claim of owner's; call it before claiming in the store, and
// end the claim when done with what it claimed.
func (h *holdSet) claim(owner string) *claim {
	h.mu.Lock()
	defer h.mu.Unlock()
	c := &claim{set: h, owner: owner, left: map[heldKey]*holding{}}
	h.claims[c] = struct{}{}
	return c
}

// only narrows the claim to the observations claimed in the store.
func (c *claim) only(refs []cypher.ObservationRef) {
	c.set.mu.Lock()
	defer c.set.mu.Unlock()
	c.want = make(map[heldKey]bool, len(refs))
	for _, r := range refs {
		c.want[heldKey{c.owner, r.Space, r.ID}] = true
	}
	for k := range c.left {
		if !c.want[k] {
			delete(c.left, k)
		}
	}
}

// onlyClaimed narrows the claim to the observations of a stored batch leased to it.
func (c *claim) onlyClaimed(saved []cypher.SavedObservation) {
	var refs []cypher.ObservationRef
	for _, s := range saved {
		if s.Claimed {
			refs = append(refs, cypher.ObservationRef{Space: s.Observation.Space, ID: s.Observation.ID})
		}
	}
	c.only(refs)
}

// holdAhead holds the observations of a batch of space before it is stored: once
// stored they are leased to this owner, and ResumePending, which may claim what this
// owner leased, must find them held, or it would integrate one of them while the batch's
// run integrates the ones after it (out of their order: a later observation's extraction
// would miss what the earlier one said).
func (c *claim) holdAhead(space string, ids []string) {
	c.ahead = map[heldKey]*holding{}
	for _, id := range ids {
		k := heldKey{c.owner, space, id}
		if _, done := c.ahead[k]; !done {
			c.ahead[k], _ = c.hold(space, id)
		}
	}
}

// take returns what holdAhead made of an observation: ok when the claim holds it, from
// now on the caller's to let go of; else the holding of the worker that does.
func (c *claim) take(space, id string) (*holding, bool) {
	k := heldKey{c.owner, space, id}
	h, ahead := c.ahead[k]
	if !ahead {
		return c.hold(space, id)
	}
	delete(c.ahead, k)
	return h, h == nil
}

// letGo lets go, left pending, of an observation holdAhead held that the caller does not
// integrate (the store did not lease it to this worker).
func (c *claim) letGo(space, id string) {
	k := heldKey{c.owner, space, id}
	if h, ahead := c.ahead[k]; ahead {
		delete(c.ahead, k)
		if h == nil {
			c.set.release(c.owner, space, id, Result{ObservationID: id, Status: StatusPending})
		}
	}
}

// end stops following the claim and lets go, left pending, of what holdAhead held and
// the caller did not take.
func (c *claim) end() {
	for k := range c.ahead {
		c.letGo(k.space, k.id)
	}
	c.ahead = nil
	c.set.mu.Lock()
	defer c.set.mu.Unlock()
	delete(c.set.claims, c)
	c.left = nil
}

// hold takes the observation for the caller unless another worker holds it, or let go
// of it integrated or failed since the claim began; then it returns that worker's
// holding, to wait on or read, and false.
func (c *claim) hold(space, id string) (*holding, bool) {
	h := c.set
	h.mu.Lock()
	defer h.mu.Unlock()
	k := heldKey{c.owner, space, id}
	if other, ok := h.m[k]; ok {
		return other, false
	}
	if left, ok := c.left[k]; ok && left.settled() {
		return left, false
	}
	h.m[k] = &holding{done: make(chan struct{})}
	return nil, true
}

// release lets go of an observation the caller holds, telling waiters res, and records
// it on the claims following it. A claim keeps a settled holding over a later one: once
// integrated or failed, the observation is not to be attempted again.
func (h *holdSet) release(owner, space, id string, res Result) {
	h.mu.Lock()
	defer h.mu.Unlock()
	k := heldKey{owner, space, id}
	held, ok := h.m[k]
	if !ok {
		return
	}
	held.res = res
	close(held.done)
	delete(h.m, k)
	for c := range h.claims {
		if c.owner != owner || (c.want != nil && !c.want[k]) {
			continue
		}
		if prev, ok := c.left[k]; !ok || !prev.settled() {
			c.left[k] = held
		}
	}
}

// claimed reports whether a worker of owner follows a claim: an Ingest, a job or a
// resume pass between claiming its observations and being done with them.
func (h *holdSet) claimed(owner string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.claims {
		if c.owner == owner {
			return true
		}
	}
	return false
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
