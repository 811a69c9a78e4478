package retrieval_test

import (
	"context"
	"sync"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/retrieval"
)

// scopeRecorder is scripted, recording the recall scope each decision is asked in.
type scopeRecorder struct {
	scripted
	mu     sync.Mutex
	scopes []*agent.RecallScope
}

func (d *scopeRecorder) record(ctx context.Context) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.scopes = append(d.scopes, agent.RecallScopeOf(ctx))
}

func (d *scopeRecorder) PlanSeeds(ctx context.Context, in agent.PlanInput) ([]realm.Plan, realm.Usage, error) {
	d.record(ctx)
	return d.scripted.PlanSeeds(ctx, in)
}

func (d *scopeRecorder) Sufficiency(ctx context.Context, in agent.SufficiencyInput) (agent.Sufficiency, realm.Usage, error) {
	d.record(ctx)
	return d.scripted.Sufficiency(ctx, in)
}

func (d *scopeRecorder) ExpansionPolicy(ctx context.Context, in agent.PolicyInput) (agent.Policy, realm.Usage, error) {
	d.record(ctx)
	return d.scripted.ExpansionPolicy(ctx, in)
}

// TestRecallScope: every decision of one recall is asked in the same recall scope (where
// the LLM agent remembers a stage that failed), and each recall has its own.
func TestRecallScope(t *testing.T) {
	s := cyphertest.MustOpen(t)
	space := mustGraph(t, s)
	d := &scopeRecorder{scripted: scripted{plans: []realm.Plan{{Query: question, Mode: realm.QueryMatch}}, reasoning: question}}
	r := newRetriever(s, d, retrieval.DefaultOptions())
	var first []*agent.RecallScope
	for i := range 2 {
		d.scopes = nil
		if _, err := r.Recall(context.Background(), space, realm.RecallRequest{Query: question, MaxDepth: depth(2)}); err != nil {
			t.Fatal(err)
		}
		if len(d.scopes) < 3 {
			t.Fatalf("recall %d asked %d decisions, want a plan, a sufficiency and an expansion at least", i, len(d.scopes))
		}
		for _, sc := range d.scopes {
			if sc == nil || sc != d.scopes[0] {
				t.Fatalf("recall %d: decisions asked in scopes %v, want one", i, d.scopes)
			}
		}
		if i == 0 {
			first = d.scopes
		} else if d.scopes[0] == first[0] {
			t.Error("two recalls share a scope")
		}
	}
}
