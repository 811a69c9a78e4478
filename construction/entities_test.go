package construction_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/text/unicode/norm"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/retrieval"
)

// TestIdentifierEntity: with the offline agent, a ticket id is one entity named as
// written, not a person named after its letter; two messages of different days that name
// the ticket both instantiate it, so each is one hop from the other through it.
func TestIdentifierEntity(t *testing.T) {
	store, p, r, space := offlineSpace(t)
	day := time.Date(2024, 3, 4, 9, 0, 0, 0, time.UTC)
	mustIngest(t, p, space,
		realm.Observation{ID: "o1", SessionID: "s1", Speaker: "user", Content: "The checkout page times out for our Berlin store, see ticket T-4410.", ObservedAt: day},
		realm.Observation{ID: "o2", SessionID: "s2", Speaker: "user", Content: "Any progress on T-4410? Customers keep complaining.", ObservedAt: day.AddDate(0, 0, 3)},
	)
	nodes, edges, err := store.Graph(context.Background(), space, "", 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var ticket string
	for _, n := range nodes {
		if n.Type != realm.Entity {
			continue
		}
		switch n.Name {
		case "T-4410":
			ticket = n.ID
		case "T", "Berlin":
			if n.Category == "person" {
				t.Errorf("entity %q typed %s", n.Name, n.Category)
			}
		}
	}
	if ticket == "" {
		t.Fatalf("no entity T-4410 among %v", names(nodes))
	}
	if from := instantiatedFrom(nodes, edges, ticket); !from["o1"] || !from["o2"] {
		t.Errorf("memories of %v instantiate T-4410, want those of o1 and o2", from)
	}

	// A question about the ticket recalls both.
	res, err := r.Recall(context.Background(), space, realm.RecallRequest{Query: "What about T-4410?"})
	if err != nil {
		t.Fatal(err)
	}
	recalled := map[string]bool{}
	for _, n := range res.Nodes {
		for _, s := range n.Node.Sources {
			recalled[s] = recalled[s] || n.Node.Type != realm.Entity
		}
	}
	if !recalled["o1"] || !recalled["o2"] {
		t.Errorf("recall of T-4410 holds memories of %v, want o1 and o2", recalled)
	}
}

// TestSelfIntroductionEntity: a user who says their name names the user, not an entity
// apart: the user's entity keeps the name, so that a question naming the user reaches the
// user's memories through it.
func TestSelfIntroductionEntity(t *testing.T) {
	store, p, r, space := offlineSpace(t)
	day := time.Date(2024, 3, 4, 9, 0, 0, 0, time.UTC)
	mustIngest(t, p, space,
		realm.Observation{ID: "o1", SessionID: "s1", Speaker: "user", Content: "I work as a night nurse at the children's hospital.", ObservedAt: day},
		realm.Observation{ID: "o2", SessionID: "s1", Speaker: "assistant", Content: "That sounds demanding. How can I help?", ObservedAt: day.Add(time.Minute)},
		realm.Observation{ID: "o3", SessionID: "s1", Speaker: "user", Content: "By the way, my name is Alice Nguyen.", ObservedAt: day.Add(2 * time.Minute)},
	)
	nodes, _, err := store.Graph(context.Background(), space, "", 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var user realm.Node
	for _, n := range nodes {
		if n.Type == realm.Entity && n.Name == "user" {
			user = n
		}
		if n.Type == realm.Entity && strings.Contains(n.Name, "Alice") {
			t.Errorf("entity %q (%s) apart from the user", n.Name, n.Category)
		}
	}
	if !slices.Contains(user.Keywords, "Alice Nguyen") || !slices.Contains(user.Aliases, "Alice Nguyen") {
		t.Errorf("user entity %+v does not hold the name Alice Nguyen", user)
	}

	// The question names the user: it finds the user's entity, which leads to the user's
	// memories, before the assistant's (alike but for the name).
	res, err := r.Recall(context.Background(), space, realm.RecallRequest{Query: "What does Alice do for a living?"})
	if err != nil {
		t.Fatal(err)
	}
	score := map[string]float64{}
	var got []string
	for _, n := range res.Nodes {
		score[string(n.Node.Type)+" "+n.Node.Name] = n.Score
		got = append(got, n.Node.Content)
	}
	if score["entity user"] <= score["entity assistant"] || !slices.ContainsFunc(got, func(c string) bool { return strings.HasPrefix(c, "user works as a night nurse") }) {
		t.Errorf("recall of Alice's work: scores %v; memories %q", score, got)
	}
}

// TestSelfIntroductionNamedBefore: a user named by someone else before telling their name
// is one entity with the name: the entity of the name learns that it is the user's (or
// the user's entity learns the name), and a question naming the user reaches the user's
// memories, told before or after the introduction. A first name alone is not the name:
// that Alice stays another entity.
func TestSelfIntroductionNamedBefore(t *testing.T) {
	said := func(id, speaker, content string) realm.Observation {
		return realm.Observation{ID: id, SessionID: "s1", Speaker: speaker, Content: content}
	}
	named := said("o-named", "Bob", "Our colleague Alice Nguyen starts on the night shift on Monday.")
	firstName := said("o-named", "Bob", "Our colleague Alice starts on the night shift on Monday.")
	intro := said("o-intro", "user", "Hi everyone, my name is Alice Nguyen.")
	work := said("o-work", "user", "I work as a night nurse at the children's hospital.")
	tests := []struct {
		name     string
		obs      []realm.Observation
		want     string   // the entity that holds both names
		entities []string // all the entities, sorted
	}{
		{"BeforeTheUserSpoke", []realm.Observation{named, intro, work}, "Alice Nguyen", []string{"Alice Nguyen (person)", "Bob (person)"}},
		{"BetweenTheUsersTurns", []realm.Observation{work, named, intro}, "user", []string{"Alice Nguyen (person)", "Bob (person)", "user (person)"}},
		{"FirstNameOnly", []realm.Observation{firstName, intro, work}, "user", []string{"Alice (person)", "Bob (person)", "user (person)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store, p, r, space := offlineSpace(t)
			day := time.Date(2024, 3, 4, 9, 0, 0, 0, time.UTC)
			for i := range tt.obs {
				tt.obs[i].ObservedAt = day.Add(time.Duration(i) * time.Minute)
			}
			mustIngest(t, p, space, tt.obs...)
			nodes, _, err := store.Graph(context.Background(), space, "", 0, 100)
			if err != nil {
				t.Fatal(err)
			}
			var both []realm.Node // the entities called "user" and "Alice Nguyen"
			for _, n := range nodes {
				called := append([]string{n.Name}, n.Aliases...)
				if n.Type == realm.Entity && slices.Contains(called, "user") && slices.Contains(called, "Alice Nguyen") {
					both = append(both, n)
				}
			}
			if len(both) != 1 || both[0].Name != tt.want {
				t.Fatalf("entities called both user and Alice Nguyen: %+v, want the one named %q; entities %v", both, tt.want, names(nodes))
			}
			if got := names(nodes); !slices.Equal(slices.Sorted(slices.Values(got)), tt.entities) {
				t.Errorf("entities %v, want %v", got, tt.entities)
			}

			res, err := r.Recall(context.Background(), space, realm.RecallRequest{Query: "What does Alice do for a living?"})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, n := range res.Nodes {
				got = append(got, n.Node.Content)
			}
			// Its memory, or one that says it whole (the exchange that holds it: the recall
			// leaves out a repeat of what a memory returned says).
			if !slices.ContainsFunc(got, func(c string) bool { return strings.Contains(c, "user works as a night nurse") }) {
				t.Errorf("recall of Alice's work: %q", got)
			}
		})
	}
}

// TestComposedEntityNames: a name written with combining accents (NFD, as macOS and iOS
// often send it) and one written with accented letters (NFC) name one entity, named and
// found composed; the memories of both messages instantiate it.
func TestComposedEntityNames(t *testing.T) {
	store, p, _, space := offlineSpace(t)
	day := time.Date(2024, 3, 4, 9, 0, 0, 0, time.UTC)
	mustIngest(t, p, space,
		realm.Observation{ID: "o1", SessionID: "s1", Speaker: "Ana", Content: norm.NFD.String("My friend José Álvarez moved to Lisbon last year for a job."), ObservedAt: day},
		realm.Observation{ID: "o2", SessionID: "s2", Speaker: "Ana", Content: "Yesterday José Álvarez called me from Lisbon about the job.", ObservedAt: day.AddDate(0, 0, 3)},
	)
	nodes, edges, err := store.Graph(context.Background(), space, "", 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var jose []string
	for _, n := range nodes {
		for _, k := range append([]string{n.Name}, n.Keywords...) {
			if n.Type == realm.Entity && !norm.NFC.IsNormalString(k) {
				t.Errorf("entity %q is named or found by %q, not composed", n.Name, k)
			}
		}
		if n.Type == realm.Entity && norm.NFC.String(n.Name) == "José Álvarez" {
			jose = append(jose, n.ID)
		}
	}
	if len(jose) != 1 {
		t.Fatalf("%d entities José Álvarez among %q, want one", len(jose), names(nodes))
	}
	if from := instantiatedFrom(nodes, edges, jose[0]); !from["o1"] || !from["o2"] {
		t.Errorf("memories of %v instantiate José Álvarez, want those of o1 and o2", from)
	}
}

// offlineSpace is a pipeline and a retriever with the offline agent over a new space of
// the test store.
func offlineSpace(t *testing.T) (*cypher.Store, *construction.Pipeline, *retrieval.Retriever, string) {
	store := cyphertest.MustOpen(t)
	ag := offline.New(offline.Options{})
	p := construction.New(store, ag, bowEmbedder{}, construction.Options{Owner: "test-" + cyphertest.NewSpace(t)}, zerolog.Nop())
	t.Cleanup(func() { p.Close(context.Background()) })
	r := retrieval.New(store, bowEmbedder{}, ag, retrieval.DefaultOptions(), zerolog.Nop())
	return store, p, r, cyphertest.NewSpace(t)
}

// instantiatedFrom is the observations whose memories instantiate the entity id.
func instantiatedFrom(nodes []realm.Node, edges []realm.Edge, id string) map[string]bool {
	from := map[string]bool{}
	for _, e := range edges {
		if e.Predicate != realm.Instantiates || e.To != id {
			continue
		}
		for _, n := range nodes {
			if n.ID == e.From {
				for _, s := range n.Sources {
					from[s] = true
				}
			}
		}
	}
	return from
}

// TestOneSisterManyNames: a sister told by her full name, then by a nickname beside "my
// sister", by the nickname alone and by her first name after a place's preposition, is
// one person: her entity learns the nickname, and the memories of each name instantiate
// it, as does one that says "my sister" alone.
func TestOneSisterManyNames(t *testing.T) {
	store, p, _, space := offlineSpace(t)
	said := userSaid(time.Date(2026, 6, 3, 20, 0, 0, 0, time.UTC))
	mustIngest(t, p, space,
		said("o1", 0, "My sister Katherine Thompson is coming over this weekend. She's a nurse in Eugene."),
		said("o2", 30, "Talked to my sister Kat on the phone for an hour tonight."),
		said("o3", 40, "Had a long chat with Kat about her new job."),
		said("o4", 50, "I visited Katherine in Eugene last weekend, we baked bread."),
		said("o5", 60, "Talked to my sister on the phone for an hour tonight."),
	)
	nodes, edges := mustGraph(t, store, space)
	var sister realm.Node
	for _, n := range nodes {
		if n.Type != realm.Entity {
			continue
		}
		switch n.Name {
		case "Katherine Thompson":
			sister = n
		case "Kat", "Katherine":
			t.Errorf("entity %s (%s) apart from Katherine Thompson", n.Name, n.Category)
		}
	}
	if sister.ID == "" || sister.Category != "person" || !slices.Contains(sister.Aliases, "Kat") {
		t.Fatalf("sister %+v, entities %v", sister, names(nodes))
	}
	if from := instantiatedFrom(nodes, edges, sister.ID); len(from) != 5 {
		t.Errorf("memories of %v instantiate Katherine Thompson, want those of o1 to o5", from)
	}
}

// TestAccountNotesPersons: notes on the people of accounts name persons in full, then by
// first name or nickname: a full name is a person, a first name alone the one person of
// that first name (not one of two Toms), a nickname told with a full name an alias of it;
// posts and products are no persons.
func TestAccountNotesPersons(t *testing.T) {
	store, p, _, space := offlineSpace(t)
	said := userSaid(time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC))
	mustIngest(t, p, space,
		said("o1", 0, "New contact: Raj Patel, VP Engineering at Initech. Email raj.patel@initech.com."),
		said("o2", 1, "New contact: Tom Becker, Head of IT at Acme."),
		said("o3", 2, "Call with Tom Ruiz at Globex: he wants SSO with Okta before signing."),
		said("o4", 3, "New contact: Robert Lang (goes by Bob), CFO at Initech."),
		said("o5", 40, "Raj was promoted to CTO at Initech; he now owns the vendor decision."),
		said("o6", 41, "Bob called about the renewal; he wants the contract by end of March."),
		said("o7", 42, "Tom wants a demo of the analytics module in May."),
	)
	nodes, edges := mustGraph(t, store, space)
	var persons []string
	byName := map[string]realm.Node{}
	for _, n := range nodes {
		if n.Type == realm.Entity && n.Category == "person" {
			persons = append(persons, n.Name)
			byName[n.Name] = n
		}
	}
	if want := []string{"Raj Patel", "Robert Lang", "Tom", "Tom Becker", "Tom Ruiz", "user"}; !slices.Equal(slices.Sorted(slices.Values(persons)), want) {
		t.Errorf("persons %q, want %q; entities %v", persons, want, names(nodes))
	}
	if !slices.Contains(byName["Robert Lang"].Aliases, "Bob") {
		t.Errorf("Robert Lang %+v, want also called Bob", byName["Robert Lang"])
	}
	for name, want := range map[string][]string{"Raj Patel": {"o1", "o5"}, "Robert Lang": {"o4", "o6"}} {
		from := instantiatedFrom(nodes, edges, byName[name].ID)
		if !from[want[0]] || !from[want[1]] {
			t.Errorf("memories of %v instantiate %s, want those of %v", from, name, want)
		}
	}
}

// TestFirstNameBeforeFullName: a first name said before the full name it opens is one
// person with it, whose entity the full name joins and names, in the graph and in recall,
// the first name an alias of it; beside another person of that first name named in full,
// the first name stays apart, and neither full name takes it.
func TestFirstNameBeforeFullName(t *testing.T) {
	for _, tt := range []struct {
		name    string
		notes   []string
		persons map[string][]string // name → aliases
	}{
		{"One", []string{"Tom called about the renewal.", "Tom Becker from Acme confirmed the order.", "Call with Tom Ruiz at Globex about pricing."},
			map[string][]string{"Tom Becker": {"Tom"}, "Tom Ruiz": nil, "user": nil}},
		{"Two", []string{"Tom called about the renewal.", "Tom Becker and Tom Ruiz both confirmed the order."},
			map[string][]string{"Tom": nil, "Tom Becker": nil, "Tom Ruiz": nil, "user": nil}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			store, p, r, space := offlineSpace(t)
			said := userSaid(time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC))
			for i, note := range tt.notes {
				mustIngest(t, p, space, said(fmt.Sprintf("o%d", i+1), i*10, note))
				// A recall between the messages holds the space's indexes, which the
				// merges then follow.
				if _, err := r.Recall(context.Background(), space, realm.RecallRequest{Query: "Who is Tom?"}); err != nil {
					t.Fatal(err)
				}
			}
			nodes, _ := mustGraph(t, store, space)
			persons := map[string][]string{}
			for _, n := range nodes {
				if n.Type == realm.Entity && n.Category == "person" {
					persons[n.Name] = n.Aliases
					if n.Name == "Tom Becker" && tt.name == "One" && !strings.Contains(n.Content, "Tom Becker") {
						t.Errorf("Tom Becker %q, want it to say Tom Becker", n.Content)
					}
				}
			}
			if !maps.EqualFunc(persons, tt.persons, slices.Equal) {
				t.Errorf("persons (name: aliases) %q, want %q", persons, tt.persons)
			}
			res, err := r.Recall(context.Background(), space, realm.RecallRequest{Query: "Who is Tom Becker?"})
			if err != nil {
				t.Fatal(err)
			}
			var recalled []string
			for _, n := range res.Nodes {
				if n.Node.Type == realm.Entity {
					recalled = append(recalled, n.Node.Name)
				}
			}
			if !slices.Contains(recalled, "Tom Becker") || tt.name == "One" && slices.Contains(recalled, "Tom") {
				t.Errorf("recall of Tom Becker: entities %q, want Tom Becker's named so", recalled)
			}
		})
	}
}

