package api

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/transfer"
)

// DefaultMaxImportBytes caps an import's body unless Config.MaxImportBytes says
// otherwise: a whole space with its embeddings is far larger than any JSON request
// (about 8.5 KiB a memory with 384-d vectors, plus its traces: a 793-memory LoCoMo space
// with 356 traces exports to 13.6 MB).
const DefaultMaxImportBytes = 1 << 30

// importReadTimeout bounds the upload of an import (1 GiB at 5 Mbit/s is 30 minutes).
const importReadTimeout = 30 * time.Minute

// DefaultImportIdleTimeout cuts off an import whose upload sends nothing for that long
// (Config.ImportIdleTimeout): a client that stalls would otherwise hold its slot, and the
// space, for the whole importReadTimeout.
const DefaultImportIdleTimeout = time.Minute

// handleExport streams a space as JSON Lines (transfer.Format). Headers and status
// are sent with the first line, so an error before it is a problem document; one after
// it cuts the stream short, and the missing "end" record makes the file refused by
// import.
func (s *server) handleExport(w http.ResponseWriter, r *http.Request) {
	space := chi.URLParam(r, "space")
	sw := &streamStart{w: w, start: func() {
		w.Header().Set("Content-Type", "application/x-ndjson")
		w.Header().Set("Content-Disposition", `attachment; filename="`+space+`.realm.jsonl"`)
		w.WriteHeader(http.StatusOK)
	}}
	flush := func() {
		if f, ok := w.(http.Flusher); ok && sw.started {
			f.Flush()
		}
	}
	_, err := transfer.Export(r.Context(), s.Store, space, sw, flush)
	switch {
	case err == nil:
	case !sw.started:
		writeError(w, r, err)
	default:
		zerolog.Ctx(r.Context()).Error().Err(err).Msg("export cut short")
	}
}

// streamStart calls start before the first write.
type streamStart struct {
	w       io.Writer
	start   func()
	started bool
}

func (s *streamStart) Write(p []byte) (int, error) {
	if !s.started {
		s.started = true
		s.start()
	}
	return s.w.Write(p)
}

// handleImport imports an export into the space, which must be empty. The body is
// spooled to a temporary file, bounded by Config.MaxImportBytes, because the import
// reads it twice: once to validate every line, refusing the whole import at the first
// bad one before anything is written, then to write (cypher.BeginImport, transfer.Run).
// Its first line is checked as it arrives (transfer.ReadHeader): a body that is no
// export this server can take is refused before the rest is read. The file is removed
// however the import ends. At most Config.MaxImports run at once, MaxImportsPerKey of
// them for one key: one more is refused (429) before its body is read. An upload that
// sends nothing for Config.ImportIdleTimeout is cut off (400), whatever time is left of
// importReadTimeout.
//
// The space is claimed first, before the body is read: a space that is not empty is
// refused at once, and from then until the import ends the space refuses every other
// request but its erasure (409: notImporting), so that nothing reads it half written,
// nothing sent to it is taken in and then lost, and nothing it writes is changed under it.
//
// The file's ids are kept only for a key that may read every space (keepsImportIDs); any
// other key's import gets new ids, so that it can neither take ids another space will
// derive nor learn, from a refused id, what another space holds.
func (s *server) handleImport(w http.ResponseWriter, r *http.Request) {
	// An import writes batch after batch for minutes: each waits for a busy Neo4j on its
	// own, as a background job's do, not within the request's one NEO4J_RETRY_TIME.
	r = r.WithContext(cypher.WithOwnWaits(r.Context()))
	space := chi.URLParam(r, "space")
	// A refusal before the body is read through closes the connection: the server
	// would otherwise read on, before answering, what the client is still sending.
	refuse := func(err error) {
		w.Header().Set("Connection", "close")
		writeError(w, r, err)
	}
	release, full := s.imports.take(keyOf(r.Context()).Name)
	if release == nil {
		refuse(realm.Errorf(realm.ERateLimited, "%s: send the file again once one of them has ended", full))
		return
	}
	defer release()
	imp, err := s.Store.BeginImport(r.Context(), space)
	if err != nil {
		refuse(err)
		return
	}
	f, err := os.CreateTemp("", "realm-import-*.jsonl")
	if err != nil {
		imp.Abandon(r.Context())
		refuse(err)
		return
	}
	defer os.Remove(f.Name())
	defer f.Close()
	// The server reads a request within a couple of minutes; a large import may take
	// longer to arrive, as long as its bytes keep coming.
	idle := s.cfg.ImportIdleTimeout
	if idle <= 0 {
		idle = DefaultImportIdleTimeout
	}
	body := &idleCut{body: r.Body, rc: http.NewResponseController(w), idle: idle, end: time.Now().Add(importReadTimeout)}
	opts := transfer.Options{Embedder: s.cfg.Embedder.ID, Dims: s.cfg.Embedder.Dim, KeepIDs: keyOf(r.Context()).keepsImportIDs()}
	if err := spoolImport(f, body, opts); err != nil {
		imp.Abandon(r.Context())
		refuse(err)
		return
	}
	open := func() (io.ReadCloser, error) {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		return io.NopCloser(f), nil
	}
	res, err := transfer.Run(r.Context(), imp, open, opts)
	if err != nil {
		writeError(w, r, err)
		return
	}
	encode(w, http.StatusCreated, res)
}

