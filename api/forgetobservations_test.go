package api

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// homeMessages are a household's: the thermostat's readings (t1-t4 before homeCutoff,
// t5 and t6 after it) and Sarah's words, one of them about the
// thermostat, before and after it.
var homeMessages = []map[string]string{
	{"id": "t1", "speaker": "thermostat", "content": "Living room temperature is 19.5 degrees.", "timestamp": "2026-12-01T08:00:00Z"},
	{"id": "s1", "speaker": "Sarah", "content": "I set the thermostat to 20 degrees.", "timestamp": "2026-12-01T08:05:00Z"},
	{"id": "t2", "speaker": "thermostat", "content": "Kitchen humidity is 48 percent.", "timestamp": "2026-12-02T08:00:00Z"},
	{"id": "s2", "speaker": "Sarah", "content": "Lena has her piano lesson on Thursdays at five.", "timestamp": "2026-12-02T09:00:00Z"},
	{"id": "t3", "speaker": "thermostat", "content": "Bedroom temperature is 18 degrees.", "timestamp": "2026-12-03T08:00:00Z"},
	{"id": "t4", "speaker": "thermostat", "content": "Boiler pressure is 1.4 bar.", "timestamp": "2026-12-04T08:00:00Z"},
	{"id": "t5", "speaker": "thermostat", "content": "Garage temperature is 7 degrees.", "timestamp": "2026-12-06T08:00:00Z"},
	{"id": "t6", "speaker": "thermostat", "content": "Attic humidity is 61 percent.", "timestamp": "2026-12-06T09:00:00Z"},
	{"id": "s3", "speaker": "Sarah", "content": "We are going skiing in Austria in February.", "timestamp": "2026-12-06T10:00:00Z"},
}

const homeCutoff = "2026-12-05T00:00:00Z"

// forgetObservationsDoc is DELETE …/observations's body.
type forgetObservationsDoc struct {
	DryRun bool `json:"dry_run"`
	Counts struct{ Observations, Memories int }
}

