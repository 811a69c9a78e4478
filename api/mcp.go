package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/reconsolidation"
)

// The MCP endpoint (Model Context Protocol, streamable HTTP transport) gives an LLM
// agent its tools over the same services as the HTTP routes: remember, recall, answer,
// feedback, correct, forget, forget_about, forget_messages, spaces. /mcp sits behind
// authenticate and rateLimit like every /v1 route; each tool names its space in its
// arguments, so each call runs Key.authorize, the checks of a /v1/spaces/{space} route,
// before touching the space: a space outside the key's patterns is "not found", exactly
// as over HTTP.
//
// The server is stateless (no Mcp-Session-Id, JSON responses): every POST carries
// its own call, so any replica can serve it and nothing is kept between requests; GET
// (a standalone event stream) and DELETE (ending a session) answer 405, which the
// protocol allows and clients expect of such a server.

// mcpInstructions is what a connecting client may hand its model about the tools.
const mcpInstructions = `REALM is a long-term memory. Each tool works in one space (a tenant, e.g. one user or one agent): pass the same "space" every time, such as the user's id (space ids are case-sensitive).
Store what was said with remember; spaces lists the spaces that exist; look things up with recall (or answer, offered when the server has an LLM); after using recalled memories, report with feedback on the recall's trace_id whether they were right, so the memory reshapes itself; fix what a memory says with correct (the old version stays as history); delete a wrong or unwanted memory with forget, or, when the user asks to forget what they said, the message itself (forget with observation_id, a memory's source); forget everything about one person, when asked to, with forget_about (dry_run first to check); forget the messages of one speaker, or those said before a time, when asked to, with forget_messages (dry_run first to check).`

// spaceArg is the argument every tool takes first.
type spaceArg struct {
	Space string `json:"space" jsonschema:"the memory space (tenant) to work in: letters, digits, _ and -, at most 64 characters; the API key must be allowed this space"`
}

func (a spaceArg) spaceID() string { return a.Space }

type rememberArgs struct {
	spaceArg
	Messages []rememberMessage `json:"messages" jsonschema:"the messages to remember, oldest first (at least one)"`
}

type rememberMessage struct {
	Content   string `json:"content" jsonschema:"what was said, verbatim"`
	Speaker   string `json:"speaker,omitempty" jsonschema:"who said it: a person's name, or user / assistant (speaker or role is required)"`
	Role      string `json:"role,omitempty" jsonschema:"the chat role it was said in: user, assistant, system or tool (developer is system); with a speaker, the role says whether it is remembered and whether the speaker is a person"`
	Timestamp string `json:"timestamp,omitempty" jsonschema:"when it was said, RFC 3339 (e.g. 2023-05-08T13:56:00Z); absent: now"`
	ID        string `json:"id,omitempty" jsonschema:"a stable id of the message; remembering the same id again changes nothing"`
	SessionID string `json:"session_id,omitempty" jsonschema:"the conversation the message belongs to (without one, each day is one conversation)"`
	Replaces  string `json:"replaces,omitempty" jsonschema:"the id of an earlier message of the space this one is a new version of (an edited note): what that one said and this one does not say any more stops holding now"`
}

type recallArgs struct {
	spaceArg
	Query    string            `json:"query" jsonschema:"what to look up, as a question or a topic in natural language (not only white space)"`
	K        int               `json:"k,omitempty" jsonschema:"how many memories to return at most, 1 to 100 (default 10); fewer come back when few memories match the question"`
	Time     string            `json:"time,omitempty" jsonschema:"the now of the question, RFC 3339; relative times such as last week resolve against it, and a time before now recalls what the memory knew then: memories learned after it are left out (default: now)"`
	MaxDepth *int              `json:"max_depth,omitempty" jsonschema:"how many hops to follow from the first matches, 0 to 6 (default 3)"`
	Strategy string            `json:"strategy,omitempty" jsonschema:"how to follow links: adaptive (default), path_search or subgraph_beam"`
	MinScore float64           `json:"min_score,omitempty" jsonschema:"leave out memories scoring below this, 0 to 1 (default 0: none), so that fewer than k come back when the rest are not about the question"`
	Filters  *recallFiltersArg `json:"filters,omitempty" jsonschema:"return only the memories matching every filter set (default: none)"`
}

// recallFiltersArg is realm.RecallFilters as a tool takes it: times as RFC 3339 strings,
// checked as the time of recall is.
type recallFiltersArg struct {
	Types      []string `json:"types,omitempty" jsonschema:"only memories of these types (event, fact, entity, episode), e.g. [fact] for facts alone"`
	SessionIDs []string `json:"session_ids,omitempty" jsonschema:"only memories said in these conversations (the session_id given to remember), at most 100"`
	SaidSince  string   `json:"said_since,omitempty" jsonschema:"only memories said at or after this time (the time of the message they come from), RFC 3339"`
	SaidUntil  string   `json:"said_until,omitempty" jsonschema:"only memories said at or before this time (the time of the message they come from), RFC 3339"`
}

type answerArgs struct {
	recallArgs
	Reconsolidate *bool `json:"reconsolidate,omitempty" jsonschema:"reshape the memory from this answer's citations afterwards (default: the server's setting); true needs a key with the write scope"`
}

type feedbackArgs struct {
	spaceArg
	TraceID           string   `json:"trace_id" jsonschema:"the trace_id of the recall or answer this feedback is about"`
	Correct           *bool    `json:"correct,omitempty" jsonschema:"whether the answer built from the recalled memories was right"`
	Answer            string   `json:"answer,omitempty" jsonschema:"the answer given from the recalled memories"`
	UsefulNodeIDs     []string `json:"useful_node_ids,omitempty" jsonschema:"ids of recalled memories that helped"`
	MisleadingNodeIDs []string `json:"misleading_node_ids,omitempty" jsonschema:"ids of recalled memories that were wrong or misleading"`
}

// spacesArgs are the spaces tool's: none, its key says which spaces it reaches.
type spacesArgs struct{}

func (spacesArgs) spaceID() string { return "" }

// spacesResult is what the spaces tool answers, as GET /v1/spaces does.
type spacesResult struct {
	Spaces []cypher.SpaceInfo `json:"spaces" jsonschema:"the spaces this key reaches, in id order (at most 1000)"`
	More   bool               `json:"more" jsonschema:"more spaces follow (GET /v1/spaces pages through them)"`
}

