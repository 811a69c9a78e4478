package cypher

import (
	"context"
	_ "embed"
	"strconv"

	"github.com/google/uuid"

	"github.com/realm-memory/realm"
)

var (
	//go:embed queries/memory_ids_elsewhere.cypher
	memoryIDsElsewhereCypher string
	qMemoryIDsElsewhere      = newQuery("memory_ids_elsewhere", memoryIDsElsewhereCypher)
)

// derivedNamespace is the UUIDv5 namespace of the ids DerivedID makes.
var derivedNamespace = uuid.MustParse("e88ae7cf-c368-4f84-8c26-b8a9ae6dd32c")

// DerivedID is the id of what key names in space: a UUID whose first half is a hash of
// key alone and whose second half a hash of space and key. Random ids made the read path
// differ between two ingestions of the same observations, since ties in scores and
// orders (in Go and in the statements) break by id; a derived id makes them the same.
// The space is in the id because ids are unique across spaces (constraint memory_id),
// but not in its first half, which alone orders two ids of different keys: the same
// observations ingested into two spaces give the same graph and the same recalls. Within
// a space two keys share an id only if both halves collide (a 122-bit hash); the same
// key in two spaces only if the second halves do (62 bits), and a memory's id then
// fails its creation rather than overwrite the other's.
func DerivedID(space, key string) string {
	id := uuid.NewSHA1(derivedNamespace, []byte(key))
	spaced := uuid.NewSHA1(derivedNamespace, []byte(space+"\x00"+key))
	copy(id[8:], spaced[8:]) // the variant bits, in byte 8, are the same in both
	return id.String()
}

// MemoryID is the id of the memory that the candidate at index i of observation's
// extraction adds to space: one observation is integrated once (ApplyIntegration and
// ApplyRun write nothing for one no longer pending), and a decision made again after a
// failure or a changed neighbourhood gives the same ids, since nothing of the one before
// was written.
// observation is the observation's key (ObservationKey).
func MemoryID(space, observation string, i int) string {
	return DerivedID(space, "memory\x00"+observation+"\x00"+strconv.Itoa(i))
}

// ErrMemoryIDHeld is the error of an integration one of whose new memories derives an id
// a memory holds already: one of another space, which an import that kept its file's ids
// wrote (FreeMemoryIDs then gives others), or of the space itself, say one that a
// deletion of the space stopped half way left. It is refused, never overwritten, and
// names no space: the integration cannot tell whose the memory is.
var ErrMemoryIDHeld = realm.Errorf(realm.EConflict, "an existing memory has the id of a memory this integration adds")

// FreeMemoryIDs returns ids (MemoryID's, for memories an ingestion of space adds) with
// each one that a memory of another space holds replaced by another, derived from it and
// the space, and derived again while that one too is held. Only an import that kept the
// ids of its file can have given another space such an id (the file's ids are derived by
// the same public formula): the ingestion then adds its memories under other ids rather
// than fail on each attempt, and never names, nor touches, that space. The same ids held
// give the same replacements, so a decision made again gives the same ids. A memory of
// space itself holding one is left to the write to refuse (ErrMemoryIDHeld).
func (s *Store) FreeMemoryIDs(ctx context.Context, space string, ids []string) ([]string, error) {
	out := append([]string(nil), ids...)
	pending := map[string][]int{} // an id to look up → where it stands in out
	for i, id := range out {
		pending[id] = append(pending[id], i)
	}
	for len(pending) > 0 {
		look := make([]string, 0, len(pending))
		for id := range pending {
			look = append(look, id)
		}
		recs, err := s.read(ctx, qMemoryIDsElsewhere, map[string]any{"space": space, "ids": look})
		if err != nil {
			return nil, err
		}
		held := map[string][]int{}
		for _, r := range recs {
			id, _ := valueOf(r, "id").(string)
			alt := DerivedID(space, "held\x00"+id)
			for _, i := range pending[id] {
				out[i] = alt
			}
			held[alt] = append(held[alt], pending[id]...)
		}
		pending = held
	}
	return out, nil
}

// ObservationKey is what the ids of what an observation adds derive from (MemoryID,
// edgeID): its id, and, for one stored after its space forgot messages, how many
// (realm.Observation.Generation), so that a message forgotten and sent again under its
// id, or integrated again after another's forgetting, does not derive the ids of what
// it added the first time, such as an episode it made that still holds the session's
// other messages (DeleteObservation).
func ObservationKey(id string, generation int64) string {
	if generation == 0 {
		return id
	}
	return id + "\x00" + strconv.FormatInt(generation, 10)
}

// edgeID is the id of the edge that row i of observation's edge rows creates (an
// existing edge keeps its own).
func edgeID(space, observation string, i int) string {
	return DerivedID(space, "edge\x00"+observation+"\x00"+strconv.Itoa(i))
}
