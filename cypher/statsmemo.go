package cypher

import (
	"context"
	_ "embed"
	"sync"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm"
)

// A space's statistics (Stats, EditStats) count every one of its memories, memory edges
// and edits: 640,000 database hits at 100,000 edges, read again at every call. What they
// count only changes with a write that moves the space's graph_version, so the counts are
// kept with the version they were read at, and a call that finds the same version reads
// the version alone. A space without a version (no Space node) is counted at every call.
// The observations by status are counted at every call: a message's status moves no
// version.
//
// Counts are kept only under a version read under the space's write lock
// (settledGraphVersion), in a transaction before the one that counts: Neo4j makes a
// write's new version visible to a reader before the index entries of the memories it
// wrote, so counts read between the two, kept under that version, would miss them until
// the next write; the lock is free only once the write is applied whole. The version is
// read again in the counts' transaction, and counts read after a later write are not
// kept. A call that finds no counts kept at the space's version takes the lock then
// counts; one that finds them reads no more.

//go:embed queries/space_graph_version.cypher
var spaceGraphVersionCypher string

//go:embed queries/space_graph_version_settled.cypher
var spaceGraphVersionSettledCypher string

var (
	qSpaceGraphVersion        = newQuery("space_graph_version", spaceGraphVersionCypher)
	qSpaceGraphVersionSettled = newQuery("space_graph_version_settled", spaceGraphVersionSettledCypher)
)

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

// settledGraphVersion reads the space's graph_version under its write lock, so that
// every write up to that version is applied whole (statsMemo): counts read after it may
// be kept under it.
func (s *Store) settledGraphVersion(ctx context.Context, space string) (string, error) {
	recs, err := s.write(ctx, qSpaceGraphVersionSettled, map[string]any{"space": space, "now": time.Now().UTC()})
	if err != nil || len(recs) == 0 {
		return "", err
	}
	return str(recs[0], "graph_version"), nil
}

// kept returns the counts kept for the space at version; else, before a settled version
// was read (settled nil), unsettled and nothing counted when the space has a version: the
// caller reads it (readSettled) and comes back; else those count reads, kept when
// version is the settled one.
func (m *statsMemo[T]) kept(space, version string, settled *string, count func() (T, error)) (counts T, unsettled bool, err error) {
	if c, ok := m.get(space, version); ok {
		return c, false, nil
	}
	if version != "" && settled == nil {
		return counts, true, nil
	}
	if counts, err = count(); err == nil && settled != nil && version == *settled {
		m.put(space, version, counts)
	}
	return counts, false, err
}

// readSettled runs read (one transaction reading kept counts) and, when it reports
// counts to read at a version not settled, reads the settled version and runs it again
// with it (statsMemo).
func (s *Store) readSettled(ctx context.Context, space string, read func(settled *string) (unsettled bool, err error)) error {
	if unsettled, err := read(nil); err != nil || !unsettled {
		return err
	}
	settled, err := s.settledGraphVersion(ctx, space)
	if err != nil {
		return err
	}
	_, err = read(&settled)
	return err
}

// keptEditStats is editStats, read only when the space's version has moved since the
// counts kept (statsMemo.kept).
func (s *Store) keptEditStats(ctx context.Context, tx neo4j.ManagedTransaction, space, version string, settled *string) (realm.EditStats, bool, error) {
	return s.keptEdits.kept(space, version, settled, func() (realm.EditStats, error) { return editStats(ctx, tx, space) })
}
