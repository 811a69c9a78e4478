package embed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/internal/ctxtime"
	openai "github.com/sashabaranov/go-openai"
)

// OpenAIConfig configures an OpenAI-compatible /v1/embeddings endpoint (OpenAI, Ollama,
// vLLM, TEI …).
type OpenAIConfig struct {
	BaseURL string // up to and including /v1; empty means go-openai's default (OpenAI)
	APIKey  string
	Model   string // default text-embedding-3-small
	// Dim is the vector length the endpoint returns; required unless Model is one of
	// OpenAI's (knownDims). A response of another length is an error.
	Dim int
	// SendDim sends Dim as the request's `dimensions` (text-embedding-3 models shorten
	// their vectors to it; other servers may reject the field).
	SendDim   bool
	BatchSize int           // texts per request; default 64
	Timeout   time.Duration // per HTTP attempt; default 30s
	MaxTries  int           // attempts per request on 429, 5xx or a network error; default 5
	Backoff   time.Duration // first wait between attempts, doubling; default 500ms
	// HTTPClient carries the requests; default http.DefaultTransport.
	HTTPClient *http.Client
}

// knownDims are the default lengths of OpenAI's embedding models.
var knownDims = map[string]int{
	"text-embedding-3-small": 1536,
	"text-embedding-3-large": 3072,
	"text-embedding-ada-002": 1536,
}

// maxRetryWait bounds how long one Retry-After or backoff may hold a request.
const maxRetryWait = 30 * time.Second

// OpenAI embeds through an OpenAI-compatible API. Safe for concurrent use.
type OpenAI struct {
	client  *openai.Client
	model   string
	dim     int
	sendDim bool
	batch   int
	retry   *retryTransport
}

// NewOpenAI checks cfg and builds the client; it makes no request.
func NewOpenAI(cfg OpenAIConfig) (*OpenAI, error) {
	model := cfg.Model
	if model == "" {
		model = "text-embedding-3-small"
	}
	dim := cfg.Dim
	if dim == 0 {
		dim = knownDims[model]
	}
	if dim <= 0 {
		return nil, realm.Errorf(realm.EInvalid, "embed: openai: the vector length of model %q is unknown: set REALM_EMBED_DIM", model)
	}
	base := http.DefaultTransport
	if cfg.HTTPClient != nil && cfg.HTTPClient.Transport != nil {
		base = cfg.HTTPClient.Transport
	}
	retry := &retryTransport{
		base:    base,
		tries:   orInt(cfg.MaxTries, 5),
		timeout: orDuration(cfg.Timeout, 30*time.Second),
		backoff: orDuration(cfg.Backoff, 500*time.Millisecond),
		sleep:   ctxtime.Sleep,
	}
	clientCfg := openai.DefaultConfig(cfg.APIKey)
	if cfg.BaseURL != "" {
		clientCfg.BaseURL = cfg.BaseURL
	}
	clientCfg.HTTPClient = &http.Client{Transport: retry}
	return &OpenAI{
		client:  openai.NewClientWithConfig(clientCfg),
		model:   model,
		dim:     dim,
		sendDim: cfg.SendDim,
		batch:   orInt(cfg.BatchSize, 64),
		retry:   retry,
	}, nil
}

