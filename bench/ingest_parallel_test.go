package bench

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/realm-memory/realm"
)

// spaceRecorder is an Ingester that records, per space, the observations sent in order,
// and how many spaces were being ingested at once; it fails on the space named fail.
type spaceRecorder struct {
	mu      sync.Mutex
	sent    map[string][]string
	active  int
	most    int
	fail    string
	release chan struct{} // each call waits for it, so that the calls overlap
}

func (r *spaceRecorder) Ingest(ctx context.Context, space string, obs []realm.Observation) (IngestResults, error) {
	r.mu.Lock()
	r.active++
	r.most = max(r.most, r.active)
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.active--
		r.mu.Unlock()
	}()
	select {
	case <-r.release:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	if space == r.fail {
		return 0, errors.New("store unavailable")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, o := range obs {
		r.sent[space] = append(r.sent[space], o.ID)
	}
	return len(obs), nil
}

func recorderSamples(n, turns int) []Sample {
	var out []Sample
	for i := range n {
		s := Sample{ID: fmt.Sprintf("conv-%d", i), Sessions: []Session{{Number: 1, Date: time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)}}}
		for t := range turns {
			s.Sessions[0].Turns = append(s.Sessions[0].Turns, Turn{DiaID: fmt.Sprintf("D1:%d", t+1), Speaker: "A", Text: "hello"})
		}
		out = append(out, s)
	}
	return out
}

// TestIngestSamplesParallel: the samples' spaces are ingested at the same time, each
// with all its observations in order, and a failing space's error is returned.
func TestIngestSamplesParallel(t *testing.T) {
	samples := recorderSamples(3, 2*ingestBatch+3)
	rec := &spaceRecorder{sent: map[string][]string{}, release: make(chan struct{})}
	done := make(chan error)
	go func() { done <- ingestSamples(context.Background(), rec, samples, "p-", nil) }()
	for {
		rec.mu.Lock()
		active := rec.active
		rec.mu.Unlock()
		if active == len(samples) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(rec.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if rec.most != len(samples) {
		t.Errorf("at most %d spaces at once, want %d", rec.most, len(samples))
	}
	for _, s := range samples {
		var want []string
		for _, o := range s.Observations() {
			want = append(want, o.ID)
		}
		if got := rec.sent["p-"+s.ID]; !slices.Equal(got, want) {
			t.Errorf("space p-%s got %v, want %v", s.ID, got, want)
		}
	}

	failing := &spaceRecorder{sent: map[string][]string{}, release: make(chan struct{}), fail: "p-conv-1"}
	close(failing.release)
	if err := ingestSamples(context.Background(), failing, samples, "p-", nil); err == nil || err.Error() != "conv-1: ingest: store unavailable" {
		t.Errorf("a failing space: got %v, want its error", err)
	}
}
