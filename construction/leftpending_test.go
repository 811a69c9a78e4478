package construction

import (
	"testing"

	"github.com/realm-memory/realm"
)

// TestLeftPending: after an attempt that met Neo4j away, the rest of the batch is left
// pending unattempted, each result naming its own observation and the error met; an
// ordinary failure leaves the rest to be attempted.
func TestLeftPending(t *testing.T) {
	rest := []realm.Observation{{ID: "b", Seq: 2}, {ID: "c", Seq: 3}}
	failed := []Result{{ObservationID: "a", Status: StatusPending, Error: "boom"}}
	if leftPending(failed, rest, make([]Result, 2)) {
		t.Error("an ordinary failure left the rest pending")
	}
	away := []Result{{ObservationID: "a", Status: StatusPending, Error: "neo4j is unavailable", unavailable: true}}
	results := make([]Result, 2)
	if !leftPending(away, rest, results) {
		t.Fatal("an unavailable attempt did not leave the rest pending")
	}
	for k, r := range results {
		if r.ObservationID != rest[k].ID || r.Seq != rest[k].Seq || r.Status != StatusPending || r.Error != "neo4j is unavailable" || !r.unrecorded {
			t.Errorf("result %d: %+v", k, r)
		}
	}
}
