package api

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// phoneMessages: the user gives a phone number, then, weeks later, a new one.
var phoneMessages = []map[string]string{
	{"id": "p1", "session_id": "s1", "role": "user", "content": "My phone number is 555-0101.", "timestamp": "2026-01-10T09:00:00Z"},
	{"id": "p2", "session_id": "s1", "role": "assistant", "content": "Got it, I will call you on that number.", "timestamp": "2026-01-10T09:01:00Z"},
	{"id": "p3", "session_id": "s2", "role": "user", "content": "My number is now 555-0199.", "timestamp": "2026-03-01T09:00:00Z"},
}

// asOfRecall is what the tests read of a recall and its trace.
type asOfRecall struct {
	recallDoc
	trace struct {
		NotYetLearned int `json:"not_yet_learned"`
		Validity      []realm.TraceValidity
	}
}

func recallAt(c client, sp, query, at string) asOfRecall {
	c.t.Helper()
	body := map[string]any{"query": query}
	if at != "" {
		body["time"] = at
	}
	var r asOfRecall
	c.do("POST", sp+"/recall", body, &r.recallDoc)
	c.do("GET", sp+"/traces/"+r.TraceID, nil, &r.trace)
	return r
}

// says is the index of the first recalled node whose content holds s (-1: none).
func (r asOfRecall) says(s string) int {
	for i, n := range r.Nodes {
		if strings.Contains(n.Node.Content, s) {
			return i
		}
	}
	return -1
}

// TestRecallAsOf: a recall with a time before now answers with what the space knew then.
// Asked between the two numbers, only the old one comes back, not demoted (it still held
// then), and the trace counts the memories left out as learned later; asked after both,
// or now, the new number comes first and the old one is demoted, as without a time.
func TestRecallAsOf(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	c.remember(sp, phoneMessages)
	const q = "What is the user's phone number?"

	then := recallAt(c, sp, q, "2026-01-15T12:00:00Z")
	if i := then.says("555-0199"); i >= 0 {
		t.Errorf("as of 2026-01-15 the number said on 2026-03-01 is recalled (node %d): %+v", i, then.Nodes)
	}
	if then.says("555-0101") < 0 {
		t.Errorf("as of 2026-01-15 the number said then is not recalled: %+v", then.Nodes)
	}
	for _, v := range then.trace.Validity {
		if v.Action == realm.ValidityDemoted {
			t.Errorf("as of 2026-01-15 a memory is demoted: %+v", v)
		}
	}
	if then.trace.NotYetLearned < 1 {
		t.Errorf("the trace counts %d memories left out as not yet learned, want at least 1", then.trace.NotYetLearned)
	}

	for _, at := range []string{"2026-03-05T12:00:00Z", ""} {
		r := recallAt(c, sp, q, at)
		if i := r.says("555-0199"); i != 0 {
			t.Errorf("time %q: the new number is node %d, want 0: %+v", at, i, r.Nodes)
		}
		if r.trace.NotYetLearned != 0 {
			t.Errorf("time %q: %d memories left out as not yet learned", at, r.trace.NotYetLearned)
		}
	}
}

// correctedContent is what the tests of valid_from correct correctable's memory to.
const correctedContent = "Ana's new colleague Marina joined the design team and sits next to Ana."

// correctionSpace serves the API and remembers correctMessages (said on 2023-05-08) in a
// new space; it returns a client, the space's path and the memory to correct (correctable).
func correctionSpace(t *testing.T) (client, string, realm.Node) {
	t.Helper()
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	c.remember("/v1/spaces/"+space, correctMessages)
	return c, "/v1/spaces/" + space, correctable(t, c, space)
}

