package cypher

import (
	"context"
	"slices"
	"strings"
	"time"
)

// DeleteSpace erases a space and everything in it, and nothing of any other space.
// It deletes in batches, then the space's node under its write lock once nothing of the
// space is left, and returns how many nodes went. Its first batch marks the space as
// being erased and takes it from an import holding it, whose next write then fails
// (EConflict) and writes nothing: the batches after erase all it wrote. What a save, an
// integration or a job writes into the space while it is erased is erased too: the last
// statement finds it and the batches run again; one that waits for the lock after finds
// the space gone and writes into it nothing (a save creates the space anew).
// Errors: EUnavailable.
func (s *Store) DeleteSpace(ctx context.Context, space string) (int64, error) {
	s.vectors.drop(space)
	s.graphs.drop(space)
	s.texts.drop(space)
	var total int64
	for {
		for {
			recs, err := s.write(ctx, qSpaceDeleteBatch, map[string]any{"space": space, "batch": spaceDeleteBatch, "import": ""})
			if err != nil {
				return total, err
			}
			n := num(recs[0], "deleted")
			total += n
			if n == 0 {
				break
			}
		}
		if s.erasing != nil {
			s.erasing(space)
		}
		recs, err := s.write(ctx, qSpaceDeleteNode, map[string]any{"space": space, "now": time.Now().UTC()})
		if err != nil {
			return total, err
		}
		total += num(recs[0], "deleted")
		if !boolean(recs[0], "left") {
			return total, nil
		}
	}
}

// SpaceExists reports whether a space exists: from its first observation (or import)
// until it is erased (an export finds it). Errors: EUnavailable.
func (s *Store) SpaceExists(ctx context.Context, space string) (bool, error) {
	recs, err := s.read(ctx, qSpaceExists, map[string]any{"space": space})
	if err != nil || len(recs) == 0 {
		return false, err
	}
	return boolean(recs[0], "exists"), nil
}

// SpaceInfo is a space as GET /v1/spaces lists it.
type SpaceInfo struct {
	ID        string    `json:"id"`
	CreatedAt time.Time `json:"created_at,omitzero"` // none while its import runs
	Embedder  string    `json:"embedder,omitempty"`  // the embedder of its memories
}

// spaceDeleteBatch is how many nodes one statement of DeleteSpace deletes.
const spaceDeleteBatch = 5000

// spaceListBatch is how many spaces ListSpaces reads a statement.
const spaceListBatch = 500

// ListSpaces returns, in id order after the id after, up to limit spaces that keep
// accepts, and whether more follow. Only spaces whose id starts with one of prefixes are
// read ("" reads every space, none none): the literal beginnings of a key's patterns, so
// that a key of a few spaces does not read every tenant's, one index range a prefix. A
// space exists from its first observation (or import) until it is erased.
// Errors: EUnavailable.
func (s *Store) ListSpaces(ctx context.Context, prefixes []string, keep func(id string) bool, after string, limit int) ([]SpaceInfo, bool, error) {
	out := []SpaceInfo{}
	for _, p := range disjointPrefixes(prefixes) {
		for {
			// A space id is of [A-Za-z0-9_-], all below "~": p's ids end before p+"~".
			recs, err := s.read(ctx, qSpaceList, map[string]any{"prefix": p, "until": p + "~", "after": after, "limit": spaceListBatch})
			if err != nil {
				return nil, false, err
			}
			for _, r := range recs {
				id := str(r, "id")
				after = id
				if !keep(id) {
					continue
				}
				if len(out) == limit {
					return out, true, nil
				}
				out = append(out, SpaceInfo{ID: id, CreatedAt: timeOf(valueOf(r, "created_at")), Embedder: str(r, "embedder")})
			}
			if len(recs) < spaceListBatch {
				break
			}
		}
	}
	return out, false, nil
}

// disjointPrefixes is prefixes sorted, without those another of them begins: the ids they
// cover then come prefix after prefix in id order.
func disjointPrefixes(prefixes []string) []string {
	var out []string
	for _, p := range slices.Sorted(slices.Values(prefixes)) {
		if len(out) > 0 && strings.HasPrefix(p, out[len(out)-1]) {
			continue
		}
		out = append(out, p)
	}
	return out
}
