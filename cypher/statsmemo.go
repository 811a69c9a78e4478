package cypher

import (
	"context"
	_ "embed"
	"sync"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm"
)

// A space's statistics (Stats, EditStats) count every one of its memories, memory edges
// and edits: 640,000 database hits at 100,000 edges, read again at every call. What they
// count only changes with a write that moves the space's graph_version, so the counts are
// kept with the version they were read at, and a call that finds the same version reads
// the version alone. The version is read first, in the counts' transaction: counts read
// after a later write are kept under the earlier version, which no longer holds, so they
// are never served for a version they do not count. A space without a version (no Space
// node) is counted at every call. The observations by status are counted at every call:
// a message's status moves no version.

//go:embed queries/space_graph_version.cypher
var spaceGraphVersionCypher string

var qSpaceGraphVersion = newQuery("space_graph_version", spaceGraphVersionCypher)

// statsMemoMax bounds the spaces whose counts are kept; one more replaces any of them.
const statsMemoMax = 4096

// statsMemo keeps, per space, counts of type T read at a graph_version.
type statsMemo[T any] struct {
	mu      sync.Mutex
	bySpace map[string]versioned[T]
}

type versioned[T any] struct {
	version string
	counts  T
}

// get returns the counts kept for the space at version.
func (m *statsMemo[T]) get(space, version string) (T, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.bySpace[space]
	if !ok || version == "" || v.version != version {
		var zero T
		return zero, false
	}
	return v.counts, true
}

// put keeps the counts of the space read at version (none without a version).
func (m *statsMemo[T]) put(space, version string, counts T) {
	if version == "" {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.bySpace == nil {
		m.bySpace = map[string]versioned[T]{}
	}
	if _, ok := m.bySpace[space]; !ok && len(m.bySpace) >= statsMemoMax {
		for other := range m.bySpace {
			delete(m.bySpace, other)
			break
		}
	}
	m.bySpace[space] = versioned[T]{version, counts}
}

// graphCounts are the counts of Stats that read every memory and memory edge of a space.
type graphCounts struct {
	memories, edges int64
	byType          map[realm.NodeType]int64
	byPredicate     map[realm.Predicate]int64
	weightHistogram [10]int64
}

// spaceGraphVersion reads the space's graph_version inside tx (” without one).
func spaceGraphVersion(ctx context.Context, tx neo4j.ManagedTransaction, space string) (string, error) {
	recs, err := collect(ctx, tx, qSpaceGraphVersion, map[string]any{"space": space})
	if err != nil || len(recs) == 0 {
		return "", err
	}
	return str(recs[0], "graph_version"), nil
}

// keptEditStats is editStats, read only when the space's version has moved since the
// counts kept (statsMemo).
func (s *Store) keptEditStats(ctx context.Context, tx neo4j.ManagedTransaction, space, version string) (realm.EditStats, error) {
	if st, ok := s.keptEdits.get(space, version); ok {
		return st, nil
	}
	st, err := editStats(ctx, tx, space)
	if err == nil {
		s.keptEdits.put(space, version, st)
	}
	return st, err
}
