package cypher_test

import (
	"context"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestUsageOfAttemptsWritingNothing: what an integration attempt spent on the LLM is
// counted in its message's job also when the attempt writes nothing, because another
// attempt integrated the message meanwhile (already_integrated) or it was forgotten
// meanwhile: the job counts every call made for the message.
func TestUsageOfAttemptsWritingNothing(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	spent := realm.Usage{"extract": {Calls: 1, Failures: 1, Fallbacks: 1}}
	for _, tc := range []struct {
		name      string
		meanwhile func(t *testing.T, space string)
		status    string
		calls     int
	}{
		{name: "AlreadyIntegrated", status: realm.ObservationIntegrated, calls: 2, meanwhile: func(t *testing.T, space string) {
			if applied, err := s.ApplyIntegration(ctx, space, "o1", cypher.NeighbourQuery{Space: space}, nil, cypher.Integration{Usage: spent}); err != nil || !applied.Applied {
				t.Fatalf("the other attempt: %+v %v", applied, err)
			}
		}},
		{name: "Forgotten", status: cypher.JobForgotten, calls: 1, meanwhile: func(t *testing.T, space string) {
			if _, err := s.DeleteObservation(ctx, space, "o1", cypher.Lease{}); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			space := cyphertest.NewSpace(t)
			obs := []realm.Observation{{ID: "o1", Speaker: "Ana", Content: "Ana adopted a cat named Pixel.", ObservedAt: time.Now()}}
			if _, err := s.SaveObservations(ctx, space, "test", cyphertest.Dims, obs, cypher.Lease{Owner: "t", Until: time.Now().Add(time.Minute)}); err != nil {
				t.Fatal(err)
			}
			if err := s.CreateJob(ctx, space, space+"-job", []string{"o1"}); err != nil {
				t.Fatal(err)
			}
			tc.meanwhile(t, space)
			applied, err := s.ApplyIntegration(ctx, space, "o1", cypher.NeighbourQuery{Space: space}, nil, cypher.Integration{Usage: spent})
			if err != nil || applied.Applied {
				t.Fatalf("the attempt: %+v %v, want nothing written", applied, err)
			}
			job, err := s.Job(ctx, space, space+"-job")
			if err != nil {
				t.Fatal(err)
			}
			if r := job.Results[0]; r.Status != tc.status || r.Usage["extract"].Calls != tc.calls {
				t.Errorf("job's result %+v, want %s with %d extraction calls", r, tc.status, tc.calls)
			}
		})
	}
}
