package cypher

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm"
)

// Lease says who integrates a pending observation and until when (ARCHITECTURE.md
// Scale-out): another owner takes it only after Until. The zero Lease leases nothing.
type Lease struct {
	Owner string
	Until time.Time
}

// SavedObservation is one observation as stored, and what saving it did.
type SavedObservation struct {
	Observation realm.Observation
	New         bool   // stored by this call; false when (space, id) already existed
	Claimed     bool   // leased to the caller's owner: the caller should integrate it
	Error       string // the last integration error, if any
}

// SaveObservations stores a batch of observations of one space in one transaction,
// before anything that can fail (REALM.md §2 step 1). It is idempotent on (space, id): an
// existing observation is returned as stored, not overwritten; an id repeated within the
// batch is stored once (the repeat is reported as not new), and refused (EInvalid) when
// the repeat is another message. A new observation gets the
// next seq of its space, in batch order, and status pending; the space is created on
// first use with the embedder id and dimension. Pending observations are leased to
// lease.Owner when free. Observation ids must be set. A space held by an import (running
// or interrupted) refuses the batch whole. Errors: EInvalid, EConflict (an import, a
// stored message under the id of another), EUnavailable.
func (s *Store) SaveObservations(ctx context.Context, space, embedder string, dims int, obs []realm.Observation, lease Lease) ([]SavedObservation, error) {
	saved, _, err := s.SaveObservationsWindow(ctx, space, embedder, dims, obs, lease, 0)
	return saved, err
}

// saveUnavailable is the EUnavailable of a batch's save saying what became of the batch:
// nothing of it stored, or, Neo4j gone while a commit was on its way, perhaps all of it
// (one transaction): the client cannot tell which, and need not, as sending the same
// batch again stores nothing twice. Other errors are returned as they are.
func saveUnavailable(err error, committing bool) error {
	var e *realm.Error
	if !errors.As(err, &e) || e.Code != realm.EUnavailable {
		return err
	}
	if !committing {
		return &realm.Error{Code: realm.EUnavailable, Cause: e.Cause, Message: "neo4j is unavailable: nothing of the batch was stored; send it again later"}
	}
	return &realm.Error{Code: realm.EUnavailable, Cause: e.Cause, Message: "neo4j became unavailable while the batch was committed: the batch may be stored, whole, or not at all. " +
		"Sending the same batch again is safe: a message is stored once under its id (one sent without an id gets one from its session, speaker, time and content); " +
		"if it was stored, its messages are integrated once neo4j is back, without being sent again"}
}

// Window is what the extractors of the observations a save claimed see, read in the
// save's transaction (observation_window.cypher): the space's running summary and its
// observations from the n before seq First up to (not including) seq Last, as
// ObservationWindow(space, First, Last, n) returns them. First and Last are the
// smallest and largest seq claimed; Read is false when nothing was claimed.
type Window struct {
	Read         bool
	First, Last  int64
	Summary      string
	Observations []realm.Observation
	// Forgotten is how many messages the space had forgotten (DeleteObservation) when the
	// window was read: an integration extracted from it is written only if none was
	// forgotten since (Integration.Forgotten), as the summary and the messages read may
	// quote the one forgotten.
	Forgotten int64
}

