package tests

import (
	"net/http"
	"testing"
)

// TestTenancy: on the real binary with several keys, each key reaches its own spaces
// only. Another tenant's space answers 404, as a space that does not exist, for every
// kind of request; a missing scope in the key's own space answers 403; a missing or
// unknown key 401.
func TestTenancy(t *testing.T) {
	// Two spaces, filled through the admin key; alice may read and write the first, bob
	// only read the second.
	const alice, bob = "sk-alice-e2e-0123456789abcdef", "sk-bob-e2e-0123456789abcdef"
	spaceA, spaceB := newSpaceID(t), newSpaceID(t)
	srv := startRealm(t, map[string]string{
		"REALM_API_KEYS": "alice " + alice + " read,write " + spaceA + ";bob " + bob + " read " + spaceB,
	})
	srv.eraseAtEnd(spaceA)
	srv.eraseAtEnd(spaceB)
	srv.seed(spaceA)
	msg := map[string]any{"messages": []map[string]string{{"speaker": "Bob", "content": "I keep bees.", "timestamp": "2024-06-01T09:00:00Z"}}}
	if code := srv.do("POST", "/v1/spaces/"+spaceB+"/observations", msg, nil); code != http.StatusOK {
		t.Fatalf("seeding %s: %d", spaceB, code)
	}
	var rec struct {
		TraceID string `json:"trace_id"`
		Nodes   []struct{ Node struct{ ID string } }
	}
	if code := srv.doWithKey(alice, "POST", "/v1/spaces/"+spaceA+"/recall", map[string]any{"query": "Who ran in Lisbon?"}, &rec); code != http.StatusOK || len(rec.Nodes) == 0 {
		t.Fatalf("alice's recall in her space: %d, %d nodes", code, len(rec.Nodes))
	}
	a, b := "/v1/spaces/"+spaceA, "/v1/spaces/"+spaceB
	tests := []struct {
		name, key, method, path string
		body                    any
		status                  int
	}{
		{"OwnSpace", alice, "GET", a + "/stats", nil, http.StatusOK},
		{"OwnMemory", alice, "GET", a + "/memories/" + rec.Nodes[0].Node.ID, nil, http.StatusOK},
		{"ErrOtherStats", bob, "GET", a + "/stats", nil, http.StatusNotFound},
		{"ErrOtherMemory", bob, "GET", a + "/memories/" + rec.Nodes[0].Node.ID, nil, http.StatusNotFound},
		{"ErrOtherTrace", bob, "GET", a + "/traces/" + rec.TraceID, nil, http.StatusNotFound},
		{"ErrTraceThroughOwnSpace", bob, "GET", b + "/traces/" + rec.TraceID, nil, http.StatusNotFound},
		{"ErrOtherRecall", bob, "POST", a + "/recall", map[string]any{"query": "Lisbon"}, http.StatusNotFound},
		{"ErrOtherExport", bob, "GET", a + "/export", nil, http.StatusNotFound},
		{"ErrOtherErase", alice, "DELETE", b, nil, http.StatusNotFound},
		{"ErrReadOnlyWrite", bob, "POST", b + "/observations", msg, http.StatusForbidden},
		{"ErrOtherForget", bob, "DELETE", a + "/observations/d1", nil, http.StatusNotFound},
		{"ErrReadOnlyForget", bob, "DELETE", b + "/observations/d1", nil, http.StatusForbidden},
		{"ErrEraseNeedsAdmin", alice, "DELETE", a, nil, http.StatusForbidden},
		{"ErrNoKey", "", "GET", a + "/stats", nil, http.StatusUnauthorized},
		{"ErrUnknownKey", "sk-nobody-0123456789abcdef", "GET", a + "/stats", nil, http.StatusUnauthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if code := srv.doWithKey(tt.key, tt.method, tt.path, tt.body, nil); code != tt.status {
				t.Errorf("%s %s: %d, want %d", tt.method, tt.path, code, tt.status)
			}
		})
	}
}
