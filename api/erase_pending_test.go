package api

import (
	"net/http"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestEraseWhilePending: a space erased while its messages are being integrated, by a
// synchronous request or a job, leaves no message reading pending: the request reports
// them erased, and the job and each message read 404, saying the space was erased.
func TestEraseWhilePending(t *testing.T) {
	msgs := map[string]any{"messages": []map[string]string{
		{"id": "e1", "speaker": "Ana", "content": "I moved to Lisbon in 2021 for a job at a bakery.", "timestamp": "2023-01-10T09:00:00Z"},
		{"id": "e2", "speaker": "Ana", "content": "My sister Eva lives in Oslo with her two cats.", "timestamp": "2023-01-11T09:00:00Z"},
		{"id": "e3", "speaker": "Ana", "content": "I started learning the cello at a music school.", "timestamp": "2023-01-12T09:00:00Z"},
	}}
	for _, async := range []bool{false, true} {
		name := map[bool]string{false: "Sync", true: "Async"}[async]
		t.Run(name, func(t *testing.T) {
			// The first integration waits until the space is erased: the batch is under way.
			gate := &gatedAgent{Agent: offline.New(offline.Options{}), gated: "e1", entered: make(chan struct{}), release: make(chan struct{})}
			var ingest *construction.Pipeline
			srv := newTestServer(t, apitest.New(t), Config{}, func(d *Deps) {
				ingest = construction.New(d.Store, gate, embedder, construction.Options{}, zerolog.Nop())
				t.Cleanup(ingest.Wait)
				d.Ingest = ingest
			})
			c := client{t: t, base: srv.URL}
			sp := "/v1/spaces/" + cyphertest.NewSpace(t)
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
			for _, id := range []string{"e1", "e2", "e3"} {
				var p problemDoc
				if code := c.do("GET", sp+"/observations/"+id, nil, &p).StatusCode; code != http.StatusNotFound || !strings.Contains(p.Detail, "erased") {
					t.Errorf("message %s after the erasure: %d %+v, want 404 saying the space was erased", id, code, p)
				}
			}
		})
	}
}
