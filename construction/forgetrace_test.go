package construction_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// quotingAgent is countingAgent (its gates hold an extraction after its context was
// read) extracting as a model may: a running summary that keeps what the summary read
// said, and an exchange event quoting the recent messages.
type quotingAgent struct {
	*countingAgent
}

func (a *quotingAgent) Extract(ctx context.Context, in agent.ExtractInput) (agent.Extraction, realm.Usage, error) {
	ext, usage, err := a.countingAgent.Extract(ctx, in)
	if err != nil {
		return ext, usage, err
	}
	ext.Summary = strings.TrimPrefix(in.Summary+" | "+in.Observation.Content, " | ")
	if len(in.Recent) > 0 {
		var quoted []string
		for _, r := range in.Recent {
			quoted = append(quoted, r.Content)
		}
		ext.Candidates = append(ext.Candidates, agent.Candidate{Type: realm.Event, Name: "exchange " + in.Observation.ID,
			Content: "After " + strings.Join(quoted, " and ") + ", Ann said " + in.Observation.Content})
	}
	return ext, usage, nil
}

// TestForgetDuringAnotherIntegration: a message forgotten while another one's
// integration is in flight, its extraction having read the forgotten one among the
// recent messages and in the summary, is not written back by that integration: the
// write finds that the space forgot a message since, and the other message is extracted
// again from the space as it is now. Past MaxDecisions extractions so overtaken, the
// other message stays pending, and a later attempt integrates it.
func TestForgetDuringAnotherIntegration(t *testing.T) {
	ctx := context.Background()
	setup := func(t *testing.T, opts construction.Options, forgettable ...realm.Observation) (*construction.Pipeline, *quotingAgent, *cypher.Store, string) {
		t.Helper()
		store := cyphertest.MustOpen(t)
		space := cyphertest.NewSpace(t)
		ag := &quotingAgent{newCountingAgent(space)}
		opts.Owner = "test-" + space
		p := construction.New(store, ag, bowEmbedder{}, opts, zerolog.Nop())
		t.Cleanup(func() { p.Close(context.Background()) })
		t.Cleanup(ag.openAll)
		for _, res := range mustIngest(t, p, space, forgettable...) {
			if res.Status != construction.StatusIntegrated {
				t.Fatalf("%+v", res)
			}
		}
		return p, ag, store, space
	}
	forget := func(t *testing.T, store *cypher.Store, space, id string) {
		t.Helper()
		if _, err := store.DeleteObservation(ctx, space, id, cypher.Lease{}); err != nil {
			t.Fatal(err)
		}
	}
	// check: nothing stored says Paris or Rome (the forgotten messages' words), b's own
	// memory is there, and the summary is not the one read before the forget.
	check := func(t *testing.T, store *cypher.Store, space, before string) {
		t.Helper()
		mems, _, err := store.ListMemories(ctx, space, cypher.MemoryFilter{}, "", 100)
		if err != nil {
			t.Fatal(err)
		}
		pet := false
		for _, m := range mems {
			if strings.Contains(m.Content, "Paris") || strings.Contains(m.Content, "Rome") {
				t.Errorf("memory %s quotes a forgotten message: %q", m.ID, m.Content)
			}
			pet = pet || m.Name == "pet"
		}
		if !pet {
			t.Errorf("b's memory is missing: %+v", mems)
		}
		summary, err := store.SpaceSummary(ctx, space)
		if err != nil || summary == before || strings.Contains(summary, "Paris") || strings.Contains(summary, "Rome") {
			t.Errorf("summary %q %v: want b's alone, not %q", summary, err, before)
		}
	}
	// ingest ingests o in the background, its results sent once done.
	ingest := func(t *testing.T, p *construction.Pipeline, space string, o realm.Observation) <-chan []construction.Result {
		done := make(chan []construction.Result, 1)
		go func() {
			res, err := p.Ingest(ctx, space, []realm.Observation{o})
			if err != nil {
				t.Error(err)
			}
			done <- res
		}()
		return done
	}
	a, b := msg("a", "home: Ann lives in Paris"), msg("b", "pet: a grey cat named Tom")
	a.ObservedAt, b.ObservedAt = t0, t0.Add(1)

	t.Run("Ingest", func(t *testing.T) {
		p, ag, store, space := setup(t, construction.Options{}, a)
		gate := ag.gate("b", 1)
		done := ingest(t, p, space, b)
		gate.wait(t) // b's extraction read a, and the summary a left
		forget(t, store, space, "a")
		gate.open()
		res := <-done
		if len(res) != 1 || res[0].Status != construction.StatusIntegrated {
			t.Fatalf("b: %+v, want integrated", res)
		}
		ag.checkExtracts(t, map[string]int{"b": 2})
		check(t, store, space, "home: Ann lives in Paris")
	})

	t.Run("Resume", func(t *testing.T) {
		p, ag, store, space := setup(t, construction.Options{}, a)
		savePending(t, store, space, b)
		gate := ag.gate("b", 1)
		done := make(chan int, 1)
		go func() {
			n, err := p.ResumePendingSpace(ctx, space)
			if err != nil {
				t.Error(err)
			}
			done <- n
		}()
		gate.wait(t)
		forget(t, store, space, "a")
		gate.open()
		if n := <-done; n != 1 {
			t.Fatalf("resumed %d, want b", n)
		}
		ag.checkExtracts(t, map[string]int{"b": 2})
		check(t, store, space, "home: Ann lives in Paris")
	})

	t.Run("EveryExtractionOvertaken", func(t *testing.T) {
		rome := msg("a2", "trip: Ann flew to Rome")
		rome.ObservedAt = t0.Add(-1)
		p, ag, store, space := setup(t, construction.Options{MaxDecisions: 1}, rome, a)
		first, second := ag.gate("b", 1), ag.gate("b", 2)
		done := ingest(t, p, space, b)
		first.wait(t)
		forget(t, store, space, "a")
		first.open()
		second.wait(t) // extracted again, without a but with a2
		forget(t, store, space, "a2")
		second.open()
		res := <-done
		if len(res) != 1 || res[0].Status != construction.StatusPending || !strings.Contains(res[0].Error, "forgot") {
			t.Fatalf("b: %+v, want pending, the space having forgotten a message during its extraction", res)
		}
		if st := mustStats(t, store, space); st.ObservationsPending != 1 || st.Memories != 0 {
			t.Errorf("stats %+v, want b pending and nothing written", st)
		}
		if n, err := p.ResumePendingSpace(ctx, space); err != nil || n != 1 {
			t.Fatalf("resumed %d %v, want b", n, err)
		}
		ag.checkExtracts(t, map[string]int{"b": 3})
		check(t, store, space, "trip: Ann flew to Rome | home: Ann lives in Paris")
	})
}
