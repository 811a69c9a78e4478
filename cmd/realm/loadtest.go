package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/internal/ctxtime"
)

// Operations of the load test, and the mix every client cycles through (its own offset
// into the cycle, so that clients do not move in step): ingest 20%, recall 70%,
// feedback 10%. A fixed cycle rather than dice: short runs have the mix exactly.
const (
	opIngest   = "ingest"
	opRecall   = "recall"
	opFeedback = "feedback"
)

var loadMix = []string{opIngest, opRecall, opRecall, opRecall, opFeedback, opRecall, opIngest, opRecall, opRecall, opRecall}

// loadOptions are the flags of `realm loadtest`.
type loadOptions struct {
	URL         string
	Key         string
	Clients     int
	Duration    time.Duration
	Requests    int  // per client; 0: until Duration ends
	Shared      bool // one space for all clients instead of one each
	Seed        int  // messages ingested into each space before the timed run
	SpacePrefix string
	Keep        bool // leave the spaces in place
	Wait        time.Duration
	JSON        bool
}

// runLoadtest drives a running server with mixed traffic from concurrent clients and
// prints throughput, statuses and latency percentiles per operation. It fails when any
// request got a 5xx or no answer.
func runLoadtest(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	o := loadOptions{URL: getenv("REALM_URL")}
	if o.URL == "" {
		o.URL = "http://127.0.0.1:8080"
	}
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.StringVar(&o.URL, "url", o.URL, "server base URL (REALM_URL)")
	fs.StringVar(&o.Key, "key", "", "API key, sent as a bearer token (needs write scope; admin to erase the spaces after)")
	fs.IntVar(&o.Clients, "clients", 32, "concurrent clients")
	fs.DurationVar(&o.Duration, "duration", 60*time.Second, "how long clients send new requests (those in flight then finish)")
	fs.IntVar(&o.Requests, "requests", 0, "requests per client, instead of --duration (0: until the duration ends)")
	fs.BoolVar(&o.Shared, "shared", false, "all clients on one space (default: a space each)")
	fs.IntVar(&o.Seed, "seed", 8, "messages ingested into each space before the timed run")
	fs.StringVar(&o.SpacePrefix, "space-prefix", "loadtest-", "prefix of the spaces the run creates")
	fs.BoolVar(&o.Keep, "keep", false, "keep the spaces after the run (default: erase them)")
	fs.DurationVar(&o.Wait, "wait", time.Minute, "how long to wait for /readyz before starting")
	fs.BoolVar(&o.JSON, "json", false, "print the report as JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return realm.Errorf(realm.EInvalid, "loadtest: unexpected argument %q", fs.Arg(0))
	case o.Clients < 1:
		return realm.Errorf(realm.EInvalid, "loadtest: --clients must be at least 1")
	case o.Duration <= 0 && o.Requests <= 0:
		return realm.Errorf(realm.EInvalid, "loadtest: give a positive --duration or --requests")
	case o.Seed < 1 || o.Seed > 1000:
		return realm.Errorf(realm.EInvalid, "loadtest: --seed must be 1 to 1000")
	case !realm.ValidSpace(fmt.Sprintf("%s%08x-%d", o.SpacePrefix, 0, o.Clients)):
		return realm.Errorf(realm.EInvalid, "loadtest: --space-prefix %q: spaces must match [A-Za-z0-9_-]{1,64}", o.SpacePrefix)
	}
	o.URL = strings.TrimRight(o.URL, "/")
	rep, err := loadtest(ctx, o)
	if err != nil {
		return err
	}
	if o.JSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		rep.print(stdout)
	}
	if bad := rep.Total.Status5xx + rep.Total.Errors; bad > 0 {
		return realm.Errorf(realm.EUnavailable, "loadtest: %d of %d requests got a 5xx or no answer", bad, rep.Total.Requests)
	}
	return nil
}

// loadReport is what a run measured.
type loadReport struct {
	URL        string     `json:"url"`
	Clients    int        `json:"clients"`
	Shared     bool       `json:"shared"`
	Spaces     []string   `json:"spaces"`
	Seconds    float64    `json:"seconds"` // of the timed run
	Throughput float64    `json:"throughput"`
	Ops        []opReport `json:"operations"`
	Total      opReport   `json:"total"`
}

