package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"golang.org/x/text/unicode/norm"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
)

// observationsRequest is a batch of messages to remember.
type observationsRequest struct {
	Messages []message `json:"messages"`
}

// message is one observation as clients send it; speaker or role names who said it.
type message struct {
	ID        string  `json:"id,omitempty"`
	SessionID string  `json:"session_id,omitempty"`
	Speaker   *string `json:"speaker,omitempty"`
	Role      *string `json:"role,omitempty"`
	Content   string  `json:"content"`
	Timestamp string  `json:"timestamp"` // RFC 3339
	Replaces  string  `json:"replaces,omitempty"`
}

// maxNameLen bounds a message's speaker, role and session id, in characters.
const maxNameLen = 256

// chatRole returns the chat role (realm.ChatRoles) that s names in any case, in lower
// case, "" for none; OpenAI's "developer" is a system prompt, its "function" a tool's
// output.
func chatRole(s string) string {
	r := strings.ToLower(s)
	if len(r) != len(s) { // ASCII letters only: not "assİstant", which ToLower also makes "assistant"
		return ""
	}
	switch r {
	case "developer":
		return "system"
	case "function":
		return "tool"
	}
	if slices.Contains(realm.ChatRoles, r) {
		return r
	}
	return ""
}

// observations converts and checks the fields the pipeline cannot (the timestamp's
// syntax and range, who spoke); the pipeline checks the rest, with the same field names.
// Names lose their bidirectional formatting characters (stripBidi); a speaker's is
// composed (speakerName).
func (req observationsRequest) observations() ([]realm.Observation, realm.FieldErrors) {
	fe := realm.FieldErrors{}
	out := make([]realm.Observation, len(req.Messages))
	for i, m := range req.Messages {
		out[i] = m.observation(func(name string) string { return fmt.Sprintf("messages[%d].%s", i, name) }, fe)
	}
	return out, fe
}

// ReadMessage reads one message, a JSON object with the fields of a message of POST
// …/observations, with the same checks and conversion (the role kept beside the
// speaker): `realm ingest` reads its lines so. Its field errors name the fields alone
// (role, timestamp). Errors: EInvalid.
func ReadMessage(b []byte) (realm.Observation, error) {
	m, err := decodeJSON[message](b)
	if err != nil {
		return realm.Observation{}, err
	}
	fe := realm.FieldErrors{}
	o := m.observation(func(name string) string { return name }, fe)
	return o, fe.Err()
}

// observation converts and checks m (observations), adding its failures to fe under the
// names field gives.
func (m message) observation(field func(string) string, fe realm.FieldErrors) realm.Observation {
	// Who spoke: the speaker, else the role. A chat role (chatRole) is kept beside the
	// speaker; another role names who spoke, as a speaker does, and is not kept.
	var speaker, role string
	if m.Role != nil {
		if utf8.RuneCountInString(*m.Role) > maxNameLen {
			fe.Add(field("role"), fmt.Sprintf("at most %d characters", maxNameLen))
		}
		if role = chatRole(*m.Role); role != "" {
			speaker = *m.Role
		} else if speaker = speakerName(*m.Role); speaker == "" {
			fe.Add(field("role"), "must not be empty (bidirectional formatting characters do not count)")
		}
	}
	if m.Speaker != nil {
		if utf8.RuneCountInString(*m.Speaker) > maxNameLen {
			fe.Add(field("speaker"), fmt.Sprintf("at most %d characters", maxNameLen))
		}
		if speaker = speakerName(*m.Speaker); speaker == "" {
			fe.Add(field("speaker"), "must not be empty (bidirectional formatting characters do not count)")
		}
	}
	if m.Speaker == nil && m.Role == nil {
		fe.Add(field("speaker"), "required (or role)")
	}
	if utf8.RuneCountInString(m.SessionID) > maxNameLen {
		fe.Add(field("session_id"), fmt.Sprintf("at most %d characters", maxNameLen))
	}
	m.SessionID = stripBidi(m.SessionID)
	for name, v := range map[string]string{"speaker": speaker, "session_id": m.SessionID, "content": m.Content, "id": m.ID, "replaces": m.Replaces} {
		if strings.ContainsRune(v, 0) { // a JSON body is checked before (body.go); MCP arguments here
			fe.Add(field(name), "must not contain NUL (\\u0000)")
		}
	}
	var at time.Time
	var offset int
	if m.Timestamp == "" {
		fe.Add(field("timestamp"), "required (RFC 3339, e.g. 2023-05-08T13:56:00Z)")
	} else if msg := timeErr(m.Timestamp); msg != "" {
		fe.Add(field("timestamp"), msg)
	} else {
		t, _ := time.Parse(time.RFC3339, m.Timestamp)
		at = t.UTC()
		_, offset = t.Zone()
	}
	return realm.Observation{
		ID: m.ID, SessionID: m.SessionID, Speaker: speaker, Role: role, Content: m.Content, ObservedAt: at, Offset: offset,
		Replaces: m.Replaces,
	}
}

