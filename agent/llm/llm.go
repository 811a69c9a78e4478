package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"text/template"
	"time"

	"github.com/rs/zerolog"
	openai "github.com/sashabaranov/go-openai"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/internal/ctxtime"
)

// Integration modes of Config.Mode (REALM.md §5: measure both).
const (
	// ModeBatch integrates and relates all candidates of one observation in one call.
	ModeBatch = "batch"
	// ModePerCandidate makes one call per candidate, as the paper does.
	ModePerCandidate = "per-candidate"
)

// Usage stage names of the construction decisions.
const (
	StageExtract   = "extract"
	StageIntegrate = "integrate"
)

// Models names the chat model of each role. Extraction serves extract and integrate
// (construction), Retrieval plan, sufficiency and expand, Audit the auditor, Answer the
// answer decision (each empty: Extraction's model), Judge the benchmarks' judges.
type Models struct {
	Extraction string
	Retrieval  string
	Audit      string
	Answer     string
	Judge      string
}

// Config configures the LLM agent. Zero values take the defaults noted.
type Config struct {
	BaseURL string // OpenAI-compatible endpoint, e.g. http://localhost:8000/v1; "" is api.openai.com
	APIKey  string
	Models  Models        // Extraction defaults to gpt-4o-mini, the paper's backbone
	Timeout time.Duration // per HTTP attempt; default 60s
	// MaxRetries bounds the retries of one call on 429, 5xx, transport errors and
	// per-attempt timeouts. Default 2; negative means none. After the last, the decision
	// is the fallback agent's (the answer decision, which has none, is EUnavailable).
	MaxRetries int
	// TimeoutRetries bounds, within MaxRetries, the retries after a per-attempt timeout:
	// an overloaded server may answer the next attempt in time, but a prompt too slow
	// twice is likely too slow always, and each timeout costs Timeout. Default 1;
	// negative means none.
	TimeoutRetries int
	// Backoff is the first retry wait, doubled on each retry up to MaxBackoff (defaults
	// 500ms and 10s); each wait is drawn uniformly from [w/2, w] (jitter, so that callers
	// failing together do not retry together). A 429's or 503's Retry-After replaces the
	// computed wait (plus up to 10% jitter, never less); one beyond MaxBackoff is not
	// waited for: the call gives up at once and the fallback decides.
	Backoff     time.Duration
	MaxBackoff  time.Duration
	Mode        string  // ModeBatch (default) or ModePerCandidate
	Temperature float32 // default 0
	// Observe, when set, learns of every call, invalid output, retry and fallback as it
	// happens (metrics: cmd plugs in api.Metrics.ObserveLLM). It must be cheap and safe
	// for concurrent use.
	Observe func(Event)
}

// Kinds of Event.
const (
	LLMCall     = "call"     // one HTTP attempt; Reason "" when it answered
	LLMInvalid  = "invalid"  // an answer that failed validation (a repair or the fallback follows)
	LLMRetry    = "retry"    // a wait before another attempt; Reason is the failed attempt's
	LLMFallback = "fallback" // the fallback agent took Decisions decisions of the stage
	// LLMDropped: an answer held more units than REALM takes from one (maxCandidates);
	// Decisions is how many were dropped.
	LLMDropped = "dropped"
	// LLMSkipped: a call not sent, the server being away (ReasonAway); a fallback follows.
	LLMSkipped = "skipped"
)

// Reasons of a failed LLMCall or an LLMRetry. None holds text from a prompt or a reply.
const (
	ReasonRateLimited = "rate_limited" // 429
	ReasonServerError = "server_error" // 5xx
	ReasonTimeout     = "timeout"      // the per-attempt Timeout, or a network timeout
	ReasonTransport   = "transport"    // connection refused, reset, unreadable response
	ReasonClientError = "client_error" // another 4xx: not retried
	ReasonCanceled    = "canceled"     // the caller's context ended
	ReasonNoChoices   = "no_choices"
	ReasonTruncated   = "truncated" // finish_reason length
	ReasonRefused     = "refused"
	ReasonInvalid     = "invalid_output" // of LLMInvalid
	ReasonAway        = "away"           // not sent: the server gave no reply to the last calls (away)
)