// opReport counts one operation's requests: by status class, errors (no answer), and
// latency percentiles in milliseconds over every answered request.
type opReport struct {
	Op        string  `json:"op"`
	Requests  int     `json:"requests"`
	Status2xx int     `json:"status_2xx"`
	Status4xx int     `json:"status_4xx"`
	Status5xx int     `json:"status_5xx"`
	Errors    int     `json:"errors"`
	P50       float64 `json:"p50_ms"`
	P95       float64 `json:"p95_ms"`
	P99       float64 `json:"p99_ms"`

	latencies []time.Duration
	Failures  []string `json:"failures,omitempty"` // the first failures (a few per client)
}

func (r *opReport) add(status int, d time.Duration, err error) {
	r.Requests++
	switch {
	case err != nil:
		r.Errors++
		if len(r.Failures) < 3 {
			r.Failures = append(r.Failures, err.Error())
		}
		return
	case status >= 500:
		r.Status5xx++
	case status >= 400:
		r.Status4xx++
	default:
		r.Status2xx++
	}
	r.latencies = append(r.latencies, d)
}

func (r *opReport) merge(o *opReport) {
	r.Requests += o.Requests
	r.Status2xx += o.Status2xx
	r.Status4xx += o.Status4xx
	r.Status5xx += o.Status5xx
	r.Errors += o.Errors
	r.latencies = append(r.latencies, o.latencies...)
	r.Failures = append(r.Failures, o.Failures...)
}

// percentiles sets P50, P95 and P99 (nearest rank).
func (r *opReport) percentiles() {
	slices.Sort(r.latencies)
	at := func(p float64) float64 {
		if len(r.latencies) == 0 {
			return 0
		}
		i := int(p*float64(len(r.latencies))+0.5) - 1
		i = min(max(i, 0), len(r.latencies)-1)
		return float64(r.latencies[i].Microseconds()) / 1000
	}
	r.P50, r.P95, r.P99 = at(0.50), at(0.95), at(0.99)
}

func (rep loadReport) print(w io.Writer) {
	space := "a space per client"
	if rep.Shared {
		space = "one shared space"
	}
	fmt.Fprintf(w, "loadtest: %d clients, %s, %.1f s against %s\n", rep.Clients, space, rep.Seconds, rep.URL)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "operation\trequests\t2xx\t4xx\t5xx\terrors\tp50 ms\tp95 ms\tp99 ms\t")
	for _, r := range append(rep.Ops, rep.Total) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%.1f\t%.1f\t%.1f\t\n", r.Op, r.Requests, r.Status2xx, r.Status4xx, r.Status5xx, r.Errors, r.P50, r.P95, r.P99)
	}
	tw.Flush()
	fmt.Fprintf(w, "throughput: %.1f requests/s\n", rep.Throughput)
	for _, r := range rep.Ops {
		for _, e := range r.Failures {
			fmt.Fprintf(w, "%s failure: %s\n", r.Op, e)
		}
	}
}

// loadClient is one simulated agent: it talks to its space, remembers its last trace.
type loadClient struct {
	o     loadOptions
	http  *http.Client
	space string
	n     int // this client's number
	step  int
	trace string
	nodes []string
	ops   map[string]*opReport
	turn  int // messages this client sent
}

