package construction_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/agent/agenttest"
	"github.com/realm-memory/realm/agent/llm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/bench"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/embed"
)

// conv26 is the LoCoMo conversation conv-26 (419 turns) as observations, from the data
// outside the repository (its license forbids copying it): at REALM_LOCOMO when set, else
// beside the checkout; benchmarks skip without it.
func conv26(b *testing.B) []realm.Observation {
	b.Helper()
	path := os.Getenv("REALM_LOCOMO")
	if path == "" {
		path = filepath.Join(cyphertest.RepoRoot(), "..", "shared", "data", "locomo", "locomo-dev.json")
	}
	samples, err := bench.LoadLoCoMo(path)
	if err != nil {
		b.Skipf("LoCoMo data not available: %v", err)
	}
	for _, s := range samples {
		if s.ID == "conv-26" {
			return s.Observations()
		}
	}
	b.Skip("conv-26 not in " + path)
	return nil
}

// nObservations is the first n observations of the conversation, repeated with fresh
// ids when n exceeds it.
func nObservations(conv []realm.Observation, n int) []realm.Observation {
	out := make([]realm.Observation, n)
	for i := range out {
		o := conv[i%len(conv)]
		if round := i / len(conv); round > 0 {
			o.ID = fmt.Sprintf("%s#%d", o.ID, round)
			o.ObservedAt = o.ObservedAt.AddDate(round, 0, 0)
		}
		out[i] = o
	}
	return out
}

var (
	localOnce sync.Once
	localEmb  realm.Embedder
	localErr  error
)

// benchEmbedder is the embedder `realm ingest` would use on a fresh store with this
// environment (REALM_EMBEDDER, REALM_EMBED_THREADS…): by default the int8 local MiniLM
// when installed, else the hashing one; one per process.
func benchEmbedder(b *testing.B) realm.Embedder {
	b.Helper()
	localOnce.Do(func() {
		cfg, err := embed.ConfigFromEnv(os.Getenv)
		if err != nil {
			localErr = err
			return
		}
		localEmb, localErr = embed.New(cfg, zerolog.Nop())
	})
	if localErr != nil {
		b.Fatal(localErr)
	}
	return localEmb
}

// BenchmarkIngestLoCoMo is the offline write path on LoCoMo conv-26: the offline agent,
// the local embedder, in batches of 100 (a history imported) and one observation a call
// (a conversation as it arrives). Run with -benchtime=400x for most of the conversation;
// obs/s is the figure of the README.
func BenchmarkIngestLoCoMo(b *testing.B) {
	for _, batch := range []int{100, 1} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) { benchIngestLoCoMo(b, batch) })
	}
}

func benchIngestLoCoMo(b *testing.B, batch int) {
	conv := conv26(b)
	store, p, space, timedEmb, timedAg := timedPipeline(b)
	emb := timedEmb.Embedder
	obs := nObservations(conv, b.N)
	ctx, stmts := cypher.WithStatementLog(context.Background())
	elapsed := ingestTimed(ctx, b, p, space, obs, batch)
	// Where the time goes: the embedder, the agent, and the rest (Neo4j round trips and
	// the pipeline's own work).
	reportTimes(b, timedEmb, timedAg, stmts)
	b.ReportMetric(perObs(b, elapsed-timedEmb.spent()-timedAg.spent()), "store-ms/obs")
	st, err := store.Stats(ctx, space)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(st.Memories)/float64(b.N), "memories/obs")
	b.ReportMetric(float64(st.Edges)/float64(b.N), "edges/obs")
	b.Logf("%s: %d observations → %d memories %v, %d edges", emb.ID(), b.N, st.Memories, st.ByType, st.Edges)
}

// ingestTimed ingests obs into space, batch observations a call, each of which must be
// integrated, reports obs/s and returns how long it took; the benchmark's timer runs
// only meanwhile.
func ingestTimed(ctx context.Context, b *testing.B, p *construction.Pipeline, space string, obs []realm.Observation, batch int) time.Duration {
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < len(obs); i += batch {
		res, err := p.Ingest(ctx, space, obs[i:min(i+batch, len(obs))])
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range res {
			if r.Status != construction.StatusIntegrated {
				b.Fatalf("observation %s: %s %s", r.ObservationID, r.Status, r.Error)
			}
		}
	}
	elapsed := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(len(obs))/elapsed.Seconds(), "obs/s")
	return elapsed
}

