package offline

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

func auditDay(m time.Month, d int) *time.Time {
	t := time.Date(2023, m, d, 0, 0, 0, 0, time.UTC)
	return &t
}

// auditFixture is a recall for "When did Caroline go to the LGBTQ support group?":
// two events that answer it (k at depth 1, k2 a seed), a seed about something else that
// leads to k (s1), an expanded node about something else (m) and an unrelated seed (u).
func auditFixture() agent.AuditInput {
	node := func(id string, typ realm.NodeType, content string, t *time.Time) realm.Node {
		return realm.Node{ID: id, Type: typ, Name: id, Content: content, TStart: t, TEnd: t}
	}
	edge := func(from, to string, p realm.Predicate, w float64) realm.Edge {
		return realm.Edge{ID: from + to, From: from, To: to, Predicate: p, Weight: w}
	}
	return agent.AuditInput{
		Query: "When did Caroline go to the LGBTQ support group?",
		Nodes: []realm.RecalledNode{
			{Node: node("s1", realm.Fact, "Painting class on Tuesdays", nil), Score: 0.9, Depth: 0},
			{Node: node("k2", realm.Event, "Caroline spoke at a support group meeting", auditDay(6, 2)), Score: 0.8, Depth: 0},
			{Node: node("k", realm.Event, "Caroline went to the LGBTQ support group on 7 May 2023", auditDay(5, 7)), Score: 0.7, Depth: 1},
			{Node: node("m", realm.Event, "Melanie bought new running shoes", auditDay(5, 9)), Score: 0.3, Depth: 1},
			{Node: node("u", realm.Fact, "Rainy weather in Boston", nil), Score: 0.2, Depth: 0},
		},
		Edges: []realm.Edge{
			edge("s1", "k", realm.Correlates, 0.5),
			edge("k", "s1", realm.Correlates, 0.5), // the reverse a symmetric edge has
			edge("k", "m", realm.Precedes, 0.6),
			edge("s1", "u", realm.Contextualizes, 0.7),
		},
	}
}