// loadtest seeds the spaces, runs the clients and gathers the report.
func loadtest(ctx context.Context, o loadOptions) (loadReport, error) {
	hc := &http.Client{Timeout: 2 * time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: o.Clients + 4}}
	if err := waitReady(ctx, hc, o.URL, o.Wait); err != nil {
		return loadReport{}, err
	}
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	run := hex.EncodeToString(b)
	clients := make([]*loadClient, o.Clients)
	var spaces []string
	for i := range clients {
		space := fmt.Sprintf("%s%s-%d", o.SpacePrefix, run, i)
		if o.Shared {
			space = o.SpacePrefix + run
		}
		if i == 0 || !o.Shared {
			spaces = append(spaces, space)
		}
		clients[i] = &loadClient{o: o, http: hc, space: space, n: i, step: i, ops: map[string]*opReport{}}
	}
	defer func() {
		if !o.Keep {
			eraseSpaces(context.WithoutCancel(ctx), hc, o, spaces)
		}
	}()
	// Seed every space (concurrently, untimed), so that recalls find memories.
	var wg sync.WaitGroup
	seedErrs := make([]error, len(spaces))
	for i, space := range spaces {
		wg.Add(1)
		go func() {
			defer wg.Done()
			seeder := &loadClient{o: o, http: hc, space: space, n: 1000 + i}
			seedErrs[i] = seeder.seed(ctx)
		}()
	}
	wg.Wait()
	for _, err := range seedErrs {
		if err != nil {
			return loadReport{}, err
		}
	}

	// Past the deadline clients send nothing new but finish what they sent: a request
	// cut off would be a 500 in the server's log and metrics for a client that went away.
	start := time.Now()
	var deadline time.Time
	if o.Requests <= 0 {
		deadline = start.Add(o.Duration)
	}
	for _, c := range clients {
		wg.Add(1)
		go func() { defer wg.Done(); c.loop(ctx, deadline) }()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if err := ctx.Err(); err != nil {
		return loadReport{}, err
	}

	rep := loadReport{URL: o.URL, Clients: o.Clients, Shared: o.Shared, Spaces: spaces, Seconds: elapsed.Seconds(), Total: opReport{Op: "total"}}
	for _, op := range []string{opIngest, opRecall, opFeedback} {
		r := &opReport{Op: op}
		for _, c := range clients {
			if cr := c.ops[op]; cr != nil {
				r.merge(cr)
			}
		}
		rep.Total.merge(r)
		r.percentiles()
		rep.Ops = append(rep.Ops, *r)
	}
	rep.Total.percentiles()
	rep.Total.Failures = nil
	rep.Throughput = float64(rep.Total.Requests) / elapsed.Seconds()
	return rep, nil
}

// loop sends requests back to back, following the mix, until the deadline (when not
// zero) or until the client has sent its --requests.
func (c *loadClient) loop(ctx context.Context, deadline time.Time) {
	for i := 0; c.o.Requests <= 0 || i < c.o.Requests; i++ {
		if ctx.Err() != nil || !deadline.IsZero() && time.Now().After(deadline) {
			return
		}
		op := loadMix[c.step%len(loadMix)]
		c.step++
		if op == opFeedback && c.trace == "" {
			op = opRecall // no trace to give feedback on yet
		}
		status, d, problem, err := c.do(ctx, op)
		if ctx.Err() != nil {
			return // interrupted: not a measurement
		}
		r := c.ops[op]
		if r == nil {
			r = &opReport{Op: op}
			c.ops[op] = r
		}
		r.add(status, d, err)
		if err == nil && status >= 400 && len(r.Failures) < 3 {
			r.Failures = append(r.Failures, fmt.Sprintf("%d %s", status, problem))
		}
	}
}

// do sends one request of kind op and returns its status, latency and, for an error
// status, the problem's detail.
func (c *loadClient) do(ctx context.Context, op string) (int, time.Duration, string, error) {
	switch op {
	case opIngest:
		return c.post(ctx, "/observations", map[string]any{"messages": []map[string]string{c.message()}}, nil)
	case opFeedback:
		body := map[string]any{"correct": true}
		if len(c.nodes) > 0 {
			body["useful_node_ids"] = c.nodes[:1]
		}
		trace := c.trace
		c.trace = "" // one feedback per trace
		return c.post(ctx, "/traces/"+trace+"/feedback", body, nil)
	}
	var res struct {
		TraceID string `json:"trace_id"`
		Nodes   []struct {
			Node struct {
				ID string `json:"id"`
			} `json:"node"`
		} `json:"nodes"`
	}
	status, d, problem, err := c.post(ctx, "/recall", map[string]any{"query": c.question()}, &res)
	if err == nil && status == http.StatusOK {
		c.trace, c.nodes = res.TraceID, c.nodes[:0]
		for _, n := range res.Nodes {
			c.nodes = append(c.nodes, n.Node.ID)
		}
	}
	return status, d, problem, err
}