// BenchmarkIngestRepeats is the offline write path on a thermostat's readings of four
// rooms, one every ten minutes, each room's value changing every few hours, in batches of
// 25: most readings say again what a memory holds (skipped, a repeat of it).
func BenchmarkIngestRepeats(b *testing.B) {
	store, p, space, _, _ := timedPipeline(b)
	rooms := []string{"living room", "bedroom", "kitchen", "office"}
	t0 := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	obs := make([]realm.Observation, b.N)
	for i := range obs {
		at := t0.Add(time.Duration(i/len(rooms)) * 10 * time.Minute)
		obs[i] = realm.Observation{ID: fmt.Sprintf("t%d", i), SessionID: at.Format(time.DateOnly), Speaker: "thermostat", Role: "tool",
			Content:    fmt.Sprintf("Thermostat %s %.1fC", rooms[i%len(rooms)], 21+float64(at.Hour()/6)/2),
			ObservedAt: at}
	}
	ctx, stmts := cypher.WithStatementLog(context.Background())
	ingestTimed(ctx, b, p, space, obs, 25)
	st, err := store.Stats(ctx, space)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(st.Memories)/float64(b.N), "memories/obs")
	b.Logf("statements, ms per observation: %s", statementTimes(stmts, b.N))
}

// timedPipeline is a pipeline on a fresh space with the offline agent and the embedder
// of benchEmbedder, both timed.
func timedPipeline(b *testing.B) (*cypher.Store, *construction.Pipeline, string, *timedEmbedder, *timedAgent) {
	store := cyphertest.MustOpen(b)
	space := cyphertest.NewSpace(b)
	timedEmb := &timedEmbedder{Embedder: benchEmbedder(b)}
	timedAg := &timedAgent{Agent: offline.New(offline.Options{})}
	p := construction.New(store, timedAg, timedEmb, construction.Options{Owner: "bench-" + space}, zerolog.Nop())
	b.Cleanup(func() { p.Close(context.Background()) })
	return store, p, space, timedEmb, timedAg
}

// reportTimes reports, per observation, where the time went: the embedder, the agent
// and the statements of stmts.
func reportTimes(b *testing.B, timedEmb *timedEmbedder, timedAg *timedAgent, stmts *cypher.StatementLog) {
	b.ReportMetric(perObs(b, timedEmb.spent()), "embed-ms/obs")
	b.ReportMetric(float64(timedEmb.texts.Load())/float64(b.N), "embedded/obs")
	b.ReportMetric(float64(timedEmb.calls.Load())/float64(b.N), "embed-calls/obs")
	b.ReportMetric(perObs(b, timedAg.spent()), "agent-ms/obs")
	b.ReportMetric(float64(len(stmts.Statements))/float64(b.N), "statements/obs")
	b.ReportMetric(float64(stmts.Transactions)/float64(b.N), "tx/obs")
	b.Logf("statements, ms per observation: %s", statementTimes(stmts, b.N))
}

// perObs is d in milliseconds per observation.
func perObs(b *testing.B, d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000 / float64(b.N)
}

// statementTimes is the time of each statement of log per observation, longest first.
func statementTimes(log *cypher.StatementLog, n int) string {
	total := map[string]time.Duration{}
	for _, st := range log.Statements {
		total[st.Name] += st.Duration
	}
	names := slices.SortedFunc(maps.Keys(total), func(a, b string) int { return cmp.Compare(total[b], total[a]) })
	var out []string
	for _, name := range names {
		out = append(out, fmt.Sprintf("%s %.1f", name, float64(total[name].Microseconds())/1000/float64(n)))
	}
	return strings.Join(out, ", ")
}

// timedEmbedder and timedAgent add up the time spent in them.
type timedEmbedder struct {
	realm.Embedder
	timer
	texts, calls atomic.Int64
}

func (e *timedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	defer e.time()()
	e.texts.Add(int64(len(texts)))
	e.calls.Add(1)
	return e.Embedder.Embed(ctx, texts)
}

type timedAgent struct {
	agent.Agent
	timer
}

func (a *timedAgent) Extract(ctx context.Context, in agent.ExtractInput) (agent.Extraction, realm.Usage, error) {
	defer a.time()()
	return a.Agent.Extract(ctx, in)
}

func (a *timedAgent) Integrate(ctx context.Context, in agent.IntegrateInput) ([]agent.Integration, realm.Usage, error) {
	defer a.time()()
	return a.Agent.Integrate(ctx, in)
}

