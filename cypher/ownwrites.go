package cypher

import (
	"slices"
	"sync"

	"github.com/realm-memory/realm"
)

// A cache read in the background (a space's keyword index, its embeddings) takes longer
// at scale than the gap between two writes of a process ingesting without pause: every
// read overlaps a write, and a read kept only when none overlapped would never be kept.
// So while a space is read, its cache records this process's writes to it (ownWriteLog),
// and the read catches up with them (catchUp); a read overlapped by another process's
// write is dropped.

// ownWrites is what a space's reads record of this process's writes meanwhile.
type ownWrites struct {
	reads  int // running
	writes []ownWrite
}

// ownWrite is one write of the write path, as the caches' written have it.
type ownWrite struct {
	before, after SpaceState
	ins           []ObservationIntegration
	nodes         map[string]realm.Node
}

// maxOwnWrites bounds the writes recorded during one read: a read that would need more
// to catch up is dropped.
const maxOwnWrites = 512

// ownWriteLog holds, per space being read, this process's writes to it since the reads
// began. Its record is called with the cache's lock held.
type ownWriteLog map[string]*ownWrites

// begin records, under mu (the cache's lock), that a read of space starts: what the
// read will catch up with, and the function that records its end.
func (l *ownWriteLog) begin(mu *sync.Mutex, space string) (*ownWrites, func()) {
	mu.Lock()
	defer mu.Unlock()
	if *l == nil {
		*l = ownWriteLog{}
	}
	own := (*l)[space]
	if own == nil {
		own = &ownWrites{}
		(*l)[space] = own
	}
	own.reads++
	return own, func() {
		mu.Lock()
		defer mu.Unlock()
		if own.reads--; own.reads == 0 {
			delete(*l, space)
		}
	}
}

// record keeps w for the reads of space under way.
func (l ownWriteLog) record(space string, w ownWrite) {
	if own := l[space]; own != nil && len(own.writes) < maxOwnWrites {
		own.writes = append(own.writes, w)
	}
}

// catchUp is t, read from the store in state and found at version after once read, with
// writes applied (with, which sets the state a write left) in the order of their states
// from state's on. It is false when a write not in writes came between the two versions
// (t may hold part of it) or with fails. A write the read saw in part or whole is applied
// again: with must take a memory t already holds as the write left it.
func catchUp[T any](t T, state SpaceState, writes []ownWrite, after string, with func(T, ownWrite) (T, bool)) (T, bool) {
	seen := state.Version == after // every change t may hold part of is applied
	for {
		i := slices.IndexFunc(writes, func(w ownWrite) bool { return w.before.Version == state.Version })
		if i < 0 {
			break
		}
		u, ok := with(t, writes[i])
		if !ok {
			return t, false
		}
		t, state = u, writes[i].after
		seen = seen || state.Version == after
	}
	return t, seen
}