// TestForgetObservations: DELETE …/observations?speaker=&before= forgets, over HTTP and a real Neo4j,
// the thermostat's messages said before a time, each with the memories derived from it as
// DELETE …/observations/{id} deletes them: a dry run counts them and changes nothing;
// the call forgets them, and recall no longer finds them, while Sarah's messages (her
// words about the thermostat too) and memories, and the thermostat's newer messages,
// stay; the same call again forgets nothing; GET …/observations?speaker= lists a
// speaker's messages.
func TestForgetObservations(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, homeMessages)

	derived := func(id string) []string { // the memories derived from a message
		var doc observationDoc
		if code := c.do("GET", sp+"/observations/"+id, nil, &doc).StatusCode; code != http.StatusOK {
			t.Fatalf("GET observations/%s: %d", id, code)
		}
		var out []string
		for _, m := range doc.Memories {
			out = append(out, m.ID)
		}
		return out
	}
	memoryIDs := func() []string {
		var out []string
		for _, m := range c.memories(sp, "limit=500") {
			out = append(out, m.ID)
		}
		return out
	}
	sarahs := map[string][]string{}
	for _, id := range []string{"s1", "s2", "s3"} {
		if sarahs[id] = derived(id); len(sarahs[id]) == 0 {
			t.Fatalf("no memory derived from %s", id)
		}
	}
	if got := listedObservations(t, c, sp, "speaker=thermostat", 2); !slices.Equal(got, []string{"t1", "t2", "t3", "t4", "t5", "t6"}) {
		t.Errorf("GET observations?speaker=thermostat: %v", got)
	}
	if got := listedObservations(t, c, sp, "speaker=thermostat&until="+homeCutoff, 50); !slices.Equal(got, []string{"t1", "t2", "t3", "t4"}) {
		t.Errorf("GET observations?speaker=thermostat&until=: %v", got)
	}
	messagesBefore, memoriesBefore := listedObservations(t, c, sp, "", 50), memoryIDs()
	rule := "speaker=thermostat&before=" + homeCutoff
	forget := func(query string, v any) int { return c.do("DELETE", sp+"/observations?"+query, nil, v).StatusCode }

	var dry forgetObservationsDoc
	if code := forget(rule+"&dry_run=true", &dry); code != http.StatusOK {
		t.Fatalf("dry run: %d", code)
	}
	if !dry.DryRun || dry.Counts.Observations != 4 || dry.Counts.Memories == 0 {
		t.Errorf("dry run: %+v, want 4 messages and their memories", dry)
	}
	if got, mems := listedObservations(t, c, sp, "", 50), memoryIDs(); !slices.Equal(got, messagesBefore) || !slices.Equal(mems, memoriesBefore) {
		t.Errorf("the dry run changed the space: messages %v, then %v; %d memories, then %d", messagesBefore, got, len(memoriesBefore), len(mems))
	}

	var gone forgetObservationsDoc
	if code := forget(rule, &gone); code != http.StatusOK {
		t.Fatalf("forget: %d", code)
	}
	if gone.DryRun || gone.Counts != dry.Counts {
		t.Errorf("forget: %+v, want the dry run's counts %+v", gone, dry.Counts)
	}
	if got := listedObservations(t, c, sp, "", 50); !slices.Equal(got, []string{"s1", "s2", "t5", "t6", "s3"}) {
		t.Errorf("messages left: %v, want Sarah's and the thermostat's newer ones", got)
	}
	left := memoryIDs()
	for id, mems := range sarahs {
		for _, m := range mems {
			if !slices.Contains(left, m) {
				t.Errorf("memory %s of Sarah's %s is gone", m, id)
			}
		}
	}
	for _, id := range []string{"t5", "t6"} {
		if len(derived(id)) == 0 {
			t.Errorf("no memory derived from the newer reading %s", id)
		}
	}
	for _, q := range []string{"What is the living room temperature?", "What is the boiler pressure?", "What is the kitchen humidity?"} {
		for _, n := range c.recall(sp, map[string]any{"query": q, "k": 10}).Nodes {
			for _, src := range n.Node.Sources {
				if slices.Contains([]string{"t1", "t2", "t3", "t4"}, src) {
					t.Errorf("recall %q: %s, from the forgotten %s", q, n.Node.Content, src)
				}
			}
			for _, reading := range []string{"19.5", "48 percent", "Bedroom", "1.4 bar"} {
				if strings.Contains(n.Node.Name+" "+n.Node.Content, reading) {
					t.Errorf("recall %q: %s, what a forgotten reading said", q, n.Node.Content)
				}
			}
		}
	}
	if rec := c.recall(sp, map[string]any{"query": "Who set the thermostat to 20 degrees?", "k": 5}); !strings.Contains(said(rec.Nodes), "20 degrees") {
		t.Errorf("Sarah's words about the thermostat are not recalled: %s", said(rec.Nodes))
	}

	t.Run("RetryForgetsNothing", func(t *testing.T) {
		messages, mems := listedObservations(t, c, sp, "", 50), memoryIDs()
		var none forgetObservationsDoc
		if code := forget("speaker=Sarah&before=0001-01-01T00:00:00Z", &none); code != http.StatusOK || none.Counts.Observations != 0 {
			t.Errorf("before the year 1: %d %+v, want nothing forgotten", code, none)
		}
		var again forgetObservationsDoc
		if code := forget(rule, &again); code != http.StatusOK || again.Counts.Observations != 0 || again.Counts.Memories != 0 {
			t.Errorf("again: %d %+v, want nothing forgotten", code, again)
		}
		if got, after := listedObservations(t, c, sp, "", 50), memoryIDs(); !slices.Equal(got, messages) || !slices.Equal(after, mems) {
			t.Errorf("the retry changed the space: %v, then %v", messages, got)
		}
	})

	t.Run("ErrInvalid", func(t *testing.T) {
		for _, tt := range []struct {
			name, query, field string
		}{
			{"NoFilter", "", "speaker"},
			{"DryRunOnly", "dry_run=true", "speaker"},
			{"EmptySpeaker", "speaker=&before=" + homeCutoff, "speaker"},
			{"BlankSpeaker", "speaker=%E2%80%8E", "speaker"},
			{"LongSpeaker", "speaker=" + strings.Repeat("x", maxNameLen+1), "speaker"},
			{"SpeakerTwice", "speaker=thermostat&speaker=Sarah", "speaker"},
			{"EmptyBefore", "before=", "before"},
			{"BeforeNotTime", "before=last%20week", "before"},
			{"BeforeOutOfRange", "before=0000-01-01T00:00:00Z", "before"},
			{"DryRunNotBool", "speaker=thermostat&dry_run=yes", "dry_run"},
			{"UnknownParameter", "about=thermostat", "about"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				var p problemDoc
				if code := forget(tt.query, &p); code != http.StatusBadRequest || p.Code != "invalid" || p.Fields[tt.field] == "" {
					t.Errorf("%d %+v, want 400 invalid naming %s", code, p, tt.field)
				}
			})
		}
		if got := listedObservations(t, c, sp, "", 50); !slices.Equal(got, []string{"s1", "s2", "t5", "t6", "s3"}) {
			t.Errorf("a refused call changed the space: %v", got)
		}
		var p problemDoc
		if code := c.do("GET", sp+"/observations?speaker=", nil, &p).StatusCode; code != http.StatusBadRequest || p.Fields["speaker"] == "" {
			t.Errorf("GET observations?speaker=: %d %+v, want 400 naming speaker", code, p)
		}
	})

	t.Run("ErrNotFound", func(t *testing.T) {
		var p problemDoc
		if code := c.do("DELETE", fmt.Sprintf("/v1/spaces/%s-none/observations?%s", space, rule), nil, &p).StatusCode; code != http.StatusNotFound || p.Code != "not_found" {
			t.Errorf("a space that does not exist: %d %+v", code, p)
		}
	})
}

