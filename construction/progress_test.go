package construction_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// holdingAgent is scriptAgent holding the extraction of one observation until released.
type holdingAgent struct {
	scriptAgent
	hold     string
	held     chan struct{} // closed once the held extraction is reached
	release  chan struct{}
	heldOnce sync.Once
}

func (a *holdingAgent) Extract(ctx context.Context, in agent.ExtractInput) (agent.Extraction, realm.Usage, error) {
	if in.Observation.ID == a.hold {
		a.heldOnce.Do(func() { close(a.held) })
		select {
		case <-a.release:
		case <-ctx.Done():
			return agent.Extraction{}, realm.Usage{}, ctx.Err()
		}
	}
	return a.scriptAgent.Extract(ctx, in)
}

// TestJobProgressRunByRun: a job's progress moves as each run of its batch is written,
// not once the whole batch is extracted: with the extraction of a later run held, the
// runs before it are read done. A run is 25 short messages, or a long message alone.
func TestJobProgressRunByRun(t *testing.T) {
	long := "fact: " + strings.Repeat("Ann keeps notes on the history of the lighthouse. ", 180) // 9,000 bytes
	for _, tc := range []struct {
		name     string
		n        int
		content  func(i int) string
		hold     int // the observation whose extraction is held
		wantDone int // read before it is released
	}{
		{"short messages", 30, func(i int) string { return fmt.Sprintf("fact%d: Ann read book %d", i, i) }, 27, 25},
		{"long messages", 3, func(i int) string { return fmt.Sprintf("%s Note %d.", long, i) }, 2, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := cyphertest.MustOpen(t)
			space := cyphertest.NewSpace(t)
			var obs []realm.Observation
			for i := range tc.n {
				obs = append(obs, msg(fmt.Sprintf("p%02d", i), tc.content(i)))
			}
			ag := &holdingAgent{hold: obs[tc.hold].ID, held: make(chan struct{}), release: make(chan struct{})}
			p := construction.New(store, ag, bowEmbedder{}, construction.Options{Owner: "progress-" + space}, zerolog.Nop())
			t.Cleanup(func() { p.Close(context.Background()) })
			ctx := context.Background()
			id, err := p.IngestAsync(ctx, space, obs)
			if err != nil {
				t.Fatal(err)
			}
			<-ag.held
			// The runs before the held one are written in the background: wait for them,
			// a minute at most, then fail.
			var j cypher.Job
			for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
				if j, err = p.Job(ctx, space, id); err != nil {
					t.Fatal(err)
				}
				if j.Done >= tc.wantDone || time.Now().After(deadline) {
					break
				}
			}
			if j.Done != tc.wantDone || j.Status != cypher.JobRunning {
				t.Errorf("while observation %d is extracted: job %s with %d of %d done, want %s with %d done",
					tc.hold, j.Status, j.Done, j.Total, cypher.JobRunning, tc.wantDone)
			}
			close(ag.release)
			p.Wait()
			if j, err = p.Job(ctx, space, id); err != nil {
				t.Fatal(err)
			}
			if j.Status != cypher.JobDone || j.Done != tc.n {
				t.Errorf("at the end: job %s with %d of %d done, want %s with all", j.Status, j.Done, j.Total, cypher.JobDone)
			}
		})
	}
}
