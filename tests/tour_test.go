package tests

import (
	"net/http"
	"strings"
	"testing"
)

// TestTour walks REALM's life cycle through HTTP on the real binary: probes and the
// explorer's page without a key, the API only with one; remember a conversation, recall,
// read the trace, send feedback, find its edits in the log and revert them, export the
// space and import it elsewhere, forget a memory, erase the space.
func TestTour(t *testing.T) {
	srv := startRealm(t, nil)
	space := srv.newSpace()
	sp := "/v1/spaces/" + space

	t.Run("Public", func(t *testing.T) {
		for _, path := range []string{"/healthz", "/readyz", "/openapi.yaml", "/ui/"} {
			if code := srv.doWithKey("", "GET", path, nil, nil); code != http.StatusOK {
				t.Errorf("GET %s without a key: %d", path, code)
			}
		}
		if code := srv.doWithKey("", "GET", "/v1/info", nil, nil); code != http.StatusUnauthorized {
			t.Errorf("GET /v1/info without a key: %d, want 401", code)
		}
		if code := srv.do("GET", "/v1/info", nil, nil); code != http.StatusOK {
			t.Errorf("GET /v1/info with the key: %d", code)
		}
	})

	srv.seed(space)
	var stats struct {
		Memories, Observations int
		Reconsolidation        struct{ Reverted int }
	}
	if srv.do("GET", sp+"/stats", nil, &stats); stats.Memories == 0 || stats.Observations != 12 {
		t.Fatalf("after seeding: %+v", stats)
	}

	var rec struct {
		TraceID string `json:"trace_id"`
		Nodes   []struct {
			Node  struct{ ID, Content string }
			Score float64
		}
	}
	if code := srv.do("POST", sp+"/recall", map[string]any{"query": "What did Tomas finish in Lisbon?"}, &rec); code != http.StatusOK || len(rec.Nodes) < 2 {
		t.Fatalf("recall: %d, %d nodes", code, len(rec.Nodes))
	}
	found := false
	for _, n := range rec.Nodes {
		found = found || strings.Contains(n.Node.Content, "half marathon")
	}
	if !found {
		t.Errorf("the recall misses the half marathon: %+v", rec.Nodes)
	}
	var trace struct{ Scores []struct{ ID string } }
	if code := srv.do("GET", sp+"/traces/"+rec.TraceID, nil, &trace); code != http.StatusOK || len(trace.Scores) != len(rec.Nodes) {
		t.Errorf("trace: %d, %d scores for %d nodes", code, len(trace.Scores), len(rec.Nodes))
	}

	t.Run("FeedbackRevert", func(t *testing.T) {
		var fb struct{ Edits []struct{ ID string } }
		body := map[string]any{"correct": true, "useful_node_ids": []string{rec.Nodes[0].Node.ID, rec.Nodes[1].Node.ID}}
		if code := srv.do("POST", sp+"/traces/"+rec.TraceID+"/feedback", body, &fb); code != http.StatusOK || len(fb.Edits) == 0 {
			t.Fatalf("feedback: %d, %d edits", code, len(fb.Edits))
		}
		var log struct{ Edits []struct{ ID string } }
		if srv.do("GET", sp+"/edits?trace="+rec.TraceID, nil, &log); len(log.Edits) != len(fb.Edits) {
			t.Fatalf("%d edits logged, %d applied", len(log.Edits), len(fb.Edits))
		}
		var rev struct{ Reverted []struct{ ID string } }
		if code := srv.do("POST", sp+"/edits/"+fb.Edits[0].ID+"/revert", nil, &rev); code != http.StatusOK || len(rev.Reverted) != len(fb.Edits) {
			t.Fatalf("revert: %d, %d of %d edits", code, len(rev.Reverted), len(fb.Edits))
		}
		if srv.do("GET", sp+"/stats", nil, &stats); stats.Reconsolidation.Reverted != len(fb.Edits) {
			t.Errorf("stats count %d reverted edits, want %d", stats.Reconsolidation.Reverted, len(fb.Edits))
		}
	})

	t.Run("ExportImport", func(t *testing.T) {
		code, _, export := srv.send(srv.Key, "GET", sp+"/export", "", nil)
		if code != http.StatusOK {
			t.Fatalf("export: %d", code)
		}
		copySpace := srv.newSpace()
		if code, _, answer := srv.send(srv.Key, "POST", "/v1/spaces/"+copySpace+"/import", "application/x-ndjson", export); code != http.StatusCreated {
			t.Fatalf("import: %d %s", code, answer)
		}
		var copied struct{ Memories, Observations int }
		if srv.do("GET", "/v1/spaces/"+copySpace+"/stats", nil, &copied); copied.Memories != stats.Memories || copied.Observations != stats.Observations {
			t.Errorf("the copy holds %+v, the original %d memories, %d observations", copied, stats.Memories, stats.Observations)
		}
	})

	t.Run("ForgetErase", func(t *testing.T) {
		id := rec.Nodes[0].Node.ID
		if code := srv.do("DELETE", sp+"/memories/"+id, nil, nil); code != http.StatusNoContent {
			t.Fatalf("forget: %d", code)
		}
		if code := srv.do("GET", sp+"/memories/"+id, nil, nil); code != http.StatusNotFound {
			t.Errorf("a forgotten memory reads %d", code)
		}
		if code := srv.do("DELETE", sp, nil, nil); code != http.StatusOK {
			t.Fatalf("erase: %d", code)
		}
		if code := srv.do("GET", sp+"/stats", nil, nil); code != http.StatusNotFound {
			t.Errorf("the stats of an erased space: %d, want 404", code)
		}
	})
}
