package api

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync/atomic"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
)

// statusOf is the one table from error code to HTTP status.
var statusOf = map[string]int{
	realm.EInvalid:          http.StatusBadRequest,
	realm.EUnauthorized:     http.StatusUnauthorized,
	realm.EForbidden:        http.StatusForbidden,
	realm.ENotFound:         http.StatusNotFound,
	realm.EMethodNotAllowed: http.StatusMethodNotAllowed,
	realm.EConflict:         http.StatusConflict,
	realm.ETooLarge:         http.StatusRequestEntityTooLarge,
	realm.ERateLimited:      http.StatusTooManyRequests,
	realm.ENotSupported:     http.StatusNotImplemented,
	realm.EUnavailable:      http.StatusServiceUnavailable,
	realm.EInternal:         http.StatusInternalServerError,
	eUnsupportedMediaType:   http.StatusUnsupportedMediaType,
}

// eUnsupportedMediaType is the code of a request body of another media type than its
// route's (guard): a matter of HTTP, so it is the api package's, not the domain's.
const eUnsupportedMediaType = "unsupported_media_type"

// statusClientClosedRequest is the status recorded (in the access log and the metrics)
// for a request whose client left before its answer: nginx's 499, outside the 5xx.
const statusClientClosedRequest = 499

// statusOfCode is the HTTP status of an error code (statusOf); 500 for one not in it.
func statusOfCode(code string) int {
	if status, ok := statusOf[code]; ok {
		return status
	}
	return http.StatusInternalServerError
}

// logFailure has the request's log line (withLogger) say why it failed: the code of every
// error, the message of a 5xx, the server's own words (a 4xx's may quote what the client
// sent). An MCP tool error counts with the status its route would answer, which sets the
// line's level too (failedStatusCtx): HTTP 200 carries an outage seen through MCP.
func logFailure(ctx context.Context, err error) {
	code := realm.ErrorCode(err)
	if worst, ok := ctx.Value(failedStatusCtx{}).(*atomic.Int64); ok {
		worst.Store(max(worst.Load(), int64(statusOfCode(code))))
	}
	zerolog.Ctx(ctx).UpdateContext(func(c zerolog.Context) zerolog.Context {
		c = c.Str("code", code)
		if statusOfCode(code) >= 500 {
			c = c.Str("error", realm.ErrorLogText(err))
		}
		return c
	})
}

// failedStatusCtx is the context key of the highest status of the errors a request met
// (logFailure), which withLogger logs the request at.
type failedStatusCtx struct{}

// retryAfterSeconds is the Retry-After of an error a retry can overcome (retryable).
const retryAfterSeconds = 5

// retryAfterOf is the Retry-After of a retryable error: its own, else retryAfterSeconds.
func retryAfterOf(err error) int {
	var e *realm.Error
	if errors.As(err, &e) && e.RetryAfter > 0 {
		return e.RetryAfter
	}
	return retryAfterSeconds
}

// retryable reports whether the same request may succeed after retryAfterSeconds: a 503 or
// a 429, but not when the LLM server refused the key, which fails the same way until the
// operator changes it.
func retryable(err error) bool {
	status := statusOfCode(realm.ErrorCode(err))
	var e *realm.Error
	lasting := errors.As(err, &e) && e.Lasting
	return (status == http.StatusServiceUnavailable || status == http.StatusTooManyRequests) && !lasting
}

// problem is an RFC 9457 problem document with our stable code and field errors.
type problem struct {
	Type     string            `json:"type"`
	Title    string            `json:"title"`
	Status   int               `json:"status"`
	Code     string            `json:"code"`
	Detail   string            `json:"detail"`
	Instance string            `json:"instance,omitempty"`
	Fields   map[string]string `json:"fields,omitempty"`
	// TraceID and Usage are those of an /answer that failed after its recall: the trace
	// holds the evidence, and the LLM calls made were paid for.
	TraceID string      `json:"trace_id,omitempty"`
	Usage   realm.Usage `json:"usage,omitempty"`
}

// ErrShuttingDown is the cause with which the server's caller cancels the requests'
// contexts (context.WithCancelCause, http.Server.BaseContext) when the drain at shutdown
// runs out: a request it cuts off answers 503 unavailable before its connection closes,
// where one whose client left answers nobody (499).
var ErrShuttingDown = errors.New("the server is shutting down")

// errCutOff is the answer of a request cut off by the shutdown; errIngestCutOff that of a
// synchronous ingestion, whose stored messages the next start integrates.
var (
	errCutOff       = realm.Errorf(realm.EUnavailable, "shutting down: this request was cut off before it finished; send it again once the server is back")
	errIngestCutOff = realm.Errorf(realm.EUnavailable, "shutting down: the messages of this batch not yet integrated stay pending and will be integrated after restart; "+
		"send the batch again then to learn each one's status (a batch sent again is not stored twice)")
)

// writeError answers with err as a problem. Internal errors are logged once, with
// their text, and shown to the client only as "internal error".
func writeError(w http.ResponseWriter, r *http.Request, err error) { writeProblem(w, r, err, nil) }

// writeProblem is writeError with the problem completed by extend (nil: nothing to add).
func writeProblem(w http.ResponseWriter, r *http.Request, err error, extend func(*problem)) {
	if errors.Is(context.Cause(r.Context()), ErrShuttingDown) && !errors.Is(err, errIngestCutOff) {
		// Whatever the cancellation made of the request's work; handleObservations says
		// more of its batch (errIngestCutOff).
		err = errCutOff
	}
	if r.Context().Err() != nil && (errors.Is(err, context.Canceled) || realm.ErrorCode(err) == realm.EInternal) {
		// The client went away: nobody reads the answer and nothing is wrong with the
		// service, so no internal error is logged.
		// The Neo4j driver's read cut off by the cancellation does not unwrap to
		// context.Canceled: any internal error of a cancelled request is taken for it.
		zerolog.Ctx(r.Context()).Info().AnErr("cause", err).Msg("request cancelled before its answer")
		w.WriteHeader(statusClientClosedRequest)
		return
	}
	code := realm.ErrorCode(err)
	status := statusOfCode(code)
	if code == realm.EInternal {
		zerolog.Ctx(r.Context()).Error().Err(err).Msg("internal error")
	}
	logFailure(r.Context(), err)
	p := problem{
		Type:     "urn:realm:problem:" + code,
		Title:    http.StatusText(status),
		Status:   status,
		Code:     code,
		Detail:   realm.ErrorMessage(err),
		Instance: r.URL.Path,
	}
	var e *realm.Error
	if errors.As(err, &e) {
		p.Fields = e.Fields
	}
	if extend != nil {
		extend(&p)
	}
	if retryable(err) && w.Header().Get("Retry-After") == "" { // the rate limit sets its own
		w.Header().Set("Retry-After", strconv.Itoa(retryAfterOf(err)))
	}
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(status)
	_ = jsonEncoder(w).Encode(p)
}
