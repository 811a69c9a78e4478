package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
)

// forgetBatch is how many messages a bulk forget reads at a time (a page of
// cypher.Store.ListObservations). Each is then forgotten in a transaction of its own, as
// DELETE …/observations/{id} forgets it: no transaction grows with the space.
const forgetBatch = 100

// forgetObservationsRequest forgets messages in bulk, by who said them and when (DELETE
// …/observations?speaker=&before=): a retention rule ("the thermostat's readings older
// than a week"), an operator's clean-up. A speaker sent empty is refused, not taken for
// every speaker.
type forgetObservationsRequest struct {
	Speaker *string
	Before  *time.Time
	DryRun  bool
}

// filter is the messages req names, as GET …/observations?speaker=&until= lists them
// (the speaker composed as a message's is when stored: speakerName); EInvalid when it
// names none of speaker and before, or its speaker is wrong.
func (req forgetObservationsRequest) filter() (cypher.ObservationFilter, error) {
	fe := realm.FieldErrors{}
	var f cypher.ObservationFilter
	if req.Before != nil {
		f.Until = *req.Before
	}
	if req.Speaker == nil && req.Before == nil {
		fe.Add("speaker", "required (or before): the messages of whom, or said before when")
	}
	if req.Speaker != nil {
		f.Speaker = speakerName(*req.Speaker)
		switch {
		case utf8.RuneCountInString(*req.Speaker) > maxNameLen:
			fe.Add("speaker", fmt.Sprintf("at most %d characters", maxNameLen))
		case strings.ContainsRune(f.Speaker, 0): // a query may hold %00; MCP arguments too
			fe.Add("speaker", "must not contain NUL (\\u0000)")
		case f.Speaker == "":
			fe.Add("speaker", "must not be empty (bidirectional formatting characters do not count)")
		}
	}
	return f, fe.Err()
}

// forgetObservationsResult is what DELETE …/observations (and the MCP tool
// forget_messages) forgot, or would forget (dry_run).
type forgetObservationsResult struct {
	DryRun bool `json:"dry_run" jsonschema:"true: what would go, nothing changed"`
	Counts struct {
		Observations int `json:"observations" jsonschema:"the messages forgotten"`
		Memories     int `json:"memories" jsonschema:"the memories deleted with them"`
	} `json:"counts" jsonschema:"how many messages, and memories derived from them, went (dry run: would go)"`
}

// handleForgetObservations forgets messages in bulk (forgetObservations), named by the
// query: speaker, before (RFC 3339) and dry_run.
func (s *server) handleForgetObservations(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	fe := realm.FieldErrors{}
	queryKnown(q, fe, "speaker", "before", "dry_run")
	req := forgetObservationsRequest{DryRun: q.Get("dry_run") == "true"}
	if q.Has("before") {
		before := queryTime(q, "before", fe)
		req.Before = &before
	}
	if q.Has("speaker") {
		speaker := q.Get("speaker")
		req.Speaker = &speaker
	}
	if q.Has("dry_run") && !req.DryRun && q.Get("dry_run") != "false" {
		fe.Add("dry_run", "must be true or false")
	}
	res, err := forgetObservationsResult{}, fe.Err()
	if err == nil {
		res, err = s.forgetObservations(r.Context(), chi.URLParam(r, "space"), req)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	encode(w, http.StatusOK, res)
}

// forgetObservations forgets the messages of space that req names (filter), in the
// order they were said, a page of forgetBatch at a time, each as DELETE
// …/observations/{id} forgets it (construction.Pipeline.ForgetAmong), but that a message
// the filter names, to be forgotten later in the call, is not integrated again. A dry run
// answers how many messages, and how many memories forgetting them together deletes
// (cypher.Store.MemoriesDeletedWith), and changes nothing. A call that fails midway
// leaves the rest where the same call again finds it; called again, it finds nothing but
// what was said since. Errors: EInvalid, ENotFound, EConflict, EUnavailable.
func (s *server) forgetObservations(ctx context.Context, space string, req forgetObservationsRequest) (forgetObservationsResult, error) {
	res := forgetObservationsResult{DryRun: req.DryRun}
	f, err := req.filter()
	if err == nil {
		err = s.Store.SpaceFound(ctx, space)
	}
	if err != nil || req.Before != nil && req.Before.IsZero() {
		// Nothing is said before the year 1, and a zero Until is no bound to ListObservations.
		return res, err
	}
	if req.DryRun {
		var ids []string
		err := s.eachObservation(ctx, space, f, func(o realm.Observation) error {
			ids = append(ids, o.ID)
			return nil
		})
		var memories []string
		if err == nil {
			memories, err = s.Store.MemoriesDeletedWith(ctx, space, ids)
		}
		res.Counts.Observations, res.Counts.Memories = len(ids), len(memories)
		return res, err
	}
	named := func(o realm.Observation) bool {
		return (f.Speaker == "" || o.Speaker == f.Speaker) && (f.Until.IsZero() || o.ObservedAt.Before(f.Until))
	}
	err = s.eachObservation(ctx, space, f, func(o realm.Observation) error {
		forgotten, err := s.Ingest.ForgetAmong(ctx, space, o.ID, named)
		switch {
		case realm.ErrorCode(err) == realm.ENotFound: // forgotten since it was read
			return nil
		case err != nil:
			return err
		}
		res.Counts.Observations++
		res.Counts.Memories += len(forgotten.MemoryIDs)
		return nil
	})
	return res, err
}

// eachObservation calls fn with each message of space that f lists, in the order they
// were said, reading them a page of forgetBatch at a time, and stops at fn's first error.
func (s *server) eachObservation(ctx context.Context, space string, f cypher.ObservationFilter, fn func(realm.Observation) error) error {
	cursor := ""
	for {
		page, next, err := s.Store.ListObservations(ctx, space, f, cursor, forgetBatch)
		if err != nil {
			return err
		}
		for _, o := range page {
			if err := fn(o); err != nil {
				return err
			}
		}
		if next == "" {
			return nil
		}
		cursor = next
	}
}
