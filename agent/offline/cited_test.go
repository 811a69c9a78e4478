package offline

import (
	"context"
	"testing"

	"github.com/realm-memory/realm"
)

// TestOfflineAuditCited: an answerer's citations are key evidence at the citation
// confidence, like ids the answer mentions, and do not make the audit confirmed.
func TestOfflineAuditCited(t *testing.T) {
	cfg := New(Options{}).Options().Audit
	in := auditFixture()
	in.Answer, in.Cited = "On 7 May 2023.", []string{"k"}
	out, _, err := New(Options{Audit: cfg}).Audit(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if out.Labels["k"] != realm.KeyEvidence || out.Labels["k2"] == realm.KeyEvidence {
		t.Errorf("labels %v: want k key evidence (cited), k2 not (uncited)", out.Labels)
	}
	if in.Confirmed() {
		t.Error("citations count as confirmed feedback")
	}
	strengthened := false
	for _, e := range out.Edits {
		if e.Action == realm.EditStrengthen && (e.From == "k" || e.To == "k") {
			strengthened = true
			if e.Confidence != cfg.ConfidenceCited {
				t.Errorf("edit %+v: confidence %g, want the citation confidence %g", e, e.Confidence, cfg.ConfidenceCited)
			}
		}
	}
	if !strengthened {
		t.Errorf("no edge of the cited node strengthened: %+v", out.Edits)
	}
}
