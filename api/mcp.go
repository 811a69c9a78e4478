package api

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/reconsolidation"
)

// The MCP endpoint (Model Context Protocol, streamable HTTP transport) gives an LLM
// agent five tools over the same services as the HTTP routes: remember, recall, answer,
// feedback, forget. /mcp sits behind authenticate and rateLimit like every /v1 route;
// each tool names its space in its arguments, so each call runs Key.authorize, the
// checks of a /v1/spaces/{space} route, before touching the space: a space outside the
// key's patterns is "not found", exactly as over HTTP.
//
// The server is stateless (no Mcp-Session-Id, JSON responses): every POST carries
// its own call, so any replica can serve it and nothing is kept between requests; GET
// (a standalone event stream) and DELETE (ending a session) answer 405, which the
// protocol allows and clients expect of such a server.

// mcpInstructions is what a connecting client may hand its model about the tools.
const mcpInstructions = `REALM is a long-term memory. Each tool works in one space (a tenant, e.g. one user or one agent): pass the same "space" every time.
Store what was said with remember; look things up with recall (or answer, when the server has an LLM); after using recalled memories, report with feedback on the recall's trace_id whether they were right, so the memory reshapes itself; delete a wrong or unwanted memory with forget.`

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
	Speaker   string `json:"speaker" jsonschema:"who said it: a person's name, or user / assistant"`
	Timestamp string `json:"timestamp,omitempty" jsonschema:"when it was said, RFC 3339 (e.g. 2023-05-08T13:56:00Z); absent: now"`
	ID        string `json:"id,omitempty" jsonschema:"a stable id of the message; remembering the same id again changes nothing"`
	SessionID string `json:"session_id,omitempty" jsonschema:"the conversation the message belongs to"`
}

