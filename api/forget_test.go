package api

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// forgetMessages are a chat in which the user says one thing (f1) they later want
// forgotten; the assistant's reply (f2) makes an exchange of it.
var forgetMessages = []map[string]string{
	{"id": "f1", "session_id": "s1", "role": "user", "content": "We adopted a dog last month: Biscuit, a beagle who loves chasing squirrels in the park.", "timestamp": "2023-05-08T10:00:00Z"},
	{"id": "f2", "session_id": "s1", "role": "assistant", "content": "That sounds lovely! How is he settling in at home?", "timestamp": "2023-05-08T10:00:30Z"},
	{"id": "f3", "session_id": "s1", "role": "user", "content": "I started learning the cello at a music school downtown.", "timestamp": "2023-05-08T10:02:00Z"},
	{"id": "f4", "session_id": "s1", "role": "user", "content": "My sister Lena is visiting from Hamburg next week.", "timestamp": "2023-05-08T10:03:00Z"},
}

// forgetWords are words only f1 says.
var forgetWords = []string{"beagle", "squirrels"}

// observationDeletedDoc is DELETE …/observations/{id}'s body.
type observationDeletedDoc struct {
	Observation     string
	MemoriesDeleted int      `json:"memories_deleted"`
	MemoryIDs       []string `json:"memory_ids"`
	Reintegrated    []struct {
		ID, Status    string
		Added, Merged []string
	}
}

// added is every memory the messages integrated again added.
func (d observationDeletedDoc) added() []string {
	var ids []string
	for _, r := range d.Reintegrated {
		ids = append(ids, r.Added...)
	}
	return ids
}

// saysAny reports whether s holds one of words, in any case.
func saysAny(s string, words []string) bool {
	s = strings.ToLower(s)
	return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(s, w) })
}

