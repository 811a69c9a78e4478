package cypher

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/realm-memory/realm"
)

// TestDeleteObservation: forgetting an observation deletes, a batch at a time in one
// transaction, every event and fact derived from it (one derived from another
// observation too included) and the entities and episodes nothing else holds up; an
// entity another observation supports stays without it among its sources, an episode
// held up by another observation's fact stays and derives from that observation. The
// other observations, their memories and the edges among those stay. Then the
// observation is not found, and its memories are found by no search.
func TestDeleteObservation(t *testing.T) {
	defer func(n int) { observationDeleteBatch = n }(observationDeleteBatch)
	observationDeleteBatch = 3
	s := testStore(t, Config{})
	ctx := context.Background()
	space := fullTextSpace(t, s)
	savePending(t, s, space, 3) // o0, o1, o2
	id := func(name string) string { return space + "-" + name }
	node := func(name string, typ realm.NodeType, sources ...string) realm.Node {
		return realm.Node{ID: id(name), Type: typ, Name: name, Content: name + " said in a message", Keywords: []string{name}, Sources: sources}
	}
	apply := func(obs string, in Integration) {
		t.Helper()
		if applied, err := s.ApplyIntegration(ctx, space, obs, NeighbourQuery{}, nil, in); err != nil || !applied.Applied {
			t.Fatalf("%s: %+v %v", obs, applied, err)
		}
	}
	var gone []string
	o0 := Integration{}
	for i := range 7 {
		o0.Adds = append(o0.Adds, node(fmt.Sprint("fact", i), realm.Fact))
		gone = append(gone, id(fmt.Sprint("fact", i)))
	}
	o0.Adds = append(o0.Adds, node("ann", realm.Entity), node("lone", realm.Entity), node("session", realm.Episode))
	o0.Edges = []EdgeWrite{
		{Op: EdgeAdd, From: id("session"), To: id("fact0"), Predicate: realm.Contextualizes, Weight: 0.5, Confidence: 0.5},
		{Op: EdgeAdd, From: id("fact1"), To: id("lone"), Predicate: realm.Correlates, Weight: 0.5, Confidence: 0.5},
		{Op: EdgeAdd, From: id("ann"), To: id("lone"), Predicate: realm.Correlates, Weight: 0.5, Confidence: 0.5},
	}
	gone = append(gone, id("lone"))
	apply("o0", o0)
	apply("o1", Integration{
		Adds:   []realm.Node{node("other", realm.Fact)},
		Merges: []Merge{{ID: id("ann"), Keywords: []string{"ann"}}},
		Edges: []EdgeWrite{
			{Op: EdgeAdd, From: id("session"), To: id("other"), Predicate: realm.Contextualizes, Weight: 0.5, Confidence: 0.5},
			{Op: EdgeAdd, From: id("ann"), To: id("other"), Predicate: realm.Correlates, Weight: 0.5, Confidence: 0.5},
		},
	})
	apply("o2", Integration{Adds: []realm.Node{node("exchange", realm.Fact, "o2", "o0")}})
	gone = append(gone, id("exchange"))

	got, err := s.DeleteObservation(ctx, space, "o0", Lease{})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got.MemoryIDs)
	slices.Sort(gone)
	if got.Observation != "o0" || got.MemoriesDeleted != len(gone) || !slices.Equal(got.MemoryIDs, gone) {
		t.Errorf("deleted %+v, want %v", got, gone)
	}
	for name, want := range map[string][]string{"ann": {"o1"}, "session": {"o1"}, "other": {"o1"}} {
		n, edges, err := s.GetMemory(ctx, space, id(name))
		if err != nil || !slices.Equal(n.Sources, want) {
			t.Errorf("%s: sources %v %v, want %v", name, n.Sources, err, want)
		}
		if name == "other" && len(edges) != 3 { // correlates is symmetric: two edges
			t.Errorf("other's edges %+v, want its three", edges)
		}
	}
	for _, m := range gone {
		if _, _, err := s.GetMemory(ctx, space, m); realm.ErrorCode(err) != realm.ENotFound {
			t.Errorf("memory %s: %v", m, err)
		}
	}
	seeds, err := s.SeedByFullText(ctx, space, SeedQuery{Keywords: []string{"fact3", "lone", "exchange"}, Limit: 10})
	if err != nil || len(seeds) != 0 {
		t.Errorf("full-text seeds %v %v", len(seeds), err)
	}
	if _, err := s.Observation(ctx, space, "o0"); realm.ErrorCode(err) != realm.ENotFound {
		t.Errorf("observation o0: %v", err)
	}
	for _, o := range []string{"o1", "o2"} {
		if _, err := s.Observation(ctx, space, o); err != nil {
			t.Errorf("observation %s: %v", o, err)
		}
	}
	if _, err := s.DeleteObservation(ctx, space, "o0", Lease{}); realm.ErrorCode(err) != realm.ENotFound {
		t.Errorf("deleting o0 again: %v", err)
	}
	if _, err := s.DeleteObservation(ctx, fullTextSpace(t, s), "o1", Lease{}); realm.ErrorCode(err) != realm.ENotFound {
		t.Errorf("deleting o1 in a space without it: %v", err)
	}
}

