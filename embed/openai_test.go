package embed

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/realm-memory/realm"
)

// fakeEmbeddings is a scripted /v1/embeddings server. Each request takes the next entry
// of script (an HTTP status, with optional Retry-After and raw body); when the script is
// used up it answers 200 with vectors of dimension dim whose first component encodes the
// input's length, so order can be checked.
type fakeEmbeddings struct {
	t   *testing.T
	dim int

	mu       sync.Mutex
	script   []fakeReply
	requests []fakeRequest
}

type fakeReply struct {
	status     int
	retryAfter string
	body       string
}

type fakeRequest struct {
	Input      []string `json:"input"`
	Model      string   `json:"model"`
	Dimensions int      `json:"dimensions"`
	auth       string
}

func (f *fakeEmbeddings) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/embeddings" || r.Method != http.MethodPost {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	var req fakeRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		f.t.Errorf("fake: bad request body: %v", err)
	}
	req.auth = r.Header.Get("Authorization")
	f.mu.Lock()
	f.requests = append(f.requests, req)
	var reply *fakeReply
	if len(f.script) > 0 {
		reply = &f.script[0]
		f.script = f.script[1:]
	}
	f.mu.Unlock()

	w.Header().Set("Content-Type", "application/json")
	if reply != nil {
		if reply.retryAfter != "" {
			w.Header().Set("Retry-After", reply.retryAfter)
		}
		w.WriteHeader(reply.status)
		fmt.Fprint(w, reply.body)
		return
	}
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	resp := struct {
		Object string `json:"object"`
		Data   []item `json:"data"`
		Model  string `json:"model"`
	}{Object: "list", Model: req.Model}
	// Answer in reverse order: clients must use index, not position.
	for i := len(req.Input) - 1; i >= 0; i-- {
		v := make([]float32, f.dim)
		v[0], v[1] = float32(len(req.Input[i])), 1
		resp.Data = append(resp.Data, item{Object: "embedding", Index: i, Embedding: v})
	}
	json.NewEncoder(w).Encode(resp)
}

func (f *fakeEmbeddings) requestCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

