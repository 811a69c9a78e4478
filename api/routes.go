package api

import (
	"context"
	"fmt"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/ui"
)

// routes lists every endpoint of the API, with the scope each one needs.
func (s *server) routes(r chi.Router) {
	// Probes, the spec and the metrics are public: they say nothing about any space.
	r.Get("/healthz", s.handleHealthz)
	r.Get("/readyz", s.handleReadyz)
	r.Get("/openapi.yaml", handleOpenAPI)
	// The memory explorer's static files: public as the spec is, they hold no data; its
	// pages call the API below with the key the user types.
	r.Get(ui.Prefix+"*", ui.Handler().ServeHTTP)
	// The metrics hold route patterns and statuses, no tenant; they may still need an
	// admin key of every space (Config.MetricsKeyRequired): their scrape counts pending
	// work in Neo4j, and they are the whole server's, every tenant's load.
	metrics := r
	if s.cfg.MetricsKeyRequired {
		metrics = r.With(s.authenticate, s.rateLimit, serverAdmin)
	}
	metrics.Method(http.MethodGet, "/metrics", metricsHandler(s.Metrics))

	r.Group(func(r chi.Router) {
		r.Use(noStore, s.authenticate, s.rateLimit)
		r.Get("/v1/info", s.handleInfo)
		r.With(shortID).Get("/v1/jobs/{id}", s.handleJob) // any key of the job's space, checked in the handler: write-only keys follow their jobs
		r.Get("/v1/spaces", s.handleListSpaces)           // any key: it lists only the spaces the key reaches

		// MCP, streamable HTTP: every tool checks the key's scope and space itself (mcp.go).
		// POST only: this stateless server offers no event stream (GET) and keeps no session
		// to end (DELETE), which MCP lets it answer with 405.
		r.Post("/mcp", s.mcpHandler().ServeHTTP)

		r.Route("/v1/spaces/{space}", func(r chi.Router) {
			r.Use(validSpace, spaceAccess)
			read, write := r.With(need(ScopeRead), shortID), r.With(need(ScopeWrite), shortID)
			// write, not admin: an import only fills an empty space (export.go).
			write.With(s.importBody).Post("/import", s.handleImport)
			// Ingest refuses a space an import holds in the transaction that saves its
			// batch (cypher.Store.SaveObservations), which says what an outage left of it.
			write.Post("/observations", s.handleObservations)
			// Every other route of the space refuses it while an import holds it (409), once
			// its request is known to be well formed (a client learns that its request is
			// wrong whatever the import): a route taking a query or a body checks them, then
			// the hold (admit); one taking only the path the middlewares above checked, here
			// (held). Its erasure, below, cancels the import.
			held := func(r chi.Router) chi.Router { return r.With(s.notImporting) }
			// Feedback and revert act on what a recall read, and answer it (the trace's
			// query, its memories' labels, the edges' weights): a write-only key would learn
			// another key's questions and test guesses at the space's content through them.
			readWrite := read.With(need(ScopeWrite))
			read.Get("/observations", s.handleListObservations)
			read.Get("/observations/{id}", s.handleGetObservation)
			write.Delete("/observations/{id}", s.handleDeleteObservation)
			// Forgetting in bulk answers counts alone (write), as the deletion of one message
			// answers whether it was there.
			write.Delete("/observations", s.handleForgetObservations)
			// Forgetting about a person answers what it found: a search of the space (read).
			readWrite.Post("/forget", s.handleForgetAbout)
			read.Get("/memories", s.handleListMemories)
			held(read).Get("/memories/{id}", s.handleGetMemory)
			write.Patch("/memories/{id}", s.handleCorrectMemory)
			held(write).Delete("/memories/{id}", s.handleDeleteMemory)
			read.Get("/stats", s.handleStats)
			read.Get("/graph", s.handleGraph)
			read.Post("/recall", s.handleRecall)
			read.Post("/answer", s.handleAnswer)
			held(read).Get("/traces/{id}", s.handleTrace)
			readWrite.Post("/traces/{id}/feedback", s.handleFeedback)
			read.Get("/edits", s.handleListEdits)
			held(readWrite).Post("/edits/{id}/revert", s.handleRevert)
			held(read).Get("/export", s.handleExport)
		})
		// After the Route above, which would otherwise take this path for every method.
		r.With(validSpace, spaceAccess, need(ScopeAdmin)).Delete("/v1/spaces/{space}", s.handleDeleteSpace)
	})

	// Last, once every route is known: 404, or 405 with Allow (methods.go), also for
	// the methods the space root does not serve, which reach the mount above.
	s.index = newRouteIndex(r)
	r.NotFound(s.index.noRoute)
	r.MethodNotAllowed(s.index.noRoute)
}

// notImporting refuses (409 conflict) a request of a space that an import holds, from
// the start of its upload until it ends, or that an interrupted import left incomplete
// (cypher.Store.CheckNotImporting): a read would see the space half written (an export
// would be a backup missing part of it), a write would take in what the import erases or
// change and delete what it writes. A write that could change what an import writes
// checks again in its transaction, under the space's lock (cypher writeSpace): an import
// that claims the space after this check finds it written, or the write finds it claimed.
// It runs after the key's checks: a key learns of an import only in a space it may use.
func (s *server) notImporting(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := s.importHold(r.Context(), chi.URLParam(r, "space")); err != nil {
			writeError(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// admit is the error of a request of a space once its input is checked (inputErr: nil
// when it is well formed): inputErr, else the refusal of a space an import holds
// (importHold), as notImporting refuses a route that takes no input.
func (s *server) admit(r *http.Request, inputErr error) error {
	if inputErr != nil {
		return inputErr
	}
	return s.importHold(r.Context(), chi.URLParam(r, "space"))
}

// importHold is notImporting's check: the refusal (EConflict) of a space an import holds,
// else nil. A failure of the check itself (Neo4j away) is left to the request, which
// meets it after checking its input (a bad one is 400 still) and says it in its own words.
func (s *server) importHold(ctx context.Context, space string) error {
	if err := s.Store.CheckNotImporting(ctx, space); realm.ErrorCode(err) == realm.EConflict {
		return err
	}
	return nil
}

// shortID refuses an {id} longer than any id stored (idTooLong) before any lookup, which
// would answer not found quoting it, however long.
func shortID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, _ := pathParam(r, "id")
		if err := idTooLong("id", id); err != nil {
			writeError(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// idTooLong is the error of an id, under field, longer than realm.MaxIDLen bytes (a
// message's, a memory's, a trace's), which never quotes it; nil for one that is not.
func idTooLong(field, id string) error {
	if len(id) <= realm.MaxIDLen {
		return nil
	}
	return realm.FieldErrors{field: fmt.Sprintf("at most %d bytes", realm.MaxIDLen)}.Err()
}

// noStore keeps the answers of the keyed API out of every cache (a proxy's, the
// browser's): they hold a space's memories, messages, queries and exports.
func noStore(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}