// SaveObservationsWindow is SaveObservations that also reads, in the same transaction
// and after the batch is stored, the Window of n observations of what it claimed (none
// when n is 0): a request integrating what it saved needs no transaction of its own
// for it.
func (s *Store) SaveObservationsWindow(ctx context.Context, space, embedder string, dims int, obs []realm.Observation, lease Lease, n int) ([]SavedObservation, Window, error) {
	first := map[string]int{} // id → index of its first occurrence in the batch
	rows := make([]map[string]any, 0, len(obs))
	for i, o := range obs {
		if j, seen := first[o.ID]; seen {
			if f := differing(obs[j], o); f != "" { // the later one would be lost
				return nil, Window{}, realm.Errorf(realm.EInvalid, "messages[%d].id %q is also messages[%d].id, whose %s differs: give each message its own id (nothing was stored)", i, o.ID, j, f)
			}
			continue
		}
		first[o.ID] = i
		rows = append(rows, map[string]any{
			"i": int64(i), "id": o.ID, "session_id": o.SessionID, "speaker": o.Speaker, "role": o.Role,
			"content": o.Content, "observed_at": o.ObservedAt.UTC(), "utc_offset": int64(o.Offset), "sent_by": o.SentBy,
			"replaces": o.Replaces,
		})
	}
	out := make([]SavedObservation, len(obs))
	var win Window
	committing := false // an attempt wrote the whole batch and was committed: its outcome may be unknown
	_, err := s.writeTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		now := time.Now().UTC()
		win = Window{}
		// Lock an existing space as integrations do (MATCH, then SET) before any MERGE:
		// a MERGE waiting for the node lock holds the index entry's lock, and savers and
		// integrations deadlocked on the space under load. Only a new space is merged.
		params := map[string]any{"space": space, "now": now, "embedder": embedder, "dims": dims}
		locked, err := collect(ctx, tx, qSpaceLockSave, params)
		if err == nil && len(locked) == 0 {
			locked, err = collect(ctx, tx, qSpaceEnsureLock, params)
		}
		if err != nil {
			return nil, err
		}
		// Refused, not taken in: the import would not expect it and could erase it.
		if err := importRefusal(space, locked[0]); err != nil {
			return nil, err
		}
		recs, err := collect(ctx, tx, qObservationSave, map[string]any{
			"space": space, "observations": rows, "now": now, "owner": lease.Owner, "until": lease.Until.UTC(),
		})
		if err != nil {
			return nil, err
		}
		if len(recs) != len(rows) {
			return nil, fmt.Errorf("cypher observation_save: %d rows for %d observations", len(recs), len(rows))
		}
		for _, r := range recs {
			saved := SavedObservation{Observation: observationOf(r, "o"), New: boolean(r, "new"), Claimed: boolean(r, "claimed")}
			saved.Error = mapStr(r, "o", "error")
			i := num(r, "i")
			if f := differing(saved.Observation, obs[i]); !saved.New && f != "" {
				// Sent again, a message changes nothing; a new one under an old id would be
				// lost: the batch is refused, nothing of it stored (the transaction rolls back).
				return nil, realm.Errorf(realm.EConflict, "messages[%d].id %q is already a stored message whose %s differs: give each message its own id (nothing was stored)", i, obs[i].ID, f)
			}
			if err := replacedErr(r, saved, i); err != nil {
				return nil, err
			}
			out[i] = saved
			if saved.Claimed && n > 0 {
				seq := saved.Observation.Seq
				if !win.Read || seq < win.First {
					win.First = seq
				}
				win.Last = max(win.Last, seq)
				win.Read = true
			}
		}
		if win.Read {
			var read Window
			read, err = observationWindow(ctx, tx, space, win.First, win.Last, n)
			win.Summary, win.Observations, win.Forgotten = read.Summary, read.Observations, read.Forgotten
		}
		committing = err == nil
		return nil, err
	})
	if err != nil {
		return nil, Window{}, saveUnavailable(err, committing)
	}
	for i, o := range obs {
		if j := first[o.ID]; j != i {
			out[i] = out[j]
			out[i].New = false
		}
	}
	return out, win, nil
}

// replacedErr refuses a new message that replaces one (realm.Observation.Replaces) its
// space does not hold, or that comes after it (observation_save.cypher replaced_seq):
// what it says would replace nothing, or what was said later. Errors: ENotFound, EInvalid.
func replacedErr(r *neo4j.Record, saved SavedObservation, i int64) error {
	o := saved.Observation
	if !saved.New || o.Replaces == "" {
		return nil // sent again: checked when stored, the one it replaces may be forgotten since
	}
	v, _ := r.Get("replaced_seq")
	seq, ok := v.(int64)
	switch {
	case !ok:
		return realm.Errorf(realm.ENotFound, "messages[%d].replaces %q is no message of space %q: a message replaces one stored before it (nothing was stored)", i, o.Replaces, o.Space)
	case seq > o.Seq:
		return realm.Errorf(realm.EInvalid, "messages[%d].replaces %q is a message stored after it: a message replaces one sent before it (nothing was stored)", i, o.Replaces)
	}
	return nil
}

// differing names the first field in which o differs from stored ("content", "speaker",
// "session_id", "timestamp", "role", "replaces"), "" when o is the stored message sent again. A role
// sent with one and not the other is no other message: a message stored before roles were
// kept, sent again with its role, is the same; the role it was stored with, or without,
// stays.
func differing(stored, o realm.Observation) string {
	switch {
	case stored.Content != o.Content:
		return "content"
	case stored.Speaker != o.Speaker:
		return "speaker"
	case stored.SessionID != o.SessionID:
		return "session_id"
	case !stored.ObservedAt.Equal(o.ObservedAt):
		return "timestamp"
	case stored.Role != o.Role && stored.Role != "" && o.Role != "":
		return "role"
	case stored.Replaces != o.Replaces:
		return "replaces"
	}
	return ""
}

