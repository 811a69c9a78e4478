package api

import (
	"fmt"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
)

// withLogger puts a request-scoped logger (carrying the request id) into the context
// and writes one JSON access log line per request. Bodies and memory contents are never
// logged.
func withLogger(base zerolog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			reqID := middleware.GetReqID(r.Context())
			w.Header().Set("X-Request-Id", reqID)
			logger := base.With().Str("request_id", reqID).Logger()
			ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
			ctx := logger.WithContext(r.Context())
			next.ServeHTTP(ww, r.WithContext(ctx))
			route := chi.RouteContext(r.Context()).RoutePattern()
			// The context's logger, which authenticate may have given the key's name.
			zerolog.Ctx(ctx).Info().
				Str("method", r.Method).
				Str("route", route).
				Int("status", ww.Status()).
				Int("bytes", ww.BytesWritten()).
				Dur("duration", time.Since(start)).
				Msg("request")
		})
	}
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
			r.Body = http.MaxBytesReader(w, r.Body, n)
			next.ServeHTTP(w, r)
		})
	}
}