// TestDeleteObservation: DELETE …/observations/{id} forgets a message, over HTTP and a
// real Neo4j: the observation and the memories derived from it are gone from the list,
// recall (by vector and by keywords, through the caches this process holds and through
// Neo4j's indexes) and the export; the other messages' memories stay; a second delete is 404.
func TestDeleteObservation(t *testing.T) {
	var store *cypher.Store
	srv := newTestServer(t, apitest.New(t), Config{}, func(d *Deps) { store = d.Store })
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, forgetMessages)
	before := c.memories("/v1/spaces/"+space, "limit=500")
	var fromF1, others []realm.Node
	for _, m := range before {
		if slices.Contains(m.Sources, "f1") {
			fromF1 = append(fromF1, m)
		} else {
			others = append(others, m)
		}
	}
	saying := slices.ContainsFunc(fromF1, func(m realm.Node) bool {
		return (m.Type == realm.Event || m.Type == realm.Fact) && saysAny(m.Content, forgetWords)
	})
	if !saying || !slices.ContainsFunc(others, func(m realm.Node) bool { return strings.Contains(m.Content, "cello") }) {
		t.Fatalf("want an event or fact of f1 saying %v and another message's about the cello: %+v", forgetWords, before)
	}
	if !strings.Contains(string(export(t, c, space)), "beagle") {
		t.Fatal("the export does not hold f1's words before the delete")
	}
	// This process holds the space's keyword index and graph snapshot, which must follow;
	// a recall (of words f1 does not say) makes the snapshot follow ingestions too, the
	// integration anew of f2 among them.
	c.recall(sp, map[string]any{"query": "Which instrument am I learning?"})
	ctx := context.Background()
	if _, err := store.LoadKeywordIndex(ctx, space); err != nil {
		t.Fatal(err)
	}
	if g, err := store.LoadGraph(ctx, space); err != nil || g.Memories == 0 {
		t.Fatalf("graph snapshot %+v %v", g, err)
	}
	var stats struct{ Observations int }
	c.do("GET", sp+"/stats", nil, &stats)

	var got observationDeletedDoc
	if code := c.do("DELETE", sp+"/observations/f1", nil, &got).StatusCode; code != http.StatusOK {
		t.Fatalf("delete: %d %+v", code, got)
	}
	t.Run("Answer", func(t *testing.T) {
		if got.Observation != "f1" || got.MemoriesDeleted != len(got.MemoryIDs) || got.MemoriesDeleted == 0 {
			t.Fatalf("answer %+v", got)
		}
		for _, m := range fromF1 {
			deleted := slices.Contains(got.MemoryIDs, m.ID)
			switch {
			case m.Type == realm.Event || m.Type == realm.Fact:
				if !deleted {
					t.Errorf("%s %s (sources %v) stays", m.Type, m.ID, m.Sources)
				}
			case deleted && slices.ContainsFunc(m.Sources, func(s string) bool { return s != "f1" }):
				t.Errorf("%s %s deleted, yet other messages support it: %v", m.Type, m.ID, m.Sources)
			}
		}
		for _, id := range got.MemoryIDs {
			if !slices.ContainsFunc(fromF1, func(m realm.Node) bool { return m.ID == id }) {
				t.Errorf("deleted %s, not derived from f1", id)
			}
		}
	})
	// The session's episode, made by f1, its first message, still holds the session's
	// other messages together, and now derives from them.
	t.Run("EpisodeStays", func(t *testing.T) {
		i := slices.IndexFunc(before, func(m realm.Node) bool { return m.Type == realm.Episode && m.Name == "s1" })
		if i < 0 {
			t.Fatalf("no episode of s1 among %+v", before)
		}
		var doc memoryDoc
		if code := c.do("GET", sp+"/memories/"+before[i].ID, nil, &doc).StatusCode; code != http.StatusOK {
			t.Fatalf("the episode of s1: %d", code)
		}
		if len(doc.Memory.Sources) == 0 || slices.Contains(doc.Memory.Sources, "f1") {
			t.Errorf("the episode of s1 derives from %v, want the session's other messages", doc.Memory.Sources)
		}
	})
	t.Run("List", func(t *testing.T) {
		after := c.memories("/v1/spaces/"+space, "limit=500")
		for _, m := range after {
			if slices.Contains(got.MemoryIDs, m.ID) || slices.Contains(m.Sources, "f1") || saysAny(m.Content, forgetWords) {
				t.Errorf("still listed: %+v", m)
			}
		}
		for _, m := range others {
			if !slices.ContainsFunc(after, func(n realm.Node) bool { return n.ID == m.ID }) {
				t.Errorf("another message's memory is gone: %+v", m)
			}
		}
		// f2, the reply in f1's exchange, is integrated again, from its own words.
		if len(got.Reintegrated) != 1 || got.Reintegrated[0].ID != "f2" || got.Reintegrated[0].Status != "integrated" {
			t.Errorf("reintegrated %+v, want f2 integrated again", got.Reintegrated)
		}
		if len(after) != len(before)-len(got.MemoryIDs)+len(got.added()) {
			t.Errorf("%d memories, want %d less and %d more than %d", len(after), len(got.MemoryIDs), len(got.added()), len(before))
		}
		for _, id := range got.MemoryIDs {
			if code := c.status("GET", sp+"/memories/"+id, nil); code != http.StatusNotFound {
				t.Errorf("GET memory %s: %d", id, code)
			}
		}
		var now struct{ Observations int }
		c.do("GET", sp+"/stats", nil, &now)
		if now.Observations != stats.Observations-1 {
			t.Errorf("%d observations, want %d", now.Observations, stats.Observations-1)
		}
	})
	t.Run("CachesFollow", func(t *testing.T) {
		counts, err := store.SpaceCounts(ctx, space)
		if err != nil {
			t.Fatal(err)
		}
		read := func(log *cypher.StatementLog, names ...string) bool {
			return slices.ContainsFunc(log.Statements, func(st cypher.Statement) bool { return slices.Contains(names, st.Name) })
		}
		logged, log := cypher.WithStatementLog(ctx)
		seeds, err := store.SeedByFullText(logged, space, cypher.SeedQuery{Keywords: forgetWords, Limit: 20, SpaceSize: counts.InSpace, SpaceVersion: counts.Version})
		if err != nil || len(seeds) != 0 || read(log, "seed_fulltext", "memory_texts") {
			t.Errorf("keyword seeds for %v: %v %v, read by %+v; want none, from the keyword index followed", forgetWords, seedIDs(seeds), err, log.Statements)
		}
		logged, log = cypher.WithStatementLog(ctx)
		if g, err := store.LoadGraph(logged, space); err != nil || g.Memories != int(counts.InSpace) || read(log, "graph_snapshot") {
			t.Errorf("graph snapshot %+v %v, read by %+v; want the one followed, of %d memories", g, err, log.Statements, counts.InSpace)
		}
	})
	// Before any recall of the test: a trace holds its query, which says f1's words.
	t.Run("Export", func(t *testing.T) {
		body := string(export(t, c, space))
		if saysAny(body, forgetWords) || strings.Contains(body, forgetMessages[0]["content"]) {
			for _, line := range strings.Split(body, "\n") {
				if saysAny(line, forgetWords) {
					t.Errorf("the export still holds f1's words: %s", line)
				}
			}
		}
		if !strings.Contains(body, forgetMessages[2]["content"]) {
			t.Errorf("the export lost f3")
		}
	})
	t.Run("Recall", func(t *testing.T) {
		for _, q := range []string{"Biscuit the beagle chasing squirrels", "What dog did we adopt?"} {
			var rec recallDoc
			c.do("POST", sp+"/recall", map[string]any{"query": q}, &rec)
			for _, n := range rec.Nodes {
				if slices.Contains(got.MemoryIDs, n.Node.ID) || saysAny(n.Node.Content, forgetWords) {
					t.Errorf("recall %q returns %+v", q, n.Node)
				}
			}
		}
		// Neo4j's own full-text index, not the keyword index this process holds.
		seeds, err := store.SeedByFullText(ctx, space, cypher.SeedQuery{Keywords: forgetWords, Limit: 20})
		if err != nil || len(seeds) != 0 {
			t.Errorf("Neo4j's full-text seeds for %v: %v %v", forgetWords, seedIDs(seeds), err)
		}
		var rec recallDoc
		c.do("POST", sp+"/recall", map[string]any{"query": "Which instrument am I learning?"}, &rec)
		if !slices.ContainsFunc(rec.Nodes, func(n struct{ Node realm.Node }) bool { return strings.Contains(n.Node.Content, "cello") }) {
			t.Errorf("recall of the cello: %+v", rec.Nodes)
		}
	})
	t.Run("ErrAgain", func(t *testing.T) {
		var p problemDoc
		if code := c.do("DELETE", sp+"/observations/f1", nil, &p).StatusCode; code != http.StatusNotFound || p.Code != "not_found" {
			t.Errorf("second delete: %d %+v", code, p)
		}
	})
	t.Run("RememberedAgain", func(t *testing.T) {
		// Under its id, though the episode it made first stays (with the id it derived).
		var res struct {
			Results []struct{ Status, Error string }
		}
		c.do("POST", sp+"/observations", map[string]any{"messages": forgetMessages[:1]}, &res)
		if len(res.Results) != 1 || res.Results[0].Status != "integrated" {
			t.Errorf("f1 sent again: %+v", res)
		}
		if !strings.Contains(string(export(t, c, space)), "beagle") {
			t.Errorf("f1 sent again is not remembered")
		}
	})
}

