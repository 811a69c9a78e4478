package retrieval_test

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/retrieval"
)

// The hand-built graph. Embeddings live on a few axes of the 384 dimensions so that every
// cosine is a number one can check by hand; texts the table does not know embed on axis
// 383, orthogonal to all of them.
//
//	carol ─ENABLES 0.7→ offer ─TRIGGERS 0.9 "the job offer triggered the move"→ move
//	hq ─CONTEXTUALIZES 0.6→ move ─PRECEDES 0.5→ trip
//	move ─CONTRADICTS 0.8─ munich        move ─CORRELATES 0.05 (suppressed)─ chess
//
// The query "Why did Alice move to Berlin?" embeds on axis 0: sim(q, move) = 0.8,
// sim(q, hq) = sim(q, trip) = 0.6, every other node 0; the TRIGGERS description 0.6.
const question = "Why did Alice move to Berlin?"

var texts = map[string][]float32{
	question:                           axes(0, 1),
	"the job offer triggered the move": axes(0, 0.6, 7, 0.8),
	"nothing we know about":            axes(7, 1),
	earlierQuestion:                    axes(0, 0.9, 8, 0.4359),
}

// earlierQuestion is close to question (cosine 0.9): what a learned link was learned for.
const earlierQuestion = "Why did Alice relocate to Berlin?"

type fixtureNode struct {
	name, typ, content string
	emb                []float32
	at                 string // yyyy-mm-dd, "" for timeless
}

var fixtureNodes = []fixtureNode{
	{"move", "event", "Alice moved to Berlin in May 2023", axes(0, 0.8, 1, 0.6), "2023-05-10"},
	{"offer", "event", "Alice got a job offer from Zalando", axes(1, 1), "2023-03-01"},
	{"hq", "fact", "Zalando is headquartered in Berlin", axes(0, 0.6, 2, 0.8), ""},
	{"munich", "fact", "Alice never left Munich", axes(3, 1), ""},
	{"carol", "event", "Carol recommended the Zalando job", axes(4, 1), "2023-02-01"},
	{"chess", "fact", "Bob plays chess on Sundays", axes(5, 1), ""},
	{"trip", "event", "Alice visited Paris in June 2023", axes(0, 0.6, 6, 0.8), "2023-06-15"},
}

type fixtureEdge struct {
	from, to string
	pred     realm.Predicate
	weight   float64
	desc     string
}

var fixtureEdges = []fixtureEdge{
	{"offer", "move", realm.Triggers, 0.9, "the job offer triggered the move"},
	{"carol", "offer", realm.Enables, 0.7, ""},
	{"hq", "move", realm.Contextualizes, 0.6, ""},
	{"move", "munich", realm.Contradicts, 0.8, ""},
	{"move", "chess", realm.Correlates, 0.05, ""},
	{"move", "trip", realm.Precedes, 0.5, ""},
}

// axes builds a 384-d vector from (axis, value) pairs.
func axes(pairs ...float64) []float32 {
	v := make([]float32, cyphertest.Dims)
	for i := 0; i+1 < len(pairs); i += 2 {
		v[int(pairs[i])] = float32(pairs[i+1])
	}
	return v
}

// tableEmbedder embeds known texts by table, anything else on axis 383.
type tableEmbedder struct{}

func (tableEmbedder) ID() string { return "test:table" }
func (tableEmbedder) Dim() int   { return cyphertest.Dims }
func (tableEmbedder) Embed(ctx context.Context, in []string) ([][]float32, error) {
	out := make([][]float32, len(in))
	for i, t := range in {
		if v, ok := texts[t]; ok {
			out[i] = v
		} else {
			out[i] = axes(383, 1)
		}
	}
	return out, nil
}

// id is a fixture node's id in a space: ids are unique across spaces.
func id(space, name string) string { return space + ":" + name }

// mustGraph writes the fixture graph into a new space and returns the space.
func mustGraph(t testing.TB, s *cypher.Store) string {
	t.Helper()
	space := cyphertest.NewSpace(t)
	putGraph(t, s, space)
	return space
}

func putGraph(t testing.TB, s *cypher.Store, space string) {
	t.Helper()
	ctx := context.Background()
	var nodes []realm.Node
	for _, n := range fixtureNodes {
		node := realm.Node{ID: id(space, n.name), Type: realm.NodeType(n.typ), Name: n.name, Content: n.content, Embedding: n.emb}
		if n.at != "" {
			at, _ := time.Parse(time.DateOnly, n.at)
			node.TStart = &at
		}
		nodes = append(nodes, node)
	}
	var edges []realm.Edge
	for _, e := range fixtureEdges {
		edges = append(edges, realm.Edge{ID: id(space, e.from+"-"+e.to), From: id(space, e.from), To: id(space, e.to), Predicate: e.pred, Weight: e.weight, Description: e.desc})
	}
	if err := s.PutMemories(ctx, space, nodes, edges); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.RemoveFixture(context.Background(), space) })
}

// scripted is an agent whose plans and atom the test sets; it never finds the nodes
// enough and lets the retriever pick the frontier. The retriever asks no other decision
// (the embedded nil Agent would panic).
type scripted struct {
	agent.Agent
	plans     []realm.Plan
	atom      realm.Atom
	reasoning string
}

func (d scripted) PlanSeeds(ctx context.Context, in agent.PlanInput) ([]realm.Plan, realm.Usage, error) {
	return d.plans, nil, nil
}
func (d scripted) Sufficiency(ctx context.Context, in agent.SufficiencyInput) (agent.Sufficiency, realm.Usage, error) {
	return agent.Sufficiency{}, nil, nil
}
func (d scripted) ExpansionPolicy(ctx context.Context, in agent.PolicyInput) (agent.Policy, realm.Usage, error) {
	return agent.Policy{Atom: d.atom, Reasoning: d.reasoning}, nil, nil
}

func newRetriever(s *cypher.Store, d agent.Agent, opts retrieval.Options) *retrieval.Retriever {
	return retrieval.New(s, tableEmbedder{}, d, opts, zerolog.Nop())
}

func depth(n int) *int { return &n }

// paperOptions are the default options with the paper's additive scorer, whose formula
// the seed and expansion tests check number by number.
func paperOptions() retrieval.Options {
	o := retrieval.DefaultOptions()
	o.Scorer = retrieval.ScorerPaper
	return o
}

// scores maps fixture names to final scores of a result of space.
func scores(space string, res realm.RecallResult) map[string]float64 {
	out := map[string]float64{}
	for _, n := range res.Nodes {
		out[strings.TrimPrefix(n.Node.ID, space+":")] = n.Score
	}
	return out
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-5 }

// wantScores checks that the result holds exactly these nodes with these scores.
func wantScores(t *testing.T, space string, res realm.RecallResult, want map[string]float64) {
	t.Helper()
	got := scores(space, res)
	for name, w := range want {
		g, ok := got[name]
		if !ok {
			t.Errorf("%s missing; got %v", name, got)
		} else if !near(g, w) {
			t.Errorf("score of %s = %.6f, want %.6f", name, g, w)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("unexpected node %s (%.4f)", name, got[name])
		}
	}
}