// Observation returns one observation of a space. Errors: ENotFound, EUnavailable.
func (s *Store) Observation(ctx context.Context, space, id string) (realm.Observation, error) {
	recs, err := s.read(ctx, qObservationGet, map[string]any{"space": space, "id": id})
	if err != nil {
		return realm.Observation{}, err
	}
	if len(recs) == 0 {
		return realm.Observation{}, observationNotFound(space, id)
	}
	return observationOf(recs[0], "o"), nil
}

// ObservationFilter narrows ListObservations. Zero fields do not filter.
type ObservationFilter struct {
	SessionID *string   // nil: every session; "": the messages sent without one
	Speaker   string    // "": every speaker; else the messages of this speaker, as stored
	Status    string    // realm.ObservationPending, ObservationIntegrated or ObservationFailed; another matches none
	Since     time.Time // said (observed_at) at or after
	Until     time.Time // said before
}

// noLaterThan bounds observed_at (created_at) from above when ListObservations
// (ListMemories) is given no Until: a message's time is in the years 0001 to 9999. A
// bound, not a null, so that the statement reads its index within both bounds.
var noLaterThan = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)

// ListObservations returns up to limit observations of a space in the order they were
// said, (observed_at, seq), after the opaque cursor ("" for the first page), and the
// cursor of the next page ("" at the end). Errors: EInvalid (bad cursor), EUnavailable.
func (s *Store) ListObservations(ctx context.Context, space string, f ObservationFilter, cursor string, limit int) ([]realm.Observation, string, error) {
	afterAt, afterSeq, err := decodeObservationCursor(cursor)
	if err != nil {
		return nil, "", err
	}
	params := map[string]any{
		"space": space, "session_id": nil, "speaker": nil, "status": nil, "from": f.Since.UTC(), "until": noLaterThan,
		"after_at": nil, "after_seq": afterSeq, "limit": limit + 1,
	}
	if f.SessionID != nil {
		params["session_id"] = *f.SessionID
	}
	if f.Speaker != "" {
		params["speaker"] = f.Speaker
	}
	if f.Status != "" {
		params["status"] = f.Status
	}
	if !f.Until.IsZero() {
		params["until"] = f.Until.UTC()
	}
	if !afterAt.IsZero() {
		params["after_at"] = afterAt
		if afterAt.After(f.Since) { // the index is read from the cursor on, not from since
			params["from"] = afterAt
		}
	}
	recs, err := s.read(ctx, qObservationList, params)
	if err != nil {
		return nil, "", err
	}
	out := make([]realm.Observation, 0, len(recs))
	for _, r := range recs {
		out = append(out, observationOf(r, "o"))
	}
	next := ""
	if len(out) > limit {
		out = out[:limit]
		last := out[len(out)-1]
		next = encodeCursor(last.ObservedAt, strconv.FormatInt(last.Seq, 10))
	}
	return out, next, nil
}

// decodeObservationCursor reads a cursor of ListObservations: the time and seq of the
// last observation of the page before; zero for "".
func decodeObservationCursor(c string) (time.Time, int64, error) {
	at, seq, err := decodeCursor(c)
	if err != nil || c == "" {
		return at, 0, err
	}
	n, err := strconv.ParseInt(seq, 10, 64)
	if err != nil {
		return time.Time{}, 0, realm.Errorf(realm.EInvalid, "cursor %q is not one this server gave out", c)
	}
	return at, n, nil
}

// ObservationMemory is a memory derived from an observation: its provenance holds it.
type ObservationMemory struct {
	ID   string         `json:"id"`
	Type realm.NodeType `json:"type"`
	// DeletedWithIt: forgetting the observation (DeleteObservation) deletes the memory;
	// else the memory stays, without the observation among its sources.
	DeletedWithIt bool `json:"deleted_with_it"`
	// adopted: the observations an entity or episode that stays derives from in its
	// place, nothing in its own provenance holding it up (observation_derived.cypher).
	adopted []string
	// What it says (name, aliases, content, keywords) and, for an entity whose names a
	// message that stays does not all say, those it says (said; nil: all of them).
	name, content     string
	aliases, keywords []string
	said              []string
}

// GetObservation returns one observation of a space and the memories derived from it,
// in id order, each saying whether DeleteObservation would delete it. Errors: ENotFound,
// EUnavailable.
func (s *Store) GetObservation(ctx context.Context, space, id string) (realm.Observation, []ObservationMemory, error) {
	// One observation holding a memory up tells that it stays.
	recs, err := s.read(ctx, qObservationDerived, map[string]any{"space": space, "id": id, "sources_max": 1})
	if err != nil {
		return realm.Observation{}, nil, err
	}
	if len(recs) == 0 {
		return realm.Observation{}, nil, s.observationMissing(ctx, space, id)
	}
	return observationOf(recs[0], "o"), derivedOf(recs[0]), nil
}