// newFakeOpenAI starts the fake and an OpenAI embedder pointed at it whose waits are
// recorded instead of slept.
func newFakeOpenAI(t *testing.T, dim int, cfg OpenAIConfig, script ...fakeReply) (*OpenAI, *fakeEmbeddings, *[]time.Duration) {
	t.Helper()
	fake := &fakeEmbeddings{t: t, dim: dim, script: script}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	cfg.BaseURL = srv.URL + "/v1"
	cfg.APIKey = "sk-test"
	if cfg.Model == "" {
		cfg.Model, cfg.Dim = "test-embed", 8
	}
	o, err := NewOpenAI(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var waits []time.Duration
	o.retry.sleep = func(ctx context.Context, d time.Duration) error {
		waits = append(waits, d)
		return ctx.Err()
	}
	return o, fake, &waits
}

func TestOpenAI(t *testing.T) {
	ctx := context.Background()
	texts := []string{"a", "bb", "ccc", "dddd", "eeeee"}

	t.Run("OK", func(t *testing.T) {
		o, fake, _ := newFakeOpenAI(t, 8, OpenAIConfig{Model: "test-embed", Dim: 8, SendDim: true})
		vecs, err := o.Embed(ctx, texts)
		if err != nil {
			t.Fatal(err)
		}
		if o.ID() != "openai:test-embed" || o.Dim() != 8 || len(vecs) != len(texts) {
			t.Fatalf("id %s dim %d, %d vectors", o.ID(), o.Dim(), len(vecs))
		}
		for i, v := range vecs {
			// Normalised (len, 1, 0…) still has the ratio v0/v1 = len(text).
			if math.Abs(norm2(v)-1) > 1e-6 || math.Round(float64(v[0]/v[1])) != float64(len(texts[i])) {
				t.Errorf("vector %d = %v", i, v)
			}
		}
		req := fake.requests[0]
		if req.Model != "test-embed" || req.Dimensions != 8 || req.auth != "Bearer sk-test" {
			t.Errorf("request = %+v", req)
		}
	})
	t.Run("Batching", func(t *testing.T) {
		o, fake, _ := newFakeOpenAI(t, 8, OpenAIConfig{BatchSize: 2})
		vecs, err := o.Embed(ctx, texts)
		if err != nil {
			t.Fatal(err)
		}
		if fake.requestCount() != 3 {
			t.Fatalf("%d requests for 5 texts in batches of 2, want 3", fake.requestCount())
		}
		for i, n := range []int{2, 2, 1} {
			if len(fake.requests[i].Input) != n || fake.requests[i].Dimensions != 0 {
				t.Errorf("request %d = %+v, want %d inputs and no dimensions", i, fake.requests[i], n)
			}
		}
		for i, v := range vecs {
			if math.Round(float64(v[0]/v[1])) != float64(len(texts[i])) {
				t.Errorf("vector %d is not text %d's", i, i)
			}
		}
	})
	t.Run("RetryAfter429", func(t *testing.T) {
		o, fake, waits := newFakeOpenAI(t, 8, OpenAIConfig{},
			fakeReply{status: 429, retryAfter: "7", body: `{"error":{"message":"slow down","type":"rate_limit"}}`})
		if _, err := o.Embed(ctx, texts); err != nil {
			t.Fatal(err)
		}
		if fake.requestCount() != 2 || len(*waits) != 1 || (*waits)[0] != 7*time.Second {
			t.Fatalf("%d requests, waits %v; want 2 requests and one wait of 7s", fake.requestCount(), *waits)
		}
	})
	t.Run("Retry500", func(t *testing.T) {
		o, fake, waits := newFakeOpenAI(t, 8, OpenAIConfig{Backoff: time.Second},
			fakeReply{status: 500, body: `{"error":{"message":"boom"}}`},
			fakeReply{status: 503, body: `upstream down`})
		if _, err := o.Embed(ctx, texts); err != nil {
			t.Fatal(err)
		}
		if fake.requestCount() != 3 || fmt.Sprint(*waits) != "[1s 2s]" {
			t.Fatalf("%d requests, waits %v; want 3 requests and backoff [1s 2s]", fake.requestCount(), *waits)
		}
	})
	t.Run("ErrUnavailableAfterTries", func(t *testing.T) {
		o, fake, _ := newFakeOpenAI(t, 8, OpenAIConfig{MaxTries: 3},
			fakeReply{status: 502}, fakeReply{status: 502}, fakeReply{status: 502}, fakeReply{status: 502})
		_, err := o.Embed(ctx, texts)
		if realm.ErrorCode(err) != realm.EUnavailable || fake.requestCount() != 3 {
			t.Fatalf("err = %v after %d requests; want %s after 3", err, fake.requestCount(), realm.EUnavailable)
		}
	})
	t.Run("ErrUnreachable", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		url := srv.URL
		srv.Close() // nothing listens there any more
		o, err := NewOpenAI(OpenAIConfig{BaseURL: url + "/v1", Model: "m", Dim: 8, MaxTries: 2, Backoff: time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := o.Embed(ctx, texts); realm.ErrorCode(err) != realm.EUnavailable {
			t.Fatalf("err = %v, want %s", err, realm.EUnavailable)
		}
	})
	t.Run("ErrBadRequestNotRetried", func(t *testing.T) {
		o, fake, _ := newFakeOpenAI(t, 8, OpenAIConfig{},
			fakeReply{status: 401, body: `{"error":{"message":"bad key","type":"invalid_request_error"}}`})
		_, err := o.Embed(ctx, texts)
		if err == nil || realm.ErrorCode(err) == realm.EUnavailable || fake.requestCount() != 1 {
			t.Fatalf("err = %v after %d requests; want a non-unavailable error after 1", err, fake.requestCount())
		}
	})
	malformed := []struct{ name, body string }{
		{"NotJSON", `<html>gateway</html>`},
		{"WrongTypes", `{"data":[{"index":"zero","embedding":"none"}]}`},
		{"TooFewEmbeddings", `{"object":"list","data":[{"index":0,"embedding":[1,0,0,0,0,0,0,0]}]}`},
		{"RepeatedIndex", `{"data":[` + repeat(`{"index":0,"embedding":[1,0,0,0,0,0,0,0]}`, 5) + `]}`},
	}
	for _, m := range malformed {
		t.Run("ErrMalformed"+m.name, func(t *testing.T) {
			o, _, _ := newFakeOpenAI(t, 8, OpenAIConfig{}, fakeReply{status: 200, body: m.body})
			vecs, err := o.Embed(ctx, texts)
			if err == nil || realm.ErrorCode(err) == realm.EUnavailable || !strings.Contains(err.Error(), "malformed response") {
				t.Fatalf("Embed = %d vectors, err %v; want a malformed-response error", len(vecs), err)
			}
			t.Log(err)
		})
	}
	t.Run("ErrWrongDimension", func(t *testing.T) {
		o, _, _ := newFakeOpenAI(t, 16, OpenAIConfig{Model: "test-embed", Dim: 8})
		_, err := o.Embed(ctx, texts)
		if err == nil || !contains(err.Error(), "dimension 16") {
			t.Fatalf("err = %v, want a wrong-dimension error", err)
		}
	})
	t.Run("ErrCanceled", func(t *testing.T) {
		o, _, _ := newFakeOpenAI(t, 8, OpenAIConfig{})
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := o.Embed(cctx, texts); err != context.Canceled {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	})
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, false},
		{"3", 3 * time.Second, true},
		{"soon", 0, false},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0, true},
	} {
		if got, ok := retryAfter(c.in, now); got != c.want || ok != c.ok {
			t.Errorf("retryAfter(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func repeat(s string, n int) string {
	out := s
	for range n - 1 {
		out += "," + s
	}
	return out
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