// TestPetsRecall: the user's cat and puppy are pets, not people, and a question about the
// user's pets reaches both.
func TestPetsRecall(t *testing.T) {
	store, p, r, space := offlineSpace(t)
	said := userSaid(time.Date(2026, 6, 1, 20, 0, 0, 0, time.UTC))
	mustIngest(t, p, space,
		said("o1", 0, "I live in Portland with my boyfriend Daniel and our cat Mochi."),
		said("o2", 10, "Daniel cooked pasta with mushrooms tonight."),
		said("o3", 20, "Work was stressful today, too many meetings."),
		said("o4", 30, "I signed up for a pottery class on Thursdays."),
		said("o5", 40, "Priya and I adopted a puppy! His name is Pepper, he's a beagle mix."),
		said("o6", 50, "The bus was late again this morning."),
	)
	nodes, _ := mustGraph(t, store, space)
	for _, n := range nodes {
		if (n.Name == "Mochi" || n.Name == "Pepper") && (n.Category != "object" || n.Role != "pet") {
			t.Errorf("%s typed %s, role %q: want a pet", n.Name, n.Category, n.Role)
		}
	}
	res, err := r.Recall(context.Background(), space, realm.RecallRequest{Query: "What pets have I had?"})
	if err != nil {
		t.Fatal(err)
	}
	recalled := map[string]bool{}
	for _, n := range res.Nodes {
		for _, s := range n.Node.Sources {
			recalled[s] = true
		}
	}
	if !recalled["o1"] || !recalled["o5"] {
		t.Errorf("recall of the pets holds memories of %v, want o1 (Mochi) and o5 (Pepper)", recalled)
	}
}