// TestDeleteObservationNames: forgetting an observation deletes every entity derived
// from it that no message that stays names: neither another observation in its own
// provenance nor one of a related event or fact that stays says its name or an alias,
// as whole words, in any case, in its speaker or content. One held up by a related
// fact's message naming it derives from that message in the forgotten one's place; one
// whose own provenance names it keeps its sources, and only the names a message that
// stays says (the longest its name), composed or not, any white space between their
// words. GetObservation and About say the same.
func TestDeleteObservationNames(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	space := fullTextSpace(t, s)
	id := func(name string) string { return space + "-" + name }
	tests := []struct {
		entity  string
		aliases []string
		speaker string
		content string
		own     bool // the message is in the entity's own provenance, else in a related fact's
		stays   bool
		kept    []string // the names it keeps, its name first; nil: all
	}{
		{"Daniel", nil, "assistant", "What did you like most?", false, false, nil}, // an exchange's other turn
		{"Dan", nil, "Ann", "Danielle came over.", false, false, nil},
		{"Maya", nil, "Ann", "MAYA's pottery class starts today.", false, true, nil},
		{"Kat", []string{"user's sister"}, "Ann", "Yesterday user's sister called.", false, true, []string{"user's sister"}},
		{"Bo", nil, "Bo", "I called.", false, true, nil},
		{"C++", nil, "Ann", "I write C++ daily.", false, true, nil},
		{`R\E.`, nil, "Ann", `The R\E. band played.`, false, true, nil},
		{"Rex", nil, "Ann", "Good morning!", true, false, nil},
		{"Lea", nil, "Ann", "Lea came by.", true, true, nil},
		{"J\u00fcrgen", nil, "Ann", "Ju\u0308rgen came by.", true, true, nil},        // composed, said decomposed
		{"Zoe\u0308", nil, "Ann", "Z\u00f6e and Zo\u00eb called.", false, true, nil}, // decomposed, said composed
		{"Tom Becker", nil, "Ann", "Tom\u00a0Becker called.", true, true, nil},       // a no-break space
		{"Tim Ruiz", []string{"Tim", "T. R."}, "Ann", "Tim and T. R. wrote.", true, true, []string{"T. R.", "Tim"}},
		{"Eva Lind", []string{"Eva", "Evi"}, "Ann", "Evi called.", false, true, []string{"Evi"}},
	}
	obs := []realm.Observation{{ID: "o", Speaker: "Ann", Content: "said", ObservedAt: time.Date(2023, 5, 8, 13, 0, 0, 0, time.UTC)}}
	for i, tt := range tests {
		obs = append(obs, realm.Observation{ID: fmt.Sprint("p", i), Speaker: tt.speaker, Content: tt.content, ObservedAt: time.Date(2023, 5, 8, 13, i+1, 0, 0, time.UTC)})
	}
	saveObservations(t, s, space, obs)
	apply := func(obs string, in Integration) {
		t.Helper()
		if applied, err := s.ApplyIntegration(ctx, space, obs, NeighbourQuery{}, nil, in); err != nil || !applied.Applied {
			t.Fatalf("%s: %+v %v", obs, applied, err)
		}
	}
	var entities Integration
	for _, tt := range tests {
		entities.Adds = append(entities.Adds, realm.Node{ID: id(tt.entity), Type: realm.Entity, Name: tt.entity, Aliases: tt.aliases, Content: tt.entity + " (person)"})
	}
	apply("o", entities)
	want := map[string]bool{}
	for i, tt := range tests {
		p := fmt.Sprint("p", i)
		if tt.own {
			apply(p, Integration{Merges: []Merge{{ID: id(tt.entity), Keywords: []string{tt.entity}}}})
		} else {
			apply(p, Integration{
				Adds:  []realm.Node{{ID: id(p), Type: realm.Fact, Name: p, Content: "a fact"}},
				Edges: []EdgeWrite{{Op: EdgeAdd, From: id(p), To: id(tt.entity), Predicate: realm.Correlates, Weight: 0.5, Confidence: 0.5}},
			})
		}
		want[id(tt.entity)] = !tt.stays
	}

	_, derived, err := s.GetObservation(ctx, space, "o")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, m := range derived {
		got[m.ID] = m.DeletedWithIt
	}
	if !maps.Equal(got, want) {
		t.Errorf("deleted with it: %v, want %v", got, want)
	}
	// Forgetting what is said about someone (About: o alone says "said") reads the same.
	var going []string
	for id, goes := range want {
		if goes {
			going = append(going, id)
		}
	}
	slices.Sort(going)
	if about, err := s.About(ctx, space, []string{"said"}); err != nil || !slices.Equal(about.Observations, []string{"o"}) || !slices.Equal(about.Memories, going) {
		t.Errorf("about: %+v %v, want o and %v", about, err, going)
	}
	deleted, err := s.DeleteObservation(ctx, space, "o", Lease{})
	if err != nil {
		t.Fatal(err)
	}
	for i, tt := range tests {
		n, _, err := s.GetMemory(ctx, space, id(tt.entity))
		if !tt.stays {
			if realm.ErrorCode(err) != realm.ENotFound || !slices.Contains(deleted.MemoryIDs, id(tt.entity)) {
				t.Errorf("%s: %v, deleted %v; want it deleted", tt.entity, err, deleted.MemoryIDs)
			}
			continue
		}
		if p := fmt.Sprint("p", i); err != nil || !slices.Equal(n.Sources, []string{p}) {
			t.Errorf("%s: sources %v %v, want %s", tt.entity, n.Sources, err, p)
		}
		want := append([]string{tt.entity}, tt.aliases...)
		if tt.kept != nil {
			want = tt.kept
		}
		if names := append([]string{n.Name}, n.Aliases...); !slices.Equal(names, want) {
			t.Errorf("%s: names %q, want %q", tt.entity, names, want)
		}
	}
}

