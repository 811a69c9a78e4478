package construction

import (
	"context"

	"github.com/realm-memory/realm/cypher"
)

// Forgotten is what Forget did.
type Forgotten struct {
	Observation     string   `json:"observation"`
	MemoriesDeleted int      `json:"memories_deleted"`
	MemoryIDs       []string `json:"memory_ids"` // the memories deleted with it, in no particular order
	// Reintegrated is, per message that stays and was a source of a memory deleted with
	// it, in the order they were said, its integration anew: what it added and merged into
	// says again what it said.
	Reintegrated []Result `json:"reintegrated"`
}

// Forget forgets one message of space (cypher.Store.DeleteObservation says what goes),
// then integrates again, in order, each message that stays and was a source of a memory
// deleted with it (a merge of what both said, an exchange): what that message said went
// with the memory, and its extraction anew, from its own content and the space as it is
// now, brings it back without the forgotten message's words. The deletion marks them
// pending in its own transaction, leased to this process, so that one this call does
// not integrate (a crash, a failed attempt, a cancelled context: reported pending) is
// resumed as any pending observation (ResumePending).
// Errors: ENotFound (space or message), EUnavailable.
func (p *Pipeline) Forget(ctx context.Context, space, id string) (Forgotten, error) {
	c := heldObservations.claim(p.opts.Owner) // before the store leases them (held.go)
	defer c.end()
	deleted, err := p.store.DeleteObservation(ctx, space, id, p.lease())
	if err != nil {
		return Forgotten{}, err
	}
	out := Forgotten{Observation: id, MemoriesDeleted: deleted.MemoriesDeleted, MemoryIDs: deleted.MemoryIDs, Reintegrated: []Result{}}
	saved := make([]cypher.SavedObservation, len(deleted.Reintegrate))
	for i, o := range deleted.Reintegrate {
		saved[i] = cypher.SavedObservation{Observation: o, Claimed: true}
		out.Reintegrated = append(out.Reintegrated, Result{ObservationID: o.ID, Seq: o.Seq, Status: StatusPending})
	}
	results, err := p.integrateSaved(ctx, c, saved, cypher.Window{}, true)
	if err != nil {
		return out, nil // forgotten all the same: the others stay pending, for the resumption
	}
	for i := range results {
		results[i].Superseded = superseded(results[i].Edges)
	}
	out.Reintegrated = results
	return out, nil
}