// stripBidi removes the Unicode bidirectional formatting characters (embeddings,
// overrides, isolates and marks) from a name: in a speaker's name they only serve to
// make it display as another name, and they would pass into the memories named after it.
func stripBidi(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C:
			return -1
		}
		return r
	}, s)
}

// speakerName is the name a speaker is known by: without bidirectional formatting
// characters (stripBidi), and composed (NFC), so that "Zoë" typed with a combining
// diaeresis (as macOS and iOS often send it) is the same speaker as "Zoë" typed with
// one character, one person, whose "I moved" supersedes their "I live". The content is
// kept as sent, byte for byte.
func speakerName(s string) string { return norm.NFC.String(stripBidi(s)) }

// sender is the name a message or a correction is stored as sent by: key's, "" on a
// server without keys, whose every caller is the same local admin.
func (s *server) sender(key *Key) string {
	if len(s.cfg.Keys) == 0 {
		return ""
	}
	return key.Name
}

// ingestable is the batch's observations, sent by key, or every field at fault at once: the
// request's syntax and the pipeline's rules (sizes, the batch's length). It is checked
// before a slot is taken: a batch that can never be stored is refused as invalid, not as
// one too many at once, which a client would send again.
func (s *server) ingestable(key *Key, space string, req observationsRequest) ([]realm.Observation, error) {
	obs, fe := req.observations()
	for i := range obs {
		obs[i].SentBy = s.sender(key)
	}
	var e *realm.Error
	if errors.As(s.Ingest.Validate(space, obs), &e) {
		for field, reason := range e.Fields {
			if _, ok := fe[field]; !ok {
				fe.Add(field, reason)
			}
		}
	}
	return obs, fe.Err()
}

