package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestLoadtest runs the load generator for a few requests per client against `realm
// serve`, every exchange checked against openapi.yaml: the counts add up, the mix is the
// one documented, nothing failed, and the run's spaces are gone afterwards.
func TestLoadtest(t *testing.T) {
	base := startServe(t, testEnv(nil))
	target, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	checked := httptest.NewServer(apitest.New(t).Handler(httputil.NewSingleHostReverseProxy(target)))
	t.Cleanup(checked.Close)

	const clients, requests = 3, 10
	var out bytes.Buffer
	err = run(context.Background(), []string{"realm", "loadtest", "--url", checked.URL, "--clients", fmt.Sprint(clients),
		"--requests", fmt.Sprint(requests), "--seed", "4", "--space-prefix", cyphertest.SpacePrefix + "lt-", "--json"},
		testEnv(nil), &out)
	if err != nil {
		t.Fatalf("loadtest: %v\n%s", err, out.String())
	}
	var rep loadReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("report: %v\n%s", err, out.String())
	}

	byOp := map[string]opReport{}
	sum := opReport{}
	for _, r := range rep.Ops {
		byOp[r.Op] = r
		if r.Status2xx+r.Status4xx+r.Status5xx+r.Errors != r.Requests {
			t.Errorf("%s: statuses %d+%d+%d and %d errors do not add up to %d requests", r.Op, r.Status2xx, r.Status4xx, r.Status5xx, r.Errors, r.Requests)
		}
		if r.Requests > 0 && !(r.P50 > 0 && r.P50 <= r.P95 && r.P95 <= r.P99) {
			t.Errorf("%s: percentiles p50 %.1f p95 %.1f p99 %.1f out of order", r.Op, r.P50, r.P95, r.P99)
		}
		sum.merge(&r)
	}
	if rep.Total.Requests != clients*requests || sum.Requests != rep.Total.Requests || sum.Status2xx != rep.Total.Status2xx {
		t.Errorf("total %+v, operations add up to %d requests (%d 2xx), want %d", rep.Total, sum.Requests, sum.Status2xx, clients*requests)
	}
	if rep.Total.Status2xx != rep.Total.Requests {
		t.Errorf("total %+v: every request should succeed; failures: %v %v %v", rep.Total, rep.Ops[0].Failures, rep.Ops[1].Failures, rep.Ops[2].Failures)
	}
	// Ten steps of the mix are 2 ingests, 7 recalls and a feedback, each client from its
	// own offset; the first three clients have a trace when their feedback comes.
	if byOp[opIngest].Requests != 2*clients || byOp[opRecall].Requests != 7*clients || byOp[opFeedback].Requests != clients {
		t.Errorf("mix: %d ingest, %d recall, %d feedback; want %d, %d, %d",
			byOp[opIngest].Requests, byOp[opRecall].Requests, byOp[opFeedback].Requests, 2*clients, 7*clients, clients)
	}
	if rep.Throughput <= 0 || len(rep.Spaces) != clients {
		t.Errorf("throughput %.1f, spaces %v", rep.Throughput, rep.Spaces)
	}
	store := cyphertest.MustOpen(t)
	for _, space := range rep.Spaces {
		st, err := store.Stats(context.Background(), space)
		if err != nil || st.Memories != 0 || st.Observations != 0 {
			t.Errorf("space %s after the run: %+v, %v; want it erased", space, st, err)
		}
	}

	var text bytes.Buffer
	rep.print(&text)
	for _, want := range []string{"operation", "ingest", "recall", "feedback", "total", "throughput:"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the printed report lacks %q:\n%s", want, text.String())
		}
	}
}

func TestLoadtestErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // a part of the message
	}{
		{"ErrClients", []string{"--clients", "0"}, "--clients"},
		{"ErrNoLength", []string{"--duration", "0s"}, "--duration or --requests"},
		{"ErrSeed", []string{"--seed", "0"}, "--seed"},
		{"ErrPrefix", []string{"--space-prefix", "no spaces"}, "--space-prefix"},
		{"ErrArgument", []string{"extra"}, "unexpected argument"},
		{"ErrFlag", []string{"--no-such-flag"}, "no-such-flag"},
		{"ErrNotReady", []string{"--url", "http://127.0.0.1:1", "--wait", "1ms", "--requests", "1"}, "not ready"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := run(context.Background(), append([]string{"realm", "loadtest"}, tc.args...), testEnv(nil), &out)
			if err == nil || !strings.Contains(realm.ErrorMessage(err), tc.want) {
				t.Errorf("got %v, want an error naming %q", err, tc.want)
			}
		})
	}
}
