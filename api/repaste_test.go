package api

import (
	"strings"
	"testing"

	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// runbook is a note of several lines, short enough to be one part.
const runbook = "# Runbook: rotating the TLS certificates on the ingress\n\n" +
	"When the certificates are about to expire (we get an alert 14 days before), run:\n\n" +
	"```bash\nkubectl -n ingress-nginx create secret tls ingress-tls --cert=fullchain.pem --key=privkey.pem --dry-run=client -o yaml | kubectl apply -f -\n" +
	"kubectl -n ingress-nginx rollout restart deployment/ingress-nginx-controller\n```\n\n" +
	"Then check the new expiry date with `openssl s_client -connect app.example.com:443 </dev/null | openssl x509 -noout -enddate`.\n\n" +
	"See also https://kubernetes.github.io/ingress-nginx/user-guide/tls/ for details."

// handbook is a note long enough to be stored in parts.
var handbook = "# Office handbook\n\n" + strings.Repeat("The office opens at eight and the last one out locks the back door and switches off the coffee machine. ", 8) +
	"\n\n" + strings.Repeat("Visitors sign in at the front desk, wear a badge all day and are walked out by whoever invited them. ", 8)

// TestPastedAgain: a note pasted again under a new id on a later day, whole or in parts,
// is a repeat of what it said the first time (recall does not return its text twice); a
// line said again another day ("Front door opened") is still an event of that day.
func TestPastedAgain(t *testing.T) {
	c := client{t: t, base: newTestServer(t, apitest.New(t), Config{}).URL}
	for _, tc := range []struct {
		name, speaker, content string
		copies                 int // events and facts saying content, once sent on both days
	}{
		{"Note", "me", runbook, 1},
		{"NoteInParts", "me", handbook, 1},
		{"Line", "front door", "Front door opened", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sp := "/v1/spaces/" + cyphertest.NewSpace(t)
			c.remember(sp, []map[string]any{{"id": "a", "speaker": tc.speaker, "content": tc.content, "timestamp": "2025-11-04T09:00:00Z"}})
			before := len(c.memories(sp, "limit=100&type=event")) + len(c.memories(sp, "limit=100&type=fact"))
			c.remember(sp, []map[string]any{{"id": "b", "speaker": tc.speaker, "content": tc.content, "timestamp": "2025-11-07T18:00:00Z"}})
			said := map[string]int{}
			for _, typ := range []string{"event", "fact"} {
				for _, m := range c.memories(sp, "limit=100&type="+typ) {
					said[m.Content]++
				}
			}
			total := 0
			for content, n := range said {
				total += n
				if n > tc.copies {
					t.Errorf("%d memories say %q, want %d", n, content, tc.copies)
				}
			}
			if total != before*tc.copies {
				t.Errorf("%d events and facts after the second day, want %d (%d the first)", total, before*tc.copies, before)
			}
		})
	}
}
