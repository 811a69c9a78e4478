package construction_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/agenttest"
	"github.com/realm-memory/realm/agent/llm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// The LLM path end to end: the LLM agent against a scripted fake of the chat API, the
// offline agent as its fallback, the pipeline writing to a real Neo4j.

type llmPipeline struct {
	*construction.Pipeline
	fake  *agenttest.FakeOpenAI
	store *cypher.Store
	log   *lockedBuffer // the agent's log: one "LLM call" line per call
	space string
}

// newLLMPipeline returns a pipeline whose agent talks to a fresh fake; edit adjusts the
// agent's config.
func newLLMPipeline(tb testing.TB, edit func(*llm.Config)) *llmPipeline {
	tb.Helper()
	store := cyphertest.MustOpen(tb)
	fake := agenttest.NewFakeOpenAI(tb)
	cfg := llm.Config{BaseURL: fake.BaseURL(), APIKey: "test", Models: llm.Models{Extraction: "test-model"}, Timeout: 10 * time.Second}
	if edit != nil {
		edit(&cfg)
	}
	log := &lockedBuffer{}
	lm, err := llm.New(cfg, offline.New(offline.Options{}), zerolog.New(log).Level(zerolog.DebugLevel))
	if err != nil {
		tb.Fatal(err)
	}
	space := cyphertest.NewSpace(tb)
	p := construction.New(store, lm, bowEmbedder{}, construction.Options{Owner: "test-" + space}, zerolog.Nop())
	tb.Cleanup(func() { p.Close(context.Background()) })
	return &llmPipeline{Pipeline: p, fake: fake, store: store, log: log, space: space}
}

func (lp *llmPipeline) ingest(t *testing.T, o realm.Observation) construction.Result {
	t.Helper()
	res, err := lp.Ingest(context.Background(), lp.space, []realm.Observation{o})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Status != construction.StatusIntegrated {
		t.Fatalf("result %+v, want integrated", res[0])
	}
	return res[0]
}

func (lp *llmPipeline) memory(t *testing.T, id string) (realm.Node, []realm.Edge) {
	t.Helper()
	n, edges, err := lp.store.GetMemory(context.Background(), lp.space, id)
	if err != nil {
		t.Fatal(err)
	}
	return n, edges
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// calls returns the agent's per-call log lines.
func (l *lockedBuffer) calls(t *testing.T) []map[string]any {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(l.b.Bytes()))
	for sc.Scan() {
		var line map[string]any
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("log line %q: %v", sc.Text(), err)
		}
		if line["message"] == "LLM call" {
			out = append(out, line)
		}
	}
	return out
}

func llmObs(id, speaker, content string) realm.Observation {
	return realm.Observation{ID: id, SessionID: "s1", Speaker: speaker, Content: content, ObservedAt: t0}
}

// cand is a candidate as the model returns it; every field of the strict schema is sent.
type cand struct {
	Type, Name, Content, TStart, Category string
	Keywords                              []string
}

func extraction(summary string, cs ...cand) map[string]any {
	out := make([]map[string]any, len(cs))
	for i, c := range cs {
		out[i] = map[string]any{
			"type": c.Type, "name": c.Name, "content": c.Content, "description": "", "keywords": orEmpty(c.Keywords),
			"t_start": c.TStart, "t_end": "", "aliases": []string{}, "category": c.Category, "role": "",
			"participants": []string{}, "subject": "", "attribute": "",
		}
	}
	return map[string]any{"summary": summary, "candidates": out}
}

func decision(ref, action, mergeInto, merged string, edges ...map[string]any) map[string]any {
	return map[string]any{"candidate": ref, "action": action, "merge_into": mergeInto, "merged_content": merged, "edges": orEmptyMaps(edges)}
}

func llmEdge(from, to string, p realm.Predicate, w float64) map[string]any {
	return map[string]any{"op": "add", "from": from, "to": to, "predicate": string(p), "weight": w, "description": "scripted"}
}

func integration(ds ...map[string]any) map[string]any { return map[string]any{"decisions": ds} }

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func orEmptyMaps(m []map[string]any) []map[string]any {
	if m == nil {
		return []map[string]any{}
	}
	return m
}