// exMessages are a companion chat naming the user's ex, Daniel, in d1 to d4, which the
// user later wants forgotten. The assistant's a2 makes an exchange of d2, and the first
// mentions of Maya and Lisbon are in messages naming Daniel.
var exMessages = []map[string]string{
	{"id": "d1", "session_id": "s1", "role": "user", "content": "My ex Daniel called me yesterday and I felt sad.", "timestamp": "2023-05-08T10:00:00Z"},
	{"id": "a1", "session_id": "s1", "role": "assistant", "content": "I'm sorry to hear that. How are you feeling now?", "timestamp": "2023-05-08T10:00:30Z"},
	{"id": "u1", "session_id": "s1", "role": "user", "content": "Better. I went for a run by the river this morning.", "timestamp": "2023-05-08T10:01:00Z"},
	{"id": "a2", "session_id": "s1", "role": "assistant", "content": "What did you like most?", "timestamp": "2023-05-08T10:01:30Z"},
	{"id": "d2", "session_id": "s1", "role": "user", "content": "Daniel cooked dinner tonight, a mushroom risotto.", "timestamp": "2023-05-08T10:02:00Z"},
	{"id": "d3", "session_id": "s1", "role": "user", "content": "Daniel never liked my friend Maya.", "timestamp": "2023-05-08T10:03:00Z"},
	{"id": "u2", "session_id": "s1", "role": "user", "content": "I started pottery classes with my friend Maya.", "timestamp": "2023-05-08T10:04:00Z"},
	{"id": "d4", "session_id": "s1", "role": "user", "content": "Daniel and I broke up in March, after our trip to Lisbon.", "timestamp": "2023-05-08T10:05:00Z"},
	{"id": "u3", "session_id": "s1", "role": "user", "content": "I would love to see Lisbon again.", "timestamp": "2023-05-08T10:06:00Z"},
}

