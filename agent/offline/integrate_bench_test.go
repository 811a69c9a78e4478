package offline

import (
	"context"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/embed"
)

// The agent's own CPU on the write path is measured on the inputs the pipeline really
// gives it: each LoCoMo conversation of the development file ingested into a space of its
// own in batches of 100 through construction with this agent, Neo4j and the embedder of
// the environment, every Integrate call's input kept (a neighbour's vector dropped where
// its similarity is given: the agent reads it only when not). Neighbourhoods are those of
// a growing space (about 18 neighbours a candidate), far more than ingestOffline's
// stand-in.
//
// REALM_INTEGRATE_INPUTS=FILE keeps them in FILE (written when absent, read when present),
// so that two builds are timed on the same inputs and their decisions can be compared.

// recorder is an agent that keeps the inputs of Integrate.
type recorder struct {
	*Agent
	mu     sync.Mutex
	inputs []agent.IntegrateInput
}

func (r *recorder) Integrate(ctx context.Context, in agent.IntegrateInput) ([]agent.Integration, realm.Usage, error) {
	r.mu.Lock()
	r.inputs = append(r.inputs, in)
	r.mu.Unlock()
	return r.Agent.Integrate(ctx, in)
}

var (
	recordedOnce   sync.Once
	recordedInputs []agent.IntegrateInput
)

// integrateInputs are the Integrate inputs of the LoCoMo conversations ingested in batches
// of 100, in order.
func integrateInputs(tb testing.TB) []agent.IntegrateInput {
	tb.Helper()
	recordedOnce.Do(func() { recordedInputs = loadOrRecord(tb) })
	if len(recordedInputs) == 0 {
		tb.Skip("no recorded Integrate inputs (see the log above)")
	}
	return recordedInputs
}

func loadOrRecord(tb testing.TB) []agent.IntegrateInput {
	file := os.Getenv("REALM_INTEGRATE_INPUTS")
	if file != "" {
		if f, err := os.Open(file); err == nil {
			defer f.Close()
			var inputs []agent.IntegrateInput
			if err := gob.NewDecoder(f).Decode(&inputs); err != nil {
				tb.Fatalf("%s: %v", file, err)
			}
			return inputs
		}
	}
	inputs := recordLoCoMo(tb)
	if file != "" && len(inputs) > 0 {
		f, err := os.Create(file)
		if err != nil {
			tb.Fatal(err)
		}
		defer f.Close()
		if err := gob.NewEncoder(f).Encode(inputs); err != nil {
			tb.Fatal(err)
		}
	}
	return inputs
}

func recordLoCoMo(tb testing.TB) []agent.IntegrateInput {
	convs := loadLocomo(tb)
	store := cyphertest.MustOpen(tb)
	cfg, err := embed.ConfigFromEnv(os.Getenv)
	if err != nil {
		tb.Fatal(err)
	}
	emb, err := embed.New(cfg, zerolog.Nop())
	if err != nil {
		tb.Fatal(err)
	}
	rec := &recorder{Agent: New(Options{})}
	for _, conv := range convs {
		var obs []realm.Observation
		for _, s := range conv {
			for i, t := range s.turns {
				t.Space = ""
				t.ObservedAt = s.at.Add(time.Duration(i) * time.Second)
				obs = append(obs, t)
			}
		}
		space := cyphertest.NewSpace(tb)
		p := construction.New(store, rec, emb, construction.Options{Owner: "bench-" + space}, zerolog.Nop())
		for i := 0; i < len(obs); i += 100 {
			if _, err := p.Ingest(context.Background(), space, obs[i:min(i+100, len(obs))]); err != nil {
				tb.Fatal(err)
			}
		}
		p.Close(context.Background())
	}
	for _, in := range rec.inputs {
		for _, cc := range in.Candidates {
			for k := range cc.Neighbours {
				if cc.Neighbours[k].Similarity != 0 {
					cc.Neighbours[k].Node.Embedding = nil
				}
			}
		}
	}
	return rec.inputs
}

