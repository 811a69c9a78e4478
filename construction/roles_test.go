package construction_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/agent/agenttest"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// agentChat is testdata/agent-chat.json, an agent's conversation as a framework sends it:
// a system prompt (a secret in it, and memories recalled before), the user's request,
// the assistant calling a tool, the tool's JSON, the answer, and a tool's error. The
// messages are o1, o2, … a minute apart, of one session.
func agentChat(t *testing.T) []realm.Observation {
	t.Helper()
	b, err := os.ReadFile("testdata/agent-chat.json")
	if err != nil {
		t.Fatal(err)
	}
	var msgs []struct{ Role, Content string }
	if err := json.Unmarshal(b, &msgs); err != nil {
		t.Fatal(err)
	}
	obs := make([]realm.Observation, len(msgs))
	for i, m := range msgs {
		obs[i] = realm.Observation{ID: fmt.Sprintf("o%d", i+1), SessionID: "trip", Speaker: m.Role, Content: m.Content,
			ObservedAt: t0.Add(time.Duration(i) * time.Minute)}
	}
	return obs
}

// TestAgentChat: with the offline agent, a system prompt is stored (listed, integrated)
// and makes no memory: its secret is recalled by no query, nor the memories recalled into
// it; no chat role, nor a word of a tool's error, is a person; a tool's output is no
// reply to the assistant's call, its facts a memory of their own.
func TestAgentChat(t *testing.T) {
	store, p, r, space := offlineSpace(t)
	ctx := context.Background()
	results := mustIngest(t, p, space, agentChat(t)...)
	for _, res := range results {
		if res.Status != construction.StatusIntegrated {
			t.Errorf("%s: %+v, want integrated", res.ObservationID, res)
		}
	}
	if sys := results[0]; len(sys.Added)+len(sys.Merged)+len(sys.Skipped) > 0 {
		t.Errorf("system prompt: %+v, want nothing added, merged or skipped", sys)
	}
	listed, _, err := store.ListObservations(ctx, space, cypher.ObservationFilter{}, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(listed, func(o realm.Observation) bool { return o.ID == "o1" }); i < 0 || listed[i].Status != realm.ObservationIntegrated {
		t.Errorf("observations %+v, want the system prompt o1 listed, integrated", listed)
	}

	nodes, _, err := store.Graph(ctx, space, "", 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	toolOwn := false
	for _, n := range nodes {
		if slices.Contains(n.Sources, "o1") || strings.Contains(n.Content, "XYZZY") || strings.Contains(n.Content, "vegetarian") {
			t.Errorf("memory %q (sources %v) holds the system prompt", n.Content, n.Sources)
		}
		if n.Type == realm.Entity && n.Category == "person" && slices.Contains([]string{"system", "tool", "DeadlockDetected", "Neo4j", "Errno", "TP218"}, n.Name) {
			t.Errorf("entity %q typed person", n.Name)
		}
		for _, call := range [][]string{{"o3", "o4"}, {"o7", "o8"}} {
			if slices.Contains(n.Sources, call[0]) && slices.Contains(n.Sources, call[1]) {
				t.Errorf("memory %q derives from the assistant's call %s and the tool's output %s together", n.Content, call[0], call[1])
			}
		}
		toolOwn = toolOwn || n.Type != realm.Entity && slices.Equal(n.Sources, []string{"o8"}) && strings.Contains(n.Content, "DeadlockDetected")
	}
	if !toolOwn {
		t.Errorf("no memory of the tool's error alone among %v", names(nodes))
	}

	for _, q := range []string{"What is the secret token?", "Is Maya vegetarian?", "What are you instructed to do as a travel agent for Acme?"} {
		res, err := r.Recall(ctx, space, realm.RecallRequest{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range res.Nodes {
			if slices.Contains(n.Node.Sources, "o1") {
				t.Errorf("%q recalls %q, of the system prompt", q, n.Node.Content)
			}
		}
	}
}

// askedAgent is scriptAgent recording the observations it is asked to extract and those
// it is shown as their context, and who it is shown said each.
type askedAgent struct {
	scriptAgent
	mu           sync.Mutex
	asked, shown []string
	saidBy       map[string]string // observation id → the speaker shown
}

func (a *askedAgent) Extract(ctx context.Context, in agent.ExtractInput) (agent.Extraction, realm.Usage, error) {
	a.mu.Lock()
	if a.saidBy == nil {
		a.saidBy = map[string]string{}
	}
	a.asked = append(a.asked, in.Observation.ID)
	a.saidBy[in.Observation.ID] = in.Observation.Speaker
	for _, r := range in.Recent {
		a.shown = append(a.shown, r.ID)
		a.saidBy[r.ID] = r.Speaker
	}
	a.mu.Unlock()
	return a.scriptAgent.Extract(ctx, in)
}

// TestExtractRoles: whatever the agent, a chat role that Options.ExtractRoles leaves out
// (system by default) is neither extracted nor shown as another's context, and its
// message reads as integrated with nothing added; a person's message is always extracted.
// A message sent with a speaker's name and a role ("Named") is extracted as its role
// says, whatever the name. The agent is shown every message said by its speaker, a tool's
// output under the tool's name ("Weather API") beside its role.
func TestExtractRoles(t *testing.T) {
	for _, tc := range []struct {
		name  string
		roles []string
		named bool     // sent with a speaker's name beside the role, else with the role as the speaker
		want  []string // the observations extracted, in order
	}{
		{"Default", nil, false, []string{"u", "a", "t", "p"}},
		{"SystemAndUser", []string{"user", "system"}, false, []string{"s", "u", "p"}},
		{"NamedDefault", nil, true, []string{"u", "a", "t", "p"}},
		{"NamedAssistantAndSystem", []string{"assistant", "system"}, true, []string{"s", "a", "p"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := cyphertest.MustOpen(t)
			space := cyphertest.NewSpace(t)
			ag := &askedAgent{}
			p := construction.New(store, ag, bowEmbedder{}, construction.Options{Owner: "test-" + space, ExtractRoles: tc.roles}, zerolog.Nop())
			t.Cleanup(func() { p.Close(context.Background()) })
			shownAs := map[string]string{}
			say := func(id, role, name, content string, minute int) realm.Observation {
				o := realm.Observation{ID: id, SessionID: "s1", Speaker: role, Content: content, ObservedAt: t0.Add(time.Duration(minute) * time.Minute)}
				if tc.named && name != "" {
					o.Speaker, o.Role = name, strings.ToLower(role)
				}
				shownAs[id] = o.Speaker
				return o
			}
			results := mustIngest(t, p, space,
				say("s", "System", "Ops bot", "token: the secret token is XYZZY-4242", 0),
				say("u", "user", "Maya", "trip: a flight to Lisbon", 1),
				say("a", "assistant", "Ava", "search: searching flights", 2),
				say("t", "tool", "Weather API", "flight: TP218 at 21:40", 3),
				say("p", "Ana", "", "seat: Ana prefers an aisle seat", 4),
			)
			if fmt.Sprint(ag.asked) != fmt.Sprint(tc.want) {
				t.Errorf("extracted %v, want %v", ag.asked, tc.want)
			}
			for _, id := range ag.shown {
				if !slices.Contains(tc.want, id) {
					t.Errorf("%s shown to the agent as context, want only extracted messages", id)
				}
			}
			for id, speaker := range ag.saidBy {
				if speaker != shownAs[id] {
					t.Errorf("%s shown said by %q, want %q", id, speaker, shownAs[id])
				}
			}
			for _, res := range results {
				extracted := slices.Contains(tc.want, res.ObservationID)
				if res.Status != construction.StatusIntegrated || extracted != (len(res.Added) > 0) {
					t.Errorf("%s: %+v, want integrated, added %v", res.ObservationID, res, extracted)
				}
			}
		})
	}
}

// TestExtractRolesLLM: the LLM agent is not asked about a system prompt, nor shown it as
// the context of the user's next message.
func TestExtractRolesLLM(t *testing.T) {
	lp := newLLMPipeline(t, nil)
	chat := agentChat(t)
	if res := lp.ingest(t, chat[0]); len(res.Added)+len(res.Merged) > 0 || len(lp.fake.Requests()) > 0 {
		t.Fatalf("system prompt: %+v after %d model calls, want nothing added and no call", res, len(lp.fake.Requests()))
	}
	lp.fake.Enqueue(
		agenttest.JSON(t, extraction("The user needs a flight from Boston to Lisbon.",
			cand{Type: "fact", Name: "user needs a flight to Lisbon", Content: "The user needs a flight from Boston to Lisbon on June 12."}), 100, 20),
		agenttest.JSON(t, integration(decision("C0", "add", "", "")), 100, 20),
	)
	lp.ingest(t, chat[1])
	for _, req := range lp.fake.Requests() {
		if req.Contains("XYZZY") {
			t.Errorf("the model was shown the system prompt: %s", req.LastUser())
		}
	}
}

// TestToolNoPersonLLM: the model making the tool whose output it reads a person adds no
// such entity, whether the output was said by "tool" or sent under the tool's name in the
// tool's role ("Weather API", which the model is shown with its role: "Weather API
// (tool)"); what else it extracted is kept.
func TestToolNoPersonLLM(t *testing.T) {
	named := agentChat(t)[7]
	named.Speaker, named.Role = "Weather API", "tool"
	for _, tc := range []struct {
		name   string
		o      realm.Observation
		person string // the person the model makes of the tool
	}{
		{"Role", agentChat(t)[7], "tool"},
		{"Named", named, "weather api"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lp := newLLMPipeline(t, nil)
			lp.fake.Enqueue(
				agenttest.JSON(t, extraction("The booking failed with DeadlockDetected.",
					cand{Type: "fact", Name: "booking failed", Content: "The booking of TP218 failed with DeadlockDetected from Neo4j."},
					cand{Type: "entity", Name: tc.person, Category: "person", Content: tc.person + " is a participant of the conversation."}), 100, 20),
				agenttest.JSON(t, integration(decision("C0", "add", "", "")), 100, 20),
			)
			res := lp.ingest(t, tc.o)
			if len(res.Added) != 1 {
				t.Fatalf("%+v, want the fact alone added", res)
			}
			if n, _ := lp.memory(t, res.Added[0]); n.Type != realm.Fact {
				t.Errorf("added %+v, want the fact", n)
			}
			for _, req := range lp.fake.Requests() {
				if req.Contains("Weather API") && !req.Contains("Weather API (tool)") {
					t.Errorf("the model was shown the tool's name without its role: %s", req.LastUser())
				}
			}
		})
	}
}

// TestMachineSpeakers: with the offline agent, what a device or a service reports is said
// by its name, sent as a tool ("thermostat-3: Living room 21.5C", not "tool: …"), and
// neither it nor a speaker named as a device without a role ("thermostat") is a person.
func TestMachineSpeakers(t *testing.T) {
	store, p, _, space := offlineSpace(t)
	mustIngest(t, p, space,
		realm.Observation{ID: "t1", SessionID: "ops", Speaker: "thermostat-3", Role: "tool", Content: "Living room 21.5C", ObservedAt: t0},
		realm.Observation{ID: "t2", SessionID: "ops", Speaker: "db-primary", Role: "tool", Content: "Disk at 81% on Monday", ObservedAt: t0.Add(time.Minute)},
		realm.Observation{ID: "t3", SessionID: "home", Speaker: "thermostat", Content: "Kitchen 19.5C", ObservedAt: t0.Add(2 * time.Minute)},
	)
	nodes, _, err := store.Graph(context.Background(), space, "", 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, said := range []string{"thermostat-3: Living room 21.5C", "db-primary: Disk at 81% on Monday", "thermostat: Kitchen 19.5C"} {
		if !slices.ContainsFunc(nodes, func(n realm.Node) bool { return strings.HasPrefix(n.Content, said) }) {
			t.Errorf("memories %v, want one opening %q", names(nodes), said)
		}
	}
	for _, n := range nodes {
		if n.Type == realm.Entity && n.Category == "person" || strings.HasPrefix(n.Content, "tool:") {
			t.Errorf("memory %q (%s %s), want no person and nothing said by tool", n.Content, n.Type, n.Category)
		}
	}
}