// ReplacedMemories are the events and facts of space that observation id alone holds up
// and that still hold (observation_replaced.cypher), by id, with their content: what a
// newer version of the message ends unless it says them again. None when the space does
// not hold the observation. Errors: EUnavailable.
func (s *Store) ReplacedMemories(ctx context.Context, space, id string) ([]realm.Node, error) {
	recs, err := s.read(ctx, qObservationReplaced, map[string]any{"space": space, "id": id})
	if err != nil {
		return nil, err
	}
	out := make([]realm.Node, len(recs))
	for i, r := range recs {
		out[i] = realm.Node{ID: str(r, "id"), Space: space, Content: str(r, "content")}
	}
	return out, nil
}

// derivedOf reads the derived column of observation_derived.cypher, in id order.
func derivedOf(r *neo4j.Record) []ObservationMemory {
	v, _ := r.Get("derived")
	out := make([]ObservationMemory, 0, len(asList(v)))
	for _, x := range asList(v) {
		m, _ := x.(map[string]any)
		goes, _ := m["goes"].(bool)
		out = append(out, ObservationMemory{ID: propString(m, "id"), Type: realm.NodeType(propString(m, "type")), DeletedWithIt: goes,
			adopted: stringList(m["adopted"]), name: propString(m, "name"), aliases: stringList(m["aliases"]),
			content: propString(m, "content"), keywords: stringList(m["keywords"]), said: stringList(m["said"])})
	}
	slices.SortFunc(out, func(a, b ObservationMemory) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// observationNotFound is the ENotFound of an observation missing from its space.
func observationNotFound(space, id string) error {
	return realm.Errorf(realm.ENotFound, "observation %q not found in space %q", id, space)
}

// observationMissing is the ENotFound of an observation not found, saying so when its
// whole space is gone: a client that sent it, and was told it was pending, learns that
// it will not be integrated. Errors: EUnavailable.
func (s *Store) observationMissing(ctx context.Context, space, id string) error {
	exists, err := s.SpaceExists(ctx, space)
	switch {
	case err != nil:
		return err
	case !exists:
		return realm.Errorf(realm.ENotFound, "observation %q not found: space %q does not exist (never written, or erased since, its messages with it)", id, space)
	}
	return observationNotFound(space, id)
}

// ObservationRef names one observation of one space.
type ObservationRef struct {
	Space, ID string
}

// ClaimPending leases up to limit pending observations of the space ("": of any space)
// to lease.Owner:
// those never leased, whose lease expired (a dead replica's work) or already the
// owner's, but for those in skip (what the caller's process is integrating already) and
// those of a space being imported (their import may not have written their context
// yet). They come ordered by space, then seq. One that another process claims at the
// same time is leased to one of them only (observation_claim_lease.cypher).
// Errors: EUnavailable.
func (s *Store) ClaimPending(ctx context.Context, space string, lease Lease, limit int, skip []ObservationRef) ([]realm.Observation, error) {
	held := make([]any, len(skip))
	for i, r := range skip {
		held[i] = []any{r.Space, r.ID}
	}
	now := time.Now().UTC()
	return s.lease(ctx, lease, now, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		return collect(ctx, tx, qObservationClaim, map[string]any{
			"space": space, "now": now, "owner": lease.Owner, "limit": limit, "skip": held,
		})
	})
}

// RenewLeases leases the listed observations to lease.Owner again, until lease.Until,
// as ClaimPending would: a worker whose claim is old renews the leases of what it has
// yet to integrate before they expire. It returns those it leased, ordered by space,
// then seq; not those integrated meanwhile, nor those another process took up once their
// lease had expired. Errors: EUnavailable.
func (s *Store) RenewLeases(ctx context.Context, lease Lease, refs []ObservationRef) ([]realm.Observation, error) {
	return s.lease(ctx, lease, time.Now().UTC(), func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		return collect(ctx, tx, qObservationLock, map[string]any{"refs": refRows(refs)})
	})
}

// refRows is refs as the statements take them: {space, id} maps.
func refRows(refs []ObservationRef) []map[string]any {
	rows := make([]map[string]any, len(refs))
	for i, r := range refs {
		rows[i] = map[string]any{"space": r.Space, "id": r.ID}
	}
	return rows
}