// Event is one thing the LLM agent did, for metrics; it holds no prompt or reply text.
type Event struct {
	Stage  string // StageExtract, StageIntegrate, StageAnswer, …
	Kind   string // LLMCall, LLMInvalid, LLMRetry or LLMFallback
	Reason string // why a call failed or a retry happens; "" for a call that answered
	// PromptTokens and CompletionTokens are a call's usage as the server reports it.
	PromptTokens, CompletionTokens int
	// NoUsage: a call the server answered without usage (counted as 0 tokens).
	NoUsage   bool
	Duration  time.Duration // a call's latency; a retry's wait
	Decisions int           // LLMFallback: decisions the fallback agent took; LLMDropped: units dropped
}

// Agent is the agent.Agent backed by an OpenAI-compatible chat API (REALM.md §5): JSON-schema
// outputs validated against the domain, one repair retry, then the fallback agent's
// decision for that step. It is safe for concurrent use.
type Agent struct {
	cfg      Config
	client   *openai.Client
	fallback agent.Agent
	log      zerolog.Logger
	prompts  *template.Template
	// sleep waits between retries; a field so tests can observe waits without sleeping.
	sleep func(ctx context.Context, d time.Duration) error
	// noUsage warns, once, that the server answers without usage.
	noUsage sync.Once
	away    away
}

// away holds calls back while the model server is away: after awayAfter calls in a row
// that got no reply from it (timeouts, connections refused or reset, 5xx, 429, each after
// its retries), every call fails at once, taking the offline decision, for awayFor; then
// one call tries it again. A model that hangs costs a synchronous batch one timeout per
// awayFor instead of two per call of each message (minutes for a few messages).
type away struct {
	mu     sync.Mutex
	missed int       // calls in a row with no reply from the server
	until  time.Time // calls fail at once until then
}

const (
	awayAfter = 2
	awayFor   = 30 * time.Second
)

// holds reports whether a call is to fail at once, as of now.
func (a *away) holds(now time.Time) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return now.Before(a.until)
}

// record notes how a call ended (replied: the server answered it, whatever it said), and
// reports whether the server is now taken for away.
func (a *away) record(replied bool, now time.Time) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if replied {
		a.missed = 0
		return false
	}
	if a.missed++; a.missed >= awayAfter {
		a.missed, a.until = 0, now.Add(awayFor)
		return true
	}
	return false
}

var _ agent.Agent = (*Agent)(nil)

