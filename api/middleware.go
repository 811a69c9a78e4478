package api

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/google/uuid"
	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
)

type requestIDCtx struct{}

// requestIDSyntax is what a client's X-Request-Id must look like to be kept.
var requestIDSyntax = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

// requestID gives each request an id: the client's X-Request-Id when it is a plain
// token, else a new one. It is returned in X-Request-Id and logged with the request.
func requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if !requestIDSyntax.MatchString(id) {
			id = uuid.NewString()
		}
		w.Header().Set("X-Request-Id", id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestIDCtx{}, id)))
	})
}

// withLogger puts a request-scoped logger (carrying the request id) into the context
// and writes one JSON access log line per request: method, route pattern, space, key
// name, the TCP peer's address, status, size, duration and, for an error answer, its
// code (logFailure adds it, and for a 5xx its message: writeError, /readyz, MCP tool
// errors). Bodies, paths, query strings, memory contents and secrets are never logged.
// The level is the status's: info, warn for a 5xx, error for a 500, so that an alert on
// warnings sees the outages (an MCP tool error's, answered 200, that of its route's status).
func withLogger(base zerolog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			reqID, _ := r.Context().Value(requestIDCtx{}).(string)
			logger := base.With().Str("request_id", reqID).Logger()
			ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
			failed := new(atomic.Int64)
			ctx := context.WithValue(logger.WithContext(r.Context()), failedStatusCtx{}, failed)
			next.ServeHTTP(ww, r.WithContext(ctx))
			route := chi.RouteContext(r.Context()).RoutePattern()
			// The context's logger, to which authenticate and handlers may have added the
			// key's name and a trace id.
			status := ww.Status()
			// An MCP tool error answers 200: its line takes the level of its route's status.
			line := zerolog.Ctx(ctx).WithLevel(statusLevel(max(status, int(failed.Load()))))
			if space := chi.URLParam(r, "space"); realm.ValidSpace(space) {
				line = line.Str("space", space)
			}
			line.Str("method", r.Method).
				Str("route", route).
				Str("remote_addr", r.RemoteAddr). // the peer: X-Forwarded-For is the client's to forge
				Int("status", status).
				Int("bytes", ww.BytesWritten()).
				Dur("duration", time.Since(start)).
				Msg("request")
		})
	}
}

// statusLevel is the level of a request's log line with that status.
func statusLevel(status int) zerolog.Level {
	switch {
	case status == http.StatusInternalServerError:
		return zerolog.ErrorLevel
	case status >= 500:
		return zerolog.WarnLevel
	}
	return zerolog.InfoLevel
}

// recoverPanics turns a panic into a logged internal error instead of a dropped connection.
func recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				zerolog.Ctx(r.Context()).Error().Str("stack", string(debug.Stack())).Msg(fmt.Sprint("panic: ", v))
				writeError(w, r, realm.Errorf(realm.EInternal, "panic"))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// limitBody caps every request body; decode reports the overflow as ETooLarge.
func limitBody(n int64) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r = withRawBody(r) // /import lifts the cap to its own (export.go)
			r.Body = http.MaxBytesReader(w, r.Body, n)
			next.ServeHTTP(w, r)
		})
	}
}

// sharedNeo4jWait has the store calls of a request wait for Neo4j NEO4J_RETRY_TIME in
// all, from the first of them that waits, not that long each (cypher.WithSharedWait):
// a request runs many.
func sharedNeo4jWait(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(cypher.WithSharedWait(r.Context())))
	})
}