// lease runs lock in a write transaction, then leases to lease.Owner, of the
// observations it locked (one row each, with space and id), those still pending and
// free, expired or the owner's (observation_claim_lease.cypher), and returns them.
func (s *Store) lease(ctx context.Context, lease Lease, now time.Time, lock txWork) ([]realm.Observation, error) {
	recs, err := s.writeTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		locked, err := lock(ctx, tx)
		if err != nil || len(locked) == 0 {
			return nil, err
		}
		refs := make([]ObservationRef, len(locked))
		for i, r := range locked {
			refs[i] = ObservationRef{Space: str(r, "space"), ID: str(r, "id")}
		}
		return collect(ctx, tx, qObservationClaimLease, map[string]any{
			"refs": refRows(refs), "now": now, "owner": lease.Owner, "until": lease.Until.UTC(),
		})
	})
	if err != nil {
		return nil, err
	}
	return observationsOf(recs), nil
}

// TakeOverLeases leases to lease.Owner, in one statement, every pending observation
// leased to one of the dead owners (processes the caller knows to be gone, see
// LeaseOwners), and returns how many. Errors: EUnavailable.
func (s *Store) TakeOverLeases(ctx context.Context, lease Lease, dead []string) (int, error) {
	if len(dead) == 0 {
		return 0, nil
	}
	recs, err := s.write(ctx, qObservationTakeOver, map[string]any{
		"dead": dead, "owner": lease.Owner, "until": lease.Until.UTC(),
	})
	if err != nil || len(recs) == 0 {
		return 0, err
	}
	return int(num(recs[0], "n")), nil
}

// ReleaseLeases ends the leases owner holds on pending observations (its unfinished
// work, at shutdown) and returns how many. Errors: EUnavailable.
func (s *Store) ReleaseLeases(ctx context.Context, owner string) (int, error) {
	recs, err := s.write(ctx, qObservationRelease, map[string]any{"owner": owner})
	if err != nil || len(recs) == 0 {
		return 0, err
	}
	return int(num(recs[0], "n")), nil
}

// ReleaseLeasesOf ends the leases owner holds on those of refs that are pending (work
// it claimed and hands back unattempted), but for those an attempt failed on, which its
// process retries, and returns how many. Errors: EUnavailable.
func (s *Store) ReleaseLeasesOf(ctx context.Context, owner string, refs []ObservationRef) (int, error) {
	if len(refs) == 0 {
		return 0, nil
	}
	recs, err := s.write(ctx, qObservationReleaseSome, map[string]any{"owner": owner, "refs": refRows(refs)})
	if err != nil || len(recs) == 0 {
		return 0, err
	}
	return int(num(recs[0], "n")), nil
}

// LeaseOwners returns the owners that hold unexpired leases on pending observations, so
// that a starting process can take over at once the work of those it knows are dead
// instead of waiting for their leases to expire. Errors: EUnavailable.
func (s *Store) LeaseOwners(ctx context.Context) ([]string, error) {
	recs, err := s.read(ctx, qObservationLeaseOwners, map[string]any{"now": time.Now().UTC()})
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(recs))
	for _, r := range recs {
		out = append(out, str(r, "owner"))
	}
	return out, nil
}

// RecentObservations returns the last n observations of a space before seq before,
// oldest first: the context c_t of extraction (REALM.md §2 step 2). Errors: EUnavailable.
func (s *Store) RecentObservations(ctx context.Context, space string, before int64, n int) ([]realm.Observation, error) {
	recs, err := s.read(ctx, qObservationRecent, map[string]any{"space": space, "before": before, "n": n})
	if err != nil {
		return nil, err
	}
	return observationsOf(recs), nil
}

// SessionUserMessages returns the first n messages of a session of a space said by its
// user, oldest first, whatever their seq: those of a person (no chat role) or of the user
// role (realm.ChatRoles), whose speaker names none of the other roles. Errors: EUnavailable.
func (s *Store) SessionUserMessages(ctx context.Context, space, session string, n int) ([]realm.Observation, error) {
	others := slices.DeleteFunc(slices.Clone(realm.ChatRoles), func(r string) bool { return r == "user" })
	recs, err := s.read(ctx, qObservationSessionUsers, map[string]any{"space": space, "session": session, "others": others, "n": n})
	if err != nil {
		return nil, err
	}
	return observationsOf(recs), nil
}

// observationsOf reads the observation of column o of each of recs.
func observationsOf(recs []*neo4j.Record) []realm.Observation {
	out := make([]realm.Observation, 0, len(recs))
	for _, r := range recs {
		out = append(out, observationOf(r, "o"))
	}
	return out
}

// ExtractionContext returns in one query what the extractor of an observation sees
// (REALM.md §2 step 2), as the Window of seq before alone: the running summary of the
// space ("" for a new one), its last n observations before seq before, oldest first, and
// its forget count. Errors: EUnavailable.
func (s *Store) ExtractionContext(ctx context.Context, space string, before int64, n int) (Window, error) {
	recs, err := s.read(ctx, qObservationContext, map[string]any{"space": space, "before": before, "n": n})
	if err != nil || len(recs) == 0 {
		return Window{}, err
	}
	return Window{Read: true, First: before, Last: before, Summary: str(recs[0], "summary"),
		Observations: observationList(recs[0], "recent"), Forgotten: num(recs[0], "forgotten")}, nil
}

