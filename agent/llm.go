package agent

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"text/template"
	"time"

	"github.com/rs/zerolog"
	openai "github.com/sashabaranov/go-openai"

	"github.com/realm-memory/realm"
)

// Integration modes of LLMConfig.Mode (REALM.md §5: measure both).
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
// (construction), Answer the answer decision (empty: Extraction's model); the others are
// for retrieval, reconsolidation and judging.
type Models struct {
	Extraction string
	Retrieval  string
	Audit      string
	Answer     string
	Judge      string
}

// LLMConfig configures the LLM agent. Zero values take the defaults noted.
type LLMConfig struct {
	BaseURL string // OpenAI-compatible endpoint, e.g. http://localhost:8000/v1; "" is api.openai.com
	APIKey  string
	Models  Models        // Extraction defaults to gpt-4o-mini, the paper's backbone
	Timeout time.Duration // per HTTP attempt; default 60s
	// MaxRetries bounds the retries of one call on 429, 5xx and transport errors
	// (not on timeouts: a model too slow once is likely too slow again). Default 2;
	// negative means none.
	MaxRetries int
	// Backoff is the first retry wait, doubled on each retry up to MaxBackoff (defaults
	// 500ms and 10s). A Retry-After header replaces the computed wait, capped at MaxBackoff.
	Backoff     time.Duration
	MaxBackoff  time.Duration
	Mode        string  // ModeBatch (default) or ModePerCandidate
	Temperature float32 // default 0
}

// LLM is the Agent backed by an OpenAI-compatible chat API (REALM.md §5): JSON-schema
// outputs validated against the domain, one repair retry, then the fallback agent's
// decision for that step. It is safe for concurrent use.
type LLM struct {
	cfg      LLMConfig
	client   *openai.Client
	fallback Agent
	log      zerolog.Logger
	prompts  *template.Template
	// sleep waits between retries; a field so tests can observe waits without sleeping.
	sleep func(ctx context.Context, d time.Duration) error
}

var _ Agent = (*LLM)(nil)

// NewLLM returns the LLM agent. fallback takes every decision the LLM fails to take.
func NewLLM(cfg LLMConfig, fallback Agent, logger zerolog.Logger) (*LLM, error) {
	if fallback == nil {
		return nil, errors.New("agent.NewLLM: a fallback agent is required")
	}
	switch cfg.Mode {
	case "":
		cfg.Mode = ModeBatch
	case ModeBatch, ModePerCandidate:
	default:
		return nil, fmt.Errorf("agent.NewLLM: mode %q is neither %q nor %q", cfg.Mode, ModeBatch, ModePerCandidate)
	}
	if cfg.Models.Extraction == "" {
		cfg.Models.Extraction = openai.GPT4oMini
	}
	if cfg.Models.Answer == "" {
		cfg.Models.Answer = cfg.Models.Extraction
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 60 * time.Second
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = 2
	} else if cfg.MaxRetries < 0 {
		cfg.MaxRetries = 0
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = 500 * time.Millisecond
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = 10 * time.Second
	}
	if cfg.Temperature < 0 || cfg.Temperature > 2 {
		return nil, fmt.Errorf("agent.NewLLM: temperature %v outside [0, 2]", cfg.Temperature)
	}
	prompts, err := parsePrompts()
	if err != nil {
		return nil, fmt.Errorf("agent.NewLLM: %w", err)
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	if cfg.BaseURL != "" {
		oc.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	}
	oc.HTTPClient = retryHintDoer{next: &http.Client{}}
	return &LLM{
		cfg:      cfg,
		client:   openai.NewClientWithConfig(oc),
		fallback: fallback,
		log:      logger.With().Str("component", "agent.llm").Logger(),
		prompts:  prompts,
		sleep:    sleepCtx,
	}, nil
}

// Extract asks the model for the candidates of one observation and the new summary.
func (l *LLM) Extract(ctx context.Context, in ExtractInput) (Extraction, realm.Usage, error) {
	usage := realm.Usage{}
	system, user, err := l.extractMessages(in)
	if err != nil {
		return Extraction{}, usage, err
	}
	var out Extraction
	err = l.structured(ctx, usage, StageExtract, extractFormat(), system, user, func(content string) error {
		var werr error
		out, werr = parseExtraction(content, in.Observation, in.Summary)
		return werr
	})
	if err == nil {
		return out, usage, nil
	}
	if ctx.Err() != nil {
		return Extraction{}, usage, ctx.Err()
	}
	l.log.Warn().Str("stage", StageExtract).Str("observation", in.Observation.ID).
		Err(err).Msg("LLM extraction failed; using the fallback agent")
	out, fu, ferr := l.fallback.Extract(ctx, in)
	usage.Add(fu)
	markFallback(usage, StageExtract, 1)
	return out, usage, ferr
}

// Integrate decides add / merge / skip and the edges of every candidate, in one call
// (ModeBatch) or one call per candidate (ModePerCandidate).
func (l *LLM) Integrate(ctx context.Context, in IntegrateInput) ([]Integration, realm.Usage, error) {
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
		markFallback(usage, StageIntegrate, len(in.Candidates))
		return fb, usage, ferr
	}

	out := make([]Integration, len(in.Candidates))
	var fallbackOut []Integration // computed once, for all candidates, on the first failure
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
		markFallback(usage, StageIntegrate, 1)
	}
	return dropEdgesToSkipped(out), usage, nil
}