type forgetArgs struct {
	spaceArg
	MemoryID      string `json:"memory_id,omitempty" jsonschema:"the id of the memory to delete (a node id from recall); or observation_id"`
	ObservationID string `json:"observation_id,omitempty" jsonschema:"instead of memory_id: the id of a message (a memory's source) to forget with every memory derived from it"`
}

type forgetAboutArgs struct {
	spaceArg
	About  []string `json:"about" jsonschema:"every form the person goes by: full name, email address (1 to 20 phrases, each 1 to 256 characters, not only white space); a message or a question names the person when it holds a phrase as whole words, in any case (an email address as a whole token; a number such as a card, an IBAN or a phone in any grouping, a phone's with or without its country code)"`
	DryRun bool     `json:"dry_run,omitempty" jsonschema:"true: answer what would go and change nothing"`
}

type forgetMessagesArgs struct {
	spaceArg
	Speaker *string `json:"speaker,omitempty" jsonschema:"only the messages of this speaker, as remembered (the exact name, in the same case); with before, those of this speaker said before it"`
	Before  string  `json:"before,omitempty" jsonschema:"only the messages said (their timestamp) before this time, RFC 3339 (e.g. 2026-12-01T00:00:00Z); give speaker, before or both"`
	DryRun  bool    `json:"dry_run,omitempty" jsonschema:"true: answer how many messages and memories would go and change nothing"`
}

type correctArgs struct {
	spaceArg
	MemoryID string `json:"memory_id" jsonschema:"the id of the memory to correct (an event or a fact: a node id from recall)"`
	Content  string `json:"content" jsonschema:"what the memory should say instead, self-contained"`
	// Without it a change said to have happened in April ends the old memory today, and a
	// question about May would get the old state.
	ValidFrom string `json:"valid_from,omitempty" jsonschema:"when what content says began to hold, RFC 3339 (e.g. 2023-04-01T00:00:00Z); the corrected memory holds until then. Not before the corrected memory began (the error conflict). Default: now"`
}

// correctResult is what correct answers.
type correctResult struct {
	Corrected string `json:"corrected" jsonschema:"the id of the memory corrected: it stays, as history"`
	MemoryID  string `json:"memory_id" jsonschema:"the id of the new memory, which recall offers in its place"`
	// A memory that held is corrected with the other events and facts of its messages.
	AlsoCorrected []construction.SiblingCorrected `json:"also_corrected,omitempty" jsonschema:"the other events and facts of the turn that said the corrected words that say them too (another copy of the turn, in an exchange with the turn before or after it), each corrected alike: corrected, the one superseded, memory_id, its new version"`
	NotCorrected  []construction.SiblingLeft      `json:"not_corrected,omitempty" jsonschema:"the other copies of the turn that said the corrected words left as they are, and why (they do not say them word for word); not those of an exchange's other turn"`
}

// The tools' results: the SDK publishes each one's schema as the tool's outputSchema and
// sends it as structuredContent, with the same JSON as text content for clients that
// read only that. answer and feedback answer the JSON body of their HTTP routes
// (openapi.yaml: answerResult, reconsolidation.Result); remember and recall a view of
// theirs made for a model to read (mcp_view.go).

// forgetResult is what forget answers.
type forgetResult struct {
	Forgotten string   `json:"forgotten" jsonschema:"the id of the memory, or of the message, deleted"`
	MemoryIDs []string `json:"memory_ids,omitempty" jsonschema:"for a message: the memories deleted with it (none: absent)"`
	// As remember's results: a key without the read scope learns only what each added.
	Reintegrated []ingestedView `json:"reintegrated,omitempty" jsonschema:"for a message: each message that stays and was a source of a memory deleted with it, integrated again from its own words (as remember reports a message), so that what it said comes back (none: absent)"`
}

// sentAt is the timestamp of a remembered message that came without one: the stored
// message's under the same id (a retry after a lost answer, whose "now" has moved on,
// would otherwise be refused as another message under a stored one's id), else now.
func (s *server) sentAt(ctx context.Context, space, id, now string) (string, error) {
	if id == "" {
		return now, nil
	}
	stored, err := s.Store.Observation(ctx, space, id)
	switch {
	case realm.ErrorCode(err) == realm.ENotFound:
		return now, nil
	case err != nil:
		return "", err
	}
	return stored.ObservedAt.UTC().Format(time.RFC3339Nano), nil
}