type recallArgs struct {
	spaceArg
	Query    string `json:"query" jsonschema:"what to look up, as a question or a topic in natural language"`
	K        int    `json:"k,omitempty" jsonschema:"how many memories to return, 1 to 100 (default 10)"`
	Time     string `json:"time,omitempty" jsonschema:"the now of the question, RFC 3339; relative times such as last week resolve against it (default: now)"`
	MaxDepth *int   `json:"max_depth,omitempty" jsonschema:"how many hops to follow from the first matches, 0 to 6 (default 3)"`
	Strategy string `json:"strategy,omitempty" jsonschema:"how to follow links: adaptive (default), path_search or subgraph_beam"`
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

type forgetArgs struct {
	spaceArg
	MemoryID string `json:"memory_id" jsonschema:"the id of the memory to delete (a node id from recall)"`
}

// The tools' results. Each is the JSON body its HTTP route answers (openapi.yaml): the
// SDK publishes its schema as the tool's outputSchema and sends it as structuredContent,
// with the same JSON as text content for clients that read only that. recall answers
// realm.RecallResult, answer answerResult, feedback reconsolidation.Result.

// rememberResult is what remember answers, as POST /v1/spaces/{space}/observations does.
type rememberResult struct {
	Results []construction.Result `json:"results" jsonschema:"one per message, in order: its observation id and status, the memories added or merged, the edges written"`
}

// forgetResult is what forget answers.
type forgetResult struct {
	Forgotten string `json:"forgotten" jsonschema:"the id of the memory deleted"`
}

// mcpHandler is the /mcp endpoint: an MCP server with REALM's tools, served statelessly.
func (s *server) mcpHandler() http.Handler {
	srv := mcp.NewServer(&mcp.Implementation{Name: "realm", Title: "REALM memory", Version: s.cfg.Version},
		&mcp.ServerOptions{Instructions: mcpInstructions})
	calls := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "realm_mcp_tool_calls_total",
		Help: "MCP tool calls by tool and outcome (ok, or the error code).",
	}, []string{"tool", "outcome"})
	s.Metrics.MustRegister(calls)
	no, yes := new(bool), new(bool)
	*yes = true

	addTool(s, srv, calls, ScopeWrite, &mcp.Tool{Name: "remember",
		Description: "Store messages of a conversation in a memory space. Each message becomes an observation; its entities, events and facts are extracted, merged with what the space already holds and linked. Returns, per message, the memories added or merged.",
		Annotations: &mcp.ToolAnnotations{Title: "Remember", IdempotentHint: true, DestructiveHint: no, OpenWorldHint: no}},
		func(ctx context.Context, key *Key, space string, in rememberArgs) (rememberResult, error) {
			req := observationsRequest{Messages: make([]message, len(in.Messages))}
			now := time.Now().UTC().Format(time.RFC3339)
			for i, m := range in.Messages {
				if m.Timestamp == "" {
					m.Timestamp = now
				}
				req.Messages[i] = message{ID: m.ID, SessionID: m.SessionID, Speaker: m.Speaker, Content: m.Content, Timestamp: m.Timestamp}
			}
			obs, fe := req.observations()
			if err := fe.Err(); err != nil {
				return rememberResult{}, err
			}
			results, err := s.Ingest.Ingest(ctx, space, obs)
			return rememberResult{Results: results}, err
		})

	addTool(s, srv, calls, ScopeRead, &mcp.Tool{Name: "recall",
		Description: "Find what a memory space holds about a question: the most relevant memories (entities, events, facts, episodes) with their content, times and scores, and the links among them. Keep the trace_id to send feedback.",
		Annotations: &mcp.ToolAnnotations{Title: "Recall", ReadOnlyHint: true, OpenWorldHint: no}},
		func(ctx context.Context, key *Key, space string, in recallArgs) (realm.RecallResult, error) {
			req, err := in.request()
			if err != nil {
				return realm.RecallResult{}, err
			}
			if err := req.Validate(); err != nil {
				return realm.RecallResult{}, err
			}
			return s.recall(ctx, space, req)
		})

	addTool(s, srv, calls, ScopeRead, &mcp.Tool{Name: "answer",
		Description: "Answer a question from a memory space: recall, then the server's LLM answers citing the memories it used (cited_node_ids), and the memory reshapes itself from the citations. Needs an LLM on the server; without one it fails with not_supported: use recall and answer yourself.",
		Annotations: &mcp.ToolAnnotations{Title: "Answer", OpenWorldHint: no, DestructiveHint: no}},
		func(ctx context.Context, key *Key, space string, in answerArgs) (answerResult, error) {
			if s.Answer == nil {
				return answerResult{}, errNoAnswerer // before the arguments: nothing to fix in them
			}
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

	addTool(s, srv, calls, ScopeWrite, &mcp.Tool{Name: "feedback",
		Description: "Tell the memory how a recall went (by its trace_id): whether the answer was correct, which recalled memories helped and which misled. The links among those memories are strengthened or weakened; returns the edits applied.",
		Annotations: &mcp.ToolAnnotations{Title: "Feedback", DestructiveHint: no, OpenWorldHint: no}},
		func(ctx context.Context, key *Key, space string, in feedbackArgs) (reconsolidation.Result, error) {
			fb := realm.Feedback{Answer: in.Answer, Correct: in.Correct, UsefulNodeIDs: in.UsefulNodeIDs, MisleadingNodeIDs: in.MisleadingNodeIDs}
			if err := fb.Validate(); err != nil {
				return reconsolidation.Result{}, err
			}
			if in.TraceID == "" {
				return reconsolidation.Result{}, realm.FieldErrors{"trace_id": "required"}.Err()
			}
			return s.Reconsolidate.Reconsolidate(ctx, space, in.TraceID,
				reconsolidation.Request{Answer: fb.Answer, Feedback: &fb, Source: realm.EditSourceFeedback})
		})

	addTool(s, srv, calls, ScopeWrite, &mcp.Tool{Name: "forget",
		Description: "Delete one memory (by the node id recall returned) from a memory space, with its links. It cannot be undone.",
		Annotations: &mcp.ToolAnnotations{Title: "Forget", DestructiveHint: yes, IdempotentHint: true, OpenWorldHint: no}},
		func(ctx context.Context, key *Key, space string, in forgetArgs) (forgetResult, error) {
			if in.MemoryID == "" {
				return forgetResult{}, realm.FieldErrors{"memory_id": "required"}.Err()
			}
			if err := s.Store.DeleteMemory(ctx, space, in.MemoryID); err != nil {
				return forgetResult{}, err
			}
			return forgetResult{Forgotten: in.MemoryID}, nil
		})

	return oneMessage(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, MaxRequestBodyBytes: s.cfg.MaxBodyBytes,
			// Without keys (loopback only, every caller the local admin) the SDK refuses a
			// loopback request naming another host: a web page's DNS rebinding. With keys,
			// the bearer key is the defence, and a reverse proxy on the same host must pass.
			DisableLocalhostProtection: len(s.cfg.Keys) > 0}))
}

