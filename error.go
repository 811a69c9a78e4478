package realm

import (
	"errors"
	"fmt"
)

// Error codes. Each maps to one HTTP status in the api package's table.
const (
	EInvalid      = "invalid"       // the request is malformed or fails validation
	ENotFound     = "not_found"     // the space, memory, trace or job does not exist
	EConflict     = "conflict"      // the request conflicts with stored state
	ETooLarge     = "too_large"     // the body, batch or text exceeds a limit
	EUnavailable  = "unavailable"   // a dependency (Neo4j, an LLM) cannot be reached now
	ENotSupported = "not_supported" // the feature needs configuration that is absent
	EInternal     = "internal"      // a bug or an unexpected failure; details are logged only
	EUnauthorized = "unauthorized"  // no or bad credentials
	EForbidden    = "forbidden"     // credentials without the needed scope
	ERateLimited  = "rate_limited"  // too many requests for one API key; retry later
	// EMethodNotAllowed: the path exists but does not serve the request's method.
	EMethodNotAllowed = "method_not_allowed"
)

// Error is the one error type of the domain. Message is safe to show to clients;
// Fields names the request fields that failed validation, with a reason each.
type Error struct {
	Code    string
	Message string
	Fields  map[string]string
	// Lasting marks an EUnavailable that the same request would meet again later (the
	// LLM server refused REALM's API key): the API sends no Retry-After with it.
	Lasting bool
	// RetryAfter, when set, is how many seconds a retry of a retryable error should wait
	// (the API's Retry-After); 0: the API's default.
	RetryAfter int
	// Cause is what the operator needs and a client must not see (a driver's words
	// naming the database's address): in Error() and the logs, never in Message.
	Cause string
}

func (e *Error) Error() string {
	msg := e.Message
	if e.Cause != "" {
		msg += ": " + e.Cause
	}
	if len(e.Fields) == 0 {
		return fmt.Sprintf("realm %s: %s", e.Code, msg)
	}
	return fmt.Sprintf("realm %s: %s %v", e.Code, msg, e.Fields)
}

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of err if it is (or wraps) an *Error, EInternal otherwise,
// and "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EInternal
}

// ErrorMessage returns the client-safe message of err: the *Error's message, or
// "internal error" for anything else and for an EInternal *Error, whose message is the
// code's words ("import import_edges: wrote 51 of 73"), for the logs (Error()) only.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) && e.Code != EInternal {
		return e.Message
	}
	return "internal error"
}

// ErrorLogText returns what the logs say of err: the client-safe message followed by
// the *Error's Cause, if any.
func ErrorLogText(err error) string {
	var e *Error
	if errors.As(err, &e) && e.Cause != "" {
		return e.Message + ": " + e.Cause
	}
	return ErrorMessage(err)
}

// FieldErrors collects validation failures; Err returns nil when there are none.
type FieldErrors map[string]string

// Add records a failure of field.
func (f FieldErrors) Add(field, reason string) { f[field] = reason }

// Err returns an EInvalid *Error listing the fields, or nil.
func (f FieldErrors) Err() error {
	if len(f) == 0 {
		return nil
	}
	return &Error{Code: EInvalid, Message: "request failed validation", Fields: f}
}