// New returns the LLM agent. fallback takes every decision the LLM fails to take.
func New(cfg Config, fallback agent.Agent, logger zerolog.Logger) (*Agent, error) {
	if fallback == nil {
		return nil, errors.New("llm.New: a fallback agent is required")
	}
	switch cfg.Mode {
	case "":
		cfg.Mode = ModeBatch
	case ModeBatch, ModePerCandidate:
	default:
		return nil, fmt.Errorf("llm.New: mode %q is neither %q nor %q", cfg.Mode, ModeBatch, ModePerCandidate)
	}
	if cfg.Models.Extraction == "" {
		cfg.Models.Extraction = openai.GPT4oMini
	}
	if cfg.Models.Answer == "" {
		cfg.Models.Answer = cfg.Models.Extraction
	}
	if cfg.Models.Retrieval == "" {
		cfg.Models.Retrieval = cfg.Models.Extraction
	}
	if cfg.Models.Audit == "" {
		cfg.Models.Audit = cfg.Models.Extraction
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 60 * time.Second
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = 2
	} else if cfg.MaxRetries < 0 {
		cfg.MaxRetries = 0
	}
	if cfg.TimeoutRetries == 0 {
		cfg.TimeoutRetries = 1
	} else if cfg.TimeoutRetries < 0 {
		cfg.TimeoutRetries = 0
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = 500 * time.Millisecond
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = 10 * time.Second
	}
	if cfg.Temperature < 0 || cfg.Temperature > 2 {
		return nil, fmt.Errorf("llm.New: temperature %v outside [0, 2]", cfg.Temperature)
	}
	prompts, err := parsePrompts()
	if err != nil {
		return nil, fmt.Errorf("llm.New: %w", err)
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	if cfg.BaseURL != "" {
		oc.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	}
	oc.HTTPClient = retryHintDoer{next: &http.Client{}}
	return &Agent{
		cfg:      cfg,
		client:   openai.NewClientWithConfig(oc),
		fallback: fallback,
		log:      logger.With().Str("component", "agent.llm").Logger(),
		prompts:  prompts,
		sleep:    ctxtime.Sleep,
	}, nil
}

// Extract asks the model for the candidates of one observation and the new summary.
// Nothing said is lost: when the fallback agent finds a statement in the observation
// (an event or a fact), an extraction without one is invalid (repaired once, then the
// fallback's extraction is taken).
func (l *Agent) Extract(ctx context.Context, in agent.ExtractInput) (agent.Extraction, realm.Usage, error) {
	usage := realm.Usage{}
	system, user, err := l.extractMessages(in)
	if err != nil {
		return agent.Extraction{}, usage, err
	}
	var fallback *agent.Extraction // the fallback agent's extraction, asked for at most once
	fallbackExtract := func() (agent.Extraction, error) {
		if fallback == nil {
			fb, fu, err := l.fallback.Extract(ctx, in)
			usage.Add(fu)
			if err != nil {
				return agent.Extraction{}, err
			}
			fallback = &fb
		}
		return *fallback, nil
	}
	var out agent.Extraction
	dropped := 0 // candidates of out beyond maxCandidates
	err = l.structured(ctx, usage, StageExtract, extractFormat(), system, user, func(content string) error {
		var werr error
		if out, dropped, werr = parseExtraction(content, in); werr != nil || statesSomething(out) {
			return werr
		}
		fb, werr := fallbackExtract()
		if werr == nil && statesSomething(fb) {
			werr = errNothingStated
		}
		return werr
	})
	if err == nil {
		if dropped > 0 {
			l.log.Warn().Str("stage", StageExtract).Str("observation", in.Observation.ID).Int("kept", maxCandidates).
				Int("dropped", dropped).Msg("LLM extraction has too many candidates; the excess is dropped")
			l.observe(Event{Stage: StageExtract, Kind: LLMDropped, Decisions: dropped})
		}
		return out, usage, nil
	}
	if ctx.Err() != nil {
		return agent.Extraction{}, usage, ctx.Err()
	}
	l.log.Warn().Str("stage", StageExtract).Str("observation", in.Observation.ID).
		Err(err).Msg("LLM extraction failed; using the fallback agent")
	fb, err := fallbackExtract()
	l.markFallback(usage, StageExtract, 1)
	return fb, usage, err
}

// errNothingStated rejects an extraction that would lose what the observation says.
var errNothingStated = errors.New("the observation states something (it is not a greeting or filler), " +
	"but no event or fact candidate holds it: extract at least one unit saying what it says")

// statesSomething reports whether an extraction holds a statement: an event or a fact
// with content (entities and episodes name what is talked about, not what is said).
func statesSomething(ex agent.Extraction) bool {
	for _, c := range ex.Candidates {
		if (c.Type == realm.Event || c.Type == realm.Fact) && strings.TrimSpace(c.Content) != "" {
			return true
		}
	}
	return false
}

// Integrate decides add / merge / skip and the edges of every candidate, in one call
// (ModeBatch) or one call per candidate (ModePerCandidate).
func (l *Agent) Integrate(ctx context.Context, in agent.IntegrateInput) ([]agent.Integration, realm.Usage, error) {
	usage := realm.Usage{}
	if len(in.Candidates) == 0 {
		return nil, usage, nil
	}
	all := make([]int, len(in.Candidates))
	for i := range all {
		all[i] = i
	}
	if l.cfg.Mode == ModeBatch {
		out, err := l.integrateCall(ctx, usage, in, all)
		if err == nil {
			return dropEdgesToSkipped(out), usage, nil
		}
		if ctx.Err() != nil {
			return nil, usage, ctx.Err()
		}
		l.log.Warn().Str("stage", StageIntegrate).Str("observation", in.Observation.ID).
			Int("candidates", len(in.Candidates)).Err(err).Msg("LLM integration failed; using the fallback agent")
		fb, fu, ferr := l.fallback.Integrate(ctx, in)
		usage.Add(fu)
		l.markFallback(usage, StageIntegrate, len(in.Candidates))
		return fb, usage, ferr
	}

	out := make([]agent.Integration, len(in.Candidates))
	var fallbackOut []agent.Integration // computed once, for all candidates, on the first failure
	for i := range in.Candidates {
		got, err := l.integrateCall(ctx, usage, in, []int{i})
		if err == nil {
			out[i] = got[i]
			continue
		}
		if ctx.Err() != nil {
			return nil, usage, ctx.Err()
		}
		l.log.Warn().Str("stage", StageIntegrate).Str("observation", in.Observation.ID).
			Int("candidate", i).Err(err).Msg("LLM integration failed; using the fallback agent")
		if fallbackOut == nil {
			fb, fu, ferr := l.fallback.Integrate(ctx, in)
			usage.Add(fu)
			if ferr != nil {
				return nil, usage, ferr
			}
			if len(fb) != len(in.Candidates) {
				return nil, usage, fmt.Errorf("agent: fallback returned %d integrations for %d candidates", len(fb), len(in.Candidates))
			}
			fallbackOut = fb
		}
		out[i] = fallbackOut[i]
		l.markFallback(usage, StageIntegrate, 1)
	}
	return dropEdgesToSkipped(out), usage, nil
}

// integrateCall asks for the decisions of the candidates at indexes decide; the result
// has len(in.Candidates) entries, filled at those indexes.
func (l *Agent) integrateCall(ctx context.Context, usage realm.Usage, in agent.IntegrateInput, decide []int) ([]agent.Integration, error) {
	req := newIntegrateRequest(in, decide)
	system, user, err := l.integrateMessages(req)
	if err != nil {
		return nil, err
	}
	var out []agent.Integration
	err = l.structured(ctx, usage, StageIntegrate, integrateFormat(), system, user, func(content string) error {
		var werr error
		out, werr = req.parse(content)
		return werr
	})
	return out, err
}

// structured runs one decision: a chat call whose content must pass accept, and when
// it does not, one repair call that shows the model its error. It returns the last error
// when no usable answer came.
func (l *Agent) structured(ctx context.Context, usage realm.Usage, stage string, format *openai.ChatCompletionResponseFormat,
	system, user string, accept func(content string) error) error {
	_, err := l.exchange(ctx, usage, stage, l.stageModel(stage), format, system, user, accept)
	return err
}

// ChatRequest is one free-form call on the LLM's transport (Agent.Chat).
type ChatRequest struct {
	// Stage names the call in the usage and in Event.Stage (e.g. "judge"); required.
	Stage string
	// Model is the chat model; "" is the stage's (Models.Answer for StageAnswer,
	// Models.Extraction otherwise).
	Model        string
	System, User string
	// Format is the response format asked for; nil for free text.
	Format *openai.ChatCompletionResponseFormat
	// Accept, when set, validates the reply: a reply it rejects is counted as invalid
	// output and gets one repair call showing the model the error; nil accepts any reply.
	Accept func(content string) error
}

// Chat sends one system and one user message on the LLM's transport (per-attempt
// Timeout, jittered retries, Retry-After, Observe events; see Config) at the configured
// Temperature, for callers with their own prompt, such as the benchmarks' judges. It
// returns the reply Accept took, and the usage under req.Stage in every case; the error is
// the last failure when no usable reply came (the context's when ctx ended). The fallback
// agent is not involved.
func (l *Agent) Chat(ctx context.Context, req ChatRequest) (string, realm.Usage, error) {
	usage := realm.Usage{}
	if req.Stage == "" {
		return "", usage, errors.New("llm.Agent.Chat: a stage is required")
	}
	model := req.Model
	if model == "" {
		model = l.stageModel(req.Stage)
	}
	content, err := l.exchange(ctx, usage, req.Stage, model, req.Format, req.System, req.User, req.Accept)
	return content, usage, err
}

// stageModel is the chat model of stage's calls.
func (l *Agent) stageModel(stage string) string {
	switch stage {
	case StageAnswer:
		return l.cfg.Models.Answer
	case StagePlan, StageSufficiency, StageExpand:
		return l.cfg.Models.Retrieval
	case StageAudit:
		return l.cfg.Models.Audit
	}
	return l.cfg.Models.Extraction
}

// exchange sends system and user to model and returns the reply accept takes (nil: any),
// after at most one repair call that shows the model the error of a rejected reply.
func (l *Agent) exchange(ctx context.Context, usage realm.Usage, stage, model string, format *openai.ChatCompletionResponseFormat,
	system, user string, accept func(content string) error) (string, error) {
	messages := []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: system},
		{Role: openai.ChatMessageRoleUser, Content: user},
	}
	for attempt := 0; ; attempt++ {
		content, err := l.complete(ctx, usage, stage, model, messages, format)
		if err != nil {
			return "", err
		}
		if accept == nil {
			return content, nil
		}
		verr := accept(content)
		if verr == nil {
			return content, nil
		}
		addUsage(usage, stage, realm.StageUsage{Failures: 1})
		l.observe(Event{Stage: stage, Kind: LLMInvalid, Reason: ReasonInvalid})
		// Log the validation error only: it names refs and fields, never memory text.
		l.log.Warn().Str("stage", stage).Int("attempt", attempt+1).Err(verr).Msg("LLM output invalid")
		if attempt == 1 {
			return "", verr
		}
		repair, err := l.render("repair.tmpl", struct{ Error string }{verr.Error()})
		if err != nil {
			return "", err
		}
		messages = append(messages,
			openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: content},
			openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: repair})
	}
}