// integrateCall asks for the decisions of the candidates at indexes decide; the result
// has len(in.Candidates) entries, filled at those indexes.
func (l *LLM) integrateCall(ctx context.Context, usage realm.Usage, in IntegrateInput, decide []int) ([]Integration, error) {
	req := newIntegrateRequest(in, decide)
	system, user, err := l.integrateMessages(req)
	if err != nil {
		return nil, err
	}
	var out []Integration
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
func (l *LLM) structured(ctx context.Context, usage realm.Usage, stage string, format *openai.ChatCompletionResponseFormat,
	system, user string, accept func(content string) error) error {
	messages := []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: system},
		{Role: openai.ChatMessageRoleUser, Content: user},
	}
	for attempt := 0; ; attempt++ {
		content, err := l.complete(ctx, usage, stage, messages, format)
		if err != nil {
			return err
		}
		verr := accept(content)
		if verr == nil {
			return nil
		}
		addUsage(usage, stage, realm.StageUsage{Failures: 1})
		// Log the validation error only: it names refs and fields, never memory text.
		l.log.Warn().Str("stage", stage).Int("attempt", attempt+1).Err(verr).Msg("LLM output invalid")
		if attempt == 1 {
			return verr
		}
		repair, err := l.render("repair.tmpl", struct{ Error string }{verr.Error()})
		if err != nil {
			return err
		}
		messages = append(messages,
			openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: content},
			openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: repair})
	}
}

// complete sends one chat request, retrying 429, 5xx and transport errors with a bounded
// backoff, and records every attempt in usage. LatencyMS includes the retry waits: it is
// the time the stage spent on the LLM.
func (l *LLM) complete(ctx context.Context, usage realm.Usage, stage string, messages []openai.ChatCompletionMessage,
	format *openai.ChatCompletionResponseFormat) (string, error) {
	model := l.cfg.Models.Extraction
	if stage == StageAnswer {
		model = l.cfg.Models.Answer
	}
	req := openai.ChatCompletionRequest{
		Model:          model,
		Messages:       messages,
		ResponseFormat: format,
	}
	if !fixedSampling(model) {
		// go-openai omits a zero temperature (omitempty) and the API default is 1, so
		// zero is sent as the smallest positive float32, which every server treats as greedy.
		req.Temperature = max(l.cfg.Temperature, math.SmallestNonzeroFloat32)
	}
	start := time.Now()
	defer func() {
		addUsage(usage, stage, realm.StageUsage{LatencyMS: float64(time.Since(start).Microseconds()) / 1000})
	}()
	for retry := 0; ; retry++ {
		hint := &retryHint{}
		actx, cancel := context.WithTimeout(context.WithValue(ctx, retryHintKey{}, hint), l.cfg.Timeout)
		began := time.Now()
		resp, err := l.client.CreateChatCompletion(actx, req)
		cancel()
		// One line per call for cost accounting; never the prompt or the reply.
		l.log.Debug().Str("stage", stage).Str("model", model).Int("prompt_tokens", resp.Usage.PromptTokens).
			Int("completion_tokens", resp.Usage.CompletionTokens).Dur("latency", time.Since(began)).
			Bool("ok", err == nil).Msg("LLM call")
		addUsage(usage, stage, realm.StageUsage{Calls: 1,
			PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens})
		if err == nil {
			if len(resp.Choices) == 0 {
				addUsage(usage, stage, realm.StageUsage{Failures: 1})
				return "", errors.New("chat completion without choices")
			}
			c := resp.Choices[0]
			if c.FinishReason == openai.FinishReasonLength {
				// Truncated JSON: not worth a repair that would be truncated too.
				addUsage(usage, stage, realm.StageUsage{Failures: 1})
				return "", errors.New("chat completion truncated (finish_reason length)")
			}
			if c.Message.Refusal != "" {
				addUsage(usage, stage, realm.StageUsage{Failures: 1})
				return "", errors.New("model refused")
			}
			return c.Message.Content, nil
		}
		addUsage(usage, stage, realm.StageUsage{Failures: 1})
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if !retryable(err) || retry >= l.cfg.MaxRetries {
			return "", fmt.Errorf("chat completion (model %s, %d attempts): %w", model, retry+1, err)
		}
		wait := min(l.cfg.Backoff<<retry, l.cfg.MaxBackoff)
		if hint.after > 0 {
			wait = min(hint.after, l.cfg.MaxBackoff)
		}
		l.log.Warn().Str("stage", stage).Str("model", model).Int("retry", retry+1).
			Dur("wait", wait).Err(err).Msg("LLM call failed; retrying")
		if err := l.sleep(ctx, wait); err != nil {
			return "", err
		}
	}
}

// retryable reports whether err is worth another attempt: rate limits, server errors
// and transport failures, but not our own per-attempt timeout.
func retryable(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		return apiErr.HTTPStatusCode == http.StatusTooManyRequests || apiErr.HTTPStatusCode >= 500
	}
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) {
		return reqErr.HTTPStatusCode == http.StatusTooManyRequests || reqErr.HTTPStatusCode >= 500
	}
	var netErr net.Error
	if errors.As(err, &netErr) {
		return !netErr.Timeout()
	}
	return false
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

// retryHint carries the Retry-After of a failed attempt out of the HTTP layer:
// go-openai's errors do not expose response headers.
type retryHint struct{ after time.Duration }

type retryHintKey struct{}

type retryHintDoer struct{ next *http.Client }

func (d retryHintDoer) Do(req *http.Request) (*http.Response, error) {
	resp, err := d.next.Do(req)
	if err != nil || (resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < 500) {
		return resp, err
	}
	if h, ok := req.Context().Value(retryHintKey{}).(*retryHint); ok {
		h.after = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	}
	return resp, err
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

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func addUsage(u realm.Usage, stage string, s realm.StageUsage) { u.Add(realm.Usage{stage: s}) }

func markFallback(u realm.Usage, stage string, n int) {
	addUsage(u, stage, realm.StageUsage{Fallbacks: n})
}