// TestForgetPerson: forgetting every message that names a person leaves no memory
// holding the name, the person's entity included, though an exchange glued a message
// that stays (a2) to one naming them; what GET …/observations/{id} says goes with each
// message is what DELETE deletes. The entities the messages that stay name (Maya,
// Lisbon, the user) stay.
func TestForgetPerson(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, exMessages)
	names := func(m realm.Node) bool {
		b, _ := json.Marshal(m)
		return saysAny(string(b), []string{"daniel"})
	}
	if !slices.ContainsFunc(c.memories(sp, "limit=500"), func(m realm.Node) bool { return m.Type == realm.Entity && names(m) }) {
		t.Fatal("no entity of Daniel before the forget")
	}
	for _, id := range []string{"d1", "d2", "d3", "d4"} {
		var doc observationDoc
		if code := c.do("GET", sp+"/observations/"+id, nil, &doc).StatusCode; code != http.StatusOK {
			t.Fatalf("get %s: %d", id, code)
		}
		var going []string
		for _, m := range doc.Memories {
			if m.DeletedWithIt {
				going = append(going, m.ID)
			}
		}
		var deleted observationDeletedDoc
		if code := c.do("DELETE", sp+"/observations/"+id, nil, &deleted).StatusCode; code != http.StatusOK {
			t.Fatalf("delete %s: %d", id, code)
		}
		slices.Sort(deleted.MemoryIDs)
		if !slices.Equal(deleted.MemoryIDs, going) {
			t.Errorf("%s: DELETE deleted %v; GET said %v would go", id, deleted.MemoryIDs, going)
		}
	}
	after := c.memories(sp, "limit=500")
	for _, m := range after {
		if names(m) {
			t.Errorf("%s %q (sources %v) names Daniel", m.Type, m.Name, m.Sources)
		}
	}
	for _, name := range []string{"Maya", "Lisbon", "user"} {
		if !slices.ContainsFunc(after, func(m realm.Node) bool { return m.Type == realm.Entity && m.Name == name }) {
			t.Errorf("the entity %s, which messages that stay name, is gone", name)
		}
	}
	// Before any recall: a trace holds its query.
	for _, line := range strings.Split(string(export(t, c, space)), "\n") {
		if saysAny(line, []string{"daniel"}) {
			t.Errorf("the export names Daniel: %.160s", line)
		}
	}
	for _, q := range []string{"Who is Daniel?", "What did Daniel cook?"} {
		for _, n := range c.recall(sp, map[string]any{"query": q}).Nodes {
			if names(n.Node) {
				t.Errorf("recall %q returns %s %q", q, n.Node.Type, n.Node.Name)
			}
		}
	}
}

