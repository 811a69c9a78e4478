package retrieval_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/retrieval"
)

// The names of a conversation's participants, named in most memories, are left out of
// the query the read path embeds and plans; the trace keeps both. Of a name that shares a
// word with another participant's (two customers named Anna), the words that tell them
// apart stay, and find the memories of the one asked about.
func TestFocus(t *testing.T) {
	s := cyphertest.MustOpen(t)
	ctx := context.Background()
	space := cyphertest.NewSpace(t)
	t.Cleanup(func() { s.RemoveFixture(ctx, space) })
	var obs []realm.Observation
	var ids []string
	for i := range 30 {
		obs = append(obs, realm.Observation{ID: fmt.Sprintf("o%d", i), Content: "turn", ObservedAt: time.Now()})
		ids = append(ids, obs[i].ID)
	}
	if _, err := s.SaveObservations(ctx, space, "test", cyphertest.Dims, obs, cypher.Lease{Owner: "t", Until: time.Now().Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	contents := []string{"gina remember jon just do it", "jon loves the dance studio by the water",
		"anna weber lives at rosenweg 5 in munich", "anna schmidt lives at lindenstrasse 12 in hamburg"}
	vecs, _ := wordEmbedder{}.Embed(ctx, contents)
	nodes := []realm.Node{
		{ID: space + ":gina", Type: realm.Entity, Name: "Gina", Sources: ids},
		{ID: space + ":jon", Type: realm.Entity, Name: "Jon", Aliases: []string{"Jonny"}, Sources: ids[:25]},
		{ID: space + ":schmidt", Type: realm.Entity, Name: "Anna Schmidt", Sources: ids},
		{ID: space + ":weber", Type: realm.Entity, Name: "Anna Weber", Aliases: []string{"Anna"}, Sources: ids},
		{ID: space + ":a", Type: realm.Fact, Content: contents[0], Embedding: vecs[0], Sources: ids[:1]},
		{ID: space + ":b", Type: realm.Fact, Content: contents[1], Embedding: vecs[1], Sources: ids[1:2]},
		{ID: space + ":weber-lives", Type: realm.Fact, Content: contents[2], Embedding: vecs[2], Sources: ids[2:3]},
		{ID: space + ":schmidt-lives", Type: realm.Fact, Content: contents[3], Embedding: vecs[3], Sources: ids[3:4]},
	}
	if err := s.PutMemories(ctx, space, nodes, nil); err != nil {
		t.Fatal(err)
	}
	r := retrieval.New(s, wordEmbedder{}, offline.New(offline.Options{}), retrieval.DefaultOptions(), zerolog.Nop())
	tests := []struct {
		name, query, focus string
		first              string // the node ranked first, when it matters
	}{
		{"OK", "What does Jon love about Gina's dance studio?", "What does love about dance studio?", ""},
		{"Alias", "Where is Jonny's studio located?", "Where is studio located?", ""},
		{"TooLittleLeft", "Who is Gina?", "", ""},
		{"SharedName", "Where does Anna Schmidt live now?", "Where does Schmidt live now?", "schmidt-lives"},
		{"SharedNamePossessive", "Where is Anna Weber's house now?", "Where is Weber's house now?", "weber-lives"},
		{"SharedPartOnly", "Where does Anna live now?", "Where does live now?", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := r.Recall(ctx, space, realm.RecallRequest{Query: tt.query})
			if err != nil {
				t.Fatal(err)
			}
			tr, err := s.Trace(ctx, space, res.TraceID)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Query != tt.query || tr.Focus != tt.focus {
				t.Errorf("query %q focus %q, want %q", tr.Query, tr.Focus, tt.focus)
			}
			want := tt.focus
			if want == "" {
				want = tt.query
			}
			if len(tr.Plans) == 0 || tr.Plans[0].Query != want {
				t.Errorf("plans %+v, want the query %q", tr.Plans, want)
			}
			if tt.first != "" && (len(res.Nodes) == 0 || res.Nodes[0].Node.ID != space+":"+tt.first) {
				t.Errorf("nodes %v, want %s first", scores(space, res), tt.first)
			}
		})
	}
}