// post sends body as JSON to the client's space and decodes a 2xx answer into v; of
// another answer it returns the problem's code and detail.
func (c *loadClient) post(ctx context.Context, path string, body, v any) (int, time.Duration, string, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return 0, 0, "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.o.URL+"/v1/spaces/"+c.space+path, bytes.NewReader(b))
	if err != nil {
		return 0, 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	if c.o.Key != "" {
		req.Header.Set("Authorization", "Bearer "+c.o.Key)
	}
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, time.Since(start), "", err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	d := time.Since(start)
	if err != nil {
		return 0, d, "", err
	}
	if resp.StatusCode/100 != 2 {
		var p struct{ Code, Detail string }
		_ = json.Unmarshal(raw, &p)
		return resp.StatusCode, d, p.Code + ": " + p.Detail, nil
	}
	if v != nil {
		if err := json.Unmarshal(raw, v); err != nil {
			return 0, d, "", fmt.Errorf("%s: %v", path, err)
		}
	}
	return resp.StatusCode, d, "", nil
}

// seed ingests --seed messages into the client's space in one asynchronous batch and
// waits for its job to end: the server integrates at its own pace, and no request waits
// minutes for a large batch on a busy machine. A batch the server refuses because the
// key runs too many async ingestions already is sent again.
func (c *loadClient) seed(ctx context.Context) error {
	msgs := make([]map[string]string, c.o.Seed)
	for i := range msgs {
		msgs[i] = c.message()
	}
	var accepted struct {
		JobID string `json:"job_id"`
	}
	deadline := time.Now().Add(seedTimeout)
	for {
		status, _, problem, err := c.post(ctx, "/observations?async=true", map[string]any{"messages": msgs}, &accepted)
		if err != nil {
			return realm.Errorf(realm.EUnavailable, "loadtest: seeding %s: %v", c.space, err)
		}
		if status == http.StatusAccepted {
			break
		}
		// 429: the key runs as many async ingestions as the server allows
		// (REALM_MAX_ASYNC_JOBS_PER_KEY); nothing was stored, and the batch goes again
		// once one of them has ended.
		if status != http.StatusTooManyRequests || time.Now().After(deadline) {
			return realm.Errorf(realm.EUnavailable, "loadtest: seeding %s: %d %s", c.space, status, problem)
		}
		if err := ctxtime.Sleep(ctx, time.Second); err != nil {
			return err
		}
	}
	for {
		var job struct {
			Status  string `json:"status"`
			Pending int    `json:"pending"`
			Failed  int    `json:"failed"`
		}
		status, problem, err := c.get(ctx, "/v1/jobs/"+accepted.JobID, &job)
		switch {
		case err != nil:
			return realm.Errorf(realm.EUnavailable, "loadtest: seeding %s: %v", c.space, err)
		case status != http.StatusOK:
			return realm.Errorf(realm.EUnavailable, "loadtest: seeding %s: job %s: %d %s", c.space, accepted.JobID, status, problem)
		case job.Failed > 0:
			return realm.Errorf(realm.EUnavailable, "loadtest: seeding %s: %d observations failed", c.space, job.Failed)
		case job.Pending == 0 && job.Status != "running":
			return nil
		case time.Now().After(deadline):
			return realm.Errorf(realm.EUnavailable, "loadtest: seeding %s: still %d observations pending after %s", c.space, job.Pending, seedTimeout)
		}
		if err := ctxtime.Sleep(ctx, 500*time.Millisecond); err != nil {
			return err
		}
	}
}

// seedTimeout bounds the wait for the seed batches to be integrated.
const seedTimeout = 10 * time.Minute

// get reads path (from the server's root) and decodes a 200 answer into v; of another
// answer it returns the problem's code and detail.
func (c *loadClient) get(ctx context.Context, path string, v any) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.o.URL+path, nil)
	if err != nil {
		return 0, "", err
	}
	if c.o.Key != "" {
		req.Header.Set("Authorization", "Bearer "+c.o.Key)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, "", err
	}
	if resp.StatusCode != http.StatusOK {
		var p struct{ Code, Detail string }
		_ = json.Unmarshal(raw, &p)
		return resp.StatusCode, p.Code + ": " + p.Detail, nil
	}
	return resp.StatusCode, "", json.Unmarshal(raw, v)
}