// TestDeleteObservationErrors: who may forget a message, and what is refused with
// nothing deleted.
func TestDeleteObservationErrors(t *testing.T) {
	space, other := cyphertest.NewSpace(t), cyphertest.NewSpace(t)
	keys, err := ParseKeys("test", "writer sk-writer-0123456789abcdef read,write "+space+
		";reader sk-reader-0123456789abcdef read "+space+";stranger sk-stranger-0123456789abcdef read,write "+other)
	if err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, apitest.New(t), Config{Keys: keys})
	c := client{t: t, base: srv.URL, key: "sk-writer-0123456789abcdef"}
	sp := "/v1/spaces/" + space
	msgs := append(slices.Clone(forgetMessages), map[string]string{
		"id": "odd id/1", "session_id": "s1", "role": "user", "content": "I keep my bike in the hallway.", "timestamp": "2023-05-08T10:04:00Z"})
	c.remember(sp, msgs)
	n := len(c.memories("/v1/spaces/"+space, "limit=500"))
	tests := []struct {
		name, key, path string
		code            int
		problem         string
	}{
		{"ErrUnknown", "", sp + "/observations/no-such-message", http.StatusNotFound, "not_found"},
		{"ErrReadScope", "sk-reader-0123456789abcdef", sp + "/observations/f1", http.StatusForbidden, "forbidden"},
		{"ErrOtherTenant", "sk-stranger-0123456789abcdef", sp + "/observations/f1", http.StatusNotFound, "not_found"},
		{"ErrNoKey", "-", sp + "/observations/f1", http.StatusUnauthorized, "unauthorized"},
		{"ErrUnknownSpace", "", "/v1/spaces/" + cyphertest.NewSpace(t) + "/observations/f1", http.StatusNotFound, "not_found"},
		{"ErrBadSpace", "", "/v1/spaces/bad.space/observations/f1", http.StatusBadRequest, "invalid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cc := c
			switch tt.key {
			case "":
			case "-":
				cc.key = ""
			default:
				cc.key = tt.key
			}
			var p problemDoc
			if code := cc.do("DELETE", tt.path, nil, &p).StatusCode; code != tt.code || p.Code != tt.problem {
				t.Errorf("%d %+v, want %d %s", code, p, tt.code, tt.problem)
			}
		})
	}
	if after := len(c.memories("/v1/spaces/"+space, "limit=500")); after != n {
		t.Fatalf("refused deletes deleted memories: %d of %d left", after, n)
	}
	t.Run("EscapedID", func(t *testing.T) {
		var got observationDeletedDoc
		if code := c.do("DELETE", sp+"/observations/"+url.PathEscape("odd id/1"), nil, &got).StatusCode; code != http.StatusOK || got.Observation != "odd id/1" || got.MemoriesDeleted == 0 {
			t.Errorf("%d %+v", code, got)
		}
		if body := string(export(t, c, space)); strings.Contains(body, "hallway") {
			t.Errorf("the export still holds the message: %s", cut(body))
		}
	})
}

// gatedAgent is the offline agent, whose first integration of the observation gated
// waits, once it is asked, until release is closed: an integration in flight.
type gatedAgent struct {
	agent.Agent
	gated   string
	once    sync.Once
	entered chan struct{}
	release chan struct{}
}

func (a *gatedAgent) Integrate(ctx context.Context, in agent.IntegrateInput) ([]agent.Integration, realm.Usage, error) {
	if in.Observation.ID == a.gated {
		a.once.Do(func() {
			close(a.entered)
			<-a.release
		})
	}
	return a.Agent.Integrate(ctx, in)
}

