//go:build docker

package realmtest_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/realm-memory/realm/realmtest"
)

// TestRun starts REALM and Neo4j containers (make test-containers: the images must be on
// the engine; OptionsFromEnv names others), remembers a message and recalls it through REALM's API with the key
// handed back, and checks that a request without it is refused.
func TestRun(t *testing.T) {
	r := realmtest.Run(t, realmtest.OptionsFromEnv(os.Getenv))
	post := func(key, path, body string, v any) int {
		req, err := http.NewRequest(http.MethodPost, r.URL+path, bytes.NewBufferString(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if v != nil {
			_ = json.NewDecoder(resp.Body).Decode(v)
		}
		return resp.StatusCode
	}
	msg := `{"messages": [{"id": "m1", "speaker": "Ana", "content": "I moved to Lisbon in May.", "timestamp": "2024-05-02T10:00:00Z"}]}`
	if code := post("", "/v1/spaces/demo/observations", msg, nil); code != http.StatusUnauthorized {
		t.Errorf("without the key: %d, want 401", code)
	}
	if code := post(r.Key, "/v1/spaces/demo/observations", msg, nil); code != http.StatusOK {
		t.Fatalf("remember: %d", code)
	}
	var rec struct {
		Nodes []struct{ Node struct{ Content string } }
	}
	if code := post(r.Key, "/v1/spaces/demo/recall", `{"query": "Where did Ana move?"}`, &rec); code != http.StatusOK {
		t.Fatalf("recall: %d", code)
	}
	found := false
	for _, n := range rec.Nodes {
		found = found || strings.Contains(n.Node.Content, "Lisbon")
	}
	if !found {
		t.Errorf("the recall does not return the message: %+v", rec.Nodes)
	}
}