// BenchmarkIntegrateLoCoMo decides the integrations of the LoCoMo observations, as the
// pipeline asked for them; ns/op and allocs/op are per observation, and cpu-ns/op the
// process's CPU time (garbage collection included), which a loaded machine inflates less
// than the wall time. Run it with -benchtime=Nx, N the number of inputs it logs, so that
// every memory's text is new to the agent once, as in an ingestion; beyond, the agent
// remembers what it read of every text (memo.go).
func BenchmarkIntegrateLoCoMo(b *testing.B) {
	inputs := integrateInputs(b)
	b.Logf("%d inputs", len(inputs))
	a := New(Options{})
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime(b)
	for i := 0; i < b.N; i++ {
		if _, _, err := a.Integrate(ctx, inputs[i%len(inputs)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the CPU time this process has taken, user and system.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestIntegrateDecisionsUnchanged compares every decision of Integrate (actions, merges,
// edges with their predicates, weights and descriptions) with those another build of the
// agent wrote to REALM_INTEGRATE_DECISIONS: it writes the file when absent, compares when
// present (skipped without the variable). The inputs are the recorded LoCoMo ones (with
// REALM_INTEGRATE_INPUTS or Neo4j) and every ordered pair of stateSentences, one told
// after the other, by one speaker or two, the later one told first or last; then the
// extraction of every LoCoMo turn, with its decisions.
func TestIntegrateDecisionsUnchanged(t *testing.T) {
	file := os.Getenv("REALM_INTEGRATE_DECISIONS")
	if file == "" {
		t.Skip("REALM_INTEGRATE_DECISIONS not set")
	}
	inputs := statePairInputs(t)
	if os.Getenv("REALM_INTEGRATE_INPUTS") != "" || os.Getenv("NEO4J_URI") != "" {
		inputs = append(inputs, integrateInputs(t)...)
	}
	a := New(Options{})
	var got []string
	for _, in := range inputs {
		out, _, err := a.Integrate(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		line, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(line))
	}
	// Extractions too: every LoCoMo turn's, with its decisions among ingestOffline's
	// stand-in neighbours.
	t.Run("LoCoMo", func(t *testing.T) {
		for _, conv := range loadLocomo(t) {
			ingestOffline(t, New(Options{}), conv, func(obs realm.Observation, ex agent.Extraction, out []agent.Integration) {
				line, err := json.Marshal([]any{ex, out})
				if err != nil {
					t.Fatal(err)
				}
				inputs = append(inputs, agent.IntegrateInput{Observation: obs})
				got = append(got, string(line))
			})
		}
	})
	want, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		if err := os.WriteFile(file, []byte(strings.Join(got, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%d decisions written to %s", len(got), file)
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(want), "\n")
	if len(lines) != len(got) {
		t.Fatalf("%d decisions, %s holds %d", len(got), file, len(lines))
	}
	edges := 0
	for i := range got {
		if got[i] != lines[i] {
			t.Fatalf("observation %q (input %d):\n got  %s\n want %s", inputs[i].Observation.Content, i, got[i], lines[i])
		}
		edges += strings.Count(got[i], `"Predicate"`)
	}
	t.Logf("%d decisions with %d edges as in %s", len(got), edges, file)
}

// statePairInputs are Integrate inputs of each stateSentence extracted as an observation,
// its neighbours the candidates of another one as stored memories.
func statePairInputs(t *testing.T) []agent.IntegrateInput {
	a := New(Options{})
	day := time.Date(2023, 5, 1, 10, 0, 0, 0, time.UTC)
	extract := func(text, speaker string, at time.Time, id string) agent.Extraction {
		obs := realm.Observation{ID: id, SessionID: "s-" + id, Speaker: speaker, Content: text, ObservedAt: at}
		ex, _, err := a.Extract(context.Background(), agent.ExtractInput{Observation: obs})
		if err != nil {
			t.Fatal(err)
		}
		return ex
	}
	var inputs []agent.IntegrateInput
	for i, newer := range stateSentences {
		for j, older := range stateSentences {
			for _, speakers := range [][2]string{{"Nora", "Nora"}, {"Nora", "Luis"}} {
				for _, newFirst := range []bool{false, true} {
					newAt, oldAt := day.AddDate(0, 0, 7), day
					if newFirst {
						newAt, oldAt = oldAt, newAt
					}
					oldEx := extract(older, speakers[1], oldAt, fmt.Sprintf("old%d", j))
					var nbs []agent.Neighbour
					for k, c := range oldEx.Candidates {
						nbs = append(nbs, agent.Neighbour{Node: realm.Node{
							ID: fmt.Sprintf("m%d-%d", j, k), Type: c.Type, Name: c.Name, Content: c.Content, Description: c.Description,
							TStart: c.TStart, TEnd: c.TEnd, Aliases: c.Aliases, Participants: c.Participants,
							Sources: []string{fmt.Sprintf("old%d", j)}, CreatedAt: oldAt,
						}, Recent: true})
					}
					obs := realm.Observation{ID: fmt.Sprintf("new%d", i), Speaker: speakers[0], Content: newer, ObservedAt: newAt}
					in := agent.IntegrateInput{Observation: obs}
					for _, c := range extract(newer, speakers[0], newAt, obs.ID).Candidates {
						in.Candidates = append(in.Candidates, agent.CandidateContext{Candidate: c, Neighbours: nbs})
					}
					inputs = append(inputs, in)
				}
			}
		}
	}
	return inputs
}

// Integrate decides alike from several goroutines at once, the memos of texts shared
// (memo.go; run it with -race).
func TestIntegrateConcurrent(t *testing.T) {
	inputs := statePairInputs(t)
	a := New(Options{})
	decide := func(in agent.IntegrateInput) string {
		out, _, err := a.Integrate(context.Background(), in)
		if err != nil {
			t.Error(err)
		}
		line, _ := json.Marshal(out)
		return string(line)
	}
	want := make([]string, len(inputs))
	for i, in := range inputs {
		want[i] = decide(in)
	}
	wordMemo, slotMemo, claimMemo, saidMemo = memo[string, map[string]bool]{}, memo[string, []factSlot]{}, memo[[2]string, []stateClaim]{}, memo[[2]string, []stateClaim]{}
	got := make([]string, len(inputs))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; i < len(inputs); i += 4 {
				got[i] = decide(inputs[i])
			}
		}()
	}
	wg.Wait()
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("input %d (%q): %s at once, %s alone", i, inputs[i].Observation.Content, got[i], want[i])
		}
	}
}
