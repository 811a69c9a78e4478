package offline

import (
	"context"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// Answer writes no answer: rules cannot write one from evidence. It returns EUnavailable,
// so that answering needs the LLM agent (REALM_LLM=openai).
func (o *Agent) Answer(ctx context.Context, in agent.AnswerInput) (agent.Answer, realm.Usage, error) {
	if err := ctx.Err(); err != nil {
		return agent.Answer{}, nil, err
	}
	return agent.Answer{}, nil, realm.Errorf(realm.EUnavailable, "the offline agent cannot write answers: set REALM_LLM=openai")
}