// TestApplyAfterForget: an integration, or a run, extracted from a context read before
// the space forgot a message (Integration.Forgotten, the count read with it) writes
// nothing (Forgot): what it read may quote the message. Extracted from the context as it
// is now, it is written. And deleting a memory that is not there changes nothing: neither
// of the space's versions moves.
func TestApplyAfterForget(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	space := fullTextSpace(t, s)
	savePending(t, s, space, 3) // o0, o1, o2: seqs 1, 2, 3
	read, err := s.ExtractionContext(ctx, space, 3, 5)
	if err != nil || read.Forgotten != 0 || len(read.Observations) != 2 {
		t.Fatalf("o2's context: %+v %v", read, err)
	}
	if _, err := s.DeleteObservation(ctx, space, "o0", Lease{}); err != nil {
		t.Fatal(err)
	}
	in := Integration{Adds: []realm.Node{{ID: space + "-quote", Type: realm.Fact, Name: "quote", Content: "o0 said so"}},
		Summary: "o0 said so", Forgotten: read.Forgotten}
	if applied, err := s.ApplyIntegration(ctx, space, "o2", NeighbourQuery{}, nil, in); err != nil || !applied.Forgot || applied.Applied {
		t.Errorf("integration extracted before the forget: %+v %v, want Forgot", applied, err)
	}
	run, err := s.ApplyRun(ctx, RunQuery{Space: space}, RunNeighbours{}, []ObservationIntegration{{ObservationID: "o2", Integration: in}})
	if err != nil || !run.Forgot || run.Applied {
		t.Errorf("run extracted before the forget: %+v %v, want Forgot", run, err)
	}
	if st, err := s.Stats(ctx, space); err != nil || st.Memories != 0 || st.ObservationsPending != 2 {
		t.Errorf("stats %+v %v, want nothing written, o1 and o2 pending", st, err)
	}
	if summary, err := s.SpaceSummary(ctx, space); err != nil || summary != "" {
		t.Errorf("summary %q %v, want it emptied by the forget", summary, err)
	}
	read, err = s.ExtractionContext(ctx, space, 3, 5)
	if err != nil || read.Forgotten != 1 || len(read.Observations) != 1 {
		t.Fatalf("o2's context after the forget: %+v %v", read, err)
	}
	in.Forgotten = read.Forgotten
	if applied, err := s.ApplyIntegration(ctx, space, "o2", NeighbourQuery{}, nil, in); err != nil || !applied.Applied {
		t.Errorf("integration extracted after the forget: %+v %v, want it written", applied, err)
	}

	before, err := s.ExportSpaceProps(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteMemory(ctx, space, space+"-nothing"); realm.ErrorCode(err) != realm.ENotFound {
		t.Errorf("deleting a memory that is not there: %v, want not found", err)
	}
	after, err := s.ExportSpaceProps(ctx, space)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"graph_version", "memories_version"} {
		if before[k] == nil || after[k] != before[k] {
			t.Errorf("%s %v after deleting no memory, was %v", k, after[k], before[k])
		}
	}
}

