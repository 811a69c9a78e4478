package cypher

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm"
)

// The write path of a run of observations of one space (construction's batches): one
// read of what their extractors see, one read of the neighbourhoods of all their
// candidates, and one write transaction for all their integrations, instead of these
// three per observation.

// ObservationWindow returns in one query the Window of the observations of seq first up
// to (not including) last, what their extractors see: the space's running summary (""
// for a new space), its observations from the n before first up to last, oldest first,
// and its forget count. Errors: EUnavailable.
func (s *Store) ObservationWindow(ctx context.Context, space string, first, last int64, n int) (Window, error) {
	recs, err := s.read(ctx, qObservationWindow, map[string]any{"space": space, "first": first, "last": last, "n": n})
	return windowOf(recs, first, last, err)
}

// observationWindow is ObservationWindow inside tx.
func observationWindow(ctx context.Context, tx neo4j.ManagedTransaction, space string, first, last int64, n int) (Window, error) {
	recs, err := collect(ctx, tx, qObservationWindow, map[string]any{"space": space, "first": first, "last": last, "n": n})
	return windowOf(recs, first, last, err)
}

// windowOf reads observation_window's record.
func windowOf(recs []*neo4j.Record, first, last int64, err error) (Window, error) {
	if err != nil || len(recs) == 0 {
		return Window{}, err
	}
	return Window{Read: true, First: first, Last: last, Summary: str(recs[0], "summary"),
		Observations: observationList(recs[0], "observations"), Forgotten: num(recs[0], "forgotten")}, nil
}

// RunQuery asks for the stored neighbourhoods of every candidate of a run of
// observations (REALM.md §2 step 3): similar memories by vector and by keywords, and the
// memories derived from the observations that are recent to one of the run.
type RunQuery struct {
	Space      string
	Embeddings [][]float32 // one per candidate of the run
	Texts      []string    // one per candidate: matched against the full-text index
	K          int         // similar memories per candidate, from the vector and from the keyword search each
	RecentFrom []string    // observation ids: the memories derived from them are read
	Slots      []string    // one per candidate, or none: the slot it states a value of (slotHolders)
	// EpisodesBefore are times whose previous episode, and EpisodesNamed names whose
	// episode (Store.Episodes), are read with the neighbourhoods, in the same transaction.
	EpisodesBefore []time.Time
	EpisodesNamed  []string
}

// RunNeighbours is what RunNeighbourhoods read.
type RunNeighbours struct {
	Vector [][]realm.Node // per candidate, the K most similar memories, best first
	// Text is per candidate the K best keyword matches and the keywordSlack next ones,
	// best first; Keywords the postings they were ranked from (RankKeywords), so that a
	// run can rank the memories it writes among them.
	Text     [][]realm.Node
	Keywords KeywordStats
	Recent   []DerivedMemory
	Holders  [][]realm.Node // per candidate, the current holders of its slot (slotHolders)
	State    SpaceState     // the space's memories when they were read
	Episodes Episodes       // for RunQuery.EpisodesBefore and EpisodesNamed
}

// SpaceState is a fingerprint of a space's memories (memory_run_context.cypher): how
// many there are, and the space's memories_version, a new random id at every write of
// the write path (integration_write.cypher) and every deletion of a memory, so that
// a space erased and written again never has an earlier version. Adding, deleting,
// merging into or ending the validity of a memory changes it. Version is "" for a space
// the write path never wrote to (made by an import or a fixture).
type SpaceState struct {
	N       int64
	Version string
}

// spaceStateOf reads a fingerprint from r's n and version.
func spaceStateOf(r *neo4j.Record) SpaceState {
	return SpaceState{N: num(r, "n"), Version: str(r, "version")}
}

// DerivedMemory is a memory derived from some of the observations asked for. Node.Sources
// of a memory that derives from more than InlineSources observations is left out (nil):
// the write path's decisions look at the sources of memories derived from one or two
// observations (the offline agent's question node), and nothing it writes takes a stored
// memory's sources.
type DerivedMemory struct {
	Node realm.Node
	From []string // those of the observation ids asked for that it derives from
}

// RunNeighbourhoods reads, in one read transaction, the neighbourhoods of every
// candidate of a run. Errors: EUnavailable.
func (s *Store) RunNeighbourhoods(ctx context.Context, q RunQuery) (RunNeighbours, error) {
	var out RunNeighbours
	_, err := s.readTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		var err error
		if out, err = s.runNeighbourhoods(ctx, tx, q); err != nil {
			return nil, err
		}
		out.Episodes, err = episodes(ctx, tx, q.Space, q.EpisodesBefore, q.EpisodesNamed)
		return nil, err
	})
	return out, err
}

