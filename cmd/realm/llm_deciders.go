package main

import (
	"context"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/reconsolidation"
	"github.com/realm-memory/realm/retrieval"
)

// llmDecider gives the read path's decisions to the LLM agent; the offline decider takes
// the ones the model cannot (logged and counted by the agent).
type llmDecider struct {
	llm     *agent.LLM
	offline retrieval.Decider
}

func (d llmDecider) PlanSeeds(ctx context.Context, in retrieval.PlanInput) ([]realm.Plan, realm.Usage, error) {
	return d.llm.PlanSeeds(ctx, agent.PlanQuestion{Query: in.Query, Time: in.Time}, func() ([]realm.Plan, realm.Usage, error) {
		return d.offline.PlanSeeds(ctx, in)
	})
}

func (d llmDecider) Sufficiency(ctx context.Context, in retrieval.SufficiencyInput) (retrieval.Sufficiency, realm.Usage, error) {
	q := agent.SufficiencyQuestion{Query: in.Query, Depth: in.Depth, MaxDepth: in.MaxDepth, Nodes: recallNodes(in.Nodes)}
	a, usage, err := d.llm.Sufficiency(ctx, q, func() (agent.SufficiencyAnswer, realm.Usage, error) {
		s, u, err := d.offline.Sufficiency(ctx, in)
		return agent.SufficiencyAnswer{IsEnough: s.IsEnough, NodesToExpand: s.NodesToExpand, Reason: s.Reason}, u, err
	})
	return retrieval.Sufficiency{IsEnough: a.IsEnough, NodesToExpand: a.NodesToExpand, Reason: a.Reason}, usage, err
}

func (d llmDecider) ExpansionPolicy(ctx context.Context, in retrieval.PolicyInput) (retrieval.Policy, realm.Usage, error) {
	q := agent.PolicyQuestion{Query: in.Query, Time: in.Time, Node: recallNodes([]retrieval.Candidate{in.Node})[0]}
	a, usage, err := d.llm.ExpansionPolicy(ctx, q, func() (agent.PolicyAnswer, realm.Usage, error) {
		p, u, err := d.offline.ExpansionPolicy(ctx, in)
		return agent.PolicyAnswer{Atom: p.Atom, Reasoning: p.Reasoning}, u, err
	})
	return retrieval.Policy{Atom: a.Atom, Reasoning: a.Reasoning}, usage, err
}

func recallNodes(cs []retrieval.Candidate) []agent.RecallNode {
	out := make([]agent.RecallNode, len(cs))
	for i, c := range cs {
		out[i] = agent.RecallNode{Node: c.Node, Score: c.Score, Depth: c.Depth, Expanded: c.Expanded}
	}
	return out
}

// llmAuditor gives the audit to the LLM agent, the offline auditor taking it when the
// model cannot. Confirmed feedback outranks the model: the nodes it names keep the
// client's labels.
type llmAuditor struct {
	llm     *agent.LLM
	offline reconsolidation.Auditor
}

func (a llmAuditor) Audit(ctx context.Context, in reconsolidation.AuditInput) (reconsolidation.AuditOutput, realm.Usage, error) {
	q := agent.AuditQuestion{Query: in.Query, Answer: in.Answer, Cited: in.Cited, Nodes: in.Nodes, Edges: in.Edges}
	ans, usage, err := a.llm.Audit(ctx, q, func() (agent.AuditAnswer, realm.Usage, error) {
		o, u, err := a.offline.Audit(ctx, in)
		return agent.AuditAnswer{Labels: o.Labels, Edits: o.Edits}, u, err
	})
	if err != nil {
		return reconsolidation.AuditOutput{}, usage, err
	}
	if fb := in.Feedback; fb != nil && ans.Labels != nil {
		for _, id := range fb.UsefulNodeIDs {
			ans.Labels[id] = realm.KeyEvidence
		}
		for _, id := range fb.MisleadingNodeIDs {
			ans.Labels[id] = realm.Misleading
		}
	}
	return reconsolidation.AuditOutput{Labels: ans.Labels, Edits: ans.Edits}, usage, nil
}