// mcpHandler is the /mcp endpoint: an MCP server with REALM's tools, served statelessly.
func (s *server) mcpHandler() http.Handler {
	srv := mcp.NewServer(&mcp.Implementation{Name: "realm", Title: "REALM memory", Version: s.cfg.Version},
		&mcp.ServerOptions{Instructions: mcpInstructions,
			// Tools only, their list fixed: a stateless server sends no notification (no
			// list_changed, no log messages), so it claims neither.
			Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}})
	calls := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "realm_mcp_tool_calls_total",
		Help: "MCP tool calls by tool and outcome (ok, or the error code).",
	}, []string{"tool", "outcome"})
	s.Metrics.MustRegister(calls)
	no, yes := new(bool), new(bool)
	*yes = true

	addTool(s, srv, calls, ScopeWrite, &mcp.Tool{Name: "remember",
		Description: "Store messages of a conversation in a memory space. Each message becomes an observation; its entities, events and facts are extracted, merged with what the space already holds and linked. Returns, per message, the memories added or merged.",
		// Idempotent only for messages with ids: without one, a message sent again (at
		// another time, its timestamp now) is another observation. One with an id and no
		// timestamp sent again takes the stored one's time, so a retry is the same message.
		Annotations: &mcp.ToolAnnotations{Title: "Remember", IdempotentHint: false, DestructiveHint: no, OpenWorldHint: no}},
		func(ctx context.Context, key *Key, space string, in rememberArgs) (rememberView, error) {
			// The messages of POST …/observations, but for the timestamp: a tool call is made
			// as the conversation goes on, by a model that seldom knows the time.
			req := observationsRequest{Messages: make([]message, len(in.Messages))}
			now := time.Now().UTC().Format(time.RFC3339)
			given := func(s string) *string { // absent is "" here, and an empty name is none
				if s == "" {
					return nil
				}
				return &s
			}
			for i, m := range in.Messages {
				if m.Timestamp == "" {
					ts, err := s.sentAt(ctx, space, m.ID, now)
					if err != nil {
						return rememberView{}, err
					}
					m.Timestamp = ts
				}
				req.Messages[i] = message{ID: m.ID, SessionID: m.SessionID, Speaker: given(m.Speaker), Role: given(m.Role), Content: m.Content, Timestamp: m.Timestamp, Replaces: m.Replaces}
			}
			obs, err := s.ingestable(key, space, req)
			if err != nil {
				return rememberView{}, err
			}
			// The key's synchronous ingestions, over HTTP and MCP alike (handleObservations).
			release, full := s.ingests.take(key.Name)
			if release == nil {
				return rememberView{}, syncSlotTaken(realm.Errorf(realm.ERateLimited, "%s: nothing was stored; call again once one of them has been answered", full))
			}
			defer release()
			results, err := s.Ingest.Ingest(ctx, space, obs)
			return viewIngested(key.ingestView(results)), err
		})

	addTool(s, srv, calls, ScopeRead, &mcp.Tool{Name: "recall",
		Description: "Find what a memory space holds about a question: the most relevant memories (entities, events, facts, episodes) with their content, who said them and when, whether they still hold (valid_until), their scores, and the links among them. Keep the trace_id to send feedback.",
		Annotations: &mcp.ToolAnnotations{Title: "Recall", ReadOnlyHint: true, OpenWorldHint: no}},
		func(ctx context.Context, key *Key, space string, in recallArgs) (recallView, error) {
			req, err := in.request()
			if err != nil {
				return recallView{}, err
			}
			if err := req.Validate(); err != nil {
				return recallView{}, err
			}
			res, err := s.recall(ctx, space, req)
			return viewRecall(res), err
		})

	if s.Answer != nil { // without an LLM the tool could only fail: a model is not offered it
		addTool(s, srv, calls, ScopeRead, &mcp.Tool{Name: "answer",
			Description: "Answer a question from a memory space: recall, then the server's LLM answers citing the memories it used (cited_node_ids), and the memory reshapes itself from the citations.",
			Annotations: &mcp.ToolAnnotations{Title: "Answer", OpenWorldHint: no, DestructiveHint: no}},
			func(ctx context.Context, key *Key, space string, in answerArgs) (answerResult, error) {
				req, err := in.request()
				if err != nil {
					return answerResult{}, err
				}
				ans := answerRequest{RecallRequest: req, Reconsolidate: in.Reconsolidate}
				if err := key.scopeErr(answerScope(ans)); err != nil { // reconsolidate: true needs write, as over HTTP
					return answerResult{}, err
				}
				return s.answer(ctx, space, ans)
			})
	}

	addTool(s, srv, calls, ScopeWrite, &mcp.Tool{Name: "feedback",
		Description: "Tell the memory how a recall went (by its trace_id): whether the answer was correct, which recalled memories helped and which misled. The links among those memories are strengthened or weakened; returns the edits applied. One feedback per trace_id (another is the error conflict); the server keeps traces for a while (30 days by default), after which feedback on one is the error not_found.",
		Annotations: &mcp.ToolAnnotations{Title: "Feedback", DestructiveHint: no, OpenWorldHint: no}},
		func(ctx context.Context, key *Key, space string, in feedbackArgs) (reconsolidation.Result, error) {
			if err := key.scopeErr(ScopeRead); err != nil { // read and write, as over HTTP (routes.go)
				return reconsolidation.Result{}, err
			}
			fb := realm.Feedback{Answer: in.Answer, Correct: in.Correct, UsefulNodeIDs: in.UsefulNodeIDs, MisleadingNodeIDs: in.MisleadingNodeIDs}
			if err := fb.Validate(); err != nil {
				return reconsolidation.Result{}, err
			}
			if in.TraceID == "" {
				return reconsolidation.Result{}, realm.FieldErrors{"trace_id": "required"}.Err()
			}
			if err := idTooLong("trace_id", in.TraceID); err != nil {
				return reconsolidation.Result{}, err
			}
			return s.Reconsolidate.Reconsolidate(ctx, space, in.TraceID,
				reconsolidation.Request{Answer: fb.Answer, Feedback: &fb, Source: realm.EditSourceFeedback})
		})

	addTool(s, srv, calls, "", &mcp.Tool{Name: "spaces",
		Description: "List the memory spaces that exist and this key reaches (a space exists from its first remembered message): find the one that holds a user's memory before recalling from it.",
		Annotations: &mcp.ToolAnnotations{Title: "Spaces", ReadOnlyHint: true, OpenWorldHint: no}},
		func(ctx context.Context, key *Key, _ string, _ spacesArgs) (spacesResult, error) {
			spaces, more, err := s.Store.ListSpaces(ctx, key.prefixes(), key.allows, "", maxSpacesPage)
			return spacesResult{Spaces: spaces, More: more}, err
		})

	addTool(s, srv, calls, ScopeWrite, &mcp.Tool{Name: "correct",
		Description: "Correct what one memory (an event or a fact, by the node id recall returned) says, e.g. a wrong name or a change of state. The memory is not overwritten: a new one says content and supersedes it, from valid_from (when the change happened; default now), and recall offers the new one for the present and the old one for questions about the past. The other copies of the same words (the turn's exchange with the turn before or after it) are corrected alike: also_corrected names them, not_corrected the other copies of that turn left as they are. The same call sent again answers as the first did and writes nothing more, but the copies an error (unavailable) stopped it before: a retry finishes it.",
		// Idempotent: the same correction again answers the memory it made.
		Annotations: &mcp.ToolAnnotations{Title: "Correct", DestructiveHint: no, IdempotentHint: true, OpenWorldHint: no}},
		func(ctx context.Context, key *Key, space string, in correctArgs) (correctResult, error) {
			if in.MemoryID == "" {
				return correctResult{}, realm.FieldErrors{"memory_id": "required"}.Err()
			}
			if err := idTooLong("memory_id", in.MemoryID); err != nil {
				return correctResult{}, err
			}
			if strings.ContainsRune(in.Content, 0) { // a JSON body is checked before (body.go); MCP arguments here
				return correctResult{}, realm.FieldErrors{"content": "must not contain NUL (\\u0000)"}.Err()
			}
			var validFrom time.Time
			if in.ValidFrom != "" {
				if msg := timeErr(in.ValidFrom); msg != "" {
					return correctResult{}, realm.FieldErrors{"valid_from": msg}.Err()
				}
				validFrom, _ = time.Parse(time.RFC3339, in.ValidFrom)
			}
			res, err := s.Ingest.Correct(ctx, space, in.MemoryID, in.Content, validFrom, s.sender(key))
			return correctResult{Corrected: in.MemoryID, MemoryID: res.ID, AlsoCorrected: res.AlsoCorrected, NotCorrected: res.NotCorrected}, err
		})

	addTool(s, srv, calls, ScopeWrite, &mcp.Tool{Name: "forget",
		Description: "Delete one memory (memory_id: a node id recall returned) from a memory space, with its links; or forget a whole message (observation_id: one of a memory's sources), with every memory derived from it, when the user asks to forget what they said: deleting one memory leaves the message and the other memories that say it. The other messages a deleted memory derived from too are integrated again from their own words (reintegrated), so that what they said stays. It cannot be undone.",
		// Not idempotent as far as a client can tell: forgetting the same memory again is the
		// tool error not_found, so that a mistyped id is not taken for a deletion.
		Annotations: &mcp.ToolAnnotations{Title: "Forget", DestructiveHint: yes, IdempotentHint: false, OpenWorldHint: no}},
		func(ctx context.Context, key *Key, space string, in forgetArgs) (forgetResult, error) {
			switch {
			case in.MemoryID == "" && in.ObservationID == "":
				return forgetResult{}, realm.FieldErrors{"memory_id": "required (or observation_id)"}.Err()
			case in.MemoryID != "" && in.ObservationID != "":
				return forgetResult{}, realm.FieldErrors{"observation_id": "give memory_id or observation_id, not both"}.Err()
			case idTooLong("memory_id", in.MemoryID) != nil:
				return forgetResult{}, idTooLong("memory_id", in.MemoryID)
			case idTooLong("observation_id", in.ObservationID) != nil:
				return forgetResult{}, idTooLong("observation_id", in.ObservationID)
			case in.ObservationID != "":
				forgotten, err := s.Ingest.Forget(ctx, space, in.ObservationID)
				if err != nil {
					return forgetResult{}, err
				}
				return forgetResult{Forgotten: in.ObservationID, MemoryIDs: forgotten.MemoryIDs,
					Reintegrated: viewIngested(key.ingestView(forgotten.Reintegrated)).Results}, nil
			}
			if err := s.Store.DeleteMemory(ctx, space, in.MemoryID); err != nil {
				return forgetResult{}, err
			}
			return forgetResult{Forgotten: in.MemoryID}, nil
		})

	addTool(s, srv, calls, ScopeWrite, &mcp.Tool{Name: "forget_about",
		Description: "Forget everything a memory space holds about one person, when the user asks for it (\"forget everything about Tom Becker\"), as POST /v1/spaces/{space}/forget: every message naming the person by one of the phrases of about (its speaker, content or session id; whole words, in any case, accents and spaces however encoded, a number in any grouping), with the memories derived from them (the other messages of a memory deleted are integrated again from their own words), every event and fact whose own name or content names them (a correction's), and the traces of recalls whose question names them. Nothing else is searched: entities and episodes go or change with the messages they derive from. Words of the person that no phrase holds (a nickname, the last name alone) stay: name every form. With dry_run, answers what would go and changes nothing; call it first to check the phrases. Returns the ids of the messages, memories and traces forgotten, and their counts. Called again, it finds nothing but what was said or asked since (a call that failed midway is finished by the same call again). It cannot be undone.",
		// Idempotent: the same call again forgets nothing more (but what was said since).
		Annotations: &mcp.ToolAnnotations{Title: "Forget about a person", DestructiveHint: yes, IdempotentHint: true, OpenWorldHint: no}},
		func(ctx context.Context, key *Key, space string, in forgetAboutArgs) (forgetAboutResult, error) {
			// Read and write, as over HTTP (routes.go): it answers what it found, a search of
			// the space.
			if err := key.scopeErr(ScopeRead); err != nil {
				return forgetAboutResult{}, err
			}
			return s.forgetAboutPerson(ctx, space, forgetAboutRequest{About: in.About, DryRun: in.DryRun})
		})

	addTool(s, srv, calls, ScopeWrite, &mcp.Tool{Name: "forget_messages",
		Description: "Forget messages in bulk, when the user or operator asks for it (\"forget the thermostat's readings older than a week\"), as DELETE /v1/spaces/{space}/observations?speaker=&before=: every message of speaker, or said before before, or both, each forgotten with every memory derived from it as forget with observation_id forgets one (the other messages of a memory deleted are integrated again from their own words). The speaker is matched exactly, not by the words of the messages: a person's own words about the thermostat stay. With dry_run, answers how many would go and changes nothing; call it first to check. Returns the counts of messages and memories forgotten. Called again, it finds nothing but what was said since (a call that failed midway is finished by the same call again). It cannot be undone.",
		// Idempotent: the same call again forgets nothing more (but what was said since).
		Annotations: &mcp.ToolAnnotations{Title: "Forget messages", DestructiveHint: yes, IdempotentHint: true, OpenWorldHint: no}},
		func(ctx context.Context, key *Key, space string, in forgetMessagesArgs) (forgetObservationsResult, error) {
			req := forgetObservationsRequest{Speaker: in.Speaker, DryRun: in.DryRun}
			if in.Before != "" {
				if msg := timeErr(in.Before); msg != "" {
					return forgetObservationsResult{}, realm.FieldErrors{"before": msg}.Err()
				}
				before, _ := time.Parse(time.RFC3339, in.Before)
				req.Before = &before
			}
			return s.forgetObservations(ctx, space, req)
		})

	srv.AddReceivingMiddleware(s.structuredToolErrors(calls))
	return rpcEnvelope(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, MaxRequestBodyBytes: s.cfg.MaxBodyBytes,
			// Without keys (loopback only, every caller the local admin) the SDK refuses a
			// loopback request naming another host: a web page's DNS rebinding. With keys,
			// the bearer key is the defence, and a reverse proxy on the same host must pass.
			DisableLocalhostProtection: len(s.cfg.Keys) > 0}))
}

