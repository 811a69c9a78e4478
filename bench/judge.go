package bench

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"text/template"
	"time"

	"github.com/rs/zerolog"
	openai "github.com/sashabaranov/go-openai"
	"github.com/sashabaranov/go-openai/jsonschema"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/llm"
	"github.com/realm-memory/realm/agent/offline"
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
	// MaxRetries bounds the retries of one call on 429, 5xx, transport errors and (once)
	// per-attempt timeouts; default 2, negative means none. Backoff is the first wait
	// (default 1s), doubled on each retry up to 10s, with jitter; a Retry-After replaces
	// it. They are llm.Config's MaxRetries, Backoff and Timeout: the judge calls on
	// the LLM agent's transport.
	MaxRetries int
	Backoff    time.Duration
}

// Judge grades answers CORRECT or WRONG against a gold answer with an LLM at
// temperature 0, as the paper's evaluation does (REALM.md §6). Benchmarks other than
// LoCoMo (LongMemEval) pass their type-specific rules as JudgeInput.Guidance.
// Its calls go through an llm.Agent (llm.Agent.Chat): the agent's timeouts, retries and
// usage accounting. It is safe for concurrent use.
type Judge struct {
	model string
	runs  int
	llm   *llm.Agent
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
	if cfg.Backoff <= 0 {
		cfg.Backoff = time.Second
	}
	// Temperature 0 (the llm.Config default) is greedy decoding, except for reasoning
	// models, which take only their default. The fallback agent is never asked: Chat
	// does not fall back.
	lm, err := llm.New(llm.Config{BaseURL: cfg.BaseURL, APIKey: cfg.APIKey,
		Models: llm.Models{Extraction: cfg.Model, Judge: cfg.Model}, Timeout: cfg.Timeout,
		MaxRetries: cfg.MaxRetries, Backoff: cfg.Backoff},
		offline.New(offline.Options{}), zerolog.Nop())
	if err != nil {
		return nil, realm.Errorf(realm.EInvalid, "judge: %v", err)
	}
	return &Judge{model: cfg.Model, runs: cfg.Runs, llm: lm}, nil
}

// Model is the judge's model.
func (j *Judge) Model() string { return j.model }

// Runs is the number of calls per answer.
func (j *Judge) Runs() int { return j.runs }

// Chat sends one system and one user message to the judge's model at temperature 0,
// with the judge's retries, and returns the reply as text with its usage under stage:
// for judges with their own prompt and reply format (e.g. LongMemEval's yes or no).
// It returns EUnavailable when the call fails after its retries.
func (j *Judge) Chat(ctx context.Context, stage, system, user string) (string, realm.Usage, error) {
	reply, usage, err := j.llm.Chat(ctx, llm.ChatRequest{Stage: stage, Model: j.model, System: system, User: user})
	if err != nil && ctx.Err() == nil {
		err = realm.Errorf(realm.EUnavailable, "judge (model %s): %v", j.model, err)
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
	for run := 0; run < j.runs; run++ {
		var label, reasoning string
		_, u, err := j.llm.Chat(ctx, llm.ChatRequest{Stage: judgeStage, Model: j.model, System: judgeSystem, User: user.String(),
			Format: judgeFormat(), Accept: func(content string) error {
				var perr error
				label, reasoning, perr = parseVerdict(content)
				return perr
			}})
		usage.Add(u)
		if err != nil {
			if ctx.Err() != nil {
				return Verdict{}, usage, ctx.Err()
			}
			return Verdict{}, usage, realm.Errorf(realm.EUnavailable, "judge (model %s): %v", j.model, err)
		}
		if label == LabelCorrect {
			correct++
		}
		if v.Reasoning == "" {
			v.Reasoning = reasoning
		}
		v.Labels = append(v.Labels, label)
	}
	v.Score = float64(correct) / float64(j.runs)
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