// TestMCPForgetMessages: the MCP tool forget_messages is DELETE …/observations: the
// same validation (tool errors naming the field), the same dry run and the same answer
// (the route's documented schema), and it forgets the messages as the route does.
func TestMCPForgetMessages(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	cs := mustConnectMCP(t, srv.URL, "")
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, homeMessages)

	for _, tt := range []struct {
		name  string
		args  map[string]any
		field string
	}{
		{"ErrNoFilter", map[string]any{"space": space, "dry_run": true}, "speaker"},
		{"ErrEmptySpeaker", map[string]any{"space": space, "speaker": ""}, "speaker"},
		{"ErrNUL", map[string]any{"space": space, "speaker": "thermo\x00stat"}, "speaker"},
		{"ErrBefore", map[string]any{"space": space, "before": "last week"}, "before"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := callTool(t, cs, "forget_messages", tt.args)
			if fields, _ := got.out["fields"].(map[string]any); !got.isError || got.code() != "invalid" || fields[tt.field] == nil {
				t.Errorf("%+v, want the tool error invalid naming %s", got, tt.field)
			}
		})
	}

	rule := map[string]any{"space": space, "speaker": "thermostat", "before": homeCutoff, "dry_run": true}
	var httpDry, dry, gone forgetObservationsDoc
	c.do("DELETE", sp+"/observations?dry_run=true&speaker=thermostat&before="+homeCutoff, nil, &httpDry)
	got := callTool(t, cs, "forget_messages", rule)
	checkDocumented(t, "forget_messages", got)
	got.decode(t, &dry)
	if dry != httpDry || dry.Counts.Observations != 4 {
		t.Fatalf("dry run: %+v, want DELETE …/observations's %+v", dry, httpDry)
	}
	rule["dry_run"] = false
	got = callTool(t, cs, "forget_messages", rule)
	checkDocumented(t, "forget_messages", got)
	got.decode(t, &gone)
	if gone.DryRun || gone.Counts != dry.Counts {
		t.Errorf("forget_messages: %+v, want the dry run's counts %+v", gone, dry.Counts)
	}
	if got := listedObservations(t, c, sp, "", 50); !slices.Equal(got, []string{"s1", "s2", "t5", "t6", "s3"}) {
		t.Errorf("messages left: %v", got)
	}
}

// BenchmarkForgetObservations: DELETE …/observations?speaker= of a thermostat's 1,000
// readings (five rooms, a minute apart, many a repeat of another), over HTTP and a real
// Neo4j, in a space that also holds Sarah's messages, which stay: the time of the call
// (ns/op) and per message forgotten (ms/message). The readings are remembered anew,
// outside the timer, before each call.
func BenchmarkForgetObservations(b *testing.B) {
	const readings, batch = 1000, 100
	srv := newTestServer(b, nil, Config{})
	c := client{t: b, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(b)
	c.remember(sp, homeMessages[3:4]) // Sarah's
	rooms := []string{"Living room", "Kitchen", "Bedroom", "Garage", "Attic"}
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	run := 0
	for b.Loop() {
		b.StopTimer()
		for i := 0; i < readings; i += batch {
			var messages []map[string]string
			for j := i; j < i+batch; j++ {
				messages = append(messages, map[string]string{
					"id": fmt.Sprintf("r%d-%d", run, j), "speaker": "thermostat",
					"content":   fmt.Sprintf("%s temperature is %.1f degrees.", rooms[j%len(rooms)], 18+float64(j%40)/10),
					"timestamp": start.Add(time.Duration(j) * time.Minute).Format(time.RFC3339),
				})
			}
			c.remember(sp, messages)
		}
		b.StartTimer()
		var res forgetObservationsDoc
		if code := c.do("DELETE", sp+"/observations?speaker=thermostat", nil, &res).StatusCode; code != http.StatusOK || res.Counts.Observations != readings {
			b.Fatalf("forget: %d %+v", code, res)
		}
		run++
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(run*readings), "ms/message")
}