// spoolImport copies an import's body to f, its first line checked before the rest is
// read (transfer.ReadHeader).
func spoolImport(f io.Writer, body io.Reader, opts transfer.Options) error {
	br := bufio.NewReader(body)
	header, err := transfer.ReadHeader(br, opts)
	if err == nil {
		_, err = f.Write(header)
	}
	if err == nil {
		_, err = io.Copy(f, br)
	}
	var tooLarge *http.MaxBytesError
	var cut *uploadCut
	switch {
	case errors.As(err, &tooLarge):
		err = realm.Errorf(realm.ETooLarge, "the import exceeds %d bytes (REALM_MAX_IMPORT_BYTES)", tooLarge.Limit)
	case errors.As(err, &cut):
		err = realm.Errorf(realm.EInvalid, "%s: nothing was imported; send the file again", cut.why)
	}
	return err
}

// idleCut reads an import's body, its bytes given idle to come at each read, and all of
// them until end: a read past either deadline fails with an uploadCut.
type idleCut struct {
	body io.Reader
	rc   *http.ResponseController
	idle time.Duration
	end  time.Time
}

func (c *idleCut) Read(p []byte) (int, error) {
	deadline, why := time.Now().Add(c.idle), fmt.Sprintf("the upload sent nothing for %s", c.idle)
	if deadline.After(c.end) {
		deadline, why = c.end, fmt.Sprintf("the upload took longer than %s", importReadTimeout)
	}
	// (A test recorder cannot set a deadline: the error is of no consequence.)
	_ = c.rc.SetReadDeadline(deadline)
	n, err := c.body.Read(p)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		err = &uploadCut{why: why}
	}
	return n, err
}

// uploadCut is why an import's upload was cut off.
type uploadCut struct{ why string }

func (e *uploadCut) Error() string { return e.why }

// keepsImportIDs reports whether the key's imports keep the file's ids
// (transfer.Options.KeepIDs): it may read every space, as a key with read (or admin) on
// "*" or the local caller of a server without keys. Such a key sees every id anyway, and is the
// operator, who restores backups.
func (k *Key) keepsImportIDs() bool {
	return k.has(ScopeRead) && k.everySpace()
}

// rawBodyKey holds the request body before limitBody capped it.
type rawBodyKey struct{}

// importBody replaces the JSON body limit with the import's (Config.MaxImportBytes).
func (s *server) importBody(next http.Handler) http.Handler {
	limit := s.cfg.MaxImportBytes
	if limit <= 0 {
		limit = DefaultMaxImportBytes
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if raw, ok := r.Context().Value(rawBodyKey{}).(io.ReadCloser); ok {
			r.Body = http.MaxBytesReader(w, raw, limit)
		}
		next.ServeHTTP(w, r)
	})
}

// withRawBody keeps the uncapped body for importBody.
func withRawBody(r *http.Request) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), rawBodyKey{}, r.Body))
}
