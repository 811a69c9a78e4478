package api

import (
	"net/http"
	"testing"

	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestJobStatusOnly: GET /v1/jobs/{id}?results=false answers the job's status and counts
// without its per-message results, which a poll of a large batch would read again each
// time; results=true and none answer them; another value is 400 invalid.
func TestJobStatusOnly(t *testing.T) {
	c := client{t: t, base: newTestServer(t, apitest.New(t), Config{}).URL}
	var accepted struct {
		JobID string `json:"job_id"`
	}
	if code := c.do("POST", "/v1/spaces/"+cyphertest.NewSpace(t)+"/observations?async=true", jobBatch(3), &accepted).StatusCode; code != http.StatusAccepted {
		t.Fatalf("async ingest: %d", code)
	}
	var job jobDoc
	c.awaitJob(accepted.JobID, &job)
	if len(job.Results) != 3 {
		t.Fatalf("job %+v: want 3 results", job)
	}
	for _, query := range []string{"", "?results=true"} {
		if got := jobFields(t, c, accepted.JobID+query); got["results"] == nil || got["done"] != 3.0 {
			t.Errorf("GET job%s: %v: want the results and done 3", query, got)
		}
	}
	got := jobFields(t, c, accepted.JobID+"?results=false")
	if _, ok := got["results"]; ok || got["status"] != "done" || got["done"] != 3.0 || got["total"] != 3.0 {
		t.Errorf("GET job?results=false: %v: want status done, total and done 3, no results", got)
	}
	for _, query := range []string{"?results=no", "?result=false"} {
		if code := c.status("GET", "/v1/jobs/"+accepted.JobID+query, nil); code != http.StatusBadRequest {
			t.Errorf("GET job%s: %d, want 400", query, code)
		}
	}
}

// jobFields is GET /v1/jobs/{path}'s body as a JSON object.
func jobFields(t *testing.T, c client, path string) map[string]any {
	t.Helper()
	var got map[string]any
	if code := c.do("GET", "/v1/jobs/"+path, nil, &got).StatusCode; code != http.StatusOK {
		t.Fatalf("GET job %s: %d", path, code)
	}
	return got
}