// JSON-RPC 2.0 error codes for faults of the protocol, not of a tool.
const (
	rpcParseError     = -32700
	rpcInvalidRequest = -32600
	rpcMethodNotFound = -32601
	rpcInvalidParams  = -32602
	// rpcServerError (of the range JSON-RPC leaves to servers): a call cut off at shutdown.
	rpcServerError = -32000
)

// mcpMethods are the methods of the MCP schema this server serves: those of the base
// protocol, those of the one capability it advertises (tools) and the client's
// notifications; whether each is a notification (no id) and whether it needs params. The
// SDK would also answer the methods of resources, prompts, logging and completions, which
// the server does not advertise: MCP has a server answer a method it does not support
// "method not found". openapi.yaml's /mcp request schema says the same.
var mcpMethods = map[string]struct{ notification, needsParams bool }{
	"initialize": {false, true}, "ping": {}, "tools/list": {}, "tools/call": {false, true},
	"notifications/initialized": {true, false}, "notifications/cancelled": {true, false},
	"notifications/roots/list_changed": {true, false}, "notifications/progress": {true, true},
}

// sessionlessProtocol is the first MCP protocol version without sessions: from it on, a
// method the server does not serve is HTTP 404, which before it says the session is gone.
const sessionlessProtocol = "2026-07-28"