// complete sends one chat request to model, retrying 429, 5xx, transport errors and timeouts with
// a bounded, jittered exponential backoff (see Config), and records every attempt in
// usage and through Observe. LatencyMS includes the retry waits: it is the time the stage
// spent on the LLM.
func (l *Agent) complete(ctx context.Context, usage realm.Usage, stage, model string, messages []openai.ChatCompletionMessage,
	format *openai.ChatCompletionResponseFormat) (string, error) {
	req := openai.ChatCompletionRequest{
		Model:          model,
		Messages:       messages,
		ResponseFormat: format,
	}
	if fixedSampling(model) {
		// A reasoning model rejects max_tokens, and its hidden reasoning counts toward
		// max_completion_tokens.
		req.MaxCompletionTokens = stageMaxTokens(stage) + reasoningTokens
	} else {
		req.MaxTokens = stageMaxTokens(stage)
		// go-openai omits a zero temperature (omitempty) and the API default is 1, so
		// zero is sent as the smallest positive float32, which every server treats as greedy.
		req.Temperature = max(l.cfg.Temperature, math.SmallestNonzeroFloat32)
	}
	if l.away.holds(time.Now()) {
		addUsage(usage, stage, realm.StageUsage{Failures: 1})
		l.observe(Event{Stage: stage, Kind: LLMSkipped, Reason: ReasonAway})
		return "", &callError{model: model, reason: ReasonAway, err: fmt.Errorf("not sent: the LLM server gave no reply to the last %d calls; tried again %s after the last", awayAfter, awayFor)}
	}
	start := time.Now()
	defer func() {
		addUsage(usage, stage, realm.StageUsage{LatencyMS: float64(time.Since(start).Microseconds()) / 1000})
	}()
	timeouts := 0
	for retry := 0; ; retry++ {
		hint := &retryHint{}
		actx, cancel := context.WithTimeout(context.WithValue(ctx, retryHintKey{}, hint), l.cfg.Timeout)
		began := time.Now()
		resp, err := l.client.CreateChatCompletion(actx, req)
		cancel()
		took := time.Since(began)
		content, reason, noUsage := "", "", false
		if err != nil {
			reason = failureReason(ctx, err)
		} else {
			noUsage = !hint.usage
			content, reason, err = answered(resp)
		}
		if noUsage {
			l.noUsage.Do(func() {
				l.log.Warn().Str("stage", stage).Str("model", model).
					Msg("the LLM server answers without usage: its calls count 0 tokens (realm_llm_calls_without_usage_total)")
			})
		}
		// One line per call for cost accounting; never the prompt or the reply.
		l.log.Debug().Str("stage", stage).Str("model", model).Int("prompt_tokens", resp.Usage.PromptTokens).
			Int("completion_tokens", resp.Usage.CompletionTokens).Dur("latency", took).
			Bool("ok", err == nil).Str("reason", reason).Msg("LLM call")
		addUsage(usage, stage, realm.StageUsage{Calls: 1,
			PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens})
		l.observe(Event{Stage: stage, Kind: LLMCall, Reason: reason, Duration: took, NoUsage: noUsage,
			PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens})
		if err == nil {
			l.away.record(true, time.Now())
			return content, nil
		}
		addUsage(usage, stage, realm.StageUsage{Failures: 1})
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if reason == ReasonTimeout {
			timeouts++
		}
		wait, ok := l.retryWait(reason, retry, timeouts, hint.after)
		if !ok {
			if l.away.record(!noReply[reason], time.Now()) {
				l.log.Warn().Str("model", model).Str("reason", reason).Dur("for", awayFor).
					Msg("the LLM server gave no reply to the last calls: calls take the offline decision at once for a while")
			}
			return "", &callError{model: model, attempts: retry + 1, reason: reason, status: httpStatus(err), err: err}
		}
		l.log.Warn().Str("stage", stage).Str("model", model).Int("retry", retry+1).Str("reason", reason).
			Dur("wait", wait).Err(err).Msg("LLM call failed; retrying")
		l.observe(Event{Stage: stage, Kind: LLMRetry, Reason: reason, Duration: wait})
		if err := l.sleep(ctx, wait); err != nil {
			return "", err
		}
	}
}

