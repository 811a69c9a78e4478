package api

import (
	"context"
	"errors"
	"net/http"

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

// problem is an RFC 9457 problem document with our stable code and field errors.
type problem struct {
	Type     string            `json:"type"`
	Title    string            `json:"title"`
	Status   int               `json:"status"`
	Code     string            `json:"code"`
	Detail   string            `json:"detail"`
	Instance string            `json:"instance,omitempty"`
	Fields   map[string]string `json:"fields,omitempty"`
}

// writeError answers with err as a problem. Internal errors are logged once, with
// their text, and shown to the client only as "internal error".
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil && (errors.Is(err, context.Canceled) || realm.ErrorCode(err) == realm.EInternal) {
		// The client went away (or the drain at shutdown ran out): nobody reads the
		// answer and nothing is wrong with the service, so no internal error is logged.
		// The Neo4j driver's read cut off by the cancellation does not unwrap to
		// context.Canceled: any internal error of a cancelled request is taken for it.
		zerolog.Ctx(r.Context()).Info().AnErr("cause", err).Msg("request cancelled before its answer")
		w.WriteHeader(statusClientClosedRequest)
		return
	}
	code := realm.ErrorCode(err)
	status, ok := statusOf[code]
	if !ok {
		status = http.StatusInternalServerError
	}
	if code == realm.EInternal {
		zerolog.Ctx(r.Context()).Error().Err(err).Msg("internal error")
	}
	// The request's log line (withLogger) says why it failed: the code of every error, the
	// message of a 5xx, the server's own words (a 4xx's may quote what the client sent).
	zerolog.Ctx(r.Context()).UpdateContext(func(c zerolog.Context) zerolog.Context {
		c = c.Str("code", code)
		if status >= 500 {
			c = c.Str("error", realm.ErrorMessage(err))
		}
		return c
	})
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
	if (status == http.StatusServiceUnavailable || status == http.StatusTooManyRequests) && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", "5")
	}
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(status)
	_ = jsonEncoder(w).Encode(p)
}
