package api

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/agenttest"
	"github.com/realm-memory/realm/agent/llm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// jobDoc is GET /v1/jobs/{id}'s body, as far as these tests read it.
type jobDoc struct {
	Status  string
	Results []struct {
		ID     string
		Status string
		Usage  realm.Usage
	}
}

// switchedEmbedder is the test embedder, away (EUnavailable) while down is set: the
// embeddings endpoint gone; with words, only for the texts that say them.
type switchedEmbedder struct {
	realm.Embedder
	down  atomic.Bool
	words string
}

func (e *switchedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if e.down.Load() && slices.ContainsFunc(texts, func(t string) bool { return strings.Contains(t, e.words) }) {
		return nil, realm.Errorf(realm.EUnavailable, "the embeddings endpoint is away")
	}
	return e.Embedder.Embed(ctx, texts)
}

// llmJobServer serves a pipeline whose agent asks a scripted fake OpenAI server, which
// refuses every call: each decision is the offline agent's, and each call is counted
// (a failure and a fallback) in the usage of the message it was made for. Its embedder
// is the test embedder, which the test may take away.
func llmJobServer(t *testing.T) (client, *construction.Pipeline, *agenttest.FakeOpenAI, *switchedEmbedder) {
	emb := &switchedEmbedder{}
	fake := agenttest.NewFakeOpenAI(t)
	fake.Handle(func(agenttest.ChatRequest) agenttest.Response { return agenttest.Status(http.StatusBadRequest) })
	var ingest *construction.Pipeline
	srv := newTestServer(t, apitest.New(t), Config{}, func(d *Deps) {
		lm, err := llm.New(llm.Config{BaseURL: fake.BaseURL(), APIKey: "test", Models: llm.Models{Extraction: "test-model"},
			Timeout: 5 * time.Second, MaxRetries: -1}, offline.New(offline.Options{}), zerolog.New(io.Discard))
		if err != nil {
			t.Fatal(err)
		}
		emb.Embedder = embedder // set up by testDeps
		ingest = construction.New(d.Store, lm, emb, construction.Options{}, zerolog.New(io.Discard))
		t.Cleanup(ingest.Wait)
		d.Ingest = ingest
	})
	return client{t: t, base: srv.URL}, ingest, fake, emb
}

// jobBatch is a batch of n messages.
func jobBatch(n int) map[string]any {
	var msgs []map[string]string
	for i := range n {
		msgs = append(msgs, map[string]string{"id": fmt.Sprintf("u%d", i), "speaker": "Ana",
			"content": fmt.Sprintf("I adopted a cat named Pixel%d last spring.", i), "timestamp": fmt.Sprintf("2024-05-%02dT10:00:00Z", i+1)})
	}
	return map[string]any{"messages": msgs}
}

// calls is how many LLM calls usage counts, over its stages.
func calls(usage realm.Usage) int {
	n := 0
	for _, s := range usage {
		n += s.Calls
	}
	return n
}

// TestJobDoneWithUsage: a job read done holds the final usage of each of its messages,
// however soon after its last message was integrated it is read: the job is polled as
// fast as it answers, and every poll reading done must carry the usage.
func TestJobDoneWithUsage(t *testing.T) {
	c, _, _, _ := llmJobServer(t)
	for range 3 {
		var accepted struct {
			JobID string `json:"job_id"`
		}
		if code := c.do("POST", "/v1/spaces/"+cyphertest.NewSpace(t)+"/observations?async=true", jobBatch(3), &accepted).StatusCode; code != http.StatusAccepted {
			t.Fatalf("async ingest: %d", code)
		}
		for {
			var job jobDoc
			if code := c.do("GET", "/v1/jobs/"+accepted.JobID, nil, &job).StatusCode; code != http.StatusOK {
				t.Fatalf("GET job: %d", code)
			}
			if job.Status == cypher.JobRunning {
				continue
			}
			if job.Status != cypher.JobDone || len(job.Results) != 3 {
				t.Fatalf("job %+v", job)
			}
			for _, r := range job.Results {
				if u := r.Usage[llm.StageExtract]; u.Calls == 0 || u.Fallbacks == 0 {
					t.Errorf("job read done, message %s %s with usage %+v: no extraction call", r.ID, r.Status, r.Usage)
				}
			}
			break
		}
	}
}

// TestJobUsageResumed: the messages of a job left pending (the embeddings endpoint away)
// and integrated by the server's resumption have the usage of every attempt in their
// job, the job's run's and the resumption's: every LLM call made for them is counted.
func TestJobUsageResumed(t *testing.T) {
	c, ingest, fake, emb := llmJobServer(t)
	emb.down.Store(true)
	space := cyphertest.NewSpace(t)
	var accepted struct {
		JobID string `json:"job_id"`
	}
	if code := c.do("POST", "/v1/spaces/"+space+"/observations?async=true", jobBatch(3), &accepted).StatusCode; code != http.StatusAccepted {
		t.Fatalf("async ingest: %d", code)
	}
	ingest.Wait()
	var job jobDoc
	c.do("GET", "/v1/jobs/"+accepted.JobID, nil, &job)
	if job.Status != cypher.JobRunning {
		t.Fatalf("job with the embeddings endpoint away: %+v, want running", job)
	}
	byRun := len(fake.Requests())
	emb.down.Store(false)
	if n, err := ingest.ResumePendingSpace(context.Background(), space); err != nil || n != 3 {
		t.Fatalf("resumed %d, %v; want the 3 messages", n, err)
	}
	if len(fake.Requests()) == byRun {
		t.Fatalf("the resumption made no LLM call (%d by the job's run): nothing to count", byRun)
	}
	job = jobDoc{}
	c.do("GET", "/v1/jobs/"+accepted.JobID, nil, &job)
	counted := 0
	for _, r := range job.Results {
		counted += calls(r.Usage)
	}
	if job.Status != cypher.JobDone || counted != len(fake.Requests()) {
		t.Errorf("job %+v: %d LLM calls counted, want every one made, %d (%d by the job's run)", job, counted, len(fake.Requests()), byRun)
	}
}
