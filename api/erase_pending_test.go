package api

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestEraseWhilePending: a space erased while its messages are being integrated, by a
// synchronous request or a job, leaves no message reading pending: the request reports
// them erased, and the job and each message read 404, saying the space was erased. They
// read erased, not forgotten, also when another writer made the space anew meanwhile
// (Recreated), whose message stays.
func TestEraseWhilePending(t *testing.T) {
	msgs := map[string]any{"messages": []map[string]string{
		{"id": "e1", "speaker": "Ana", "content": "I moved to Lisbon in 2021 for a job at a bakery.", "timestamp": "2023-01-10T09:00:00Z"},
		{"id": "e2", "speaker": "Ana", "content": "My sister Eva lives in Oslo with her two cats.", "timestamp": "2023-01-11T09:00:00Z"},
		{"id": "e3", "speaker": "Ana", "content": "I started learning the cello at a music school.", "timestamp": "2023-01-12T09:00:00Z"},
	}}
	for _, tc := range []struct {
		name             string
		async, recreated bool
	}{{"Sync", false, false}, {"Async", true, false}, {"Recreated", false, true}} {
		async := tc.async
		t.Run(tc.name, func(t *testing.T) {
			// The first integration waits until the space is erased: the batch is under way.
			gate := &gatedAgent{Agent: offline.New(offline.Options{}), gated: "e1", entered: make(chan struct{}), release: make(chan struct{})}
			var ingest *construction.Pipeline
			var store *cypher.Store
			srv := newTestServer(t, apitest.New(t), Config{}, func(d *Deps) {
				store = d.Store
				ingest = construction.New(d.Store, gate, embedder, construction.Options{}, zerolog.Nop())
				t.Cleanup(ingest.Wait)
				d.Ingest = ingest
			})
			c := client{t: t, base: srv.URL}
			space := cyphertest.NewSpace(t)
			sp := "/v1/spaces/" + space
			type ingested struct {
				JobID   string `json:"job_id"`
				Results []struct{ ID, Status, Error string }
			}
			done := make(chan ingested, 1)
			go func() {
				var res ingested
				path := sp + "/observations"
				if async {
					path += "?async=true"
				}
				c.do("POST", path, msgs, &res)
				done <- res
			}()
			<-gate.entered
			if code := c.status("DELETE", sp, nil); code != http.StatusOK {
				t.Fatalf("erase: %d", code)
			}
			if tc.recreated {
				// Another server writes into the space (this one integrates a space one message at a time).
				other := construction.New(store, offline.New(offline.Options{}), embedder, construction.Options{Owner: "other-" + space}, zerolog.Nop())
				r1 := realm.Observation{ID: "r1", Speaker: "Bo", Content: "I adopted a grey cat called Pixel.", ObservedAt: time.Date(2023, 2, 1, 9, 0, 0, 0, time.UTC)}
				if _, err := other.Ingest(context.Background(), space, []realm.Observation{r1}); err != nil {
					t.Fatal(err)
				}
			}
			close(gate.release)
			res := <-done
			ingest.Wait()
			if async {
				var p problemDoc
				if code := c.do("GET", "/v1/jobs/"+res.JobID, nil, &p).StatusCode; code != http.StatusNotFound || !strings.Contains(p.Detail, "erased") {
					t.Errorf("job after the erasure: %d %+v, want 404 saying the space was erased", code, p)
				}
			} else {
				if len(res.Results) != 3 {
					t.Fatalf("results %+v", res)
				}
				for _, r := range res.Results {
					if r.Status != construction.StatusErased {
						t.Errorf("%s: %s %q, want erased", r.ID, r.Status, r.Error)
					}
				}
			}
			if tc.recreated {
				if code := c.status("GET", sp+"/observations/r1", nil); code != http.StatusOK {
					t.Errorf("the other writer's message: %d, want 200", code)
				}
				return
			}
			for _, id := range []string{"e1", "e2", "e3"} {
				var p problemDoc
				if code := c.do("GET", sp+"/observations/"+id, nil, &p).StatusCode; code != http.StatusNotFound || !strings.Contains(p.Detail, "erased") {
					t.Errorf("message %s after the erasure: %d %+v, want 404 saying the space was erased", id, code, p)
				}
			}
		})
	}
}
