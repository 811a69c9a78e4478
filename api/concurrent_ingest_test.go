package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// lisbonVariants say one thing twenty ways: punctuation, fillers, a repeat. Ingested one
// after the other, in either order, they leave one event, three entities (Alice, Lisbon
// and the speaker, Bob) and the day's episode: every later variant is skipped or merged.
var lisbonVariants = []string{
	"Alice moved to Lisbon in May.",
	"Alice moved to Lisbon in May!",
	"Alice moved to Lisbon in May, you know.",
	"So, Alice moved to Lisbon in May.",
	"Alice has moved to Lisbon in May.",
	"Alice moved to Lisbon in May.",
	"Alice moved to Lisbon in May. ",
	"Alice moved to Lisbon, in May.",
	"Alice moved to Lisbon in May :)",
	"Yes, Alice moved to Lisbon in May.",
	"Alice moved over to Lisbon in May.",
	"Alice moved to Lisbon in May...",
	"Alice moved to Lisbon in May!!",
	"Alice moved to Lisbon in May, really.",
	"Oh, Alice moved to Lisbon in May.",
	"Alice moved to Lisbon in May .",
	"Well, Alice moved to Lisbon in May.",
	"Alice moved to Lisbon in May;",
	"Alice moved to  Lisbon in May.",
	"Alice moved to Lisbon in May, yes.",
}

// TestConcurrentNearDuplicates: 20 clients send the variants to one space at the same
// moment. Writes of a space are serialized by its lock in Neo4j, each integration seeing
// the ones before it, so the space ends as a sequential ingestion leaves it: one event,
// three entities and the day's episode (the messages carry no session id), with every
// observation among the entities' sources; no duplicate.
func TestConcurrentNearDuplicates(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	store := cyphertest.MustOpen(t)
	space := cyphertest.NewSpace(t)
	url := srv.URL + "/v1/spaces/" + space + "/observations"

	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, content := range lisbonVariants {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body, _ := json.Marshal(map[string]any{"messages": []map[string]string{{
				"id": fmt.Sprintf("v%02d", i), "speaker": "Bob", "content": content, "timestamp": "2023-06-01T10:00:00Z",
			}}})
			<-start
			resp, err := http.Post(url, "application/json", bytes.NewReader(body))
			if err != nil {
				t.Errorf("client %d: %v", i, err)
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			var res struct{ Results []struct{ Status string } }
			_ = json.Unmarshal(b, &res)
			if resp.StatusCode != http.StatusOK || len(res.Results) != 1 || res.Results[0].Status != "integrated" {
				t.Errorf("client %d: %d %s, want 200 and the observation integrated", i, resp.StatusCode, b)
			}
		}()
	}
	close(start)
	wg.Wait()

	memories := allMemories(t, store, space)
	var got []string
	byName := map[string]realm.Node{}
	for _, m := range memories {
		key := string(m.Type) + " " + m.Name
		if m.Type == realm.Event {
			key = "event" // its name is the first words of whichever variant came first
		}
		got = append(got, key)
		byName[key] = m
	}
	sort.Strings(got)
	want := []string{"entity Alice", "entity Bob", "entity Lisbon", "episode 2023-06-01", "event"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		for _, m := range memories {
			t.Logf("%s %q: %q from %v", m.Type, m.Name, m.Content, m.Sources)
		}
		t.Fatalf("memories %v, want %v: concurrent writes duplicated a memory", got, want)
	}
	if ev := byName["event"]; !strings.Contains(ev.Content, "Lisbon") {
		t.Errorf("the event says %q, want Alice's move to Lisbon", ev.Content)
	}
	for _, name := range []string{"entity Alice", "entity Bob", "entity Lisbon"} {
		if n := len(byName[name].Sources); n != len(lisbonVariants) {
			t.Errorf("%s derives from %d observations, want all %d", name, n, len(lisbonVariants))
		}
	}
	st, err := store.Stats(t.Context(), space)
	if err != nil {
		t.Fatal(err)
	}
	if st.Observations != int64(len(lisbonVariants)) || st.ObservationsPending != 0 {
		t.Errorf("stats %+v, want %d observations, none pending", st, len(lisbonVariants))
	}
}
