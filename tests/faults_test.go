package tests

import (
	"net/http"
	"strings"
	"testing"
)

// TestBadInputLosesNothing: on the real binary, bad requests get a clear problem (the
// fields at fault, a size limit) and write nothing; a good request afterwards works.
func TestBadInputLosesNothing(t *testing.T) {
	srv := startRealm(t, map[string]string{"REALM_MAX_BODY_BYTES": "65536"})
	space := srv.newSpace()
	sp := "/v1/spaces/" + space
	good := map[string]string{"id": "g1", "speaker": "Ana", "content": "I adopted a cat named Miso.", "timestamp": "2024-02-01T10:00:00Z"}
	type problem struct {
		Code   string
		Fields map[string]string
	}
	tests := []struct {
		name   string
		body   any
		status int
		code   string
		field  string
	}{
		{"ErrOneBadMessage", map[string]any{"messages": []map[string]string{good, {"speaker": "Ana", "content": "hi", "timestamp": "yesterday"}}},
			http.StatusBadRequest, "invalid", "messages[1].timestamp"},
		{"ErrNoSpeaker", map[string]any{"messages": []map[string]string{{"content": "hi", "timestamp": "2024-02-01T10:00:00Z"}}},
			http.StatusBadRequest, "invalid", "messages[0].speaker"},
		{"ErrTooLarge", map[string]any{"messages": []map[string]string{{"speaker": "Ana", "content": strings.Repeat("x", 70_000), "timestamp": "2024-02-01T10:00:00Z"}}},
			http.StatusRequestEntityTooLarge, "too_large", ""},
		{"ErrUnknownField", map[string]any{"messages": []map[string]string{good}, "extra": true},
			http.StatusBadRequest, "invalid", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p problem
			if code := srv.do("POST", sp+"/observations", tt.body, &p); code != tt.status || p.Code != tt.code {
				t.Fatalf("status %d %q, want %d %q", code, p.Code, tt.status, tt.code)
			}
			if tt.field != "" && p.Fields[tt.field] == "" {
				t.Errorf("fields %v lack %s", p.Fields, tt.field)
			}
		})
	}
	// Nothing refused is written, not even the space: it does not exist yet.
	var stats struct{ Memories, Observations int }
	if code := srv.do("GET", sp+"/stats", nil, &stats); code != http.StatusNotFound {
		t.Fatalf("after refused requests the space reads %d %+v, want 404", code, stats)
	}
	if code := srv.do("POST", sp+"/observations", map[string]any{"messages": []map[string]string{good}}, nil); code != http.StatusOK {
		t.Fatalf("the good message alone: %d", code)
	}
	if srv.do("GET", sp+"/stats", nil, &stats); stats.Observations != 1 || stats.Memories == 0 {
		t.Errorf("after the good message: %+v", stats)
	}
}
