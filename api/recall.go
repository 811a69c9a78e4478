package api

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
)

func (s *server) handleRecall(w http.ResponseWriter, r *http.Request) {
	req, err := decode[realm.RecallRequest](r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.admit(r, req.Validate()); err != nil {
		writeError(w, r, err)
		return
	}
	res, err := s.recall(r.Context(), chi.URLParam(r, "space"), req)
	if err != nil {
		writeError(w, r, err)
		return
	}
	logTraceID(r, res.TraceID)
	encode(w, http.StatusOK, res)
}

// recall is a recall for the HTTP routes and the MCP tools (which refuse a space an
// import holds before: admit, addTool).
//
// A space that holds no memory (one never written to, or not yet integrated) has nothing
// to recall: ENotFound, and nothing stored. A recall stores its trace (for feedback), and
// would otherwise leave a trace, and so a space, behind a mere read of a space that does
// not exist.
func (s *server) recall(ctx context.Context, space string, req realm.RecallRequest) (realm.RecallResult, error) {
	holds, err := s.Store.HoldsMemory(ctx, space)
	if err != nil {
		return realm.RecallResult{}, err
	}
	if !holds {
		return realm.RecallResult{}, realm.Errorf(realm.ENotFound, "space %q holds no memory yet: nothing to recall", space)
	}
	if f := req.Filters; f != nil && f.SessionIDs != nil {
		stored := *f
		stored.SessionIDs = storedSessions(f.SessionIDs)
		req.Filters = &stored
	}
	return s.Recall.Recall(ctx, space, req)
}

// storedSessions are session ids as a message's are stored (stripBidi), so that a filter
// names a session as it was sent. One that would be left empty stays as it is: it names no
// session (not the messages sent without one).
func storedSessions(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		if out[i] = stripBidi(id); out[i] == "" {
			out[i] = id
		}
	}
	return out
}

// logTraceID adds a trace id to the request's log line, to follow a recall into its feedback.
func logTraceID(r *http.Request, id string) {
	zerolog.Ctx(r.Context()).UpdateContext(func(c zerolog.Context) zerolog.Context { return c.Str("trace_id", id) })
}

func (s *server) handleTrace(w http.ResponseWriter, r *http.Request) {
	t, err := s.Store.Trace(r.Context(), chi.URLParam(r, "space"), chi.URLParam(r, "id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	encode(w, http.StatusOK, t)
}