// TestDeleteObservationPending: a message forgotten while it is still pending does not
// come back: neither the integration then in flight (after the extraction, before its
// write, when the space's lock is not held) nor a later resumption of pending work
// writes anything of it.
func TestDeleteObservationPending(t *testing.T) {
	gate := &gatedAgent{Agent: offline.New(offline.Options{}), gated: "p1", entered: make(chan struct{}), release: make(chan struct{})}
	var store *cypher.Store
	var ingest *construction.Pipeline
	srv := newTestServer(t, apitest.New(t), Config{}, func(d *Deps) {
		store = d.Store
		ingest = construction.New(d.Store, gate, embedder, construction.Options{}, zerolog.Nop())
		t.Cleanup(ingest.Wait)
		d.Ingest = ingest
	})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, forgetMessages)
	n := len(c.memories("/v1/spaces/"+space, "limit=500"))
	pending := map[string]string{"id": "p1", "session_id": "s1", "role": "user",
		"content": "My bank PIN is hidden under the flowerpot on the balcony.", "timestamp": "2023-05-08T10:05:00Z"}

	type ingested struct {
		Results []struct {
			ID, Status, Error string
			Added             []string
		}
	}
	done := make(chan ingested)
	go func() {
		var res ingested
		c.do("POST", sp+"/observations", map[string]any{"messages": []map[string]string{pending}}, &res)
		done <- res
	}()
	select {
	case <-gate.entered:
	case res := <-done:
		t.Fatalf("the ingestion ended without integrating p1: %+v", res)
	}
	var stats struct {
		ObservationsPending int `json:"observations_pending"`
	}
	c.do("GET", sp+"/stats", nil, &stats)
	if stats.ObservationsPending != 1 {
		t.Errorf("%d observations pending, want p1", stats.ObservationsPending)
	}
	var got observationDeletedDoc
	code := c.do("DELETE", sp+"/observations/p1", nil, &got).StatusCode
	close(gate.release)
	res := <-done
	if code != http.StatusOK || got.Observation != "p1" || got.MemoriesDeleted != 0 {
		t.Fatalf("delete of the pending p1: %d %+v", code, got)
	}
	if len(res.Results) != 1 || res.Results[0].Status != "forgotten" || len(res.Results[0].Added) > 0 {
		t.Errorf("the ingestion in flight: %+v, want p1 forgotten, nothing added", res)
	}
	if resumed, err := ingest.ResumePendingSpace(context.Background(), space); err != nil || resumed != 0 {
		t.Errorf("resumed %d, %v", resumed, err)
	}
	for _, m := range c.memories("/v1/spaces/"+space, "limit=500") {
		if slices.Contains(m.Sources, "p1") || strings.Contains(strings.ToLower(m.Content), "flowerpot") {
			t.Errorf("a memory of p1: %+v", m)
		}
	}
	if after := len(c.memories("/v1/spaces/"+space, "limit=500")); after != n {
		t.Errorf("%d memories, want the %d before p1", after, n)
	}
	if body := string(export(t, c, space)); strings.Contains(body, "flowerpot") {
		t.Errorf("the export holds p1: %s", cut(body))
	}
	c.do("GET", sp+"/stats", nil, &stats)
	if stats.ObservationsPending != 0 {
		t.Errorf("%d observations pending", stats.ObservationsPending)
	}
	if seeds, err := store.SeedByFullText(context.Background(), space, cypher.SeedQuery{Keywords: []string{"flowerpot", "balcony"}, Limit: 5}); err != nil || len(seeds) != 0 {
		t.Errorf("full-text seeds for p1's words: %v %v", seedIDs(seeds), err)
	}
	var p problemDoc
	if code := c.do("DELETE", sp+"/observations/p1", nil, &p).StatusCode; code != http.StatusNotFound {
		t.Errorf("second delete: %d %+v", code, p)
	}
}