// Words of the generated conversation: people doing things at places on days.
var (
	loadPeople  = []string{"Ana", "Ben", "Chloe", "Dev", "Elif", "Farid", "Grace", "Hugo"}
	loadPlaces  = []string{"Lisbon", "the market", "the library", "Porto", "the gym", "the lake", "the office", "Kyoto"}
	loadActs    = []string{"went hiking", "bought a guitar", "met an old friend", "started a pottery class", "adopted a cat", "ran a 10k race", "painted a mural", "cooked a curry"}
	loadDays    = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
	loadAskings = []string{"What did %s do at %s?", "Where did %s go on %s?", "Who %s?", "When did %s visit %s?"}
)

// message is the client's next turn of conversation, with an id of its own.
func (c *loadClient) message() map[string]string {
	k := c.turn
	c.turn++
	who := loadPeople[(c.n+k)%len(loadPeople)]
	text := fmt.Sprintf("On %s %s %s at %s.", loadDays[k%len(loadDays)], who, loadActs[(k*3+c.n)%len(loadActs)], loadPlaces[(k*5+c.n)%len(loadPlaces)])
	at := time.Date(2024, 1, 1, 9, 0, 0, 0, time.UTC).Add(time.Duration(k) * 7 * time.Hour)
	return map[string]string{
		"id": fmt.Sprintf("lt-%d-%d", c.n, k), "session_id": fmt.Sprintf("s%d", k/20), "speaker": loadPeople[(c.n+k+1)%len(loadPeople)],
		"content": text, "timestamp": at.Format(time.RFC3339),
	}
}

// question is the client's next recall query.
func (c *loadClient) question() string {
	k := c.step
	who, where := loadPeople[(c.n+k)%len(loadPeople)], loadPlaces[(k*5+c.n)%len(loadPlaces)]
	switch f := loadAskings[k%len(loadAskings)]; strings.Count(f, "%s") {
	case 1:
		return fmt.Sprintf(f, loadActs[k%len(loadActs)])
	default:
		if strings.Contains(f, "on %s") {
			return fmt.Sprintf(f, who, loadDays[k%len(loadDays)])
		}
		return fmt.Sprintf(f, who, where)
	}
}

// waitReady polls /readyz until it answers 200, for up to limit.
func waitReady(ctx context.Context, hc *http.Client, base string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/readyz", nil)
		if err != nil {
			return realm.Errorf(realm.EInvalid, "loadtest: --url %q: %v", base, err)
		}
		resp, err := hc.Do(req)
		status := 0
		if err == nil {
			status = resp.StatusCode
			resp.Body.Close()
		}
		if status == http.StatusOK {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			if err != nil {
				return realm.Errorf(realm.EUnavailable, "loadtest: %s is not ready: %v (is `make run` running?)", base, err)
			}
			return realm.Errorf(realm.EUnavailable, "loadtest: %s is not ready: /readyz answered %d", base, status)
		}
		_ = ctxtime.Sleep(ctx, 500*time.Millisecond) // a cancelled ctx ends the loop above
	}
}

// eraseSpaces deletes the run's spaces, as far as the key may (admin scope).
func eraseSpaces(ctx context.Context, hc *http.Client, o loadOptions, spaces []string) {
	for _, space := range spaces {
		req, err := http.NewRequestWithContext(ctx, http.MethodDelete, o.URL+"/v1/spaces/"+space, nil)
		if err != nil {
			continue
		}
		if o.Key != "" {
			req.Header.Set("Authorization", "Bearer "+o.Key)
		}
		resp, err := hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
	}
}