// observationList reads a column holding a list of observations' properties.
func observationList(r *neo4j.Record, key string) []realm.Observation {
	v, _ := r.Get(key)
	list, _ := v.([]any)
	out := make([]realm.Observation, 0, len(list))
	for _, item := range list {
		m, _ := item.(map[string]any)
		out = append(out, observationFromMap(m))
	}
	return out
}

// MarkObservationError records a failed integration attempt with its error text and
// what it spent on the LLM (usage, added to the observation's: JobResult.Usage). The
// observation stays pending, to be retried, until maxAttempts attempts that count failed;
// then it is failed. An attempt that does not count (counts false) records only its
// error and usage. It returns the resulting status. Errors: EUnavailable.
func (s *Store) MarkObservationError(ctx context.Context, space, id, errText string, maxAttempts int, counts bool, usage realm.Usage) (string, error) {
	spent, err := usageRecord(usage)
	if err != nil {
		return "", err
	}
	recs, err := s.write(ctx, qObservationError, map[string]any{
		"space": space, "id": id, "error": errText, "now": time.Now().UTC(), "max_attempts": maxAttempts, "counts": counts,
		"usage": spent,
	})
	if err != nil {
		return "", err
	}
	if len(recs) == 0 {
		return "", nil // no longer pending: someone else integrated it
	}
	return str(recs[0], "status"), nil
}

// SpaceSummary returns the running summary of a space, "" for a new one. Errors: EUnavailable.
func (s *Store) SpaceSummary(ctx context.Context, space string) (string, error) {
	recs, err := s.read(ctx, qSpaceSummary, map[string]any{"space": space})
	if err != nil || len(recs) == 0 {
		return "", err
	}
	return str(recs[0], "summary"), nil
}

// SetSpaceSummary replaces the running summary of an existing space.
// Errors: ENotFound, EUnavailable.
func (s *Store) SetSpaceSummary(ctx context.Context, space, summary string) error {
	recs, err := s.write(ctx, qSpaceSummarySet, map[string]any{"space": space, "summary": summary, "now": time.Now().UTC()})
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return realm.Errorf(realm.ENotFound, "space %q not found", space)
	}
	return nil
}

// Job is an asynchronous ingestion: its progress is counted from the statuses of its
// observations, so it stays right across crashes and restarts.
type Job struct {
	ID        string    `json:"id"`
	Space     string    `json:"space"`
	Status    string    `json:"status"` // running | done | failed
	Total     int       `json:"total"`
	Done      int       `json:"done"`      // observations integrated
	Failed    int       `json:"failed"`    // observations failed for good
	Pending   int       `json:"pending"`   // observations still to integrate
	Forgotten int       `json:"forgotten"` // observations forgotten since (DeleteObservation)
	Error     string    `json:"error,omitempty"`
	LastError string    `json:"last_error,omitempty"` // an observation's integration error
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Results are its observations' outcomes so far, in the order they were sent, each
	// once; one forgotten since is JobForgotten. Left out of the JSON when nil (GET
	// /v1/jobs/{id}?results=false: the status alone); a job has at least one.
	Results []JobResult `json:"results,omitempty"`
}

// JobResult is what became of one observation of a job, as far as its job tells.
type JobResult struct {
	ID         string   `json:"id"`
	Status     string   `json:"status"`     // pending, integrated, failed or JobForgotten
	Added      []string `json:"added"`      // the memories its integration added (construction.Result)
	Superseded []string `json:"superseded"` // the memories its integration superseded (construction.Result)
	// Usage is what its integration spent on the LLM (calls, tokens, fallbacks), as the
	// synchronous result's, summed over its attempts: the job's run, and a resumption
	// that integrated what the run left pending. Each attempt's is stored in the write
	// that ends it (the integrated or failed mark, the error of one left pending, the
	// check under the space's lock of one that writes nothing: the observation integrated
	// meanwhile, or forgotten, whose job keeps it), so that one read integrated, or a job
	// read done, has its final usage.
	Usage realm.Usage `json:"usage"`
	// Error is what the last failed attempt to integrate a pending or failed one met: a
	// pending one is retried.
	Error string `json:"error,omitempty"`
}

// Job statuses: running until no observation of the job is pending (one a failed
// attempt left pending is retried, and the job runs until it is integrated or failed
// for good), then done, or failed when some failed for good.
const (
	JobRunning = "running"
	JobDone    = "done"
	JobFailed  = "failed"
)