func TestOfflineAudit(t *testing.T) {
	ctx := context.Background()
	auditor := New(Options{})
	yes, no := true, false
	tests := []struct {
		name       string
		answer     string
		feedback   *realm.Feedback
		wantLabels map[string]realm.NodeLabel
		wantEdits  []realm.EditProposal
	}{
		{
			name: "WordOverlap", // no answer, no feedback: key = best nodes sharing query words
			wantLabels: map[string]realm.NodeLabel{"k": realm.KeyEvidence, "k2": realm.KeyEvidence,
				"s1": realm.SupportingContext, "m": realm.Misleading, "u": realm.Unrelated},
			wantEdits: []realm.EditProposal{
				{From: "k", To: "s1", Action: realm.EditStrengthen, Predicate: realm.Correlates, Confidence: 0.6},
				{From: "k", To: "k2", Action: realm.EditAdd, Predicate: realm.Precedes, Confidence: 0.6}, // May before June
				{From: "k", To: "m", Action: realm.EditWeaken, Predicate: realm.Precedes, Confidence: 0.6},
			},
		},
		{
			name:     "Feedback",
			feedback: &realm.Feedback{Correct: &yes, UsefulNodeIDs: []string{"k"}, MisleadingNodeIDs: []string{"u"}},
			wantLabels: map[string]realm.NodeLabel{"k": realm.KeyEvidence, "k2": realm.SupportingContext,
				"s1": realm.SupportingContext, "m": realm.Misleading, "u": realm.Misleading},
			wantEdits: []realm.EditProposal{
				{From: "k", To: "s1", Action: realm.EditStrengthen, Predicate: realm.Correlates, Confidence: 0.9},
				{From: "k", To: "m", Action: realm.EditWeaken, Predicate: realm.Precedes, Confidence: 0.6},
				{From: "s1", To: "u", Action: realm.EditWeaken, Predicate: realm.Contextualizes, Confidence: 0.9},
			},
		},
		{
			name:   "AnswerCites",
			answer: "On 7 May 2023 [k].",
			wantLabels: map[string]realm.NodeLabel{"k": realm.KeyEvidence, "k2": realm.SupportingContext,
				"s1": realm.SupportingContext, "m": realm.Misleading, "u": realm.Unrelated},
			wantEdits: []realm.EditProposal{
				{From: "k", To: "s1", Action: realm.EditStrengthen, Predicate: realm.Correlates, Confidence: 0.75},
				{From: "k", To: "m", Action: realm.EditWeaken, Predicate: realm.Precedes, Confidence: 0.6},
			},
		},
		{
			name:     "WrongAnswer", // confirms nothing: no key evidence, by citations or word overlap, and no edit
			answer:   "In 2019 [u].",
			feedback: &realm.Feedback{Correct: &no},
			wantLabels: map[string]realm.NodeLabel{"k": realm.SupportingContext, "k2": realm.SupportingContext,
				"s1": realm.Unrelated, "m": realm.Unrelated, "u": realm.Unrelated},
		},
		{
			name:     "WrongAnswerUseful", // the client's useful ids stay key evidence
			feedback: &realm.Feedback{Correct: &no, UsefulNodeIDs: []string{"k"}},
			wantLabels: map[string]realm.NodeLabel{"k": realm.KeyEvidence, "k2": realm.SupportingContext,
				"s1": realm.SupportingContext, "u": realm.Unrelated},
			wantEdits: []realm.EditProposal{
				{From: "k", To: "s1", Action: realm.EditStrengthen, Predicate: realm.Correlates, Confidence: 0.9},
				{From: "k", To: "m", Action: realm.EditWeaken, Predicate: realm.Precedes, Confidence: 0.6},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := auditFixture()
			in.Answer, in.Feedback = tt.answer, tt.feedback
			out, _, err := auditor.Audit(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			for id, want := range tt.wantLabels {
				if out.Labels[id] != want {
					t.Errorf("label of %s: %s, want %s", id, out.Labels[id], want)
				}
			}
			got := stripReasons(out.Edits)
			if !slices.Equal(got, tt.wantEdits) {
				t.Errorf("edits\n got %+v\nwant %+v", got, tt.wantEdits)
			}
			if valid, rejected := agent.ValidateEdits(in, out.Edits); len(rejected) > 0 || len(valid) != len(out.Edits) {
				t.Errorf("the offline auditor proposed invalid edits: %+v", rejected)
			}
			again, _, _ := auditor.Audit(ctx, in)
			if !slices.Equal(stripReasons(again.Edits), got) {
				t.Error("two audits of one input differ")
			}
		})
	}
	t.Run("Empty", func(t *testing.T) {
		out, _, err := auditor.Audit(ctx, agent.AuditInput{Query: "anything"})
		if err != nil || len(out.Edits) != 0 || len(out.Labels) != 0 {
			t.Errorf("audit of nothing: %+v, %v", out, err)
		}
	})
	t.Run("SpecificWordsOnly", func(t *testing.T) {
		// Every node names Caroline, as every turn of a conversation names its speaker: the
		// name tells them apart no more than nothing, so only k, which shares "lgbtq" with the
		// query, is key evidence; s1 and u, sharing only the name, are unrelated.
		in := auditFixture()
		for i := range in.Nodes {
			in.Nodes[i].Node.Content = "Caroline: " + in.Nodes[i].Node.Content
		}
		in.Query = "When did Caroline go to LGBTQ events?"
		out, _, _ := auditor.Audit(ctx, in)
		var key []string
		for id, l := range out.Labels {
			if l == realm.KeyEvidence {
				key = append(key, id)
			}
		}
		if !slices.Equal(key, []string{"k"}) || out.Labels["u"] != realm.Unrelated || out.Labels["s1"] == realm.KeyEvidence {
			t.Errorf("labels %v: want k alone key evidence, u unrelated", out.Labels)
		}
	})
	t.Run("NoKeyNoMisleading", func(t *testing.T) {
		// Nothing shares a word with the query: no key evidence, so nothing is called misleading.
		in := auditFixture()
		in.Query = "Which instrument does Jon's son play?"
		out, _, _ := auditor.Audit(ctx, in)
		if len(out.Edits) != 0 {
			t.Errorf("edits without key evidence: %+v", out.Edits)
		}
	})
}

func stripReasons(edits []realm.EditProposal) []realm.EditProposal {
	out := make([]realm.EditProposal, len(edits))
	for i, e := range edits {
		e.Reason = ""
		out[i] = e
	}
	return out
}

func TestValidate(t *testing.T) {
	in := auditFixture()
	ok := func(from, to string, a realm.EditAction, p realm.Predicate) realm.EditProposal {
		return realm.EditProposal{From: from, To: to, Action: a, Predicate: p, Confidence: 0.7}
	}
	tests := []struct {
		name string
		edit realm.EditProposal
		ok   bool
	}{
		{"OK", ok("k", "m", realm.EditStrengthen, realm.Precedes), true},
		{"OKSymmetricReverse", ok("s1", "k", realm.EditWeaken, realm.Correlates), true},
		{"OKAdd", ok("k2", "u", realm.EditAdd, realm.Correlates), true},
		{"ErrNotRecalled", ok("k", "elsewhere", realm.EditAdd, realm.Correlates), false},
		{"ErrPredicate", ok("k", "m", realm.EditStrengthen, "loves"), false},
		{"ErrAction", ok("k", "m", "delete", realm.Precedes), false},
		{"ErrConfidence", realm.EditProposal{From: "k", To: "m", Action: realm.EditStrengthen, Predicate: realm.Precedes, Confidence: 1.5}, false},
		{"ErrNoSuchEdge", ok("m", "k", realm.EditStrengthen, realm.Precedes), false}, // wrong direction, not symmetric
		{"ErrAddConnected", ok("m", "k", realm.EditAdd, realm.Correlates), false},
		{"ErrSelf", ok("k", "k", realm.EditAdd, realm.Correlates), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			valid, rejected := agent.ValidateEdits(in, []realm.EditProposal{tt.edit})
			if (len(valid) == 1) != tt.ok || len(valid)+len(rejected) != 1 {
				t.Errorf("valid %v, rejected %v", valid, rejected)
			}
		})
	}
	t.Run("ErrTwice", func(t *testing.T) {
		// A symmetric edge proposed in both directions is one edge.
		valid, rejected := agent.ValidateEdits(in, []realm.EditProposal{
			ok("s1", "k", realm.EditStrengthen, realm.Correlates), ok("k", "s1", realm.EditStrengthen, realm.Correlates),
		})
		if len(valid) != 1 || len(rejected) != 1 {
			t.Errorf("valid %v, rejected %v", valid, rejected)
		}
	})
}