// handleObservations ingests a batch: synchronously (200, one result per message) or,
// with ?async=true, stored at once and integrated in the background (202 and a job).
// Either way a key runs a bounded number at once (slots.go).
func (s *server) handleObservations(w http.ResponseWriter, r *http.Request) {
	space := chi.URLParam(r, "space")
	q := r.URL.Query()
	fe := realm.FieldErrors{}
	queryKnown(q, fe, "async")
	async := q.Get("async") == "true"
	if q.Has("async") && !async && q.Get("async") != "false" {
		fe.Add("async", "must be true or false")
	}
	if err := fe.Err(); err != nil {
		writeError(w, r, err)
		return
	}
	req, err := decode[observationsRequest](r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	obs, err := s.ingestable(keyOf(r.Context()), space, req)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if async {
		// Refused before anything is stored, so that the client may send the batch again.
		release, full := s.jobs.take(keyOf(r.Context()).Name)
		if release == nil {
			writeError(w, r, realm.Errorf(realm.ERateLimited,
				"%s: nothing was stored; send the batch again once one of them has ended (GET /v1/jobs/{id}), or without async", full))
			return
		}
		id, err := s.Ingest.IngestAsyncThen(cypher.WithOwnWaits(r.Context()), space, obs, release)
		if err != nil {
			writeError(w, r, err)
			return
		}
		w.Header().Set("Location", "/v1/jobs/"+id)
		encode(w, http.StatusAccepted, map[string]string{"job_id": id, "status_url": "/v1/jobs/" + id})
		return
	}
	// Refused before anything is stored, as an async batch is; the slot is given back
	// however the request ends.
	release, full := s.ingests.take(keyOf(r.Context()).Name)
	if release == nil {
		writeError(w, r, syncSlotTaken(realm.Errorf(realm.ERateLimited,
			"%s: nothing was stored; send the batch again once one of them has been answered", full)))
		return
	}
	defer release()
	results, err := s.Ingest.Ingest(r.Context(), space, obs)
	if err != nil && errors.Is(context.Cause(r.Context()), ErrShuttingDown) {
		err = errIngestCutOff
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	encode(w, http.StatusOK, map[string]any{"results": keyOf(r.Context()).ingestView(results)})
}

// ingestView is what the key learns of its ingestion. A key without the read scope (an
// ingest-only service) must not read the space by writing to it: it learns each message's
// outcome (status, sequence, error, usage) and the memories its messages added, but
// nothing of those the space held before, neither the memories merged into or superseded,
// nor what was skipped as already held, nor the edges written, whose descriptions quote
// the memories they join.
func (k *Key) ingestView(results []construction.Result) []construction.Result {
	if k.has(ScopeRead) {
		return results
	}
	for i := range results {
		r := &results[i]
		r.Merged, r.Skipped, r.Superseded, r.Edges = []string{}, []string{}, []string{}, []realm.Edge{}
	}
	return results
}

// handleJob finds the job in any space, then hides it, as if it did not exist, from a
// key that may not see its space. Any key of the space may follow its jobs: one without
// the read scope sees them as ingestView shows an ingestion, without the memories their
// observations superseded. With ?results=false it answers the job's status and counts
// only, without its per-message results (a poll of a large batch).
func (s *server) handleJob(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	key := keyOf(r.Context())
	q := r.URL.Query()
	fe := realm.FieldErrors{}
	queryKnown(q, fe, "results")
	withResults := q.Get("results") != "false"
	if q.Has("results") && withResults && q.Get("results") != "true" {
		fe.Add("results", "must be true or false")
	}
	if err := fe.Err(); err != nil {
		writeError(w, r, err)
		return
	}
	job, err := s.Ingest.Job(r.Context(), "", id)
	if err == nil && !key.allows(job.Space) {
		err = cypher.JobNotFound(id)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	if !key.has(ScopeRead) {
		for i := range job.Results {
			job.Results[i].Superseded = []string{}
		}
	}
	if !withResults {
		job.Results = nil // left out
	}
	encode(w, http.StatusOK, job)
}

func (s *server) handleListMemories(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	fe := realm.FieldErrors{}
	queryKnown(q, fe, "ids", "type", "since", "until", "q", "current", "cursor", "limit")
	f := cypher.MemoryFilter{Type: realm.NodeType(q.Get("type")), Q: q.Get("q")}
	if q.Has("ids") {
		f.IDs = memoryIDs(q.Get("ids"), fe)
	}
	if q.Has("type") && !f.Type.Valid() {
		fe.Add("type", "must be entity, event, episode or fact")
	}
	if q.Has("current") {
		switch c := q.Get("current"); c {
		case "true", "false":
			current := c == "true"
			f.Current = &current
		default:
			fe.Add("current", "must be true or false")
		}
	}
	var limit int
	f.Since, f.Until, limit = queryWindow(q, fe)
	if err := s.spaceReadable(r, fe); err != nil {
		writeError(w, r, err)
		return
	}
	nodes, next, err := s.Store.ListMemories(r.Context(), chi.URLParam(r, "space"), f, q.Get("cursor"), limit)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if nodes == nil {
		nodes = []realm.Node{}
	}
	encode(w, http.StatusOK, map[string]any{"memories": nodes, "next_cursor": next})
}

// maxMemoryIDs bounds the ids of one lookup by id (GET …/memories?ids=): the explorer
// names the memories of a trace, a few dozen, with one.
const maxMemoryIDs = 100

// memoryIDs reads the comma-separated ids of ?ids=, each once, adding to fe what is
// wrong with them. An id longer than any stored is no memory's: like any unknown id, it
// finds nothing, and is never quoted.
func memoryIDs(v string, fe realm.FieldErrors) []string {
	given := strings.Split(v, ",")
	switch {
	case len(given) > maxMemoryIDs:
		fe.Add("ids", fmt.Sprintf("at most %d ids; ask for more in several requests", maxMemoryIDs))
		return nil
	case slices.Contains(given, ""):
		fe.Add("ids", "memory ids separated by commas, none empty")
		return nil
	}
	var ids []string
	for _, id := range given {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}

func (s *server) handleGetMemory(w http.ResponseWriter, r *http.Request) {
	s.writeMemory(w, r, chi.URLParam(r, "space"), chi.URLParam(r, "id"))
}

// writeMemory answers one memory of space and its edges (memoryBody), or the error
// reading them.
func (s *server) writeMemory(w http.ResponseWriter, r *http.Request, space, id string) {
	body, err := s.memoryBody(r, space, id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	encode(w, http.StatusOK, body)
}

// memoryBody is one memory of space and its edges, {memory, edges}; a correction by a key
// without the read scope gets no edges, whose other ends and descriptions are the
// space's (ingestView).
func (s *server) memoryBody(r *http.Request, space, id string) (map[string]any, error) {
	node, edges, err := s.Store.GetMemory(r.Context(), space, id)
	if err != nil {
		return nil, err
	}
	if edges == nil || !keyOf(r.Context()).has(ScopeRead) {
		edges = []realm.Edge{}
	}
	return map[string]any{"memory": node, "edges": edges}, nil
}

// correctionRequest corrects one memory (PATCH …/memories/{id}).
type correctionRequest struct {
	Content   string     `json:"content"`
	ValidFrom *time.Time `json:"valid_from,omitempty"`
}

// handleCorrectMemory corrects a memory the way REALM writes a state change: a new memory
// and a supersedes edge to the old one, never an overwrite (construction.Pipeline.Correct).
func (s *server) handleCorrectMemory(w http.ResponseWriter, r *http.Request) {
	space := chi.URLParam(r, "space")
	req, err := decode[correctionRequest](r)
	if err == nil {
		err = s.Ingest.ValidateCorrection(req.Content)
	}
	if err := s.admit(r, err); err != nil {
		writeError(w, r, err)
		return
	}
	var validFrom time.Time
	if req.ValidFrom != nil {
		validFrom = *req.ValidFrom
	}
	res, err := s.Ingest.Correct(r.Context(), space, chi.URLParam(r, "id"), req.Content, validFrom, s.sender(keyOf(r.Context())))
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Location", "/v1/spaces/"+space+"/memories/"+url.PathEscape(res.ID))
	body, err := s.memoryBody(r, space, res.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	body["also_corrected"], body["not_corrected"] = res.AlsoCorrected, res.NotCorrected
	encode(w, http.StatusOK, body)
}

func (s *server) handleDeleteMemory(w http.ResponseWriter, r *http.Request) {
	if err := s.Store.DeleteMemory(r.Context(), chi.URLParam(r, "space"), chi.URLParam(r, "id")); err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleDeleteObservation forgets one message: the observation and the memories derived
// from it (cypher.Store.DeleteObservation says which), under the space's write lock, so
// that an integration of it still running writes nothing afterwards; the messages that
// stay and were sources of a deleted memory are integrated again before the answer
// (construction.Pipeline.Forget), which a key without the read scope sees as ingestView
// shows an ingestion.
func (s *server) handleDeleteObservation(w http.ResponseWriter, r *http.Request) {
	id, ok := s.observationID(w, r)
	if !ok {
		return
	}
	forgotten, err := s.Ingest.Forget(r.Context(), chi.URLParam(r, "space"), id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	forgotten.Reintegrated = keyOf(r.Context()).ingestView(forgotten.Reintegrated)
	encode(w, http.StatusOK, forgotten)
}

// handleListObservations lists the messages of a space in the order they were said (a
// page at a time), as stored: who said them, when, and whether they are integrated yet.
func (s *server) handleListObservations(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	fe := realm.FieldErrors{}
	queryKnown(q, fe, "session_id", "speaker", "status", "since", "until", "cursor", "limit")
	f := cypher.ObservationFilter{Status: q.Get("status"), Speaker: speakerName(q.Get("speaker"))}
	if q.Has("session_id") { // present but empty: the messages sent without a session id
		session := q.Get("session_id")
		f.SessionID = &session
	}
	if q.Has("speaker") && f.Speaker == "" { // every message has a speaker: none would be listed
		fe.Add("speaker", "must not be empty")
	}
	if q.Has("status") && !slices.Contains([]string{realm.ObservationPending, realm.ObservationIntegrated, realm.ObservationFailed}, f.Status) {
		fe.Add("status", "must be pending, integrated or failed")
	}
	var limit int
	f.Since, f.Until, limit = queryWindow(q, fe)
	if err := s.spaceReadable(r, fe); err != nil {
		writeError(w, r, err)
		return
	}
	obs, next, err := s.Store.ListObservations(r.Context(), chi.URLParam(r, "space"), f, q.Get("cursor"), limit)
	if err != nil {
		writeError(w, r, err)
		return
	}
	encode(w, http.StatusOK, map[string]any{"observations": obs, "next_cursor": next})
}

// handleGetObservation answers one message and the memories derived from it, each saying
// whether forgetting the message (DELETE …/observations/{id}) would delete it.
func (s *server) handleGetObservation(w http.ResponseWriter, r *http.Request) {
	id, ok := s.observationID(w, r)
	if !ok {
		return
	}
	obs, derived, err := s.Store.GetObservation(r.Context(), chi.URLParam(r, "space"), id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	encode(w, http.StatusOK, map[string]any{"observation": obs, "memories": derived})
}

// observationID is the {id} of …/observations/{id}, unescaped, once the request is
// admitted (admit); when it is no escape (400), or an import holds the space (409), it
// answers that and returns false.
func (s *server) observationID(w http.ResponseWriter, r *http.Request) (string, bool) {
	id, ok := pathParam(r, "id")
	var err error
	if !ok {
		err = realm.FieldErrors{"id": "must be a percent-encoded observation id"}.Err()
	}
	if err := s.admit(r, err); err != nil {
		writeError(w, r, err)
		return "", false
	}
	return id, true
}

// pathParam is the path parameter name, unescaped: chi routes on the raw path, and so
// gives its parameters still escaped, when the path holds an escape that the decoded
// one would not (an id holding "/", sent as %2F).
func pathParam(r *http.Request, name string) (string, bool) {
	v := chi.URLParam(r, name)
	if r.URL.RawPath == "" {
		return v, true
	}
	u, err := url.PathUnescape(v)
	return u, err == nil
}

// maxSpacesPage is the most spaces a page of GET /v1/spaces, and the spaces tool, lists.
const maxSpacesPage = 1000

// handleListSpaces lists, in id order and a page at a time, the spaces the key may
// reach: those matching its patterns (every space without keys).
func (s *server) handleListSpaces(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	fe := realm.FieldErrors{}
	queryKnown(q, fe, "limit", "cursor")
	limit := queryInt(q, "limit", 100, 1, maxSpacesPage, fe)
	cursor := q.Get("cursor")
	if q.Has("cursor") && !realm.ValidSpace(cursor) {
		fe.Add("cursor", "must be the next_cursor of an earlier page")
	}
	if err := fe.Err(); err != nil {
		writeError(w, r, err)
		return
	}
	key := keyOf(r.Context())
	spaces, more, err := s.Store.ListSpaces(r.Context(), key.prefixes(), key.allows, cursor, limit)
	if err != nil {
		writeError(w, r, err)
		return
	}
	next := ""
	if more {
		next = spaces[len(spaces)-1].ID
	}
	encode(w, http.StatusOK, map[string]any{"spaces": spaces, "next_cursor": next})
}

// handleDeleteSpace erases a space and everything in it (memories and their edges,
// observations, traces, edits, jobs), and nothing of any other space.
func (s *server) handleDeleteSpace(w http.ResponseWriter, r *http.Request) {
	space := chi.URLParam(r, "space")
	// An erase deletes batch after batch (seconds to minutes): each waits for a busy
	// Neo4j on its own, as an import's do.
	n, err := s.Store.DeleteSpace(cypher.WithOwnWaits(r.Context()), space)
	if err == nil && n == 0 {
		err = spaceNotFound(space)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	encode(w, http.StatusOK, map[string]any{"space": space, "deleted_nodes": n})
}

func (s *server) handleStats(w http.ResponseWriter, r *http.Request) {
	if err := s.spaceReadable(r, nil); err != nil {
		writeError(w, r, err)
		return
	}
	st, err := s.Store.Stats(r.Context(), chi.URLParam(r, "space"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	encode(w, http.StatusOK, st)
}

func (s *server) handleGraph(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	fe := realm.FieldErrors{}
	queryKnown(q, fe, "around", "depth", "limit")
	depth := queryInt(q, "depth", 1, 0, cypher.MaxGraphDepth, fe)
	limit := queryInt(q, "limit", 200, 1, 2000, fe)
	if err := s.spaceReadable(r, fe); err != nil {
		writeError(w, r, err)
		return
	}
	nodes, edges, err := s.Store.Graph(r.Context(), chi.URLParam(r, "space"), q.Get("around"), depth, limit)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if nodes == nil {
		nodes = []realm.Node{}
	}
	if edges == nil {
		edges = []realm.Edge{}
	}
	encode(w, http.StatusOK, map[string]any{"nodes": nodes, "edges": edges})
}

// spaceReadable is the error of a read of the whole space of r (a list, its stats, its
// graph, its edits): the errors of its query (fe), else ENotFound for a space that does
// not exist, never written or erased, as every other read of it, its export and a recall
// answer, and as a space outside the key's patterns is answered (spaceAccess): what
// exists and what a key may not see read alike. Reads of one item of a space (a memory,
// a message, a trace) find it missing anyway. A space an import holds is 409 (admit).
func (s *server) spaceReadable(r *http.Request, fe realm.FieldErrors) error {
	if err := s.admit(r, fe.Err()); err != nil {
		return err
	}
	space := chi.URLParam(r, "space")
	exists, err := s.Store.SpaceExists(r.Context(), space)
	if err == nil && !exists {
		err = spaceNotFound(space)
	}
	return err
}

// validSpace refuses a malformed {space} before any handler runs.
func validSpace(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := spaceIDErr(chi.URLParam(r, "space")); err != nil {
			writeError(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// spaceIDErr is validSpace's check: EInvalid for a malformed space id.
func spaceIDErr(space string) error {
	if !realm.ValidSpace(space) {
		return &realm.Error{Code: realm.EInvalid, Message: "invalid space id",
			Fields: map[string]string{"space": "must match [A-Za-z0-9_-]{1,64}"}}
	}
	return nil
}

// queryInt reads an integer in [min, max] from the query; absent is def, but a parameter
// sent empty (limit=) is refused.
// queryKnown refuses, in fe, a query parameter that is none of known or is given more
// than once: a typo (?limt=1) or a repeat (type=fact&type=event) would otherwise be
// ignored without a word, as an unknown field of a body is not.
func queryKnown(q url.Values, fe realm.FieldErrors, known ...string) {
	for name, values := range q {
		switch {
		case !slices.Contains(known, name):
			fe.Add(name, "unknown query parameter; this endpoint takes "+strings.Join(known, ", "))
		case len(values) > 1:
			fe.Add(name, "given more than once")
		}
	}
}

func queryInt(q url.Values, name string, def, min, max int, fe realm.FieldErrors) int {
	if !q.Has(name) {
		return def
	}
	n, err := strconv.Atoi(q.Get(name))
	if err != nil || n < min || n > max {
		fe.Add(name, fmt.Sprintf("must be an integer between %d and %d", min, max))
		return def
	}
	return n
}

// queryWindow reads the since and until (at or after since, before until) and the page
// size (limit) of a list of memories or messages.
func queryWindow(q url.Values, fe realm.FieldErrors) (since, until time.Time, limit int) {
	return queryTime(q, "since", fe), queryTime(q, "until", fe), queryInt(q, "limit", 50, 1, 500, fe)
}

// queryTime reads an RFC 3339 time from the query; absent is the zero time, but a
// parameter sent empty (since=) is refused, as any other value that is not a time.
func queryTime(q url.Values, name string, fe realm.FieldErrors) time.Time {
	if !q.Has(name) {
		return time.Time{}
	}
	v := q.Get(name)
	if msg := timeErr(v); msg != "" {
		fe.Add(name, msg)
		return time.Time{}
	}
	t, _ := time.Parse(time.RFC3339, v)
	return t
}