// TestMCPForgetMessage: the forget tool with observation_id forgets a message as
// DELETE …/observations/{id} does, the source a recalled memory names being its id; it
// takes exactly one of memory_id and observation_id.
func TestMCPForgetMessage(t *testing.T) {
	chat := make([]map[string]any, len(forgetMessages))
	for i, m := range forgetMessages {
		chat[i] = map[string]any{}
		for k, v := range m {
			if k == "role" { // the remember tool names who spoke by speaker only
				k = "speaker"
			}
			chat[i][k] = v
		}
	}
	cs, space := rememberedChat(t, chat)
	query := map[string]any{"space": space, "query": "Which dog did we adopt? Biscuit the beagle", "k": 10}
	var source string
	for _, n := range recalledNodes(t, cs, query) {
		if saysAny(n.Content, forgetWords) && len(n.Sources) > 0 {
			source = n.Sources[0]
			break
		}
	}
	if source != "f1" {
		t.Fatalf("no recalled memory of f1 names its source: %q", source)
	}
	for _, tt := range []struct {
		name string
		args map[string]any
		text string
	}{
		{"ErrNone", map[string]any{"space": space}, "memory_id: required (or observation_id)"},
		{"ErrBoth", map[string]any{"space": space, "memory_id": "x", "observation_id": source}, "observation_id: give memory_id or observation_id, not both"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := callTool(t, cs, "forget", tt.args); !got.isError || got.code() != "invalid" || !strings.Contains(got.text, tt.text) {
				t.Errorf("%+v", got)
			}
		})
	}
	got := callTool(t, cs, "forget", map[string]any{"space": space, "observation_id": source})
	var res struct {
		Forgotten    string
		MemoryIDs    []string `json:"memory_ids"`
		Reintegrated []struct{ ID, Status string }
	}
	got.decode(t, &res)
	if got.isError || res.Forgotten != source || len(res.MemoryIDs) == 0 {
		t.Fatalf("forget f1: %+v", got)
	}
	if len(res.Reintegrated) != 1 || res.Reintegrated[0].ID != "f2" || res.Reintegrated[0].Status != "integrated" {
		t.Errorf("reintegrated %+v, want f2, the reply in f1's exchange, integrated again", res.Reintegrated)
	}
	for _, n := range recalledNodes(t, cs, query) {
		if slices.Contains(res.MemoryIDs, n.ID) || saysAny(n.Content, forgetWords) || slices.Contains(n.Sources, source) {
			t.Errorf("a later recall returns %+v", n)
		}
	}
	if got := callTool(t, cs, "forget", map[string]any{"space": space, "observation_id": source}); !got.isError || got.code() != "not_found" {
		t.Errorf("forgetting f1 twice: %+v", got)
	}
}

// anaSaid is a message Ana said in session s1.
func anaSaid(id, content, at string) map[string]string {
	return map[string]string{"id": id, "session_id": "s1", "speaker": "Ana", "content": content, "timestamp": at}
}

// TestForgetObservationRestoresValidity: forgetting the message that told of a change
// deletes the newer version it made, and the memory it superseded holds again.
func TestForgetObservationRestoresValidity(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, []map[string]string{anaSaid("h1", "I live in Lisbon.", "2024-05-01T10:00:00Z")})
	c.remember(sp, []map[string]string{anaSaid("h2", "I moved to Berlin last month.", "2024-09-01T10:00:00Z")})
	memories := c.memories(sp, "limit=100")
	var ended []string
	for _, m := range memories {
		if m.ValidUntil != nil && slices.Equal(m.Sources, []string{"h1"}) {
			ended = append(ended, m.ID)
		}
	}
	if len(ended) == 0 {
		t.Fatalf("no memory of h1 superseded by the move: %+v", memories)
	}
	if code := c.status("DELETE", sp+"/observations/h2", nil); code != http.StatusOK && code != http.StatusNoContent {
		t.Fatalf("forget h2: %d", code)
	}
	for _, id := range ended {
		var doc memoryDoc
		c.do("GET", sp+"/memories/"+id, nil, &doc)
		if doc.Memory.ValidUntil != nil || doc.Memory.SupersededAt != nil {
			t.Errorf("memory %s %q after its newer version's message was forgotten: valid until %v; want it to hold", id, doc.Memory.Content, doc.Memory.ValidUntil)
		}
	}
}

