package api

import (
	"bytes"
	"context"
	"encoding/json"
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

// heldAgent is the offline agent, whose integrations wait until release is closed (or
// their context is done): the jobs and requests that use it keep running until then.
type heldAgent struct {
	agent.Agent
	release chan struct{}
	speaker string // only this speaker's messages wait; "": every message
}

func (a *heldAgent) Integrate(ctx context.Context, in agent.IntegrateInput) ([]agent.Integration, realm.Usage, error) {
	if a.speaker == "" || in.Observation.Speaker == a.speaker {
		select {
		case <-a.release:
		case <-ctx.Done():
			return nil, realm.Usage{}, ctx.Err()
		}
	}
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

// TestSyncIngestionsBounded: a key runs at most MaxSyncIngestionsPerKey synchronous
// ingestions at once, over all its spaces, so that it cannot slip past the async bounds
// by leaving async out; one more is refused with 429 and Retry-After 1 (a slot comes back
// as soon as a batch is answered), naming the setting
// and the key's own count, and nothing of it is stored. Another key is not refused, and
// the slot comes back when the request ends, here cut off by its client.
func TestSyncIngestionsBounded(t *testing.T) {
	held := &heldAgent{Agent: offline.New(offline.Options{}), release: make(chan struct{}), speaker: "Held"}
	t.Cleanup(func() { close(held.release) })
	spaces := []string{cyphertest.NewSpace(t), cyphertest.NewSpace(t)}
	keys, err := ParseKeys("test keys", fmt.Sprintf(`
		a  sk-a-0123456789abcdef  read,write  %[1]s
		b  sk-b-0123456789abcdef  read,write  %[1]s`, strings.Join(spaces, ",")))
	if err != nil {
		t.Fatal(err)
	}
	// Not checked against the spec: the request its client cuts off is answered to no one.
	srv := newTestServer(t, nil, Config{Keys: keys, MaxSyncIngestionsPerKey: 1}, func(d *Deps) {
		d.Ingest = construction.New(d.Store, held, embedder, construction.Options{}, zerolog.Nop())
	})
	as := func(key string) client { return client{t: t, base: srv.URL, key: "sk-" + key + "-0123456789abcdef"} }
	batch := func(id, speaker string) map[string]any {
		return map[string]any{"messages": []map[string]string{
			{"id": id, "speaker": speaker, "content": "Ana adopted a grey cat called Pixel.", "timestamp": "2023-03-02T09:00:00Z"},
		}}
	}

	// a's first ingestion waits in its integration until its client gives up.
	ctx, cutOff := context.WithCancel(t.Context())
	body, _ := json.Marshal(batch("h1", "Held"))
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/v1/spaces/"+spaces[0]+"/observations", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer sk-a-0123456789abcdef")
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	t.Cleanup(func() { cutOff(); <-ended })
	// It holds its slot once its message is stored (bounded wait).
	for i := 0; as("a").status("GET", "/v1/spaces/"+spaces[0]+"/observations/h1", nil) != http.StatusOK; i++ {
		if i > 600 {
			t.Fatal("the first ingestion stored nothing")
		}
		time.Sleep(100 * time.Millisecond)
	}

	var p problemDoc
	resp := as("a").do("POST", "/v1/spaces/"+spaces[1]+"/observations", batch("x1", "Ana"), &p)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "1" || p.Code != realm.ERateLimited ||
		!strings.Contains(p.Detail, "REALM_MAX_SYNC_INGESTIONS_PER_KEY") || !strings.Contains(p.Detail, "runs 1 synchronous") {
		t.Errorf("a second ingestion of the key, in another space: %d, Retry-After %q, %+v", resp.StatusCode, resp.Header.Get("Retry-After"), p)
	}
	if code := as("a").status("GET", "/v1/spaces/"+spaces[1]+"/observations/x1", nil); code != http.StatusNotFound {
		t.Errorf("the refused batch's message: %d, want it not stored (404)", code)
	}
	// Through MCP alike.
	got := callTool(t, mustConnectMCP(t, srv.URL, "sk-a-0123456789abcdef"), "remember", map[string]any{"space": spaces[1], "messages": batch("x2", "Ana")["messages"]})
	if !got.isError || got.code() != realm.ERateLimited || got.out["retry_after"] != float64(1) || !strings.Contains(got.text, "REALM_MAX_SYNC_INGESTIONS_PER_KEY") {
		t.Errorf("a second ingestion of the key through MCP: %+v", got)
	}
	if code := as("a").status("GET", "/v1/spaces/"+spaces[1]+"/observations/x2", nil); code != http.StatusNotFound {
		t.Errorf("the refused call's message: %d, want it not stored (404)", code)
	}
	// A batch that can never be stored is invalid, not one too many, which a client would
	// send again: checked before the slot.
	tooLong := batch("x3", "Ana")
	tooLong["messages"].([]map[string]string)[0]["content"] = strings.Repeat("a", 20001)
	p = problemDoc{}
	if resp := as("a").do("POST", "/v1/spaces/"+spaces[1]+"/observations", tooLong, &p); resp.StatusCode != http.StatusBadRequest ||
		p.Fields["messages[0].content"] == "" {
		t.Errorf("a message too long while the key's slot is taken: %d %+v, want 400 naming its content", resp.StatusCode, p)
	}
	if got := callTool(t, mustConnectMCP(t, srv.URL, "sk-a-0123456789abcdef"), "remember", map[string]any{"space": spaces[1], "messages": tooLong["messages"]}); got.code() != realm.EInvalid {
		t.Errorf("a message too long through MCP while the key's slot is taken: %+v, want invalid", got)
	}
	if code := as("b").status("POST", "/v1/spaces/"+spaces[1]+"/observations", batch("y1", "Ana")); code != http.StatusOK {
		t.Errorf("another key's ingestion meanwhile: %d, want 200", code)
	}

	cutOff()
	<-ended
	// The slot is given back once the cut-off request's handler has returned.
	for i := 0; ; i++ {
		code := as("a").status("POST", "/v1/spaces/"+spaces[1]+"/observations", batch("x1", "Ana"))
		if code == http.StatusOK {
			break
		}
		if code != http.StatusTooManyRequests || i > 600 {
			t.Fatalf("the refused batch sent again once the first request ended: %d", code)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