// validID reports whether a message's id, when it has one, is a string or an integer.
func validID(id json.RawMessage) bool {
	id = bytes.TrimSpace(id)
	return len(id) == 0 || id[0] == '"' || safeInteger(id)
}

// safeInteger reports whether a JSON number is an integer that every JSON reader keeps
// exact: at most 2^53-1 in magnitude. As in JSON Schema, -208.0 and 1e3 are integers.
func safeInteger(n []byte) bool {
	f, err := strconv.ParseFloat(string(n), 64)
	return err == nil && f == math.Trunc(f) && math.Abs(f) <= 1<<53-1
}

// rpcMessage is what rpcEnvelope reads of a message.
type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

// rpcEnvelope answers the faults of a POST to /mcp as JSON-RPC errors (application/json),
// as MCP's streamable HTTP transport asks of a message the server cannot accept, where
// the SDK would answer some of them in plain text:
//
//   - a body over the limit (limitBody): -32600 naming the limit, HTTP 413, with the id
//     the part read names (leadingID), else null. The SDK's client reads the error of a
//     response that echoes its id as the call's and keeps its session; a problem
//     document, or an id of null, it takes for a broken connection and closes it;
//   - a body that is not JSON: -32700, HTTP 400;
//   - a batch (a JSON array; MCP dropped batching in 2025-06-18, and each of its calls
//     would pass the rate limit for the price of one request), or no JSON-RPC 2.0 message
//     of MCP (no method, an id that is not a string or an integer, an id on a
//     notification or none on a request): -32600, HTTP 400; params that are not an
//     object or are missing, an initialize naming no protocol version: -32602, HTTP 400;
//   - a method the server does not serve (mcpMethods): -32601, HTTP 200 for a request and
//     400 for a notification, or 404 from protocol 2026-07-28 on (faultStatus);
//   - text that is no Unicode (a lone surrogate, NUL, bytes that are not UTF-8): in a
//     tool's arguments, the tool error invalid naming them in fields, as for any other bad
//     argument; elsewhere -32600, HTTP 400.
func rpcEnvelope(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			writeRPCError(w, http.StatusRequestEntityTooLarge, leadingID(body), rpcInvalidRequest,
				fmt.Sprintf("request too large: the body exceeds %d bytes (REALM_MAX_BODY_BYTES)", tooLarge.Limit))
			return
		}
		fe := realm.FieldErrors{}
		if _, syntax := readJSON(body, true, fe); err != nil || syntax != nil {
			why := "the body could not be read"
			if syntax != nil { // not JSON, more than one value, or nested deeper than maxDepth
				why = realm.ErrorMessage(syntax)
			}
			writeRPCError(w, http.StatusBadRequest, nil, rpcParseError, "parse error: "+why)
			return
		}
		if bytes.HasPrefix(bytes.TrimSpace(body), []byte("[")) {
			writeRPCError(w, http.StatusBadRequest, nil, rpcInvalidRequest, "JSON-RPC batches are not supported on /mcp: send one message a request")
			return
		}
		var msg rpcMessage
		if json.Unmarshal(body, &msg) != nil {
			writeRPCError(w, http.StatusBadRequest, nil, rpcInvalidRequest, "invalid request: a JSON-RPC message is an object")
			return
		}
		if code, text := msg.fault(fe); code != 0 {
			id := bytes.TrimSpace(msg.ID)
			if _, badText := fe["id"]; badText || !validID(id) {
				id = nil // the response names no id it cannot echo
			}
			writeRPCError(w, faultStatus(r, code, id), id, code, text)
			return
		}
		// Bad text in a tool's arguments is a tool error, as any bad argument; elsewhere in
		// params (the client's name, a progress message) the SDK takes it as it comes.
		args := realm.FieldErrors{}
		for f, why := range fe {
			if arg, ok := strings.CutPrefix(f, "params.arguments."); ok && msg.Method == "tools/call" {
				args[arg] = why
			}
		}
		if len(args) > 0 {
			writeRPCResult(w, msg.ID, toolError(&realm.Error{Code: realm.EInvalid, Message: "the arguments hold text that is not Unicode", Fields: args}))
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		cutOff := func() bool { return errors.Is(context.Cause(r.Context()), ErrShuttingDown) }
		rw := &plainErrors{ResponseWriter: w, cutOff: cutOff}
		next.ServeHTTP(rw, r.WithContext(context.WithValue(r.Context(), httpContext{}, r.Context())))
		switch {
		case rw.status != 0:
			writeRPCError(w, rw.status, msg.ID, rpcInvalidRequest, "invalid request: "+strings.TrimSpace(rw.text.String()))
		case !rw.wrote && cutOff():
			// The SDK stops waiting for the call's answer when its request ends, and answers
			// nothing, or the tool error of the cancelled call: the call cut off at shutdown
			// answers 503, as a route's request does.
			cut := errCutOff
			var call struct{ Name string }
			if json.Unmarshal(msg.Params, &call) == nil && call.Name == "remember" {
				cut = errIngestCutOff
			}
			logFailure(r.Context(), cut)
			w.Header().Set("Retry-After", strconv.Itoa(retryAfterSeconds))
			writeRPCError(w, http.StatusServiceUnavailable, msg.ID, rpcServerError, realm.EUnavailable+": "+cut.Message)
		}
	})
}

