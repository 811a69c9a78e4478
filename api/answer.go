package api

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/answering"
	"github.com/realm-memory/realm/reconsolidation"
)

// answerRequest is a recall request and whether to reconsolidate afterwards (absent: the
// server's setting).
type answerRequest struct {
	realm.RecallRequest
	Reconsolidate *bool `json:"reconsolidate,omitempty"`
}

// answerResult is the answer, its evidence, and what the reconsolidation after it did.
type answerResult struct {
	Answer       string               `json:"answer"`
	CitedNodeIDs []string             `json:"cited_node_ids"`
	TraceID      string               `json:"trace_id"`
	Nodes        []realm.RecalledNode `json:"nodes"`
	Edges        []realm.Edge         `json:"edges"`
	Usage        realm.Usage          `json:"usage"`   // recall and answer stages
	Timings      map[string]float64   `json:"timings"` // recall stages, answer, reconsolidate
	// Reconsolidation is set when the answer's trace was reconsolidated; a failure there
	// leaves the answer standing and is said in ReconsolidationError.
	Reconsolidation      *reconsolidation.Result `json:"reconsolidation,omitempty"`
	ReconsolidationError string                  `json:"reconsolidation_error,omitempty"`
}

// handleAnswer recalls, has the LLM answer from the recalled nodes, then, unless the
// server or the request turns it off, reconsolidates the trace with the answer and its
// citations as the system's own signal (source auto, η/2: never confirmed feedback).
func (s *server) handleAnswer(w http.ResponseWriter, r *http.Request) {
	req, err := decode[answerRequest](r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	err = keyOf(r.Context()).scopeErr(answerScope(req))
	if err == nil {
		err = req.Validate()
	}
	if err := s.admit(r, err); err != nil {
		writeError(w, r, err)
		return
	}
	res, err := s.answer(r.Context(), chi.URLParam(r, "space"), req)
	if err != nil {
		writeProblem(w, r, err, func(p *problem) { p.TraceID, p.Usage = res.TraceID, res.Usage })
		return
	}
	encode(w, http.StatusOK, res)
}

// answerScope is the scope an answer request needs beyond the route's read: write when it
// forces a reconsolidation (reconsolidate: true), which changes the graph at the client's
// request. Automatic reconsolidation (reconsolidate absent, the server's setting) stays
// under read: its edits come from the system's own signal, the recall the server ran and
// the citations its own LLM gave, at half the learning rate and never as confirmed
// feedback; the client adds nothing a recall does not (a recall writes a trace and access
// statistics too), the operator can turn it off (REALM_AUTO_RECONSOLIDATE=false), and
// every edit is logged with source auto and can be reverted. Turning it off
// (reconsolidate: false) needs nothing more.
func answerScope(req answerRequest) Scope {
	if req.Reconsolidate != nil && *req.Reconsolidate {
		return ScopeWrite
	}
	return ScopeRead
}

var errNoAnswerer = realm.Errorf(realm.ENotSupported,
	"answering needs an LLM: set REALM_LLM=openai with OPENAI_BASE_URL or OPENAI_API_KEY (the offline agent cannot answer; use /recall)")

// answer is /answer after decoding, for the HTTP route and the MCP tool: ENotSupported
// without an Answerer, EInvalid for a bad request, else the answer. An answer that fails
// after the recall returns the trace id and the usage so far with its error.
func (s *server) answer(ctx context.Context, space string, req answerRequest) (answerResult, error) {
	if err := req.Validate(); err != nil {
		return answerResult{}, err // a request the server could never answer says why first
	}
	if s.Answer == nil {
		return answerResult{}, errNoAnswerer
	}
	auto := !s.cfg.NoAutoReconsolidation
	if req.Reconsolidate != nil {
		auto = *req.Reconsolidate
	}
	uc := answering.UseCase{Recall: recallerFunc(s.recall), Answer: s.Answer, Reconsolidate: s.Reconsolidate}
	out, err := uc.Ask(ctx, space, req.RecallRequest, auto && s.Reconsolidate != nil)
	if out.Recalled {
		zerolog.Ctx(ctx).UpdateContext(func(c zerolog.Context) zerolog.Context { return c.Str("trace_id", out.Recall.TraceID) })
	}
	if err != nil {
		if out.Recalled {
			return answerResult{TraceID: out.Recall.TraceID, Usage: out.Usage}, err
		}
		return answerResult{}, err
	}
	res := answerResult{Answer: out.Answer.Text, CitedNodeIDs: out.Answer.Cited, TraceID: out.Recall.TraceID,
		Nodes: out.Recall.Nodes, Edges: out.Recall.Edges, Usage: out.Usage, Timings: out.Timings,
		Reconsolidation: out.Reconsolidation}
	if res.CitedNodeIDs == nil {
		res.CitedNodeIDs = []string{}
	}
	if out.ReconsolidationErr != nil {
		// The answer stands: the client paid for it, and feedback can reconsolidate later.
		zerolog.Ctx(ctx).Error().Err(out.ReconsolidationErr).Msg("reconsolidating after an answer")
		res.ReconsolidationError = realm.ErrorMessage(out.ReconsolidationErr)
	}
	return res, nil
}

// recallerFunc adapts server.recall (which refuses a space being imported) to answering.Recaller.
type recallerFunc func(ctx context.Context, space string, req realm.RecallRequest) (realm.RecallResult, error)

func (f recallerFunc) Recall(ctx context.Context, space string, req realm.RecallRequest) (realm.RecallResult, error) {
	return f(ctx, space, req)
}