// maxTokens bounds the reply of one call of each stage (max_tokens), so that no message
// or question makes the model write, and the service pay for, more than a decision
// needs: an extraction of maxCandidates units with its summary, the decisions of as many
// candidates, 5 plans, a label for each of 100 recalled nodes. A reply cut off there is a
// failed call (finish_reason length: the offline decision; for the answer, a 503).
var maxTokens = map[string]int{
	StageExtract: 4096, StageIntegrate: 4096, StageAudit: 4096, StageAnswer: 2048,
	StagePlan: 1024, StageSufficiency: 512, StageExpand: 512,
}

const (
	// otherMaxTokens bounds the replies of Chat's other stages (the benchmarks' judges).
	otherMaxTokens = 2048
	// reasoningTokens is the room a reasoning model gets beyond a stage's bound to reason.
	reasoningTokens = 8192
)

func stageMaxTokens(stage string) int {
	if n, ok := maxTokens[stage]; ok {
		return n
	}
	return otherMaxTokens
}

// answered returns the content of a completed call, or why it is unusable.
func answered(resp openai.ChatCompletionResponse) (content, reason string, err error) {
	if len(resp.Choices) == 0 {
		return "", ReasonNoChoices, errors.New("chat completion without choices")
	}
	c := resp.Choices[0]
	if c.FinishReason == openai.FinishReasonLength {
		// Truncated JSON: not worth a repair that would be truncated too.
		return "", ReasonTruncated, errors.New("chat completion truncated (finish_reason length)")
	}
	if c.Message.Refusal != "" {
		return "", ReasonRefused, errors.New("model refused")
	}
	return c.Message.Content, "", nil
}

