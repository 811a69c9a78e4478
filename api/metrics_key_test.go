package api

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api/apitest"
)

// TestMetricsKeyRequired: /metrics is public by default, whatever key comes with it; with
// MetricsKeyRequired (REALM_METRICS_KEY_REQUIRED=true) it answers only a key with the admin
// scope on every space: none or an unknown key is 401, a key without admin 403, and so is
// a tenant's admin key, whose patterns cover its own spaces only, since the metrics are
// the whole server's.
func TestMetricsKeyRequired(t *testing.T) {
	keys, err := ParseKeys("test", `
		ops  sk-ops-0123456789abcdef  admin       *
		app  sk-app-0123456789abcdef  read,write  test_app-*
		t001 sk-t001-0123456789abcdef admin       t001,t001-*`)
	if err != nil {
		t.Fatal(err)
	}
	check := apitest.New(t)
	servers := map[bool]string{}
	for _, required := range []bool{false, true} {
		servers[required] = newTestServer(t, check, Config{Keys: keys, MetricsKeyRequired: required}).URL
	}
	tests := []struct {
		name     string
		required bool
		key      string
		status   int
		code     string
	}{
		{"PublicNoKey", false, "", http.StatusOK, ""},
		{"PublicUnknownKey", false, "sk-unknown-0123456789", http.StatusOK, ""},
		{"PublicReadWriteKey", false, "sk-app-0123456789abcdef", http.StatusOK, ""},
		{"RequiredAdminKey", true, "sk-ops-0123456789abcdef", http.StatusOK, ""},
		{"ErrRequiredNoKey", true, "", http.StatusUnauthorized, realm.EUnauthorized},
		{"ErrRequiredUnknownKey", true, "sk-unknown-0123456789", http.StatusUnauthorized, realm.EUnauthorized},
		{"ErrRequiredReadWriteKey", true, "sk-app-0123456789abcdef", http.StatusForbidden, realm.EForbidden},
		{"ErrRequiredTenantAdminKey", true, "sk-t001-0123456789abcdef", http.StatusForbidden, realm.EForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, servers[tt.required]+"/metrics", nil)
			if err != nil {
				t.Fatal(err)
			}
			if tt.key != "" {
				req.Header.Set("Authorization", "Bearer "+tt.key)
			}
			resp, err := check.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body := new(strings.Builder)
			if _, err := io.Copy(body, resp.Body); err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %.300s", resp.StatusCode, tt.status, body)
			}
			if tt.status == http.StatusOK {
				if !strings.Contains(body.String(), "realm_http_requests_in_flight") {
					t.Errorf("no metrics in the body: %.300s", body)
				}
				return
			}
			if !strings.Contains(body.String(), `"code":"`+tt.code+`"`) || strings.Contains(body.String(), "realm_http") {
				t.Errorf("want a %s problem and no metrics: %.300s", tt.code, body)
			}
			if (tt.status == http.StatusUnauthorized) != (resp.Header.Get("WWW-Authenticate") != "") {
				t.Errorf("WWW-Authenticate %q with status %d", resp.Header.Get("WWW-Authenticate"), tt.status)
			}
		})
	}
}