// oneMessage refuses a JSON-RPC batch (a body that is a JSON array): MCP dropped
// batching in 2025-06-18, and the SDK still serves batches from older clients, whose
// calls would all pass the rate limit for the price of one request.
func oneMessage(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.Body != nil {
			body := bufio.NewReader(r.Body)
			for {
				c, err := body.ReadByte()
				if err != nil {
					break // the SDK reports an empty or unreadable body
				}
				if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
					continue // JSON whitespace, which need not be handed on
				}
				_ = body.UnreadByte()
				if c == '[' {
					writeError(w, r, realm.Errorf(realm.EInvalid, "JSON-RPC batches are not supported on /mcp: send one message a request"))
					return
				}
				break
			}
			r.Body = struct {
				io.Reader
				io.Closer
			}{body, r.Body}
		}
		next.ServeHTTP(w, r)
	})
}

// request is the recall request of the arguments.
func (a recallArgs) request() (realm.RecallRequest, error) {
	req := realm.RecallRequest{Query: a.Query, K: a.K, MaxDepth: a.MaxDepth, Strategy: realm.Strategy(a.Strategy)}
	if a.Time != "" {
		t, err := time.Parse(time.RFC3339, a.Time)
		if err != nil {
			return req, realm.FieldErrors{"time": "not an RFC 3339 time (e.g. 2023-05-08T13:56:00Z)"}.Err()
		}
		t = t.UTC()
		req.Time = &t
	}
	return req, nil
}

// addTool adds a tool that works in the space its arguments name. Every call first
// checks the caller's key as a /v1/spaces/{space} route would (Key.authorize), then
// runs; an error becomes a tool error (isError) carrying the code and message an HTTP
// problem would, and internal errors are logged, not shown.
//
// The tool's outputSchema is Out's, set here rather than by the SDK from a typed Out:
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
	if p := schema.Properties["strategy"]; p != nil {
		p.Enum = []any{string(realm.Adaptive), string(realm.StrategyPath), string(realm.StrategyBeam)}
	}
	tool.InputSchema = schema
	output, err := jsonschema.For[Out](nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: output schema: %v", tool.Name, err))
	}
	if output.Type != "object" {
		panic(fmt.Sprintf("tool %s: output schema of type %q, want an object", tool.Name, output.Type))
	}
	nullableMaps(output)
	tool.OutputSchema = output
	mcp.AddTool(srv, tool, func(ctx context.Context, req *mcp.CallToolRequest, in In) (res *mcp.CallToolResult, out any, _ error) {
		start := time.Now()
		var err error
		key := s.mcpKey(req.Extra)
		space := in.spaceID()
		ctx = s.Logger.With().Str("tool", tool.Name).Str("key", key.Name).Logger().WithContext(ctx)
		defer func() {
			if v := recover(); v != nil {
				err = realm.Errorf(realm.EInternal, "panic: %v", v)
				res, out = nil, nil
			}
			code := realm.ErrorCode(err)
			outcome := code
			if err == nil {
				outcome = "ok"
			} else {
				res, out = toolError(err), nil // out would replace the error's structured content
			}
			calls.WithLabelValues(tool.Name, outcome).Inc()
			line := s.Logger.Info()
			if code == realm.EInternal {
				line = s.Logger.Error().Err(err)
			}
			if realm.ValidSpace(space) {
				line = line.Str("space", space)
			}
			// The stateless SDK runs the call in the HTTP request's context: name the request
			// the access log names, when it is there.
			if id, ok := ctx.Value(requestIDCtx{}).(string); ok {
				line = line.Str("request_id", id)
			}
			line.Str("tool", tool.Name).Str("key", key.Name).Str("outcome", outcome).
				Dur("duration", time.Since(start)).Msg("mcp tool call")
		}()
		if err = key.authorize(space, scope); err == nil {
			out, err = run(ctx, key, space, in)
		}
		return nil, out, nil // on an error, the deferred function puts toolError in res and nil in out
	})
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
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: doc}
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