// TestCorrectionLearnedAt: a correction is learned at its valid_from, or, without one,
// when it was made; a recall as of an earlier time does not see it. A valid_from before
// the memory it corrects became valid conflicts with it (409 naming valid_from) and writes nothing.
func TestCorrectionLearnedAt(t *testing.T) {
	c, sp, old := correctionSpace(t)

	var p problemDoc
	resp := c.do("PATCH", sp+"/memories/"+old.ID, map[string]any{"content": correctedContent, "valid_from": "2023-05-01T00:00:00Z"}, &p)
	if resp.StatusCode != http.StatusConflict || !strings.Contains(p.Detail, "valid_from") {
		t.Fatalf("valid_from before the memory began: %d %+v, want 409 naming valid_from", resp.StatusCode, p)
	}
	var still memoryDoc
	c.do("GET", sp+"/memories/"+old.ID, nil, &still)
	if still.Memory.ValidUntil != nil {
		t.Errorf("a refused correction ended the memory: valid_until %v", still.Memory.ValidUntil)
	}

	var got memoryDoc
	if resp := c.do("PATCH", sp+"/memories/"+old.ID, map[string]any{"content": correctedContent, "valid_from": "2023-06-01T00:00:00Z"}, &got); resp.StatusCode != http.StatusOK {
		t.Fatalf("correct: %d", resp.StatusCode)
	}
	if want := time.Date(2023, 6, 1, 0, 0, 0, 0, time.UTC); got.Memory.LearnedAt == nil || !got.Memory.LearnedAt.Equal(want) {
		t.Errorf("correction dated 2023-06-01 learned at %v", got.Memory.LearnedAt)
	}
	const q = "Who is Ana's new colleague?"
	if r := recallAt(c, sp, q, "2023-05-20T00:00:00Z"); r.index(got.Memory.ID) >= 0 || r.index(old.ID) < 0 {
		t.Errorf("as of 2023-05-20: correction at %d, original at %d; want the original only", r.index(got.Memory.ID), r.index(old.ID))
	}
	if r := recallAt(c, sp, q, "2023-06-10T00:00:00Z"); r.index(got.Memory.ID) < 0 {
		t.Errorf("as of 2023-06-10 the correction is not recalled: %+v", r.Nodes)
	}

	var hiking realm.Node
	for _, m := range c.memories(sp, "q=hiking&limit=50") {
		if m.Type == realm.Event || m.Type == realm.Fact {
			hiking = m
		}
	}
	before := time.Now()
	c.do("PATCH", sp+"/memories/"+hiking.ID, map[string]any{"content": "Ana loves cycling along the coast on weekends."}, &got)
	after := time.Now()
	if l := got.Memory.LearnedAt; l == nil || l.Before(before.Add(-time.Second)) || l.After(after) {
		t.Errorf("a correction without valid_from made between %v and %v: learned at %v", before, after, l)
	}
}

// TestExportImportLearnedAt: an export carries when each memory was learned and an import
// keeps it, also under another name (new ids); an export of a version that did not keep
// it is importable, its memories learned at the earliest time of their messages.
func TestExportImportLearnedAt(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	c.remember("/v1/spaces/"+space, phoneMessages)
	learned := func(space string) map[string]string {
		t.Helper()
		out := map[string]string{}
		for _, m := range c.memories("/v1/spaces/"+space, "limit=500") {
			if m.LearnedAt == nil {
				t.Errorf("space %s: memory %q has no learned_at", space, m.Content)
				continue
			}
			out[string(m.Type)+" "+m.Name+": "+m.Content] = m.LearnedAt.UTC().Format(time.RFC3339)
		}
		return out
	}
	want := learned(space)
	if len(want) < 3 || !strings.Contains(strings.Join(mapValues(want), " "), "2026-01-10T09:00:00Z") {
		t.Fatalf("memories learned: %v", want)
	}
	body := export(t, c, space)
	if !strings.Contains(string(body), `"learned_at":"2026-03-01T09:00:00`) {
		t.Fatalf("the export does not carry learned_at")
	}
	older := regexp.MustCompile(`"learned_at":"[^"]*",`).ReplaceAll(body, nil) // as exported before it was kept
	if strings.Contains(string(older), "learned_at") {
		t.Fatal("learned_at left in the older export")
	}
	for name, file := range map[string][]byte{"export": body, "older export": older} {
		copied := cyphertest.NewSpace(t)
		if code, res, p := importInto(t, c, copied, file); code != http.StatusCreated || !res.IDsRewritten {
			t.Fatalf("%s: import %d %+v %+v", name, code, res, p)
		}
		got := learned(copied)
		for k, w := range want {
			if got[k] != w {
				t.Errorf("%s: %s learned %q, want %q", name, k, got[k], w)
			}
		}
	}
}
