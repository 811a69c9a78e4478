package bench

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"regexp"
	"strings"
	"text/template"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"github.com/sashabaranov/go-openai/jsonschema"

	"github.com/realm-memory/realm"
)

// judgeStage is the usage stage of the judge's calls (realm.Usage: "judge").
const judgeStage = "judge"

// Judge labels.
const (
	LabelCorrect = "CORRECT"
	LabelWrong   = "WRONG"
)

// DefaultJudgeModel is the judge of the paper's setting (REALM.md §6).
const DefaultJudgeModel = "gpt-4o-mini"

// JudgeSchemaName is the name of the JSON schema the judge asks for, so that a scripted
// fake of the chat API (agenttest) can tell the judge's calls from the agent's.
const JudgeSchemaName = "realm_judge"

// The judge's own prompt (REALM.md §6: lenient on wording, strict on facts and dates).
var (
	//go:embed judge_system.tmpl
	judgeSystem string
	//go:embed judge_user.tmpl
	judgeUserText string
	judgeUser     = template.Must(template.New("judge_user").Option("missingkey=error").Parse(judgeUserText))
)

// JudgeConfig configures a Judge. Zero values take the defaults noted.
type JudgeConfig struct {
	BaseURL string // OpenAI-compatible endpoint ending in /v1; "" is api.openai.com
	APIKey  string
	Model   string        // default DefaultJudgeModel
	Runs    int           // calls per answer, their labels averaged; default 1
	Timeout time.Duration // per HTTP attempt; default 60s
	// MaxRetries bounds the retries of one call on 429, 5xx and transport errors;
	// default 2, negative means none. Backoff is the first wait (default 1s), doubled
	// on each retry.
	MaxRetries int
	Backoff    time.Duration
}

// Judge grades answers CORRECT or WRONG against a gold answer with an LLM at
// temperature 0, as the paper's evaluation does (REALM.md §6). Benchmarks other than
// LoCoMo (LongMemEval) pass their type-specific rules as JudgeInput.Guidance.
// It is safe for concurrent use.
type Judge struct {
	cfg    JudgeConfig
	client *openai.Client
	sleep  func(ctx context.Context, d time.Duration) error
}

// NewJudge returns a Judge; it fails only on an invalid configuration.
func NewJudge(cfg JudgeConfig) (*Judge, error) {
	if cfg.Model == "" {
		cfg.Model = DefaultJudgeModel
	}
	if cfg.Runs == 0 {
		cfg.Runs = 1
	}
	if cfg.Runs < 0 || cfg.Runs > 100 {
		return nil, realm.Errorf(realm.EInvalid, "judge runs must be between 1 and 100, not %d", cfg.Runs)
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
		cfg.Backoff = time.Second
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	if cfg.BaseURL != "" {
		oc.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	}
	return &Judge{cfg: cfg, client: openai.NewClientWithConfig(oc), sleep: sleepCtx}, nil
}

// Model is the judge's model.
func (j *Judge) Model() string { return j.cfg.Model }

// Runs is the number of calls per answer.
func (j *Judge) Runs() int { return j.cfg.Runs }

// Chat sends one system and one user message to the judge's model at temperature 0,
// with the judge's retries, and returns the reply as text with its usage under stage:
// for judges with their own prompt and reply format (e.g. LongMemEval's yes or no).
// It returns EUnavailable when the call fails after its retries.
func (j *Judge) Chat(ctx context.Context, stage, system, user string) (string, realm.Usage, error) {
	usage := realm.Usage{}
	reply, err := j.complete(ctx, usage, stage, nil, []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: system},
		{Role: openai.ChatMessageRoleUser, Content: user},
	})
	if err != nil && ctx.Err() == nil {
		err = realm.Errorf(realm.EUnavailable, "judge (model %s): %v", j.cfg.Model, err)
	}
	return reply, usage, err
}

// JudgeInput is one case to grade.
type JudgeInput struct {
	Question string
	Gold     string // the gold answer
	Answer   string // the response to grade
	// Guidance is extra instructions for this case (e.g. "the question is adversarial:
	// only a response saying it is not known is correct"); empty for none.
	Guidance string
}

// Verdict is the judge's grade of one answer.
type Verdict struct {
	Score     float64  `json:"score"`  // the share of runs labelled CORRECT, in [0, 1]
	Labels    []string `json:"labels"` // one per run: CORRECT or WRONG
	Reasoning string   `json:"reasoning,omitempty"`
}

// Grade asks the judge Runs times and averages the labels. It returns EUnavailable when
// a call fails after its retries or the model gives no label even after one repair, and
// the context's error when ctx ends; the usage is returned in every case.
func (j *Judge) Grade(ctx context.Context, in JudgeInput) (Verdict, realm.Usage, error) {
	usage := realm.Usage{}
	var user bytes.Buffer
	if err := judgeUser.Execute(&user, in); err != nil {
		return Verdict{}, usage, err
	}
	var v Verdict
	correct := 0
	for run := 0; run < j.cfg.Runs; run++ {
		label, reasoning, err := j.label(ctx, usage, user.String())
		if err != nil {
			if ctx.Err() != nil {
				return Verdict{}, usage, ctx.Err()
			}
			return Verdict{}, usage, realm.Errorf(realm.EUnavailable, "judge (model %s): %v", j.cfg.Model, err)
		}
		if label == LabelCorrect {
			correct++
		}
		if v.Reasoning == "" {
			v.Reasoning = reasoning
		}
		v.Labels = append(v.Labels, label)
	}
	v.Score = float64(correct) / float64(j.cfg.Runs)
	return v, usage, nil
}

