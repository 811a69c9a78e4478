package cypher

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/realm-memory/realm"
)

// PutTrace stores the trace of one recall as a (:Trace) node of its space (REALM.md §3.3).
func (s *Store) PutTrace(ctx context.Context, t realm.Trace) error {
	doc, err := json.Marshal(t)
	if err != nil {
		return fmt.Errorf("encode trace: %w", err)
	}
	_, err = s.write(ctx, qTraceCreate, traceParams(t, doc))
	return err
}

func traceParams(t realm.Trace, doc []byte) map[string]any {
	return map[string]any{"id": t.ID, "space": t.Space, "created_at": t.CreatedAt.UTC(), "query": t.Query, "json": string(doc)}
}

// Trace returns the trace id of the space; ENotFound when the space has none by that id,
// or only one older than the retention (Config.TraceRetention), which the message then
// says. A trace the sweep deleted cannot be told from one the space never had (or another
// space's, of whose age nothing is said): with a retention, their message says how long
// traces are kept, so that a client whose feedback comes late may learn why.
func (s *Store) Trace(ctx context.Context, space, id string) (realm.Trace, error) {
	recs, err := s.read(ctx, qTraceGet, map[string]any{"space": space, "id": id})
	if err != nil {
		return realm.Trace{}, err
	}
	if len(recs) == 0 && s.traceRetention > 0 {
		return realm.Trace{}, realm.Errorf(realm.ENotFound, "trace %q not found in space %q (traces are kept for %s)", id, space, RetentionText(s.traceRetention))
	}
	if len(recs) == 0 {
		return realm.Trace{}, realm.Errorf(realm.ENotFound, "trace %q not found in space %q", id, space)
	}
	if created, ok := valueOf(recs[0], "created_at").(time.Time); ok && s.traceRetention > 0 && created.Before(time.Now().Add(-s.traceRetention)) {
		return realm.Trace{}, realm.Errorf(realm.ENotFound, "trace %q not found in space %q: it is older than the retention (traces are kept for %s)", id, space, RetentionText(s.traceRetention))
	}
	var t realm.Trace
	if err := json.Unmarshal([]byte(str(recs[0], "json")), &t); err != nil {
		return realm.Trace{}, fmt.Errorf("decode trace %s: %w", id, err)
	}
	return t, nil
}

// traceExpireBatch is how many traces, or edits, one statement of ExpireTraces deletes or
// erases.
var traceExpireBatch = 1000

// ExpireTraces deletes the traces of every space created before now minus the retention
// (Config.TraceRetention; with none it deletes nothing), a batch a transaction, and returns
// how many went, those of the batches done before an error included. The query's text
// goes with its trace from everywhere the space kept it: first from the learned links
// the trace's reconsolidations added (each keeps instead the query's vector as embed
// gives it, and acts as before), then, with the trace, from their logged edits. The edits
// stay, and stay revertible: they keep the trace's id, their label and weights. A failure
// to erase the links' text deletes no trace: the next sweep tries again.
// The edits and links of a trace gone already, whatever its age, lose the text the same
// way: a version that kept it deleted the trace, or an imported file left it out.
// Errors: EUnavailable, and embed's.
func (s *Store) ExpireTraces(ctx context.Context, now time.Time, embed QueryVectors) (int64, error) {
	if s.traceRetention <= 0 {
		return 0, nil
	}
	cutoff := now.UTC().Add(-s.traceRetention)
	if err := s.eraseLearnedQueries(ctx, cutoff, embed); err != nil {
		return 0, err
	}
	if _, err := s.inBatches(ctx, qEditEraseOrphaned, map[string]any{}, "erased"); err != nil {
		return 0, err
	}
	return s.inBatches(ctx, qTraceExpireBatch, map[string]any{"cutoff": cutoff}, "deleted")
}

// inBatches runs q, which deletes or erases up to $batch (traceExpireBatch) things and
// says how many under key, until it does fewer; it returns how many in all, those of the
// batches done before an error included.
func (s *Store) inBatches(ctx context.Context, q query, params map[string]any, key string) (int64, error) {
	params["batch"] = int64(traceExpireBatch)
	var total int64
	for {
		recs, err := s.write(ctx, q, params)
		if err != nil {
			return total, err
		}
		n := num(recs[0], key)
		total += n
		if n < int64(traceExpireBatch) {
			return total, nil
		}
	}
}

// TraceRetention is Config.TraceRetention: how long a trace is kept (0: until its space is
// erased).
func (s *Store) TraceRetention() time.Duration { return s.traceRetention }

// RetentionText writes a retention as it is set: "720h", "90m", rather than
// time.Duration's "720h0m0s".
func RetentionText(d time.Duration) string {
	switch {
	case d == 0:
		return "0"
	case d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return d.String()
}
