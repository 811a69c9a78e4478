package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/reconsolidation"
)

// handleFeedback reconsolidates the graph from a trace, with the client's feedback
// (confirmed when it says correct/wrong or names useful or misleading nodes).
func (s *server) handleFeedback(w http.ResponseWriter, r *http.Request) {
	logTraceID(r, chi.URLParam(r, "id"))
	fb, err := decode[realm.Feedback](r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.admit(r, fb.Validate()); err != nil {
		writeError(w, r, err)
		return
	}
	res, err := s.Reconsolidate.Reconsolidate(r.Context(), chi.URLParam(r, "space"), chi.URLParam(r, "id"),
		reconsolidation.Request{Answer: fb.Answer, Feedback: &fb, Source: realm.EditSourceFeedback})
	if err != nil {
		writeError(w, r, err)
		return
	}
	encode(w, http.StatusOK, res)
}

// handleListEdits lists the reconsolidation log of a space, newest first, a page at a time.
func (s *server) handleListEdits(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	fe := realm.FieldErrors{}
	queryKnown(q, fe, "trace", "node", "since", "cursor", "limit")
	f := realm.EditFilter{TraceID: q.Get("trace"), NodeID: q.Get("node")}
	f.Since = queryTime(q, "since", fe)
	f.Limit = queryInt(q, "limit", realm.DefaultEditLimit, 1, realm.MaxEditLimit, fe)
	if err := s.spaceReadable(r, fe); err != nil {
		writeError(w, r, err)
		return
	}
	edits, next, err := s.Store.ListEdits(r.Context(), chi.URLParam(r, "space"), f, q.Get("cursor"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	encode(w, http.StatusOK, map[string]any{"edits": edits, "next_cursor": next})
}

// handleRevert undoes the reconsolidation an edit belongs to; reverting twice is a no-op.
func (s *server) handleRevert(w http.ResponseWriter, r *http.Request) {
	edits, err := s.Reconsolidate.Revert(r.Context(), chi.URLParam(r, "space"), chi.URLParam(r, "id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	if edits == nil {
		edits = []realm.Edit{}
	}
	encode(w, http.StatusOK, map[string]any{"reverted": edits})
}