// toolingNodes are recalled notes on a project's tools, best first, several of them
// sharing "we use" with the question and one another.
func toolingNodes() []realm.RecalledNode {
	var out []realm.RecalledNode
	for i, n := range [][2]string{
		{"n-pnpm", "We use pnpm for all JavaScript packages in this repo."},
		{"n-ruff", "For Python we use ruff format instead of black."},
		{"n-priya", "Priya reviews every database migration before it ships."},
		{"n-node", "pnpm install fails on Node 18, so CI pins Node 20."},
		{"n-ts", "We use TypeScript 5.6 with strict mode turned on."},
		{"n-staging", "The staging server restarts every night at 2am."},
	} {
		out = append(out, realm.RecalledNode{Node: realm.Node{ID: n[0], Type: realm.Fact, Content: n[1]}, Score: 1 - float64(i)/10})
	}
	return out
}

func TestAnswerKey(t *testing.T) {
	const query = "Which package manager do we use?"
	tests := []struct {
		name, answer, speaker string
		key, related          []string
	}{
		// pnpm tells the answer apart (npm is in no note): the note that states it also
		// holds the question's "packages"; n-node only names pnpm; n-ruff and n-ts share
		// "use" alone.
		{"StatesIt", "We use pnpm, not npm.", "", []string{"n-pnpm"}, []string{"n-pnpm", "n-node"}},
		{"MostAnswerWords", "pnpm, pinned to Node 20 in CI", "", []string{"n-node"}, []string{"n-pnpm", "n-node"}},
		{"OnlyQuestionWords", "We use a package manager.", "", nil, nil}, // nothing of its own
		{"NotInMemory", "We use yarn.", "", nil, nil},                    // no note states it
		// Every note names its speaker: the name tells none apart.
		{"SpeakerInEveryNote", "Nora decides that.", "Nora: ", nil, nil},
		{"SpeakerAndValue", "Nora uses pnpm.", "Nora: ", []string{"n-pnpm"}, []string{"n-pnpm", "n-node"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nodes := toolingNodes()
			words := map[string]map[string]bool{}
			for _, n := range nodes {
				words[n.Node.ID] = auditWords(tt.speaker + n.Node.Content)
			}
			key, related := answerKey(query, tt.answer, nodes, words, 3)
			var rel []string
			for _, n := range nodes {
				if related[n.Node.ID] {
					rel = append(rel, n.Node.ID)
				}
			}
			if !slices.Equal(key, tt.key) || !slices.Equal(rel, tt.related) {
				t.Errorf("key %v, related %v; want %v, %v", key, rel, tt.key, tt.related)
			}
		})
	}
}

