package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/realm-memory/realm"
)

// routes lists every endpoint of the API.
func (s *server) routes(r chi.Router) {
	r.Get("/healthz", s.handleHealthz)
	r.Get("/readyz", s.handleReadyz)
	r.Get("/openapi.yaml", handleOpenAPI)
	r.Get("/v1/info", s.handleInfo)
	r.Get("/v1/jobs/{id}", s.handleJob)

	r.Route("/v1/spaces/{space}", func(r chi.Router) {
		r.Use(validSpace)
		r.Post("/observations", s.handleObservations)
		r.Get("/memories", s.handleListMemories)
		r.Get("/memories/{id}", s.handleGetMemory)
		r.Delete("/memories/{id}", s.handleDeleteMemory)
		r.Get("/stats", s.handleStats)
		r.Get("/graph", s.handleGraph)
		r.Post("/recall", s.handleRecall)
		r.Post("/answer", s.handleAnswer)
		r.Get("/traces/{id}", s.handleTrace)
		r.Post("/traces/{id}/feedback", s.handleFeedback)
		r.Get("/edits", s.handleListEdits)
		r.Post("/edits/{id}/revert", s.handleRevert)
	})

	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, realm.Errorf(realm.ENotFound, "no endpoint %s %s", r.Method, r.URL.Path))
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, &realm.Error{Code: realm.EInvalid, Message: "method " + r.Method + " is not allowed on " + r.URL.Path})
	})
}