// TestForgetKeepsWhatOthersSaid: a fact two messages said, merged into one memory, goes
// with the one forgotten, and the message that stays is integrated again before the
// answer: the fact comes back from it alone, listed and recalled, with no word only the
// forgotten message said.
func TestForgetKeepsWhatOthersSaid(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	c.remember(sp, []map[string]string{anaSaid("p1", "I am allergic to penicillin.", "2024-05-01T10:00:00Z")})
	c.remember(sp, []map[string]string{anaSaid("p2", "Reminder: I am allergic to penicillin.", "2024-05-01T10:05:00Z")})
	allergy := func(m realm.Node) bool {
		return (m.Type == realm.Event || m.Type == realm.Fact) && strings.Contains(strings.ToLower(m.Content), "penicillin")
	}
	before := c.memories(sp, "limit=100")
	i := slices.IndexFunc(before, allergy)
	if i < 0 || !slices.Contains(before[i].Sources, "p1") || !slices.Contains(before[i].Sources, "p2") {
		t.Fatalf("want the allergy merged from p1 and p2: %+v", before)
	}

	var got observationDeletedDoc
	if code := c.do("DELETE", sp+"/observations/p2", nil, &got).StatusCode; code != http.StatusOK {
		t.Fatalf("delete: %d %+v", code, got)
	}
	if !slices.Contains(got.MemoryIDs, before[i].ID) {
		t.Errorf("the merged allergy %s is not deleted: %+v", before[i].ID, got)
	}
	after := c.memories(sp, "limit=100")
	j := slices.IndexFunc(after, allergy)
	if j < 0 || !slices.Equal(after[j].Sources, []string{"p1"}) {
		t.Errorf("want the allergy listed from p1 alone: %+v", after)
	}
	if len(got.Reintegrated) != 1 || got.Reintegrated[0].ID != "p1" || got.Reintegrated[0].Status != "integrated" {
		t.Errorf("reintegrated %+v, want p1 integrated again", got.Reintegrated)
	} else if j >= 0 && !slices.Contains(got.Reintegrated[0].Added, after[j].ID) {
		t.Errorf("the allergy %s is not among what p1 added again: %+v", after[j].ID, got.Reintegrated[0])
	}
	for _, m := range after {
		if slices.Contains(m.Sources, "p2") || saysAny(m.Name+" "+m.Content+" "+strings.Join(m.Keywords, " "), []string{"reminder"}) {
			t.Errorf("a memory holds the forgotten message: %+v", m)
		}
	}
	rec := c.recall(sp, map[string]any{"query": "What am I allergic to?"})
	if !slices.ContainsFunc(rec.Nodes, func(n realm.RecalledNode) bool { return allergy(n.Node) }) {
		t.Errorf("recall of the allergy: %+v", rec.Nodes)
	}
	var o observationDoc
	if code := c.do("GET", sp+"/observations/p1", nil, &o).StatusCode; code != http.StatusOK || o.Observation.Status != "integrated" {
		t.Errorf("p1: %d %+v", code, o.Observation)
	}
}

// TestJobOfForgottenMessage: a job whose message was forgotten, while it ran or since,
// says so: the message's result reads forgotten, in its place, and the job counts it.
func TestJobOfForgottenMessage(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	space := cyphertest.NewSpace(t)
	sp := "/v1/spaces/" + space
	var accepted struct {
		JobID string `json:"job_id"`
	}
	if code := c.do("POST", sp+"/observations?async=true", map[string]any{"messages": forgetMessages[2:]}, &accepted).StatusCode; code != http.StatusAccepted {
		t.Fatalf("async ingest: %d", code)
	}
	c.awaitJob(accepted.JobID, nil)
	if code := c.status("DELETE", sp+"/observations/f3", nil); code != http.StatusOK {
		t.Fatalf("forget f3: %d", code)
	}
	var job struct {
		Status      string
		Total, Done int
		Forgotten   int
		Results     []struct{ ID, Status string }
	}
	c.do("GET", "/v1/jobs/"+accepted.JobID, nil, &job)
	want := []struct{ ID, Status string }{{"f3", "forgotten"}, {"f4", "integrated"}}
	if job.Status != "done" || job.Total != 2 || job.Done != 1 || job.Forgotten != 1 || !slices.Equal(job.Results, want) {
		t.Errorf("job %+v, want done with f3 forgotten and f4 integrated", job)
	}
}
