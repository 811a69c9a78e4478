package llm

import (
	"context"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// The decisions the LLM agent does not take with the model yet: the fallback agent
// takes them.

// PlanSeeds asks the fallback agent.
func (l *Agent) PlanSeeds(ctx context.Context, in agent.PlanInput) ([]realm.Plan, realm.Usage, error) {
	return l.fallback.PlanSeeds(ctx, in)
}

// Sufficiency asks the fallback agent.
func (l *Agent) Sufficiency(ctx context.Context, in agent.SufficiencyInput) (agent.Sufficiency, realm.Usage, error) {
	return l.fallback.Sufficiency(ctx, in)
}

// ExpansionPolicy asks the fallback agent.
func (l *Agent) ExpansionPolicy(ctx context.Context, in agent.PolicyInput) (agent.Policy, realm.Usage, error) {
	return l.fallback.ExpansionPolicy(ctx, in)
}

// Audit asks the fallback agent.
func (l *Agent) Audit(ctx context.Context, in agent.AuditInput) (agent.AuditOutput, realm.Usage, error) {
	return l.fallback.Audit(ctx, in)
}