type timer struct {
	mu    sync.Mutex
	total time.Duration
}

func (t *timer) time() func() {
	start := time.Now()
	return func() {
		t.mu.Lock()
		t.total += time.Since(start)
		t.mu.Unlock()
	}
}

func (t *timer) spent() time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.total
}

// BenchmarkIngestLLM counts the LLM calls and tokens of the write path per observation,
// in both integrate modes, on conv-26 against the fake chat API. The fake answers like a
// compliant model (see fakeModel) and reports as tokens the bytes/4 of what was sent
// (messages and JSON schema) and returned, so prompt tokens follow the real prompts.
func BenchmarkIngestLLM(b *testing.B) {
	conv := conv26(b)
	for _, mode := range []string{llm.ModeBatch, llm.ModePerCandidate} {
		b.Run(mode, func(b *testing.B) {
			store := cyphertest.MustOpen(b)
			fake := agenttest.NewFakeOpenAI(b)
			fake.Handle(fakeModel)
			lm, err := llm.New(llm.Config{BaseURL: fake.BaseURL(), APIKey: "test", Mode: mode},
				offline.New(offline.Options{}), zerolog.Nop())
			if err != nil {
				b.Fatal(err)
			}
			space := cyphertest.NewSpace(b)
			p := construction.New(store, lm, bowEmbedder{}, construction.Options{Owner: "bench-" + space}, zerolog.Nop())
			b.Cleanup(func() { p.Close(context.Background()) })
			obs := nObservations(conv, b.N)
			ctx := context.Background()
			usage := realm.Usage{}
			b.ResetTimer()
			for _, o := range obs { // one observation per call, as a conversation arrives
				res, err := p.Ingest(ctx, space, []realm.Observation{o})
				if err != nil {
					b.Fatal(err)
				}
				usage.Add(res[0].Usage)
			}
			b.StopTimer()
			var total realm.StageUsage
			for stage, s := range usage {
				if s.Failures > 0 || s.Fallbacks > 0 {
					b.Fatalf("stage %s: %+v: the fake's answers were refused", stage, s)
				}
				total.Calls += s.Calls
				total.PromptTokens += s.PromptTokens
				total.CompletionTokens += s.CompletionTokens
			}
			n := float64(b.N)
			b.ReportMetric(float64(total.Calls)/n, "calls/obs")
			b.ReportMetric(float64(usage[llm.StageIntegrate].Calls)/n, "integrate-calls/obs")
			b.ReportMetric(float64(total.PromptTokens)/n, "prompt-tok/obs")
			b.ReportMetric(float64(total.CompletionTokens)/n, "completion-tok/obs")
		})
	}
}

var (
	promptCandidate = regexp.MustCompile(`(?m)^Candidate (C\d+) \[(\w+)\] (.*)$`)
	promptNeighbour = regexp.MustCompile(`(?m)^  - (N\d+) \[(\w+)\] \(([^)]*)\) ([^:\n]*):`)
	promptRecent    = regexp.MustCompile(`(?m)^- (O\d+) \[[^\]]*\] ([^:\n]*): (.*)$`)
)