// TestOfflineAuditAnswer: an answer confirmed right decides the key evidence by its own
// words: the note that states it, alone; the notes that share only the question's words
// are unrelated and no edit strengthens or adds an edge for them.
func TestOfflineAuditAnswer(t *testing.T) {
	yes := true
	in := agent.AuditInput{
		Query:    "Which package manager do we use?",
		Nodes:    toolingNodes(),
		Answer:   "We use pnpm, not npm.",
		Feedback: &realm.Feedback{Answer: "We use pnpm, not npm.", Correct: &yes},
		Edges: []realm.Edge{
			{ID: "e1", From: "n-ruff", To: "n-ts", Predicate: realm.Correlates, Weight: 0.6},
			{ID: "e2", From: "n-ts", To: "n-ruff", Predicate: realm.Correlates, Weight: 0.6},
			{ID: "e3", From: "n-ruff", To: "n-node", Predicate: realm.Precedes, Weight: 0.7},
		},
	}
	out, _, err := New(Options{}).Audit(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]realm.NodeLabel{"n-pnpm": realm.KeyEvidence, "n-ruff": realm.Unrelated, "n-priya": realm.Unrelated,
		"n-node": realm.SupportingContext, "n-ts": realm.Unrelated, "n-staging": realm.Unrelated}
	for id, l := range want {
		if out.Labels[id] != l {
			t.Errorf("%s: %s, want %s", id, out.Labels[id], l)
		}
	}
	if len(out.Edits) != 0 {
		t.Errorf("edits %+v: the one key note is a seed, no edge leads to it", out.Edits)
	}
}

// TestOfflineAuditLearnedLinks: a learned link is a label for its query, not a path: the
// auditor neither weakens a misleading one (that would raise the node it lowers) nor
// calls a node supporting context for a learned link to key evidence.
func TestOfflineAuditLearnedLinks(t *testing.T) {
	in := auditFixture()
	in.Edges = append(in.Edges,
		realm.Edge{ID: "s1m", From: "s1", To: "m", Predicate: realm.Contextualizes, Weight: 0.72, Query: "What did Melanie buy?", Label: realm.Misleading},
		realm.Edge{ID: "uk2", From: "u", To: "k2", Predicate: realm.Contextualizes, Weight: 0.72, Query: "Who spoke at a meeting?", Label: realm.KeyEvidence})
	out, _, err := New(Options{}).Audit(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if out.Labels["m"] != realm.Misleading || out.Labels["u"] != realm.Unrelated {
		t.Errorf("labels %v: want m misleading, u unrelated", out.Labels)
	}
	for _, e := range out.Edits {
		if e.From == "s1" && e.To == "m" || e.From == "u" && e.To == "k2" {
			t.Errorf("edit of a learned link: %+v", e)
		}
	}
	valid, rejected := agent.ValidateEdits(in, []realm.EditProposal{
		{From: "s1", To: "m", Action: realm.EditWeaken, Predicate: realm.Contextualizes, Confidence: 0.9},
		{From: "s1", To: "m", Action: realm.EditStrengthen, Predicate: realm.Contextualizes, Confidence: 0.9},
	})
	if len(valid) != 1 || valid[0].Action != realm.EditStrengthen || len(rejected) != 1 {
		t.Errorf("a misleading link weakened or strengthened: valid %+v, rejected %+v", valid, rejected)
	}
}