func orInt(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

func orDuration(v, def time.Duration) time.Duration {
	if v > 0 {
		return v
	}
	return def
}

// ID names the remote model.
func (o *OpenAI) ID() string { return "openai:" + o.model }

// Dim is the configured or known vector length.
func (o *OpenAI) Dim() int { return o.dim }

// Embed sends texts in batches. It returns EUnavailable when the endpoint cannot be
// reached or keeps answering 429/5xx, and a plain error for a response that is malformed
// or of the wrong dimension.
func (o *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += o.batch {
		batch := texts[start:min(start+o.batch, len(texts))]
		vecs, err := o.embedBatch(ctx, batch)
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

func (o *OpenAI) embedBatch(ctx context.Context, batch []string) ([][]float32, error) {
	req := openai.EmbeddingRequestStrings{Input: batch, Model: openai.EmbeddingModel(o.model)}
	if o.sendDim {
		req.Dimensions = o.dim
	}
	resp, err := o.client.CreateEmbeddings(ctx, req)
	if err != nil {
		return nil, o.classify(ctx, err)
	}
	if len(resp.Data) != len(batch) {
		return nil, errorf("openai: malformed response: %d embeddings for %d inputs", len(resp.Data), len(batch))
	}
	vecs := make([][]float32, len(batch))
	for _, d := range resp.Data {
		if d.Index < 0 || d.Index >= len(batch) || vecs[d.Index] != nil {
			return nil, errorf("openai: malformed response: bad or repeated index %d", d.Index)
		}
		if len(d.Embedding) != o.dim {
			return nil, errorf("openai: model %s returned vectors of dimension %d, configured %d (REALM_EMBED_DIM)",
				o.model, len(d.Embedding), o.dim)
		}
		normalize(d.Embedding) // OpenAI's are unit length already; other servers' may not be
		vecs[d.Index] = d.Embedding
	}
	return vecs, nil
}

// classify turns a failed request into EUnavailable when the remote is the problem
// (unreachable, rate-limited, failing) and keeps other errors (bad key, bad request, a body
// that is not JSON) as they are, for the logs.
func (o *OpenAI) classify(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	status := 0
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.As(err, &apiErr):
		status = apiErr.HTTPStatusCode
	case errors.As(err, &reqErr) && reqErr.HTTPStatusCode != 0:
		status = reqErr.HTTPStatusCode
	default:
		var netErr *transportError
		var syntaxErr *json.SyntaxError
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &syntaxErr) || errors.As(err, &typeErr) {
			return errorf("openai: malformed response: %w", err)
		}
		if errors.As(err, &netErr) {
			return realm.Errorf(realm.EUnavailable, "embeddings endpoint unreachable after %d tries", netErr.tries)
		}
		return errorf("openai: %w", err)
	}
	if status == http.StatusTooManyRequests || status >= 500 {
		return realm.Errorf(realm.EUnavailable, "embeddings endpoint unavailable: HTTP %d after %d tries", status, o.retry.tries)
	}
	return errorf("openai: HTTP %d: %w", status, err)
}

// retryTransport retries requests answered with 429 or 5xx, or lost to a network error or
// the per-attempt timeout, waiting Retry-After when the server gives one and an
// exponential backoff otherwise. It sits under go-openai because only here are the
// response headers visible.
type retryTransport struct {
	base    http.RoundTripper
	tries   int
	timeout time.Duration
	backoff time.Duration
	sleep   func(ctx context.Context, d time.Duration) error
}

// transportError is a network failure that outlasted every try.
type transportError struct {
	tries int
	err   error
}

func (e *transportError) Error() string {
	return fmt.Sprintf("after %d tries: %v", e.tries, e.err)
}
func (e *transportError) Unwrap() error { return e.err }

func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		var err error
		body, err = io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
	}
	wait := t.backoff
	for attempt := 1; ; attempt++ {
		ctx, cancel := context.WithTimeout(req.Context(), t.timeout)
		try := req.Clone(ctx)
		try.Body = io.NopCloser(bytes.NewReader(body))
		resp, err := t.base.RoundTrip(try)
		if req.Context().Err() != nil {
			cancel()
			if resp != nil {
				resp.Body.Close()
			}
			return nil, req.Context().Err()
		}
		retryable := err != nil || resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500
		if !retryable || attempt >= t.tries {
			if err != nil {
				cancel()
				return nil, &transportError{tries: attempt, err: err}
			}
			// The attempt's timeout must outlive RoundTrip until the body has been read.
			resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
			return resp, nil
		}
		d := wait
		if resp != nil {
			if ra, ok := retryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
				d = ra
			}
			io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16)) // lets the connection be reused
			resp.Body.Close()
		}
		cancel()
		if err := t.sleep(req.Context(), min(d, maxRetryWait)); err != nil {
			return nil, err
		}
		wait *= 2
	}
}

// retryAfter parses a Retry-After header: delay seconds or an HTTP date.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second, true
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(at.Sub(now), 0), true
	}
	return 0, false
}

type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}