// neighbourRef finds, in an integrate prompt, the ref the model is shown for the
// neighbour of that type and name.
func neighbourRef(t *testing.T, r agenttest.ChatRequest, typ, name string) string {
	t.Helper()
	re := regexp.MustCompile(`(?m)^\s*- (N\d+) \[` + typ + `\] \([^)]*\) ` + regexp.QuoteMeta(name) + `:`)
	m := re.FindStringSubmatch(r.LastUser())
	if m == nil {
		t.Errorf("integrate prompt does not list neighbour %s %q:\n%s", typ, name, r.LastUser())
		return "N0"
	}
	return m[1]
}

func hasEdge(edges []realm.Edge, from, to string, p realm.Predicate, w float64) bool {
	for _, e := range edges {
		if e.From == from && e.To == to && e.Predicate == p && e.Weight == w {
			return true
		}
	}
	return false
}

func TestIngestLLM(t *testing.T) {
	t.Run("ValidOutputApplied", func(t *testing.T) {
		lp := newLLMPipeline(t, nil)
		f := lp.fake

		// o1: an event and an entity, the event an instance of what is known of the entity.
		f.Enqueue(
			agenttest.JSON(t, extraction("Caroline attended an LGBTQ support group on 7 May 2023.",
				cand{Type: "event", Name: "Caroline attends LGBTQ support group", TStart: "2023-05-07",
					Content: "Caroline attended an LGBTQ support group on 7 May 2023.", Keywords: []string{"LGBTQ", "support group"}},
				cand{Type: "entity", Name: "Caroline", Category: "person", Content: "Caroline is a person who attends an LGBTQ support group."},
			), 300, 120),
			agenttest.JSON(t, integration(
				decision("C0", "add", "", "", llmEdge("self", "C1", realm.Instantiates, 0.8)),
				decision("C1", "add", "", ""),
			), 400, 60),
		)
		r1 := lp.ingest(t, llmObs("o1", "Caroline", "I went to a LGBTQ support group yesterday."))
		if len(r1.Added) != 2 || len(r1.Edges) != 1 {
			t.Fatalf("o1: %+v, want 2 added and 1 edge", r1)
		}
		event, entity := r1.Added[0], r1.Added[1]
		n, edges := lp.memory(t, event)
		day := time.Date(2023, 5, 7, 0, 0, 0, 0, time.UTC)
		if n.Type != realm.Event || n.TStart == nil || !n.TStart.Equal(day) || n.Content != "Caroline attended an LGBTQ support group on 7 May 2023." ||
			fmt.Sprint(n.Sources) != "[o1]" {
			t.Errorf("event %+v", n)
		}
		if !hasEdge(edges, event, entity, realm.Instantiates, 0.8) {
			t.Errorf("event edges %+v, want instantiates → %s (0.8)", edges, entity)
		}
		if n, _ := lp.memory(t, entity); n.Type != realm.Entity || n.Category != "person" {
			t.Errorf("entity %+v", n)
		}
		if s, _ := lp.store.SpaceSummary(context.Background(), lp.space); s != "Caroline attended an LGBTQ support group on 7 May 2023." {
			t.Errorf("summary %q", s)
		}
		wantUsage := realm.Usage{
			llm.StageExtract:   {Calls: 1, PromptTokens: 300, CompletionTokens: 120},
			llm.StageIntegrate: {Calls: 1, PromptTokens: 400, CompletionTokens: 60},
		}
		if got := withoutLatency(r1.Usage); fmt.Sprint(got) != fmt.Sprint(wantUsage) {
			t.Errorf("usage %+v, want %+v", got, wantUsage)
		}

		// o2: the entity again, merged into the stored one; a fact related to it.
		f.Enqueue(agenttest.JSON(t, extraction("Caroline lives in Berlin.",
			cand{Type: "entity", Name: "Caroline", Category: "person", Content: "Caroline is a person who lives in Berlin."},
			cand{Type: "fact", Name: "Caroline lives in Berlin", Content: "Caroline lives in Berlin.", Keywords: []string{"Berlin"}},
		), 310, 90))
		f.Handle(func(r agenttest.ChatRequest) agenttest.Response {
			ref := neighbourRef(t, r, "entity", "Caroline")
			return agenttest.JSON(t, integration(
				decision("C0", "merge", ref, "Caroline is a person who attends an LGBTQ support group and lives in Berlin."),
				decision("C1", "add", "", "", llmEdge("self", "C0", realm.Instantiates, 0.9)),
			), 420, 70)
		})
		r2 := lp.ingest(t, llmObs("o2", "Caroline", "I live in Berlin now, by the way."))
		if fmt.Sprint(r2.Merged) != fmt.Sprint([]string{entity}) || len(r2.Added) != 1 {
			t.Fatalf("o2: %+v, want merged into %s and one add", r2, entity)
		}
		berlin := r2.Added[0]
		n, _ = lp.memory(t, entity)
		if n.Content != "Caroline is a person who attends an LGBTQ support group and lives in Berlin." || fmt.Sprint(n.Sources) != "[o1 o2]" {
			t.Errorf("merged entity %+v", n)
		}
		if n, edges := lp.memory(t, berlin); n.Type != realm.Fact || !hasEdge(edges, berlin, entity, realm.Instantiates, 0.9) {
			t.Errorf("fact %+v edges %+v, want instantiates → the merged entity", n, edges)
		}

		// o3: a state change: an add superseding the old fact.
		f.Enqueue(agenttest.JSON(t, extraction("Caroline moved from Berlin to Paris.",
			cand{Type: "fact", Name: "Caroline lives in Paris", Content: "Caroline lives in Paris.", Keywords: []string{"Paris"}},
		), 320, 50))
		f.Handle(func(r agenttest.ChatRequest) agenttest.Response {
			ref := neighbourRef(t, r, "fact", "Caroline lives in Berlin")
			return agenttest.JSON(t, integration(decision("C0", "add", "", "", llmEdge("self", ref, realm.Supersedes, 0.95))), 380, 40)
		})
		r3 := lp.ingest(t, llmObs("o3", "Caroline", "I moved to Paris last month."))
		if len(r3.Added) != 1 || len(r3.Edges) != 1 || !hasEdge(r3.Edges, r3.Added[0], berlin, realm.Supersedes, 0.95) {
			t.Fatalf("o3: %+v, want an add superseding %s", r3, berlin)
		}
		if _, edges := lp.memory(t, berlin); !hasEdge(edges, r3.Added[0], berlin, realm.Supersedes, 0.95) {
			t.Errorf("supersedes not stored: %+v", edges)
		}

		// Every call is logged with its model, tokens, latency and outcome.
		calls := lp.log.calls(t)
		if len(calls) != len(f.Requests()) || len(calls) != 6 {
			t.Fatalf("%d call log lines for %d requests, want 6", len(calls), len(f.Requests()))
		}
		wantTokens := [][2]float64{{300, 120}, {400, 60}, {310, 90}, {420, 70}, {320, 50}, {380, 40}}
		for i, c := range calls {
			if c["model"] != "test-model" || c["prompt_tokens"] != wantTokens[i][0] || c["completion_tokens"] != wantTokens[i][1] ||
				c["ok"] != true || c["latency"] == nil {
				t.Errorf("call %d logged as %v, want tokens %v", i, c, wantTokens[i])
			}
		}
		if st := mustStats(t, lp.store, lp.space); st.Memories != 4 || st.ObservationsPending != 0 {
			t.Errorf("stats %+v", st)
		}
	})

	t.Run("MalformedJSONRepaired", func(t *testing.T) {
		lp := newLLMPipeline(t, nil)
		lp.fake.Enqueue(
			agenttest.Content(`{"summary": "Caroline went to`, 200, 30), // cut short
			agenttest.JSON(t, extraction("Caroline went hiking.",
				cand{Type: "event", Name: "Caroline goes hiking", Content: "Caroline went hiking on 7 May 2023.", TStart: "2023-05-07"}), 260, 80),
			// A merge into a neighbour that does not exist: invalid, sent back for repair.
			agenttest.JSON(t, integration(decision("C0", "merge", "N7", "x")), 150, 20),
			agenttest.JSON(t, integration(decision("C0", "add", "", "")), 190, 15),
		)
		r := lp.ingest(t, llmObs("o1", "Caroline", "I went hiking yesterday."))
		if len(r.Added) != 1 {
			t.Fatalf("result %+v, want the repaired extraction added", r)
		}
		if n, _ := lp.memory(t, r.Added[0]); n.Content != "Caroline went hiking on 7 May 2023." {
			t.Errorf("memory %+v, want the repaired candidate", n)
		}
		want := realm.Usage{
			llm.StageExtract:   {Calls: 2, PromptTokens: 460, CompletionTokens: 110, Failures: 1},
			llm.StageIntegrate: {Calls: 2, PromptTokens: 340, CompletionTokens: 35, Failures: 1},
		}
		if got := withoutLatency(r.Usage); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("usage %+v, want %+v", got, want)
		}
		reqs := lp.fake.Requests()
		if len(reqs) != 4 || len(reqs[1].Messages) != 4 || reqs[1].Messages[2].Content != `{"summary": "Caroline went to` {
			t.Fatalf("the repair request does not show the model its answer: %d requests", len(reqs))
		}
		if !reqs[3].Contains("N7") {
			t.Errorf("the integrate repair does not name the bad ref")
		}
	})

	t.Run("MalformedTwiceFallsBack", func(t *testing.T) {
		lp := newLLMPipeline(t, nil)
		lp.fake.Enqueue(
			agenttest.Content("not json", 100, 5), agenttest.Content("still not json", 120, 5),
			agenttest.Content("{}", 100, 2), agenttest.Content(`{"decisions": []}`, 110, 3),
		)
		r := lp.ingest(t, llmObs("o1", "Caroline", "I went to a pottery class yesterday with my friend Melanie."))
		ex, in := r.Usage[llm.StageExtract], r.Usage[llm.StageIntegrate]
		if ex.Calls != 2 || ex.Failures != 2 || ex.Fallbacks != 1 || ex.PromptTokens != 220 {
			t.Errorf("extract usage %+v, want 2 failed calls and a fallback", ex)
		}
		if in.Calls != 2 || in.Failures != 2 || in.Fallbacks == 0 {
			t.Errorf("integrate usage %+v, want 2 failed calls and fallbacks", in)
		}
		// The offline agent's decisions were applied: its whole-turn candidate, rewritten.
		assertOfflineTurn(t, lp, r, "o1", "Caroline went to a pottery class yesterday")
	})

	t.Run("TimeoutFallsBack", func(t *testing.T) {
		lp := newLLMPipeline(t, func(c *llm.Config) { c.Timeout = 200 * time.Millisecond })
		// The fake holds every answer back until the client gives up.
		held := agenttest.Response{Delay: time.Hour}
		lp.fake.Enqueue(held, held, held, held)
		r := lp.ingest(t, llmObs("o1", "Caroline", "I adopted a puppy named Biscuit last week."))
		ex, in := r.Usage[llm.StageExtract], r.Usage[llm.StageIntegrate]
		if ex.Calls != 2 || ex.Fallbacks != 1 || in.Calls != 2 || in.Fallbacks == 0 {
			t.Errorf("usage %+v, want two timed-out calls per stage (retried once) and fallbacks", r.Usage)
		}
		assertOfflineTurn(t, lp, r, "o1", "Caroline adopted a puppy named Biscuit")
		if calls := lp.log.calls(t); len(calls) != 4 || calls[0]["ok"] != false {
			t.Errorf("call log %v, want four failed calls", calls)
		}
	})

	t.Run("ExchangeFromBothTurns", func(t *testing.T) {
		lp := newLLMPipeline(t, nil)
		// q1 asks and states nothing: no candidate, so no integrate call.
		lp.fake.Enqueue(agenttest.JSON(t, extraction("Melanie asked Caroline about a painting."), 100, 10))
		lp.ingest(t, llmObs("q1", "Melanie", "Did you paint that sunrise?"))
		// a1 answers: its unit is the exchange, also from q1 (shown as O1); O7 names nothing.
		ex := extraction("Caroline painted a sunrise in 2022.",
			cand{Type: "event", Name: "Caroline painted the sunrise", Content: `Melanie asked: "Did Caroline paint that sunrise?" Caroline painted the sunrise in 2022.`},
			cand{Type: "entity", Name: "Caroline", Category: "person", Content: "Caroline is a person who paints."})
		ex["candidates"].([]map[string]any)[0]["also_from"] = []string{"O1", "O7"}
		ex["candidates"].([]map[string]any)[1]["also_from"] = []string{}
		lp.fake.Enqueue(agenttest.JSON(t, ex, 200, 40),
			agenttest.JSON(t, integration(decision("C0", "add", "", ""), decision("C1", "add", "", "")), 150, 20))
		r := lp.ingest(t, llmObs("a1", "Caroline", "Yes, last year!"))
		if len(r.Added) != 2 {
			t.Fatalf("result %+v, want the exchange and the entity added", r)
		}
		if reqs := lp.fake.Requests(); len(reqs) != 3 || !strings.Contains(reqs[1].LastUser(), "- O1 [") ||
			!strings.Contains(reqs[1].LastUser(), "Melanie: Did you paint that sunrise?") {
			t.Fatalf("%d requests; want 3, the answer's extract prompt listing the question as O1", len(reqs))
		}
		if n, _ := lp.memory(t, r.Added[0]); !strings.HasPrefix(n.Content, "Melanie asked:") || fmt.Sprint(n.Sources) != "[q1 a1]" {
			t.Errorf("exchange %q from %v, want it from [q1 a1]", n.Content, n.Sources)
		}
		if n, _ := lp.memory(t, r.Added[1]); fmt.Sprint(n.Sources) != "[a1]" {
			t.Errorf("entity from %v, want [a1]", n.Sources)
		}
	})

	t.Run("PerCandidateMode", func(t *testing.T) {
		lp := newLLMPipeline(t, func(c *llm.Config) { c.Mode = llm.ModePerCandidate })
		lp.fake.Enqueue(agenttest.JSON(t, extraction("Ann likes tea and lives in Rome.",
			cand{Type: "fact", Name: "Ann likes tea", Content: "Ann likes green tea."},
			cand{Type: "fact", Name: "Ann lives in Rome", Content: "Ann lives in Rome."},
		), 200, 60))
		lp.fake.Handle(func(r agenttest.ChatRequest) agenttest.Response {
			// One call per candidate: the one to decide is under "Decide for".
			if strings.Contains(r.LastUser(), "Candidate C0") {
				return agenttest.JSON(t, integration(decision("C0", "add", "", "")), 150, 10)
			}
			return agenttest.JSON(t, integration(decision("C1", "add", "", "", llmEdge("self", "C0", realm.Correlates, 0.5))), 160, 20)
		})
		r := lp.ingest(t, llmObs("o1", "Ann", "I like green tea, and I live in Rome."))
		if len(r.Added) != 2 || len(r.Edges) != 2 { // correlates is symmetric: both ways
			t.Fatalf("result %+v, want 2 added and correlates both ways", r)
		}
		if in := r.Usage[llm.StageIntegrate]; in.Calls != 2 || in.PromptTokens != 310 || in.CompletionTokens != 30 {
			t.Errorf("integrate usage %+v, want one call per candidate", in)
		}
	})
}

// assertOfflineTurn checks that the observation was integrated with the offline agent's
// whole-turn candidate, whose content starts as given.
func assertOfflineTurn(t *testing.T, lp *llmPipeline, r construction.Result, obsID, content string) {
	t.Helper()
	nodes, _, err := lp.store.ListMemories(context.Background(), lp.space, cypher.MemoryFilter{}, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, n := range nodes {
		found = found || strings.HasPrefix(n.Content, content) && fmt.Sprint(n.Sources) == "["+obsID+"]"
	}
	if !found || len(r.Added) == 0 {
		t.Errorf("no memory %q… from %s among %d (result %+v)", content, obsID, len(nodes), r)
	}
	if o, _ := lp.store.Observation(context.Background(), lp.space, obsID); o.Status != realm.ObservationIntegrated {
		t.Errorf("observation %s is %s", obsID, o.Status)
	}
}

// withoutLatency drops the measured latency, which no test can predict.
func withoutLatency(u realm.Usage) realm.Usage {
	out := realm.Usage{}
	for k, s := range u {
		s.LatencyMS = 0
		out[k] = s
	}
	return out
}
