package transfer

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestImportExportRepeats: the messages a memory derives from as a repeat keep their mark
// through an export and an import ("repeats"), and so does a message the memory let go
// of too many repeats (its "repeat_of"), which a copy gives the memory's new id; in both
// the import and the copy, forgetting the message the memory derives from brings that
// one back (it was linked to the memory: cypher.Import.Finish).
func TestImportExportRepeats(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	src, dst := cyphertest.NewSpace(t), cyphertest.NewSpace(t)
	repeats := `{"kind":"observation","props":{"attempts":0,"content":"I live in Lisbon.","id":"o3","observed_at":"2023-01-03T09:00:00Z","seq":3,"speaker":"Ana","status":"integrated"}}
{"kind":"observation","props":{"attempts":0,"content":"I live in Lisbon.","id":"o4","observed_at":"2023-01-03T10:00:00Z","repeat_of":["m2"],"seq":4,"speaker":"Ana","status":"integrated"}}
{"kind":"memory","derived_from":["o1"],"props":{"access_count":2,`
	file := strings.NewReplacer(
		"SPACE", src,
		`{"kind":"memory","derived_from":["o1"],"props":{"access_count":2,`, repeats,
		`{"kind":"memory","derived_from":["o1"],"props":{"access_count":0,`, `{"kind":"memory","derived_from":["o1","o3"],"repeats":["o3"],"props":{"access_count":0,`,
		`"seq":2,"summary"`, `"seq":4,"summary"`,
		`"observation":2,`, `"observation":4,`,
	).Replace(smallExport)
	if _, err := Import(ctx, s, src, opener(file), smallOpts); err != nil {
		t.Fatal(err)
	}
	if got := exportOf(t, s, src); got != file {
		t.Errorf("export after import:\n%s\nwant:\n%s", got, file)
	}
	if _, err := Import(ctx, s, dst, opener(file), smallOpts); err != nil {
		t.Fatal(err)
	}
	rw := rewriter{from: src, to: dst, on: true}
	if copied := exportOf(t, s, dst); !strings.Contains(copied, `"repeat_of":["`+rw.id("m2")+`"]`) || !strings.Contains(copied, `"repeats":["o3"]`) {
		t.Errorf("the copy's repeats: want o3 marked, o4 a repeat of %s:\n%s", rw.id("m2"), copied)
	}
	for _, space := range []string{src, dst} {
		deleted, err := s.DeleteObservation(ctx, space, "o1", cypher.Lease{Owner: "test", Until: time.Now().Add(time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(deleted.Trimmed, []string{"o4"}) {
			t.Errorf("%s: forgetting o1 brought back %v, want [o4] (let go by the memory it deleted)", space, deleted.Trimmed)
		}
	}
}