// JobForgotten is the status of a job's observation that is no longer stored: forgotten
// (DeleteObservation) while the job ran or since. Its job reads done all the same.
const JobForgotten = "forgotten"

// JobEnded is the status and error text of a job none of whose total observations is
// pending, failed of which failed for good.
func JobEnded(total, failed int) (status, errText string) {
	if failed > 0 {
		return JobFailed, fmt.Sprintf("%d of %d observations failed for good; see their errors", failed, total)
	}
	return JobDone, ""
}

// CreateJob records a job over the given observation ids of a space, unless the space was
// erased since they were saved, or is being erased (DeleteSpace): nothing is recorded
// then, and the job reads ENotFound (JobNotFound), as one erased with its space.
// Errors: EUnavailable.
func (s *Store) CreateJob(ctx context.Context, space, id string, observationIDs []string) error {
	_, err := s.write(ctx, qJobCreate, map[string]any{
		"space": space, "id": id, "observations": observationIDs, "now": time.Now().UTC(),
	})
	return err
}

// LeftPending is what a job's run met on an observation it left pending without
// recording it there (its failed attempt could not, Neo4j away, or it was left
// unattempted): the error, and what the run spent on it (its extraction).
type LeftPending struct {
	Error string
	Usage realm.Usage
}

// FinishJob records that a job's background run ended, with status done, failed or
// (observations left pending) running, and an error text; pending is what the run met
// on the observations it left pending without recording it, by id, kept on them for
// the job to tell. It returns the status recorded: running, whatever status says, while
// any observation of the job is pending, which the run left to the process holding its
// lease (SettleJobs ends the job then). Errors: EUnavailable.
func (s *Store) FinishJob(ctx context.Context, id, status, errText string, pending map[string]LeftPending) (string, error) {
	var e any
	if errText != "" {
		e = errText
	}
	rows := make([]map[string]any, 0, len(pending))
	for oid, left := range pending {
		usage, err := usageRecord(left.Usage)
		if err != nil {
			return "", err
		}
		rows = append(rows, map[string]any{"id": oid, "error": left.Error, "usage": usage})
	}
	recs, err := s.write(ctx, qJobFinish, map[string]any{"id": id, "status": status, "error": e, "now": time.Now().UTC(), "pending": rows})
	if err != nil || len(recs) == 0 {
		return status, err
	}
	return str(recs[0], "status"), nil
}

// usageRecord is what an attempt spent on the LLM as the observation keeps it: one JSON
// text (a node property holds no map) in the list of its attempts' (JobResult.Usage),
// none when it spent nothing (the offline agent).
func usageRecord(u realm.Usage) ([]string, error) {
	if len(u) == 0 {
		return []string{}, nil
	}
	doc, err := json.Marshal(u)
	if err != nil {
		return nil, err
	}
	return []string{string(doc)}, nil
}

// SettleJobs records the end (JobEnded) of the running jobs of spaces none of whose
// observations is pending any more, and returns how many. Errors: EUnavailable.
func (s *Store) SettleJobs(ctx context.Context, spaces []string) (int, error) {
	recs, err := s.read(ctx, qJobSettle, map[string]any{"spaces": spaces})
	if err != nil {
		return 0, err
	}
	for _, r := range recs {
		status, errText := JobEnded(int(num(r, "total")), int(num(r, "failed")))
		if _, err := s.FinishJob(ctx, str(r, "id"), status, errText, nil); err != nil {
			return 0, err
		}
	}
	return len(recs), nil
}

// JobNotFound is the ENotFound of a job: never created, or erased with its space
// (DeleteSpace), its messages with it, which no job then follows.
func JobNotFound(id string) error {
	return realm.Errorf(realm.ENotFound, "job %q not found: never created, or its space erased since (erasing a space erases its jobs and their messages)", id)
}