// TestDeleteObservationCalledNames: forgetting the message that gave an entity a name
// renames it by the names it keeps, and its content no more calls it by its own name:
// "Tom (person), mentioned by Ann, called Tom Becker." is "Tom (person), mentioned by Ann."
// once "Tom Becker" is forgotten, not "…, called Tom."; a name it keeps is still called.
func TestDeleteObservationCalledNames(t *testing.T) {
	s := testStore(t, Config{})
	ctx := context.Background()
	space := fullTextSpace(t, s)
	tests := []struct {
		name    string
		aliases []string
		content string
		said    string // the message that stays
		want    string
	}{
		{"Tom", []string{"Tom Becker"}, "Tom (person), mentioned by Ann, called Tom Becker.", "Tom called.", "Tom (person), mentioned by Ann."},
		{"Ida Berg", []string{"Ida"}, "Ida Berg (person), mentioned by Ann, called Ida.", "Ida called.", "Ida (person), mentioned by Ann."},
		{"Eva Lind", []string{"Eva", "Evi"}, "Eva Lind (person), called Eva, called Evi.", "Evi called.", "Evi (person)."},
		// Negative: a name kept stays called.
		{"Anabel Lopes", []string{"Anabel", "Bel"}, "Anabel Lopes (person), called Bel.", "Anabel and Bel called.", "Anabel (person), called Bel."},
	}
	day := time.Date(2023, 5, 8, 13, 0, 0, 0, time.UTC)
	obs := []realm.Observation{{ID: "o", Speaker: "Ann", Content: "said", ObservedAt: day}}
	for i, tt := range tests {
		obs = append(obs, realm.Observation{ID: fmt.Sprint("p", i), Speaker: "Ann", Content: tt.said, ObservedAt: day.Add(time.Duration(i+1) * time.Minute)})
	}
	saveObservations(t, s, space, obs)
	var entities Integration
	for _, tt := range tests {
		entities.Adds = append(entities.Adds, realm.Node{ID: space + "-" + tt.name, Type: realm.Entity, Name: tt.name, Aliases: tt.aliases, Content: tt.content})
	}
	if applied, err := s.ApplyIntegration(ctx, space, "o", NeighbourQuery{}, nil, entities); err != nil || !applied.Applied {
		t.Fatalf("o: %+v %v", applied, err)
	}
	for i, tt := range tests {
		merge := Integration{Merges: []Merge{{ID: space + "-" + tt.name, Keywords: []string{tt.name}}}}
		if applied, err := s.ApplyIntegration(ctx, space, fmt.Sprint("p", i), NeighbourQuery{}, nil, merge); err != nil || !applied.Applied {
			t.Fatalf("p%d: %+v %v", i, applied, err)
		}
	}
	if _, err := s.DeleteObservation(ctx, space, "o", Lease{}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		if n, _, err := s.GetMemory(ctx, space, space+"-"+tt.name); err != nil || n.Content != tt.want {
			t.Errorf("%s: content %q %v, want %q", tt.name, n.Content, err, tt.want)
		}
	}
}
