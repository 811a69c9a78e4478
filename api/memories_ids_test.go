package api

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/api/apitest"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestMemoriesByID: GET …/memories?ids= lists only the space's memories among the ids,
// each once, in the list's order and pages; an id of no memory (one longer than any), or
// of another space's, finds nothing; more than 100 ids or an empty one is a 400 naming
// ids.
func TestMemoriesByID(t *testing.T) {
	srv := newTestServer(t, apitest.New(t), Config{})
	c := client{t: t, base: srv.URL}
	sp, other := "/v1/spaces/"+cyphertest.NewSpace(t), "/v1/spaces/"+cyphertest.NewSpace(t)
	said := func(id, content string) []map[string]string {
		return []map[string]string{{"id": id, "speaker": "Ana", "content": content, "timestamp": "2024-05-01T10:00:00Z"}}
	}
	c.remember(sp, said("m1", "I adopted a cat named Miso last spring."))
	c.remember(other, said("m1", "I play the cello in a quartet."))
	mine, theirs := c.memories(sp, "limit=100"), c.memories(other, "limit=100")
	if len(mine) < 2 || len(theirs) == 0 {
		t.Fatalf("%d memories here, %d in the other space; want at least 2 and 1", len(mine), len(theirs))
	}
	first, last := mine[0], mine[len(mine)-1]

	var page struct {
		Memories   []realm.Node
		NextCursor string `json:"next_cursor"`
	}
	ids := []string{last.ID, "no-such-memory", theirs[0].ID, first.ID, strings.Repeat("x", realm.MaxIDLen+1), last.ID}
	if code := c.do("GET", sp+"/memories?ids="+strings.Join(ids, ","), nil, &page).StatusCode; code != http.StatusOK {
		t.Fatalf("memories?ids=%v: %d", ids, code)
	}
	var got []string
	for _, m := range page.Memories {
		got = append(got, m.ID)
	}
	if want := []string{first.ID, last.ID}; !slices.Equal(got, want) || page.NextCursor != "" || page.Memories[0].Content != first.Content {
		t.Errorf("memories?ids=%v: %v (next cursor %q), want %v, this space's in the list's order, once each", ids, got, page.NextCursor, want)
	}
	if got := c.memories(sp, "limit=1&ids="+last.ID+","+first.ID); len(got) != 1 || got[0].ID != first.ID {
		t.Errorf("memories?limit=1&ids=: %v, want the first page, %s", got, first.ID)
	}

	many := make([]string, maxMemoryIDs+1)
	for i := range many {
		many[i] = fmt.Sprintf("m-%d", i)
	}
	for _, query := range []string{"ids=" + strings.Join(many, ","), "ids=" + first.ID + ",,x", "ids=", "ids=a&ids=b"} {
		var p problemDoc
		if code := c.do("GET", sp+"/memories?"+query, nil, &p).StatusCode; code != http.StatusBadRequest || len(p.Fields) == 0 {
			t.Errorf("memories?%.60s: %d %+v, want 400 naming the field", query, code, p)
		}
	}
	if code := c.status("GET", sp+"/memories?ids="+strings.Join(many[:maxMemoryIDs], ","), nil); code != http.StatusOK {
		t.Errorf("memories?ids= with %d ids: %d, want 200", maxMemoryIDs, code)
	}
}