// fakeModel answers extract and integrate requests as a compliant model would, from the
// prompt alone. Extract: the turn as one event (with the speaker's name; an answer to the
// question just asked by another speaker as the exchange, also from the question) and the
// speaker as an entity. Integrate: an entity merges into a neighbour entity of the same name; any
// other candidate is added, an instance of the speaker entity (when a candidate of the
// observation) and correlated with its first similar neighbour.
func fakeModel(r agenttest.ChatRequest) agenttest.Response {
	var content any
	switch r.SchemaName() {
	case "realm_extraction":
		user := r.LastUser()
		_, turn, _ := strings.Cut(user, "New observation:\n")
		speaker, text, _ := strings.Cut(strings.TrimSpace(turn), ": ")
		words := strings.Fields(text)
		name := strings.Join(words[:min(8, len(words))], " ")
		said := speaker + " said: " + text
		var alsoFrom []string
		// An answer to the question just asked by another speaker is the exchange.
		if q := promptRecent.FindAllStringSubmatch(user, -1); len(q) > 0 {
			last := q[len(q)-1]
			if last[2] != speaker && strings.Contains(last[3], "?") {
				said = fmt.Sprintf("%s asked: %q %s", last[2], last[3], said)
				alsoFrom = []string{last[1]}
			}
		}
		x := extraction(speaker+" said: "+strings.Join(words[:min(30, len(words))], " "),
			cand{Type: "event", Name: name, Content: said, Keywords: words[:min(3, len(words))]},
			cand{Type: "entity", Name: speaker, Category: "person", Content: speaker + " is a participant of the conversation."},
		)
		x["candidates"].([]map[string]any)[0]["also_from"] = orEmpty(alsoFrom)
		x["candidates"].([]map[string]any)[1]["also_from"] = []string{}
		content = x
	case "realm_integration":
		_, decide, _ := strings.Cut(r.LastUser(), "\nDecide for:")
		var ds []map[string]any
		blocks := promptCandidate.FindAllStringSubmatchIndex(decide, -1)
		for k, m := range blocks {
			end := len(decide)
			if k+1 < len(blocks) {
				end = blocks[k+1][0]
			}
			ref, typ, name := decide[m[2]:m[3]], decide[m[4]:m[5]], decide[m[6]:m[7]]
			neighbours := promptNeighbour.FindAllStringSubmatch(decide[m[1]:end], -1)
			d := decision(ref, "add", "", "")
			if typ == "entity" {
				for _, n := range neighbours {
					if n[2] == "entity" && n[4] == name {
						d = decision(ref, "merge", n[1], "")
						break
					}
				}
				ds = append(ds, d)
				continue
			}
			var edges []map[string]any
			if ref != "C1" && strings.Contains(r.LastUser(), "C1 [entity]") {
				edges = append(edges, llmEdge("self", "C1", realm.Instantiates, 0.8))
			}
			for _, n := range neighbours {
				if strings.Contains(n[3], "similar") && n[2] != "entity" {
					edges = append(edges, llmEdge("self", n[1], realm.Correlates, 0.5))
					break
				}
			}
			ds = append(ds, decision(ref, "add", "", "", edges...))
		}
		content = integration(ds...)
	default:
		return agenttest.Status(400)
	}
	reply, _ := json.Marshal(content)
	sent := 0
	for _, m := range r.Messages {
		sent += len(m.Content)
	}
	if r.ResponseFormat != nil && r.ResponseFormat.JSONSchema != nil {
		schema, _ := json.Marshal(r.ResponseFormat.JSONSchema.Schema)
		sent += len(schema)
	}
	return agenttest.Content(string(reply), (sent+3)/4, bench.Tokens(string(reply))) // bytes/4, as bench.Tokens
}

// BenchmarkIngestLargeMessage is one message at the size limit of a message's content
// (about 20 KB), ingested alone: long prose of varied words with no sentence end, and
// 160 short sentences. Each iteration is a fresh message in the same space.
func BenchmarkIngestLargeMessage(b *testing.B) {
	words := strings.Fields("the quick brown fox jumps over a lazy dog while Ana 🌸 reads about Zürich history and café culture")
	shapes := map[string]func(i int) string{
		"prose": func(i int) string {
			s := fmt.Sprintf("Long note %d: ", i)
			for k := 0; len(s) < 19900; k++ {
				s += words[(k*7+i)%len(words)] + " "
			}
			return s
		},
		"sentences": func(i int) string {
			var s []string
			for k := range 160 {
				s = append(s, fmt.Sprintf("On day %d I visited the museum number %d in Lyon with my friend Paul.", k+i, k))
			}
			return strings.Join(s, " ")
		},
	}
	for _, shape := range []string{"prose", "sentences"} {
		b.Run(shape, func(b *testing.B) {
			_, p, space, timedEmb, timedAg := timedPipeline(b)
			ctx, stmts := cypher.WithStatementLog(context.Background())
			start := time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC)
			b.ResetTimer()
			for i := range b.N {
				o := realm.Observation{ID: fmt.Sprintf("large-%s-%d", shape, i), SessionID: "large", Speaker: "Ana",
					Content: shapes[shape](i), ObservedAt: start.Add(time.Duration(i) * time.Minute)}
				res, err := p.Ingest(ctx, space, []realm.Observation{o})
				if err != nil {
					b.Fatal(err)
				}
				if res[0].Status != construction.StatusIntegrated {
					b.Fatalf("observation %s: %s %s", o.ID, res[0].Status, res[0].Error)
				}
			}
			b.StopTimer()
			reportTimes(b, timedEmb, timedAg, stmts)
		})
	}
}