// Job returns a job with its live progress; space "" finds it in any space.
// Errors: ENotFound, EUnavailable.
func (s *Store) Job(ctx context.Context, space, id string) (Job, error) {
	recs, err := s.read(ctx, qJobGet, map[string]any{"space": space, "id": id})
	if err != nil {
		return Job{}, err
	}
	if len(recs) == 0 {
		return Job{}, JobNotFound(id)
	}
	r := recs[0]
	j := Job{
		ID: mapStr(r, "j", "id"), Space: mapStr(r, "j", "space"), Status: mapStr(r, "j", "status"),
		Total: int(mapNum(r, "j", "total")), Done: int(num(r, "integrated")), Failed: int(num(r, "failed")),
		Pending: int(num(r, "pending")), Error: mapStr(r, "j", "error"), LastError: str(r, "last_error"),
		CreatedAt: mapTime(r, "j", "created_at"), UpdatedAt: mapTime(r, "j", "updated_at"),
		Results: []JobResult{},
	}
	// What the job holds of its observations' usage, by id: its run's, when it was recorded
	// before its observations kept their usage, and that of each attempt that ended as its
	// observation was forgotten (ApplyIntegration), which went with it.
	before := map[string]realm.Usage{}
	docs := stringList(mapOf(r, "j")["forgotten_usage"])
	if doc := mapStr(r, "j", "usage"); doc != "" {
		docs = append(docs, doc)
	}
	for _, doc := range docs {
		var byID map[string]realm.Usage
		if err := json.Unmarshal([]byte(doc), &byID); err != nil {
			return Job{}, fmt.Errorf("job %s: usage: %w", id, err)
		}
		for oid, u := range byID {
			if before[oid] == nil {
				before[oid] = realm.Usage{}
			}
			before[oid].Add(u)
		}
	}
	stored := map[string]JobResult{}
	v, _ := r.Get("results")
	for _, item := range asList(v) {
		m, _ := item.(map[string]any)
		added, superseded := stringList(m["added"]), stringList(m["superseded"])
		if added == nil {
			added = []string{}
		}
		if superseded == nil {
			superseded = []string{}
		}
		oid := propString(m, "id")
		usage := realm.Usage{}
		usage.Add(before[oid])
		for _, doc := range stringList(m["usage"]) {
			var attempt realm.Usage
			if err := json.Unmarshal([]byte(doc), &attempt); err != nil {
				return Job{}, fmt.Errorf("job %s: observation %s: usage: %w", id, oid, err)
			}
			usage.Add(attempt)
		}
		stored[oid] = JobResult{ID: oid, Status: propString(m, "status"), Added: added, Superseded: superseded, Usage: usage,
			Error: propString(m, "error")}
	}
	v, _ = r.Get("order")
	told := map[string]bool{} // an id sent twice in the batch is one observation
	for _, id := range stringList(v) {
		if told[id] {
			continue
		}
		told[id] = true
		res, ok := stored[id]
		if !ok {
			res = JobResult{ID: id, Status: JobForgotten, Added: []string{}, Superseded: []string{}, Usage: realm.Usage{}}
			res.Usage.Add(before[id])
			j.Forgotten++
		}
		j.Results = append(j.Results, res)
	}
	// The background work may have died with its process, or left observations pending
	// that were integrated since: the observations say the truth. They do too of one read
	// pending under a recorded end: the run left it to the process holding its lease, or
	// the query read it before the write that integrated it and the job after its end was
	// recorded (one query reads one node after another, each as last committed).
	switch {
	case j.Pending > 0:
		j.Status = JobRunning
	case j.Total > 0:
		j.Status, j.Error = JobEnded(j.Total, j.Failed)
	}
	return j, nil
}

func observationOf(r *neo4j.Record, key string) realm.Observation {
	return observationFromMap(mapOf(r, key))
}

func observationFromMap(m map[string]any) realm.Observation {
	s := func(field string) string { v, _ := m[field].(string); return v }
	seq, _ := m["seq"].(int64)
	generation, _ := m["generation"].(int64)
	offset, _ := m["utc_offset"].(int64) // none on messages stored before it was kept: 0
	return realm.Observation{
		ID: s("id"), Space: s("space"), SessionID: s("session_id"), Speaker: s("speaker"), Role: s("role"), Content: s("content"),
		ObservedAt: timeOf(m["observed_at"]), Offset: int(offset), Seq: seq, Status: s("status"), Generation: generation,
		SentBy: s("sent_by"), Replaces: s("replaces"), Saved: timeOf(m["created_at"]),
	}
}

// Accessors of a map-valued column that tolerate nulls.

func mapOf(r *neo4j.Record, key string) map[string]any {
	v, _ := r.Get(key)
	m, _ := v.(map[string]any)
	return m
}

func mapStr(r *neo4j.Record, key, field string) string {
	s, _ := mapOf(r, key)[field].(string)
	return s
}

func mapNum(r *neo4j.Record, key, field string) int64 {
	n, _ := mapOf(r, key)[field].(int64)
	return n
}

func mapTime(r *neo4j.Record, key, field string) time.Time {
	return timeOf(mapOf(r, key)[field])
}

// timeOf is the one decoder of a stored time, in UTC; zero when v is none.
func timeOf(v any) time.Time {
	switch t := v.(type) {
	case time.Time:
		return t.UTC()
	case neo4j.LocalDateTime:
		return time.Time(t).UTC()
	case neo4j.Date:
		return time.Time(t).UTC()
	}
	return time.Time{}
}