// noReply are the reasons of a call the server gave no reply to: the ones of a server
// away (away), not of one that answered badly.
var noReply = map[string]bool{ReasonRateLimited: true, ReasonServerError: true, ReasonTimeout: true, ReasonTransport: true}

// retryWait is the wait before retry number retry+1 after a failure of reason, and false
// when there is to be none: the reason is not transient, the retries are spent, or the
// server asks (Retry-After) for longer than MaxBackoff.
func (l *Agent) retryWait(reason string, retry, timeouts int, retryAfter time.Duration) (time.Duration, bool) {
	switch reason {
	case ReasonRateLimited, ReasonServerError, ReasonTransport:
	case ReasonTimeout:
		if timeouts > l.cfg.TimeoutRetries {
			return 0, false
		}
	default:
		return 0, false
	}
	if retry >= l.cfg.MaxRetries {
		return 0, false
	}
	if retryAfter > 0 {
		if retryAfter > l.cfg.MaxBackoff {
			return 0, false
		}
		return retryAfter + rand.N(retryAfter/10+1), true
	}
	wait := l.cfg.MaxBackoff
	if retry < 30 { // beyond, the shift overflows; the cap holds long before
		wait = min(l.cfg.Backoff<<retry, l.cfg.MaxBackoff)
	}
	return wait/2 + rand.N(wait/2+1), true
}