// httpContext is the context key of the context of the HTTP request that carried an MCP
// message (rpcEnvelope): the SDK runs a tool call in a context the request's end does not
// cancel (before protocol 2026-07-28 a client cancels a call by a notification).
type httpContext struct{}

// cutOffAtShutdown is ctx, cancelled with ErrShuttingDown when the drain at shutdown cuts
// off the HTTP request that carried the call, as it cancels every route's work; stop
// releases it.
func cutOffAtShutdown(ctx context.Context) (_ context.Context, stop func()) {
	cctx, cancel := context.WithCancelCause(ctx)
	request, ok := ctx.Value(httpContext{}).(context.Context)
	if !ok {
		return cctx, func() { cancel(nil) }
	}
	unwatch := context.AfterFunc(request, func() {
		if cause := context.Cause(request); errors.Is(cause, ErrShuttingDown) {
			cancel(cause)
		}
	})
	return cctx, func() { unwatch(); cancel(nil) }
}

// leadingID is the id of the JSON-RPC message body begins, when what it holds names one
// at the top level before anything that cannot be read (a body cut off at the limit):
// clients write the id before the params, which make a message large.
func leadingID(body []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(body))
	if open, err := dec.Token(); err != nil || open != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		var value json.RawMessage
		if err != nil || dec.Decode(&value) != nil {
			return nil
		}
		if key == "id" && validID(value) {
			return value
		}
	}
	return nil
}

// fault is the JSON-RPC error code and message of a message the server does not take (not
// a JSON-RPC message of MCP, or of a method it does not serve), or 0; bad text (fe, from
// readJSON) is a fault outside a tool's arguments.
func (m rpcMessage) fault(fe realm.FieldErrors) (int, string) {
	method, known := mcpMethods[m.Method]
	id := bytes.TrimSpace(m.ID)
	_, badText := fe["id"]
	switch {
	case m.JSONRPC != "2.0":
		return rpcInvalidRequest, `invalid request: a JSON-RPC 2.0 message has "jsonrpc": "2.0"`
	case m.Method == "":
		return rpcInvalidRequest, "invalid request: a message to this server names a method"
	case !validID(id):
		return rpcInvalidRequest, "invalid request: an id is a string or an integer"
	case badText:
		return rpcInvalidRequest, "invalid request: the id holds text that is not Unicode"
	case len(m.Params) > 0 && bytes.TrimSpace(m.Params)[0] != '{':
		return rpcInvalidParams, "invalid params: params is an object"
	case !known: // after the checks of any JSON-RPC message, so that only a well-formed one is answered 200
		return rpcMethodNotFound, fmt.Sprintf("method %s not found", quoted(m.Method))
	case method.notification && len(id) > 0:
		return rpcInvalidRequest, fmt.Sprintf("invalid request: %s is a notification, without an id", m.Method)
	case !method.notification && len(id) == 0:
		return rpcInvalidRequest, fmt.Sprintf("invalid request: %s is a request, with an id", m.Method)
	case method.needsParams && len(m.Params) == 0:
		return rpcInvalidParams, fmt.Sprintf("invalid params: %s needs params", m.Method)
	case m.Method == "initialize" && !m.namesVersion():
		return rpcInvalidParams, "invalid params: initialize needs params.protocolVersion, a string: the protocol version the client speaks"
	}
	return 0, ""
}

// namesVersion reports whether the params of m name a protocol version, a string, as MCP
// requires of initialize; the SDK would go on without one, or fail with no error code.
func (m rpcMessage) namesVersion() bool {
	var params map[string]json.RawMessage // its keys exact, as encoding/json's fields are not
	if json.Unmarshal(m.Params, &params) != nil {
		return false
	}
	version := bytes.TrimSpace(params["protocolVersion"])
	return len(version) > 0 && version[0] == '"'
}

// faultStatus is the HTTP status of a fault's JSON-RPC error (fault) for the message of
// id sent in r: 400, but for a method the server does not serve. From protocol 2026-07-28
// on that is 404; before it a 404 says the session is gone (the TypeScript SDK's client
// then fails the call as a broken transport, not with the error), so a request gets the
// error as its answer, 200, and a notification the 400 of a message the server cannot take.
func faultStatus(r *http.Request, code int, id json.RawMessage) int {
	switch {
	case code != rpcMethodNotFound:
		return http.StatusBadRequest
	case r.Header.Get("Mcp-Protocol-Version") >= sessionlessProtocol:
		return http.StatusNotFound
	case len(id) > 0:
		return http.StatusOK
	}
	return http.StatusBadRequest
}

// plainErrors holds back a plain-text error response (http.Error's) for rpcEnvelope to
// write as a JSON-RPC error, and any response begun once the drain at shutdown cut the
// request off (cutOff), for rpcEnvelope's 503; any other response passes, still saying
// Cache-Control: no-store (noStore), which the SDK replaces with its own.
type plainErrors struct {
	http.ResponseWriter
	status  int // of the error held back; 0: none
	text    strings.Builder
	cutOff  func() bool
	wrote   bool // a response passed
	dropped bool // a response begun after the cut
}

func (p *plainErrors) WriteHeader(status int) {
	p.Header().Set("Cache-Control", "no-store")
	switch {
	case p.dropped:
		return
	case p.wrote:
	case p.cutOff():
		p.dropped = true
		return
	case status >= 400 && strings.HasPrefix(p.Header().Get("Content-Type"), "text/plain"):
		p.status = status
		p.Header().Del("Content-Type")
		p.Header().Del("X-Content-Type-Options")
		return
	}
	p.wrote = true
	p.ResponseWriter.WriteHeader(status)
}

