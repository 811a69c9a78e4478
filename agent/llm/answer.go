package llm

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"github.com/sashabaranov/go-openai/jsonschema"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// StageAnswer is the usage stage of the answer decision.
const StageAnswer = "answer"

// Answer writes the answer to in.Question from in's nodes alone (REALM.md §5, answer).
// It is not a method of Agent: the offline agent cannot answer, so there is no fallback.
// It returns EUnavailable when the model cannot be reached or gives no valid answer after
// one repair (Lasting when a retry would meet the same failure), and the context's error
// when ctx ends.
func (l *Agent) Answer(ctx context.Context, in agent.AnswerInput) (agent.Answer, realm.Usage, error) {
	usage := realm.Usage{}
	req := newAnswerRequest(in)
	system, err := l.render("answer_system.tmpl", nil)
	if err != nil {
		return agent.Answer{}, usage, err
	}
	user, err := l.render("answer_user.tmpl", req.view)
	if err != nil {
		return agent.Answer{}, usage, err
	}
	var out agent.Answer
	err = l.structured(ctx, usage, StageAnswer, answerFormat(), system, user, func(content string) error {
		var werr error
		out, werr = req.parse(content)
		return werr
	})
	if err == nil {
		return out, usage, nil
	}
	if ctx.Err() != nil {
		return agent.Answer{}, usage, ctx.Err()
	}
	l.log.Warn().Str("stage", StageAnswer).Int("nodes", len(in.Nodes)).Err(err).Msg("LLM answer failed")
	return agent.Answer{}, usage, answerFailure(l.cfg.Models.Answer, err)
}

// answerFailure says why the answer failed, for the client: what happened, and "retry
// later" only where a later attempt may succeed (the server overloaded, failing or away);
// elsewhere the error is Lasting, so that the API sends no Retry-After.
func answerFailure(model string, err error) *realm.Error {
	lasting := func(format string, args ...any) *realm.Error {
		e := realm.Errorf(realm.EUnavailable, format, args...)
		e.Lasting = true
		return e
	}
	var ce *callError
	if !errors.As(err, &ce) {
		return lasting("the LLM (model %s) gave no valid answer, even after one repair", model)
	}
	switch ce.reason {
	case ReasonClientError:
		if ce.status == http.StatusUnauthorized || ce.status == http.StatusForbidden {
			return lasting("the LLM server refused the API key (HTTP %d): check OPENAI_API_KEY", ce.status)
		}
		return lasting("the LLM server refused the request (HTTP %d): check the model (%s) and OPENAI_BASE_URL", ce.status, model)
	case ReasonTruncated:
		return lasting("the LLM's answer (model %s) was cut off at max_tokens (%d tokens)", model, maxTokens[StageAnswer])
	case ReasonRefused:
		return lasting("the LLM (model %s) refused to answer", model)
	case ReasonNoChoices:
		return lasting("the LLM (model %s) returned no answer (no choices)", model)
	case ReasonRateLimited:
		return realm.Errorf(realm.EUnavailable, "the LLM server (model %s) is rate limiting REALM (HTTP 429, %d attempts); retry later", model, ce.attempts)
	case ReasonServerError:
		return realm.Errorf(realm.EUnavailable, "the LLM server (model %s) failed (HTTP %d, %d attempts); retry later", model, ce.status, ce.attempts)
	case ReasonTimeout:
		return realm.Errorf(realm.EUnavailable, "the LLM (model %s) did not answer within REALM_LLM_TIMEOUT (%d attempts); retry later", model, ce.attempts)
	case ReasonAway:
		return realm.Errorf(realm.EUnavailable, "the LLM server (model %s) gave no reply to the last calls, so it is not asked for %s; retry later", model, awayFor)
	}
	return realm.Errorf(realm.EUnavailable, "the LLM server (model %s) could not be reached (%d attempts); retry later", model, ce.attempts)
}

// AnswerEvidence is the evidence of one recall exactly as Answer puts it in its prompt
// (the answer_evidence template of answer_user.tmpl), for measuring what an answer costs.
func AnswerEvidence(nodes []realm.RecalledNode, edges []realm.Edge) (string, error) {
	prompts, err := sharedPrompts()
	if err != nil {
		return "", err
	}
	return renderPrompt(prompts, "answer_evidence", newAnswerRequest(agent.AnswerInput{Nodes: nodes, Edges: edges}).view)
}

// answerRequest maps the refs the model sees (M1, M2, ...) to node ids.
type answerRequest struct {
	ids  map[string]string // ref → node id
	view answerView
}

type answerView struct {
	Question, Time string
	Memories       []promptUnit
	Relations      []string
}

func memoryRef(i int) string { return "M" + strconv.Itoa(i+1) }

func newAnswerRequest(in agent.AnswerInput) *answerRequest {
	r := &answerRequest{ids: map[string]string{}, view: answerView{Question: in.Question}}
	if !in.Time.IsZero() {
		r.view.Time = in.Time.Format(time.RFC3339) + " (" + in.Time.Weekday().String() + ")"
	}
	refOf := map[string]string{}
	for i, n := range in.Nodes {
		ref := memoryRef(i)
		r.ids[ref], refOf[n.Node.ID] = n.Node.ID, ref
		r.view.Memories = append(r.view.Memories, promptUnit{Ref: ref, Type: string(n.Node.Type),
			Content: n.Node.Content, Time: NodeTime(n.Node)})
	}
	for _, e := range in.Edges {
		from, to := refOf[e.From], refOf[e.To]
		if from == "" || to == "" {
			continue
		}
		rel := from + " " + string(e.Predicate) + " " + to
		if e.Description != "" {
			rel += ": " + e.Description
		}
		r.view.Relations = append(r.view.Relations, rel)
	}
	return r
}

type wireAnswer struct {
	Answer string   `json:"answer"`
	Cited  []string `json:"cited"`
}

func answerFormat() *openai.ChatCompletionResponseFormat {
	root := strictObject(map[string]jsonschema.Definition{
		"answer": schemaString,
		"cited":  {Type: jsonschema.Array, Items: &schemaString, Description: "refs M<i> of the memories the answer rests on"},
	})
	return jsonSchemaFormat("realm_answer", &root)
}

// parse accepts a non-empty answer whose citations are all refs of the prompt; duplicates
// are dropped.
func (r *answerRequest) parse(content string) (agent.Answer, error) {
	var w wireAnswer
	if err := decodeJSON(content, &w); err != nil {
		return agent.Answer{}, err
	}
	var bad problems
	out := agent.Answer{Text: strings.TrimSpace(w.Answer)}
	switch {
	case out.Text == "":
		bad.addf("answer is empty (say \"Not in memory.\" when the memories hold no answer)")
	case len(out.Text) > agent.MaxAnswerLen:
		bad.addf("answer is longer than %d bytes", agent.MaxAnswerLen)
	}
	seen := map[string]bool{}
	for _, ref := range w.Cited {
		ref = strings.TrimSpace(ref)
		id, ok := r.ids[ref]
		if !ok {
			bad.addf("cited %q is not a ref of the memories listed (M1 to M%d)", ref, len(r.ids))
			continue
		}
		if !seen[id] {
			seen[id] = true
			out.Cited = append(out.Cited, id)
		}
	}
	if err := bad.err(); err != nil {
		return agent.Answer{}, err
	}
	return out, nil
}