// userSaid makes the user's messages of days after day, each its own session.
func userSaid(day time.Time) func(id string, days int, content string) realm.Observation {
	return func(id string, days int, content string) realm.Observation {
		return realm.Observation{ID: id, SessionID: id, Speaker: "user", Content: content, ObservedAt: day.AddDate(0, 0, days)}
	}
}

// mustGraph is the space's memories and edges, up to 100 of them.
func mustGraph(t *testing.T, store *cypher.Store, space string) ([]realm.Node, []realm.Edge) {
	t.Helper()
	nodes, edges, err := store.Graph(context.Background(), space, "", 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	return nodes, edges
}

func names(nodes []realm.Node) []string {
	var out []string
	for _, n := range nodes {
		if n.Type == realm.Entity {
			out = append(out, n.Name+" ("+n.Category+")")
		}
	}
	return out
}

// TestLongNameIntegrated: a message holding one very long token, which the offline agent's
// name of its first words keeps whole, is integrated, its memory's name cut short: Neo4j
// refuses to index a name of more than about 8 kB, and the integration failed each time.
func TestLongNameIntegrated(t *testing.T) {
	store, p, _, space := offlineSpace(t)
	said := userSaid(time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC))
	res := mustIngest(t, p, space, said("o1", 0, "Caroline said "+strings.Repeat("x", 19000)+" joined the team today."))
	if res[0].Status != construction.StatusIntegrated {
		t.Fatalf("status %s (%s), want integrated", res[0].Status, res[0].Error)
	}
	nodes, _ := mustGraph(t, store, space)
	for _, n := range nodes {
		if len([]rune(n.Name)) > 200 {
			t.Errorf("%s named with %d characters", n.ID, len([]rune(n.Name)))
		}
	}
}