// RunContext reads, in one read transaction, what the neighbourhoods of a run's
// candidates take besides their vectors (q.Embeddings is not read): the space's state,
// the keyword postings of q.Texts, the memories recent to q.RecentFrom and the episodes
// asked for; RunSimilar completes it once they are embedded. Split so, the read goes on
// while the candidates are embedded, and no transaction waits for the embedder.
// Errors: EUnavailable.
func (s *Store) RunContext(ctx context.Context, q RunQuery) (RunNeighbours, error) {
	var out RunNeighbours
	_, err := s.readTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		out = RunNeighbours{}
		var err error
		if out.State, out.Recent, out.Keywords, err = s.keywordContext(ctx, tx, q.Space, q.Texts, q.RecentFrom); err != nil {
			return nil, err
		}
		if out.Holders, err = slotHolders(ctx, tx, q.Space, q.Slots, q.K); err != nil {
			return nil, err
		}
		out.Episodes, err = episodes(ctx, tx, q.Space, q.EpisodesBefore, q.EpisodesNamed)
		return nil, err
	})
	return out, err
}

// RunSimilar completes read, a RunContext of q, with each candidate's similar memories by
// vector and by keywords, in a second read transaction. A write between the two shows in
// ApplyRun as a state other than read.State: it reads the neighbourhoods again under the
// lock. Errors: EUnavailable.
func (s *Store) RunSimilar(ctx context.Context, q RunQuery, read RunNeighbours) (RunNeighbours, error) {
	out := read
	ahead := s.nearestAhead(ctx, q.Space, q.Embeddings, q.K, read.State)
	_, err := s.readTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		return nil, s.similarNeighbours(ctx, tx, q, &out, ahead)
	})
	return out, err
}

func (s *Store) runNeighbourhoods(ctx context.Context, tx neo4j.ManagedTransaction, q RunQuery) (RunNeighbours, error) {
	var out RunNeighbours
	var err error
	if out.State, out.Recent, out.Keywords, err = s.keywordContext(ctx, tx, q.Space, q.Texts, q.RecentFrom); err != nil {
		return out, err
	}
	if out.Holders, err = slotHolders(ctx, tx, q.Space, q.Slots, q.K); err != nil {
		return out, err
	}
	return out, s.similarNeighbours(ctx, tx, q, &out, nil)
}

// similarNeighbours reads into out, whose state and keyword postings keywordContext
// read, each candidate's similar memories by vector (with ahead: nearestAhead) and by
// keywords.
func (s *Store) similarNeighbours(ctx context.Context, tx neo4j.ManagedTransaction, q RunQuery, out *RunNeighbours, ahead [][]realm.Node) error {
	out.Vector, out.Text = make([][]realm.Node, len(q.Embeddings)), make([][]realm.Node, len(q.Texts))
	if len(q.Embeddings) == 0 || out.State.N == 0 {
		return nil
	}
	var err error
	out.Vector, out.Text, err = s.similarAndKeywordNodes(ctx, tx, q.Space, q.Embeddings, q.Texts, q.K, out.State, out.Keywords, ahead)
	return err
}

// RunApplied is what ApplyRun did.
type RunApplied struct {
	// Applied is false when nothing was written: an observation of the run was no longer
	// pending under the space lock (NotPending), the space forgot a message since the
	// run's extractions read their context (Forgot: Integration.Forgotten), or Changed.
	Applied    bool
	NotPending bool
	Forgot     bool
	Edges      [][]realm.Edge // per integration, the edges written (both directions of a symmetric one)
	// Changed is true when the neighbourhoods read under the lock differ from those the
	// run was decided on; Neighbours are the ones read, to decide again on.
	Changed    bool
	Neighbours RunNeighbours
}

