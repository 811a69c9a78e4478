package main

import (
	"context"
	"flag"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// REALM_TRACE_RETENTION is a duration, 720h by default, 0 to keep traces; anything else is
// a startup error naming the variable and what it wants.
func TestTraceRetentionSetting(t *testing.T) {
	tests := []struct {
		name, value string
		want        time.Duration
		printed     string
		err         bool
	}{
		{"OKDefault", "", 720 * time.Hour, "REALM_TRACE_RETENTION=720h", false},
		{"OKZeroKeepsForever", "0", 0, "REALM_TRACE_RETENTION=0", false},
		{"OKHours", "48h", 48 * time.Hour, "REALM_TRACE_RETENTION=48h", false},
		{"OKMinute", "1m", time.Minute, "REALM_TRACE_RETENTION=1m", false},
		{"ErrDays", "30d", 0, "", true},
		{"ErrNoUnit", "720", 0, "", true},
		{"ErrNegative", "-1h", 0, "", true},
		{"ErrBelowAMinute", "30s", 0, "", true},
		{"ErrWord", "forever", 0, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := loadConfig(flag.NewFlagSet("serve", flag.ContinueOnError), nil, testEnv(map[string]string{"REALM_TRACE_RETENTION": tt.value}))
			if tt.err {
				if realm.ErrorCode(err) != realm.EInvalid || !strings.Contains(err.Error(), "REALM_TRACE_RETENTION \""+tt.value+"\"") ||
					!strings.Contains(err.Error(), "720h") || !strings.Contains(err.Error(), "0 to keep") {
					t.Errorf("got %v, want an invalid error naming REALM_TRACE_RETENTION, its value and what it wants", err)
				}
				return
			}
			if err != nil || cfg.Neo4j.TraceRetention != tt.want {
				t.Fatalf("got %v %v, want %v", cfg.Neo4j.TraceRetention, err, tt.want)
			}
			var out strings.Builder
			cfg.print(&out)
			if !strings.Contains(out.String(), tt.printed+" ") && !strings.HasSuffix(strings.TrimSpace(out.String()), tt.printed) {
				t.Errorf("printed %q, want %s", out.String(), tt.printed)
			}
		})
	}
}

func TestTraceSweepInterval(t *testing.T) {
	for retention, want := range map[time.Duration]time.Duration{
		720 * time.Hour: time.Hour, 10 * time.Hour: time.Hour, 5 * time.Hour: 30 * time.Minute,
		time.Hour: 6 * time.Minute, 5 * time.Minute: time.Minute, time.Minute: time.Minute,
	} {
		if got := traceSweepInterval(retention); got != want {
			t.Errorf("retention %v: sweep every %v, want %v", retention, got, want)
		}
	}
}

// serve deletes the traces past the retention as it starts, and counts them on /metrics.
func TestServeSweepsTraces(t *testing.T) {
	store := cyphertest.MustOpen(t) // keeps every trace
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	now := time.Now().UTC()
	// Traces are stored into a space that exists: one with a message.
	obs := []realm.Observation{{ID: "o1", Speaker: "Ann", Content: "Ana lives in Lisbon.", ObservedAt: now}}
	if _, err := store.SaveObservations(ctx, space, "test:bow", 384, obs, cypher.Lease{}); err != nil {
		t.Fatal(err)
	}
	old := realm.Trace{ID: space + "-old", Space: space, Query: "what did I ask a month ago?", CreatedAt: now.Add(-48 * time.Hour)}
	young := realm.Trace{ID: space + "-young", Space: space, Query: "and yesterday?", CreatedAt: now.Add(-12 * time.Hour)}
	for _, tr := range []realm.Trace{old, young} {
		if err := store.PutTrace(ctx, tr); err != nil {
			t.Fatal(err)
		}
	}
	base := startServe(t, testEnv(map[string]string{"REALM_TRACE_RETENTION": "24h"}))
	// The count goes up once the whole sweep is done.
	waitUntil(t, time.Minute, "the sweep at start", func() bool {
		resp, err := http.Get(base + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		n, _ := metricSum(string(b), "realm_traces_expired_total")
		return n >= 1
	})
	if _, err := store.Trace(ctx, space, old.ID); realm.ErrorCode(err) != realm.ENotFound {
		t.Errorf("the trace older than the retention after the sweep: %v, want it deleted", err)
	}
	if _, err := store.Trace(ctx, space, young.ID); err != nil {
		t.Errorf("the trace younger than the retention: %v", err)
	}
}