func (p *plainErrors) Write(b []byte) (int, error) {
	if !p.wrote && p.status == 0 && !p.dropped {
		p.WriteHeader(http.StatusOK)
	}
	switch {
	case p.status != 0:
		return p.text.Write(b)
	case p.dropped:
		return len(b), nil
	}
	return p.ResponseWriter.Write(b)
}

func (p *plainErrors) Flush() {
	if f, ok := p.ResponseWriter.(http.Flusher); ok && p.status == 0 {
		f.Flush()
	}
}

// quoted is s quoted for an error message, cut after maxQuoted bytes: an error names what
// it refuses without sending back a value of any size.
func quoted(s string) string {
	const maxQuoted = 64
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	cut := maxQuoted
	for !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "…"
}

// writeRPCError writes a JSON-RPC error response; id is the request's, or null.
func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, code int, message string) {
	writeRPC(w, status, map[string]any{"jsonrpc": "2.0", "id": rpcID(id), "error": map[string]any{"code": code, "message": message}})
}

// writeRPCResult writes a JSON-RPC result response to the request of id.
func writeRPCResult(w http.ResponseWriter, id json.RawMessage, result any) {
	writeRPC(w, http.StatusOK, map[string]any{"jsonrpc": "2.0", "id": rpcID(id), "result": result})
}

func writeRPC(w http.ResponseWriter, status int, msg map[string]any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = jsonEncoder(w).Encode(msg)
}

func rpcID(id json.RawMessage) json.RawMessage {
	if len(id) == 0 {
		return json.RawMessage("null")
	}
	return id
}

// request is the recall request of the arguments.
func (a recallArgs) request() (realm.RecallRequest, error) {
	fe := realm.FieldErrors{}
	req := realm.RecallRequest{Query: a.Query, K: a.K, MaxDepth: a.MaxDepth, Strategy: realm.Strategy(a.Strategy), MinScore: a.MinScore,
		Time: argTime(fe, "time", a.Time)}
	if f := a.Filters; f != nil {
		req.Filters = &realm.RecallFilters{SessionIDs: f.SessionIDs,
			SaidSince: argTime(fe, "filters.said_since", f.SaidSince), SaidUntil: argTime(fe, "filters.said_until", f.SaidUntil)}
		if f.Types != nil { // an empty list too, refused as over HTTP
			req.Filters.Types = make([]realm.NodeType, len(f.Types))
			for i, t := range f.Types {
				req.Filters.Types[i] = realm.NodeType(t)
			}
		}
	}
	return req, fe.Err()
}

// argTime is the RFC 3339 time s of a tool's argument, with the UTC offset it was given
// (a question's days are its asker's: realm.LocalTime), nil when s is empty; a bad one is
// added to fe under field.
func argTime(fe realm.FieldErrors, field, s string) *time.Time {
	if s == "" {
		return nil
	}
	if msg := timeErr(s); msg != "" {
		fe.Add(field, msg)
		return nil
	}
	t, _ := time.Parse(time.RFC3339, s)
	return &t
}

// addTool adds a tool that works in the space its arguments name. Every call first
// checks the caller's key as a /v1/spaces/{space} route would (Key.authorize; scope ""
// is a tool of no space, spaces, which serves any key within its patterns) and refuses
// a space an import holds (notImporting), then runs; an error becomes a tool error
// (isError) carrying the code and message an HTTP problem would, and internal errors
// are logged, not shown.
//
// The tool's outputSchema is Out's or toolError's (orToolError), set here rather than by the SDK from a typed Out:
// with a typed Out the SDK puts Out's zero value in the structuredContent of every result,
// tool errors included, where toolError's {code, detail, fields} must stay. Handed an
// output schema with Out = any, it still checks each result against the schema and sends
// it as structuredContent and as JSON text content, and leaves an error's alone.
func addTool[In interface{ spaceID() string }, Out any](s *server, srv *mcp.Server, calls *prometheus.CounterVec, scope Scope,
	tool *mcp.Tool, run func(ctx context.Context, key *Key, space string, in In) (Out, error)) {
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: %v", tool.Name, err)) // a programming error, caught by every test
	}
	boundArguments(schema)
	tool.InputSchema = schema
	s.toolArguments[tool.Name] = schema
	output, err := jsonschema.For[Out](nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: output schema: %v", tool.Name, err))
	}
	if output.Type != "object" {
		panic(fmt.Sprintf("tool %s: output schema of type %q, want an object", tool.Name, output.Type))
	}
	nullableMaps(output)
	tool.OutputSchema = orToolError(output)
	mcp.AddTool(srv, tool, func(ctx context.Context, req *mcp.CallToolRequest, in In) (res *mcp.CallToolResult, out any, _ error) {
		start := time.Now()
		var err error
		key := s.mcpKey(req.Extra)
		space := in.spaceID()
		ctx, stop := cutOffAtShutdown(ctx)
		defer stop()
		requestCtx := ctx // holds the request's logger (withLogger), which tells the tool error
		ctx = s.Logger.With().Str("tool", tool.Name).Str("key", key.Name).Logger().WithContext(ctx)
		defer func() {
			if v := recover(); v != nil {
				err = realm.Errorf(realm.EInternal, "panic: %v", v)
				res, out = nil, nil
			}
			if err != nil && errors.Is(context.Cause(ctx), ErrShuttingDown) {
				err = errCutOff // whatever the cancellation made of the call's work (rpcEnvelope answers it)
			}
			if err != nil {
				res, out = toolError(err), nil // out would replace the error's structured content
			}
			s.toolCallDone(requestCtx, calls, tool.Name, key, space, err, start)
		}()
		if scope != "" { // a tool of no space (spaces) serves any key, within its spaces
			err = key.authorize(space, scope)
			if err == nil { // as the space's routes refuse it (notImporting)
				err = s.importHold(ctx, space)
			}
		}
		if err == nil {
			out, err = run(ctx, key, space, in)
		}
		return nil, out, nil // on an error, the deferred function puts toolError in res and nil in out
	})
}