// ApplyRun writes the integrations of a run of observations of one space, decided on
// the neighbourhoods decided (read by RunNeighbourhoods with the same q), in ONE write
// transaction, as ApplyIntegration does for one: it locks the space, checks that every
// observation of the run is still pending (else writes nothing: NotPending), that the
// space forgot no message since their extractions (else nothing: Forgot), and
// checks that the neighbourhoods are still the ones decided on — at once when no memory
// of the space changed since they were read (SpaceState), else by reading them again
// under the lock — then writes every integration in order; when they changed it writes
// nothing and returns them. Errors: ENotFound (space or observation), EInvalid, EUnavailable.
func (s *Store) ApplyRun(ctx context.Context, q RunQuery, decided RunNeighbours, ins []ObservationIntegration) (RunApplied, error) {
	defer s.graphs.writing(q.Space)()
	var out RunApplied
	var written func(context.Context) // records the writes in the embeddings cache and the graph snapshot once committed (the transaction's context has ended)
	ids := make([]string, len(ins))
	for i, in := range ins {
		ids[i] = in.ObservationID
	}
	_, err := s.writeTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		out, written = RunApplied{}, nil
		now := time.Now().UTC()
		recs, err := collect(ctx, tx, qSpaceLockRun, map[string]any{
			"space": q.Space, "ids": ids, "now": now, "known": decided.State.Version, "known_n": decided.State.N,
		})
		if err != nil {
			return nil, err
		}
		if len(recs) == 0 {
			return nil, realm.Errorf(realm.ENotFound, "space %q not found", q.Space)
		}
		v, _ := recs[0].Get("statuses")
		for _, status := range asList(v) {
			if status != realm.ObservationPending {
				out.NotPending = true
				return nil, nil
			}
		}
		for _, in := range ins {
			if num(recs[0], "forgotten") != in.Forgotten {
				out.Forgot = true
				return nil, nil
			}
		}
		state := spaceStateOf(recs[0])
		if state != decided.State {
			hoods, err := s.runNeighbourhoods(ctx, tx, q)
			if err != nil {
				return nil, err
			}
			if !SameRunNeighbours(decided, hoods) {
				out = RunApplied{Changed: true, Neighbours: hoods}
				return nil, nil
			}
		}
		edges, after, move, err := writeIntegrations(ctx, tx, q.Space, ins, now, state)
		if err != nil {
			return nil, err
		}
		out = RunApplied{Applied: true, Edges: edges}
		written = func(ctx context.Context) {
			s.vectors.written(q.Space, state, after, ins)
			s.texts.written(q.Space, state, after, ins, decided.nodes())
			s.followWrite(ctx, q.Space, move)
		}
		return nil, nil
	})
	if err == nil && written != nil {
		written(ctx)
	}
	return out, err
}

// nodes is every memory read, by id.
func (r RunNeighbours) nodes() map[string]realm.Node {
	out := map[string]realm.Node{}
	for _, list := range slices.Concat(r.Vector, r.Text, r.Holders) {
		for _, n := range list {
			out[n.ID] = n
		}
	}
	for _, d := range r.Recent {
		out[d.Node.ID] = d.Node
	}
	for _, n := range slices.Concat(r.Episodes.Before, r.Episodes.Named) {
		if n != nil {
			out[n.ID] = *n
		}
	}
	return out
}

// SameRunNeighbours reports whether a and b hold the same memories in the same state
// (last update) in each list, in any order.
func SameRunNeighbours(a, b RunNeighbours) bool {
	same := func(x, y []realm.Node) bool {
		if len(x) != len(y) {
			return false
		}
		seen := make(map[string]time.Time, len(x))
		for _, n := range x {
			seen[n.ID] = n.UpdatedAt
		}
		for _, n := range y {
			if at, ok := seen[n.ID]; !ok || !at.Equal(n.UpdatedAt) {
				return false
			}
		}
		return true
	}
	lists := func(x, y [][]realm.Node) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !same(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	recent := func(r []DerivedMemory) []realm.Node {
		out := make([]realm.Node, len(r))
		for i, d := range r {
			out[i] = d.Node
		}
		return out
	}
	return lists(a.Vector, b.Vector) && lists(a.Text, b.Text) && lists(a.Holders, b.Holders) && same(recent(a.Recent), recent(b.Recent)) &&
		sameKeywords(a.Keywords, b.Keywords)
}

// sameKeywords reports whether a and b hold the same postings, in any order, and the
// same common words.
func sameKeywords(a, b KeywordStats) bool {
	if a.N != b.N || len(a.Words) != len(b.Words) || !maps.Equal(a.Common, b.Common) {
		return false
	}
	for w, ps := range a.Words {
		qs, ok := b.Words[w]
		if !ok || len(ps) != len(qs) {
			return false
		}
		seen := make(map[KeywordPosting]bool, len(ps))
		for _, p := range ps {
			seen[p] = true
		}
		for _, q := range qs {
			if !seen[q] {
				return false
			}
		}
	}
	return true
}
