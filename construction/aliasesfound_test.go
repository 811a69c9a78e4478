package construction_test

import (
	"context"
	"testing"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// aliasAgent is scriptAgent with entities called by aliases[observation id] and given no
// keywords, as a model may answer.
type aliasAgent struct {
	scriptAgent
	aliases map[string][]string
}

func (a *aliasAgent) Extract(ctx context.Context, in agent.ExtractInput) (agent.Extraction, realm.Usage, error) {
	ext, usage, err := a.scriptAgent.Extract(ctx, in)
	for i := range ext.Candidates {
		ext.Candidates[i].Keywords, ext.Candidates[i].Aliases = nil, a.aliases[in.Observation.ID]
	}
	return ext, usage, err
}

// TestAliasesFound: an entity is found by the full-text index under each of its aliases,
// those it was added with and those a merge taught it, though its candidates carried no
// keywords.
func TestAliasesFound(t *testing.T) {
	store := cyphertest.MustOpen(t)
	ag := &aliasAgent{aliases: map[string][]string{"a1": {"Bobby"}, "a2": {"Roberto"}}}
	p := construction.New(store, ag, bowEmbedder{}, construction.Options{Owner: "test-" + cyphertest.NewSpace(t)}, zerolog.Nop())
	t.Cleanup(func() { p.Close(context.Background()) })
	space := cyphertest.NewSpace(t)
	mustIngest(t, p, space, msg("a1", "entity/Robert: Ann's brother"))
	mustIngest(t, p, space, msg("a2", "entity/Robert: Ann's brother, a pilot"))
	for _, alias := range []string{"Bobby", "Roberto"} {
		seeds, err := store.SeedByFullText(context.Background(), space, cypher.SeedQuery{Keywords: []string{alias}, Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		if len(seeds) != 1 || seeds[0].Node.Name != "Robert" {
			t.Errorf("full-text seeds for %q: %+v, want the entity Robert", alias, seeds)
		}
	}
}
