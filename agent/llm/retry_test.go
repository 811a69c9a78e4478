package llm

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/agent/agenttest"
)

// eventLog records what the LLM agent reports through Config.Observe.
type eventLog struct {
	mu     sync.Mutex
	events []Event
}

func (e *eventLog) observe(ev Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.events = append(e.events, ev)
}

// kinds lists the events as "kind:reason" (kind alone when there is no reason).
func (e *eventLog) kinds() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, ev := range e.events {
		s := ev.Kind
		if ev.Reason != "" {
			s += ":" + ev.Reason
		}
		out = append(out, s)
	}
	return out
}

// TestLLMRetryObserved: the fake answers with 5xx, timeouts, 429s and invalid output;
// every call, retry, invalid output and fallback is reported to Observe with its reason,
// and the decision is the model's after a transient failure, the fallback's after the
// retries are spent.
func TestLLMRetryObserved(t *testing.T) {
	valid := func(t *testing.T) agenttest.Response { return agenttest.JSON(t, validExtraction(), 120, 45) }
	tests := []struct {
		name     string
		script   func(t *testing.T) []agenttest.Response
		fallback bool
		want     []string
	}{
		{"ServerErrorThenOK", func(t *testing.T) []agenttest.Response {
			return []agenttest.Response{agenttest.Status(500), valid(t)}
		}, false, []string{"call:server_error", "retry:server_error", "call"}},
		{"TimeoutThenOK", func(t *testing.T) []agenttest.Response {
			return []agenttest.Response{{Delay: time.Minute}, valid(t)}
		}, false, []string{"call:timeout", "retry:timeout", "call"}},
		{"RateLimitedThenOK", func(t *testing.T) []agenttest.Response {
			return []agenttest.Response{agenttest.RateLimited(time.Second), valid(t)}
		}, false, []string{"call:rate_limited", "retry:rate_limited", "call"}},
		{"ServerErrorsExhaustRetries", func(t *testing.T) []agenttest.Response {
			return []agenttest.Response{agenttest.Status(502), agenttest.Status(503), agenttest.Status(500)}
		}, true, []string{"call:server_error", "retry:server_error", "call:server_error", "retry:server_error", "call:server_error", "fallback"}},
		{"TimeoutsRetriedOnce", func(t *testing.T) []agenttest.Response {
			return []agenttest.Response{{Delay: time.Minute}, {Delay: time.Minute}}
		}, true, []string{"call:timeout", "retry:timeout", "call:timeout", "fallback"}},
		{"ClientErrorNotRetried", func(t *testing.T) []agenttest.Response {
			return []agenttest.Response{agenttest.Status(401)}
		}, true, []string{"call:client_error", "fallback"}},
		{"InvalidThenRepaired", func(t *testing.T) []agenttest.Response {
			return []agenttest.Response{agenttest.Content("not JSON", 10, 2), valid(t)}
		}, false, []string{"call", "invalid:invalid_output", "call"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log eventLog
			l := newTestLLM(t, func(c *Config) {
				c.Timeout = 100 * time.Millisecond
				c.MaxBackoff = 5 * time.Second
				c.Observe = log.observe
			})
			l.fake.Enqueue(tt.script(t)...)
			out, usage, err := l.Extract(context.Background(), agent.ExtractInput{Observation: testObservation()})
			if err != nil {
				t.Fatal(err)
			}
			if got := out.Summary == fallbackMark; got != tt.fallback {
				t.Errorf("fallback used %v, want %v", got, tt.fallback)
			}
			if got := log.kinds(); !slices.Equal(got, tt.want) {
				t.Errorf("events %v\nwant   %v", got, tt.want)
			}
			// The events add up to the usage the call returns.
			var calls, failures, prompt int
			for _, ev := range log.events {
				if ev.Stage != StageExtract {
					t.Errorf("event %+v of stage %q", ev, ev.Stage)
				}
				switch ev.Kind {
				case LLMCall:
					calls++
					prompt += ev.PromptTokens
					if ev.Reason != "" {
						failures++
					}
				case LLMInvalid:
					failures++
				case LLMFallback:
					if ev.Decisions != 1 {
						t.Errorf("fallback event %+v, want 1 decision", ev)
					}
				}
			}
			u := usage[StageExtract]
			if u.Calls != calls || u.Failures != failures || u.PromptTokens != prompt {
				t.Errorf("usage %+v, events: %d calls, %d failures, %d prompt tokens", u, calls, failures, prompt)
			}
		})
	}
}

// TestLLMRetryWait: waits grow exponentially up to MaxBackoff, each drawn from [w/2, w];
// a Retry-After is waited for (plus at most 10%) unless it exceeds MaxBackoff; the
// retries are bounded.
func TestLLMRetryWait(t *testing.T) {
	l := newTestLLM(t, func(c *Config) {
		c.Backoff, c.MaxBackoff, c.MaxRetries, c.TimeoutRetries = 100*time.Millisecond, time.Second, 6, 1
	})
	for retry, w := range []time.Duration{100, 200, 400, 800, 1000, 1000} {
		w *= time.Millisecond
		if retry >= 4 {
			w = time.Second
		}
		seen := map[time.Duration]bool{}
		for range 50 {
			got, ok := l.retryWait(ReasonServerError, retry, 0, 0)
			if !ok || got < w/2 || got > w {
				t.Fatalf("retry %d: wait %v (ok %v), want one in [%v, %v]", retry, got, ok, w/2, w)
			}
			seen[got] = true
		}
		if len(seen) < 2 {
			t.Errorf("retry %d: 50 waits all %v: no jitter", retry, w)
		}
	}
	tests := []struct {
		name       string
		reason     string
		retry      int
		timeouts   int
		retryAfter time.Duration
		ok         bool
	}{
		{"RetriesSpent", ReasonServerError, 6, 0, 0, false},
		{"SecondTimeout", ReasonTimeout, 1, 2, 0, false},
		{"FirstTimeout", ReasonTimeout, 0, 1, 0, true},
		{"ClientError", ReasonClientError, 0, 0, 0, false},
		{"Canceled", ReasonCanceled, 0, 0, 0, false},
		{"RetryAfterWithinCap", ReasonRateLimited, 0, 0, 800 * time.Millisecond, true},
		{"RetryAfterBeyondCap", ReasonRateLimited, 0, 0, 2 * time.Second, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := l.retryWait(tt.reason, tt.retry, tt.timeouts, tt.retryAfter)
			if ok != tt.ok {
				t.Fatalf("ok %v, want %v (wait %v)", ok, tt.ok, got)
			}
			if tt.retryAfter > 0 && ok && (got < tt.retryAfter || got > tt.retryAfter*11/10) {
				t.Errorf("wait %v for Retry-After %v", got, tt.retryAfter)
			}
		})
	}
}