type wireVerdict struct {
	Reasoning string `json:"reasoning"`
	Label     string `json:"label"`
}

var labelWord = regexp.MustCompile(`\b(CORRECT|WRONG)\b`)

// parseVerdict reads the JSON verdict; from a model that ignores the schema it accepts
// a reply naming exactly one of the two labels.
func parseVerdict(content string) (label, reasoning string, err error) {
	s := strings.TrimSpace(content)
	s = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(s, "```json"), "```"), "```")
	var w wireVerdict
	if json.Unmarshal([]byte(strings.TrimSpace(s)), &w) == nil {
		switch l := strings.ToUpper(strings.TrimSpace(w.Label)); l {
		case LabelCorrect, LabelWrong:
			return l, w.Reasoning, nil
		}
		return "", "", fmt.Errorf("label %q is neither CORRECT nor WRONG", w.Label)
	}
	found := map[string]bool{}
	for _, m := range labelWord.FindAllString(strings.ToUpper(content), -1) {
		found[m] = true
	}
	if len(found) == 1 {
		for l := range found {
			return l, "", nil
		}
	}
	return "", "", errors.New(`reply is not the JSON object {"reasoning": "...", "label": "CORRECT" or "WRONG"}`)
}

func judgeFormat() *openai.ChatCompletionResponseFormat {
	str := jsonschema.Definition{Type: jsonschema.String}
	return &openai.ChatCompletionResponseFormat{
		Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
		JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{Name: JudgeSchemaName, Strict: true,
			Schema: &jsonschema.Definition{Type: jsonschema.Object, AdditionalProperties: false,
				Required: []string{"label", "reasoning"},
				Properties: map[string]jsonschema.Definition{
					"reasoning": str,
					"label":     {Type: jsonschema.String, Enum: []string{LabelCorrect, LabelWrong}},
				}}},
	}
}

// label runs one grading call, with one repair when the reply holds no label.
func (j *Judge) label(ctx context.Context, usage realm.Usage, user string) (string, string, error) {
	messages := []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: judgeSystem},
		{Role: openai.ChatMessageRoleUser, Content: user},
	}
	for attempt := 0; ; attempt++ {
		content, err := j.complete(ctx, usage, judgeStage, judgeFormat(), messages)
		if err != nil {
			return "", "", err
		}
		label, reasoning, verr := parseVerdict(content)
		if verr == nil {
			return label, reasoning, nil
		}
		usage.Add(realm.Usage{judgeStage: {Failures: 1}})
		if attempt == 1 {
			return "", "", verr
		}
		messages = append(messages,
			openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: content},
			openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: "Your previous reply could not be used: " + verr.Error() +
				". Reply again with the JSON object only, matching the schema."})
	}
}

// complete sends one chat request, retrying rate limits, server and transport errors,
// and records its cost in usage under stage.
func (j *Judge) complete(ctx context.Context, usage realm.Usage, stage string, format *openai.ChatCompletionResponseFormat,
	messages []openai.ChatCompletionMessage) (string, error) {
	req := openai.ChatCompletionRequest{Model: j.cfg.Model, Messages: messages, ResponseFormat: format}
	if !fixedSampling(j.cfg.Model) {
		// go-openai omits a zero temperature and the API default is 1: the smallest
		// positive float32 is greedy decoding everywhere.
		req.Temperature = math.SmallestNonzeroFloat32
	}
	start := time.Now()
	defer func() {
		usage.Add(realm.Usage{stage: {LatencyMS: float64(time.Since(start).Microseconds()) / 1000}})
	}()
	for retry := 0; ; retry++ {
		actx, cancel := context.WithTimeout(ctx, j.cfg.Timeout)
		resp, err := j.client.CreateChatCompletion(actx, req)
		cancel()
		usage.Add(realm.Usage{stage: {Calls: 1, PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens}})
		if err == nil {
			if len(resp.Choices) == 0 {
				usage.Add(realm.Usage{stage: {Failures: 1}})
				return "", errors.New("chat completion without choices")
			}
			return resp.Choices[0].Message.Content, nil
		}
		usage.Add(realm.Usage{stage: {Failures: 1}})
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if !retryableLLM(err) || retry >= j.cfg.MaxRetries {
			return "", fmt.Errorf("chat completion (%d attempts): %w", retry+1, err)
		}
		if err := j.sleep(ctx, j.cfg.Backoff<<retry); err != nil {
			return "", err
		}
	}
}

// retryableLLM reports whether a chat error is worth another attempt: rate limits,
// server errors and transport failures other than our own timeout.
func retryableLLM(err error) bool {
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

// fixedSampling reports whether model is a reasoning model, whose API rejects any
// temperature but the default.
func fixedSampling(model string) bool {
	for _, p := range []string{"o1", "o3", "o4", "gpt-5", "gpt-6"} {
		if strings.HasPrefix(model, p) {
			return true
		}
	}
	return false
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