// toolCallDone counts a tool call in calls by its outcome (ok, or its error's code) and
// logs it: at info, or at the level its route's status would log an error at (warn for an
// outage, error for a bug), with the request's line saying why it failed (logFailure).
func (s *server) toolCallDone(ctx context.Context, calls *prometheus.CounterVec, tool string, key *Key, space string, err error, start time.Time) {
	outcome, level := "ok", zerolog.InfoLevel
	if err != nil {
		outcome, level = realm.ErrorCode(err), statusLevel(statusOfCode(realm.ErrorCode(err)))
		logFailure(ctx, err)
	}
	calls.WithLabelValues(tool, outcome).Inc()
	line := s.Logger.WithLevel(level)
	if outcome == realm.EInternal {
		line = line.Err(err)
	}
	if realm.ValidSpace(space) {
		line = line.Str("space", space)
	}
	// The stateless SDK runs the call in the HTTP request's context: name the request the
	// access log names, when it is there.
	if id, ok := ctx.Value(requestIDCtx{}).(string); ok {
		line = line.Str("request_id", id)
	}
	line.Str("tool", tool).Str("key", key.Name).Str("outcome", outcome).
		Dur("duration", time.Since(start)).Msg("mcp tool call")
}

// mcpKey is the key of the HTTP request that carried a tool call: the one authenticate
// found for it (the same lookup), the local admin when no key is configured, and a key
// with no scope and no space when the call came some other way.
func (s *server) mcpKey(extra *mcp.RequestExtra) *Key {
	if len(s.cfg.Keys) == 0 {
		return localKey
	}
	if extra != nil && extra.Header != nil {
		if k := s.findKey(extra.Header.Get("Authorization")); k != nil {
			return k
		}
	}
	return &Key{}
}

// toolError is err as a tool error: the text "code: message" (field errors after it)
// for the model, and the same as structured content for programs.
func toolError(err error) *mcp.CallToolResult {
	code, msg := realm.ErrorCode(err), realm.ErrorMessage(err)
	text := code + ": " + msg
	doc := map[string]any{"code": code, "detail": msg}
	var e *realm.Error
	if errors.As(err, &e) && len(e.Fields) > 0 {
		var parts []string
		for _, f := range slices.Sorted(maps.Keys(e.Fields)) {
			parts = append(parts, f+": "+e.Fields[f])
		}
		text += " (" + strings.Join(parts, "; ") + ")"
		doc["fields"] = e.Fields
	}
	if retryable(err) { // the Retry-After of the HTTP answer
		doc["retry_after"] = retryAfterOf(err)
	}
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: doc}
}

// toolErrorSchema is the structured content of a tool error (toolError).
var toolErrorSchema = &jsonschema.Schema{
	Type: "object", Required: []string{"code", "detail"}, AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	Properties: map[string]*jsonschema.Schema{
		"code":   {Type: "string", Description: "the error code, as in an HTTP problem: invalid, not_found, forbidden, conflict, not_supported, unavailable, internal, …"},
		"detail": {Type: "string", Description: "what went wrong, for people"},
		"fields": {Type: "object", Description: "argument → why it failed", AdditionalProperties: &jsonschema.Schema{Type: "string"}},
		"retry_after": {Type: "integer", Minimum: jsonschema.Ptr(1.0),
			Description: "the same call may succeed after this many seconds (Neo4j or a model away for a moment: unavailable); absent when a retry would fail alike"},
	},
}

// orToolError is the outputSchema of a tool whose result is out: an object that is
// either a result or a tool error's {code, detail, fields?, retry_after?}. MCP lets a client check
// every structuredContent against the outputSchema, a tool error's included, so the
// schema admits both; definitions move to the root, where their references point.
func orToolError(out *jsonschema.Schema) *jsonschema.Schema {
	defs := out.Defs
	out.Defs = nil
	return &jsonschema.Schema{Type: "object", Defs: defs, AnyOf: []*jsonschema.Schema{out, toolErrorSchema}}
}

// structuredToolErrors gives the tool errors the SDK writes itself (arguments that do not
// fit the inputSchema) the structured content of every other tool error, code invalid,
// and counts and logs them in calls as addTool does the others.
func (s *server) structuredToolErrors(calls *prometheus.CounterVec) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			start := time.Now()
			call, isCall := req.(*mcp.CallToolRequest)
			// MCP's tool names have at most 128 characters, and the SDK's error would quote a
			// longer one whole.
			if isCall && len(call.Params.Name) > 128 {
				return nil, &jsonrpc.Error{Code: rpcInvalidParams, Message: fmt.Sprintf("unknown tool %s", quoted(call.Params.Name))}
			}
			res, err := next(ctx, method, req)
			r, isResult := res.(*mcp.CallToolResult)
			if !isResult || !isCall || err != nil || !r.IsError || r.StructuredContent != nil {
				return res, err
			}
			// The SDK's text names Go types and quotes values: argumentErrors says the same in
			// the schema's words. A failure it cannot place (none the schema sees) names none.
			var args map[string]any
			_ = json.Unmarshal(call.Params.Arguments, &args)
			invalid := &realm.Error{Code: realm.EInvalid, Message: "the arguments do not fit the tool's inputSchema",
				Fields: argumentErrors(s.toolArguments[call.Params.Name], args)}
			space, _ := args["space"].(string)
			s.toolCallDone(ctx, calls, call.Params.Name, s.mcpKey(call.Extra), space, invalid, start)
			return toolError(invalid), nil
		}
	}
}

// nullableMaps lets every map of an inferred schema be null. jsonschema-go gives a Go
// slice the types [null, array] but a Go map only object, while encoding/json writes a
// nil map (a recall's usage without LLM calls) as null; the SDK checks each result
// against the schema and would fail the call.
func nullableMaps(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	isStruct := s.AdditionalProperties != nil && s.AdditionalProperties.Not != nil // additionalProperties: false
	if s.Type == "object" && len(s.Properties) == 0 && s.AdditionalProperties != nil && !isStruct {
		s.Type, s.Types = "", []string{"null", "object"}
	}
	for _, p := range s.Properties {
		nullableMaps(p)
	}
	for _, d := range s.Defs {
		nullableMaps(d)
	}
	nullableMaps(s.Items)
	if !isStruct {
		nullableMaps(s.AdditionalProperties)
	}
}
