package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// heldAgent is the offline agent, whose integrations wait until release is closed: the
// jobs that use it keep running until then.
type heldAgent struct {
	agent.Agent
	release chan struct{}
}

func (a *heldAgent) Integrate(ctx context.Context, in agent.IntegrateInput) ([]agent.Integration, realm.Usage, error) {
	<-a.release
	return a.Agent.Integrate(ctx, in)
}

// TestAsyncJobsBounded: a key runs at most MaxAsyncJobsPerKey async ingestions at once,
// and the process MaxAsyncJobs; one more is refused with 429 and Retry-After, naming the
// setting, and nothing of it is stored, so that the same batch sent again once a job has
// ended is taken.
func TestAsyncJobsBounded(t *testing.T) {
	held := &heldAgent{Agent: offline.New(offline.Options{}), release: make(chan struct{})}
	spaces := []string{cyphertest.NewSpace(t), cyphertest.NewSpace(t), cyphertest.NewSpace(t)}
	patterns := strings.Join(spaces, ",")
	keys, err := ParseKeys("test keys", fmt.Sprintf(`
		a  sk-a-0123456789abcdef  read,write  %[1]s
		b  sk-b-0123456789abcdef  read,write  %[1]s
		c  sk-c-0123456789abcdef  read,write  %[1]s`, patterns))
	if err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, apitest.New(t), Config{Keys: keys, MaxAsyncJobsPerKey: 1, MaxAsyncJobs: 2}, func(d *Deps) {
		ingest := construction.New(d.Store, held, embedder, construction.Options{}, zerolog.Nop())
		t.Cleanup(ingest.Wait)
		d.Ingest = ingest
	})
	var once sync.Once
	release := func() { once.Do(func() { close(held.release) }) }
	t.Cleanup(release) // before the jobs are waited for
	as := func(key string) client { return client{t: t, base: srv.URL, key: "sk-" + key + "-0123456789abcdef"} }
	type accepted struct {
		JobID  string `json:"job_id"`
		Code   string
		Detail string
	}
	send := func(key, space, id string) (*http.Response, accepted) {
		var res accepted
		resp := as(key).do("POST", "/v1/spaces/"+space+"/observations?async=true", map[string]any{"messages": []map[string]string{
			{"id": id, "speaker": "Ana", "content": "Ana adopted a grey cat called Pixel.", "timestamp": "2023-03-02T09:00:00Z"},
		}}, &res)
		return resp, res
	}
	refused := func(key, space, id, setting string) string {
		t.Helper()
		resp, res := send(key, space, id)
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || res.Code != realm.ERateLimited || !strings.Contains(res.Detail, setting) {
			t.Errorf("key %s, job beyond %s: %d, Retry-After %q, %+v", key, setting, resp.StatusCode, resp.Header.Get("Retry-After"), res)
		}
		if code := as(key).status("GET", "/v1/spaces/"+space+"/observations/"+id, nil); code != http.StatusNotFound {
			t.Errorf("the refused batch's message: %d, want it not stored (404)", code)
		}
		return res.Detail
	}

	var jobs []string
	for _, run := range []struct{ key, space, id string }{{"a", spaces[0], "j1"}, {"b", spaces[1], "j2"}} {
		resp, res := send(run.key, run.space, run.id)
		if resp.StatusCode != http.StatusAccepted {
			t.Fatalf("key %s's first job: %d %+v", run.key, resp.StatusCode, res)
		}
		jobs = append(jobs, res.JobID)
	}
	// A key learns how many of its own jobs run, not how many of the other keys' do.
	if d := refused("a", spaces[2], "j3", "REALM_MAX_ASYNC_JOBS_PER_KEY"); !strings.Contains(d, "runs 1 async") { // a's job runs
		t.Errorf("the key's own bound: %q, want its count of jobs", d)
	}
	if d := refused("c", spaces[2], "j3", "REALM_MAX_ASYNC_JOBS"); namesCount(d) { // a's and b's run
		t.Errorf("the process's bound: %q, want no count of the jobs other keys run", d)
	}
	if code := as("c").status("GET", "/v1/jobs/"+jobs[0], nil); code != http.StatusOK {
		t.Errorf("following a job while the limit is reached: %d", code)
	}

	release()
	for _, id := range jobs {
		as("a").awaitJob(id, nil)
	}
	// A job's slot is given back when its background work has returned, just after
	// its end is recorded: the batch sent again is taken then.
	for i := 0; ; i++ {
		resp, res := send("a", spaces[2], "j3")
		if resp.StatusCode == http.StatusAccepted {
			as("a").awaitJob(res.JobID, nil)
			break
		}
		if resp.StatusCode != http.StatusTooManyRequests || i > 600 {
			t.Fatalf("the refused batch sent again once the jobs ended: %d %+v", resp.StatusCode, res)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if code := as("a").status("GET", "/v1/spaces/"+spaces[2]+"/observations/j3", nil); code != http.StatusOK {
		t.Errorf("the batch sent again: its message %d, want it stored", code)
	}
}

// namesCount reports whether a refusal's reason, the detail before its first colon (what
// to do follows it), holds a number.
func namesCount(detail string) bool {
	reason, _, _ := strings.Cut(detail, ":")
	return strings.ContainsAny(reason, "0123456789")
}
