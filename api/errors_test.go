package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
)

// TestWriteErrorClientGone: a request cancelled because its client left is recorded as
// 499 and not logged as an internal error; the same error on a live request stays a 500,
// and on one cut off by the shutdown is a 503.
func TestWriteErrorClientGone(t *testing.T) {
	for _, tc := range []struct {
		name       string
		cancelled  bool
		cause      error // of the cancellation
		err        error
		wantStatus int
		wantLog    string
	}{
		{"ClientGone", true, nil, fmt.Errorf("recall: %w", context.Canceled), statusClientClosedRequest, "request cancelled"},
		{"LiveRequest", false, nil, fmt.Errorf("recall: %w", context.Canceled), http.StatusInternalServerError, "internal error"},
		{"ClientGoneOtherError", true, nil, realm.Errorf(realm.EInvalid, "bad k"), http.StatusBadRequest, ""},
		// The driver's words for a read cut off by the cancellation, wrapping nothing.
		{"ClientGoneDriverRead", true, nil, fmt.Errorf("recall: %s", "Reading from connection has been canceled: context canceled"), statusClientClosedRequest, "request cancelled"},
		{"LiveDriverRead", false, nil, fmt.Errorf("recall: %s", "Reading from connection has been canceled: context canceled"), http.StatusInternalServerError, "internal error"},
		// Cut off by the shutdown, not by its client: answered, whatever the error.
		{"ShuttingDown", true, ErrShuttingDown, fmt.Errorf("recall: %w", context.Canceled), http.StatusServiceUnavailable, ""},
		{"ShuttingDownDriverRead", true, ErrShuttingDown, fmt.Errorf("recall: %s", "Reading from connection has been canceled: context canceled"), http.StatusServiceUnavailable, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs bytes.Buffer
			ctx, cancel := context.WithCancelCause(zerolog.New(&logs).WithContext(context.Background()))
			defer cancel(nil)
			if tc.cancelled {
				cancel(tc.cause)
			}
			r := httptest.NewRequest(http.MethodPost, "/v1/spaces/a/recall", nil).WithContext(ctx)
			w := httptest.NewRecorder()
			writeError(w, r, tc.err)
			if w.Code != tc.wantStatus {
				t.Errorf("status %d, want %d", w.Code, tc.wantStatus)
			}
			if tc.wantLog != "" && !strings.Contains(logs.String(), tc.wantLog) {
				t.Errorf("log %q, want it to contain %q", logs.String(), tc.wantLog)
			}
			if tc.wantStatus != http.StatusInternalServerError && strings.Contains(logs.String(), "internal error") {
				t.Errorf("logged as internal: %s", logs.String())
			}
		})
	}
}

// TestAccessLogInternal: the access line of a 500 is at error level with code internal
// and the message the client got, not the error's own text (logged once, apart).
func TestAccessLogInternal(t *testing.T) {
	var logs syncBuffer
	srv := httptest.NewServer(withLogger(zerolog.New(&logs))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, errors.New("neo4j said: boom"))
	})))
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	srv.Close()
	var access struct{ Level, Code, Error, Message string }
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if err := json.Unmarshal([]byte(line), &access); err != nil {
			t.Fatal(err)
		}
	}
	if access.Message != "request" || access.Level != "error" || access.Code != realm.EInternal || access.Error != "internal error" {
		t.Errorf("access line %+v, want level error, code internal, error \"internal error\":\n%s", access, logs.String())
	}
}

// TestInternalDetail: a 500, and an MCP tool error of code internal, say only "internal
// error", even for an error of the code's own words ("import import_provenance: wrote 30
// of 32", which a failed import once answered); the server's log keeps those words.
func TestInternalDetail(t *testing.T) {
	var logs syncBuffer
	failure := realm.Errorf(realm.EInternal, "import import_provenance: wrote 30 of 32")
	srv := httptest.NewServer(withLogger(zerolog.New(&logs))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, failure)
	})))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var p problemDoc
	if err := json.NewDecoder(resp.Body).Decode(&p); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusInternalServerError || p.Code != realm.EInternal || p.Detail != "internal error" {
		t.Errorf("answer %d %+v, want 500 internal with the detail \"internal error\"", resp.StatusCode, p)
	}
	if !strings.Contains(logs.String(), "wrote 30 of 32") {
		t.Errorf("the log lost the error's words:\n%s", logs.String())
	}
	if doc := toolError(failure).StructuredContent.(map[string]any); doc["detail"] != "internal error" {
		t.Errorf("tool error %+v, want the detail \"internal error\"", doc)
	}
}
