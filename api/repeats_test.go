package api

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestRepeatedReadings: a device's reading sent again (skipped: the space holds it) is
// a message the memory derives from, over HTTP and a real Neo4j, whatever the order the
// readings arrive in: GET …/observations/{id} lists the memory, a recall as of the first
// reading's time or filtered to a later reading's hour finds it, and forgetting the
// message that added it keeps what the others say.
func TestRepeatedReadings(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp := "/v1/spaces/" + cyphertest.NewSpace(t)
	reading := func(id, hour string) map[string]string {
		return map[string]string{"id": id, "session_id": "d1", "speaker": "thermostat", "role": "tool",
			"content": "Thermostat living room 21.5C", "timestamp": "2026-11-30T" + hour + ":00:00Z"}
	}
	// Received out of order, as concurrent batches arrive: r1 adds the memory.
	c.remember(sp, []map[string]string{reading("r1", "01"), reading("r2", "02"), reading("r0", "00")})
	for _, id := range []string{"r0", "r2"} {
		var doc struct{ Memories []cypher.ObservationMemory }
		if code := c.do("GET", sp+"/observations/"+id, nil, &doc).StatusCode; code != http.StatusOK || len(doc.Memories) == 0 {
			t.Errorf("GET observation %s: %d, memories %+v, want the reading's", id, code, doc.Memories)
		}
	}
	saysReading := func(what string, body map[string]any) {
		t.Helper()
		body["query"] = "living room temperature"
		var rec realm.RecallResult
		code := c.do("POST", sp+"/recall", body, &rec).StatusCode
		if code != http.StatusOK || !slices.ContainsFunc(rec.Nodes, func(n realm.RecalledNode) bool { return strings.Contains(n.Node.Content, "21.5C") }) {
			t.Errorf("recall %s: %d %s, want the reading", what, code, said(rec.Nodes))
		}
	}
	saysReading("as of 00:30", map[string]any{"time": "2026-11-30T00:30:00Z"})
	saysReading("said from 02:00 to 02:30", map[string]any{"filters": map[string]any{"said_since": "2026-11-30T02:00:00Z", "said_until": "2026-11-30T02:30:00Z"}})

	if code := c.status("DELETE", sp+"/observations/r1", nil); code != http.StatusOK {
		t.Fatalf("forget r1: %d", code)
	}
	saysReading("once r1 is forgotten", map[string]any{})
	saysReading("once r1 is forgotten, as of 00:30", map[string]any{"time": "2026-11-30T00:30:00Z"})
}