// callError is a chat call that gave no reply after its attempts: why the last failed.
type callError struct {
	model    string
	attempts int
	reason   string // Reason*
	status   int    // the HTTP status of the last attempt, 0 without one
	err      error
}

func (e *callError) Error() string {
	return fmt.Sprintf("chat completion (model %s, %d attempts): %v", e.model, e.attempts, e.err)
}

func (e *callError) Unwrap() error { return e.err }

// httpStatus is the HTTP status of a failed attempt, 0 when there was no answer.
func httpStatus(err error) int {
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.As(err, &apiErr):
		return apiErr.HTTPStatusCode
	case errors.As(err, &reqErr):
		return reqErr.HTTPStatusCode
	}
	return 0
}

// failureReason classifies a failed attempt; ctx is the caller's (not the attempt's).
func failureReason(ctx context.Context, err error) string {
	if ctx.Err() != nil {
		return ReasonCanceled
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return ReasonTimeout
	}
	status := httpStatus(err)
	switch {
	case status == http.StatusTooManyRequests:
		return ReasonRateLimited
	case status >= 500:
		return ReasonServerError
	case status >= 400:
		return ReasonClientError
	}
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		return ReasonTimeout
	}
	return ReasonTransport
}

// fixedSampling reports whether model is a reasoning model, whose API rejects a
// temperature other than the default.
func fixedSampling(model string) bool {
	for _, p := range []string{"o1", "o3", "o4", "gpt-5", "gpt-6"} {
		if strings.HasPrefix(model, p) {
			return true
		}
	}
	return false
}

// retryHint carries out of the HTTP layer the Retry-After of a failed attempt, and
// whether a reply held usage: go-openai's errors do not expose response headers, and it
// decodes a reply without usage as one of 0 tokens.
type retryHint struct {
	after time.Duration
	usage bool
}

type retryHintKey struct{}

type retryHintDoer struct{ next *http.Client }

func (d retryHintDoer) Do(req *http.Request) (*http.Response, error) {
	resp, err := d.next.Do(req)
	h, ok := req.Context().Value(retryHintKey{}).(*retryHint)
	switch {
	case err != nil || !ok:
	case resp.StatusCode == http.StatusOK:
		if err := h.readUsage(resp); err != nil {
			return nil, err
		}
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		h.after = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	}
	return resp, err
}

// readUsage notes whether the reply's body holds a usage object (zeros included), and
// puts the body back for go-openai.
func (h *retryHint) readUsage(resp *http.Response) error {
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	var reply struct{ Usage json.RawMessage }
	if json.Unmarshal(body, &reply) == nil {
		h.usage = len(reply.Usage) > 0 && string(reply.Usage) != "null"
	}
	return nil
}

// parseRetryAfter reads delay-seconds or an HTTP date; 0 when absent or unreadable.
func parseRetryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && s > 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

func addUsage(u realm.Usage, stage string, s realm.StageUsage) { u.Add(realm.Usage{stage: s}) }

// markFallback records that the fallback agent took n decisions of stage.
func (l *Agent) markFallback(u realm.Usage, stage string, n int) {
	addUsage(u, stage, realm.StageUsage{Fallbacks: n})
	l.observe(Event{Stage: stage, Kind: LLMFallback, Decisions: n})
}

func (l *Agent) observe(e Event) {
	if l.cfg.Observe != nil {
		l.cfg.Observe(e)
	}
}
