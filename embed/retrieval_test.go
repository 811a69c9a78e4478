package embed

import (
	"context"
	"testing"

	"github.com/realm-memory/realm"
)

// paraphrasePairs: each query's paraphrase shares as few words with it as we could manage,
// so that only an embedder that models meaning ranks it first.
var paraphrasePairs = []struct{ query, paraphrase string }{
	{"I moved to Berlin last year.", "Since twelve months ago my home has been in the German capital."},
	{"My dog died in March.", "We lost our puppy in the spring."},
	{"She is allergic to peanuts.", "Eating groundnuts makes her ill."},
	{"The meeting was postponed until Friday.", "They pushed the appointment back to the end of the week."},
	{"He bought a new car.", "He purchased a brand-new automobile."},
	{"I can't stand spicy food.", "Hot, peppery dishes are something I really dislike."},
	{"Our flight was cancelled because of the storm.", "Bad weather grounded the plane we were supposed to take."},
	{"My sister is a doctor.", "My sibling works as a physician."},
	{"I started learning to play the guitar.", "I have begun taking lessons on a six-string instrument."},
	{"The kids are on summer holidays.", "School is out for the children during the warm months."},
	{"We adopted a kitten.", "A young cat joined our family."},
	{"I quit my job at the bank.", "I resigned from my position in finance."},
	{"The heating in the flat is broken.", "The apartment's radiators do not work."},
	{"He runs a marathon every year.", "Each year he completes a 42-kilometre race."},
	{"I prefer tea over coffee.", "Given the choice, I'd rather drink a cup of chai than espresso."},
	{"My grandmother turned ninety.", "Granny celebrated her 90th birthday."},
	{"The restaurant was too noisy.", "It was so loud in that diner we couldn't hear each other."},
	{"I lost my wallet on the train.", "My purse went missing during the rail journey."},
	{"They got married in Italy.", "Their wedding took place in Rome."},
	{"I'm trying to sleep more.", "I want to get extra hours of rest at night."},
	{"The project deadline is tomorrow.", "The work is due the next day."},
	{"He is afraid of heights.", "Being high up terrifies him."},
}

// retrievalScore ranks every paraphrase for every query by cosine and counts the queries
// whose own paraphrase comes first.
func retrievalScore(t *testing.T, e realm.Embedder) int {
	t.Helper()
	queries := make([]string, len(paraphrasePairs))
	docs := make([]string, len(paraphrasePairs))
	for i, p := range paraphrasePairs {
		queries[i], docs[i] = p.query, p.paraphrase
	}
	ctx := context.Background()
	qv, err := e.Embed(ctx, queries)
	if err != nil {
		t.Fatal(err)
	}
	dv, err := e.Embed(ctx, docs)
	if err != nil {
		t.Fatal(err)
	}
	hits := 0
	for i := range qv {
		best := 0
		for j := range dv {
			if cosine(qv[i], dv[j]) > cosine(qv[i], dv[best]) {
				best = j
			}
		}
		if best == i {
			hits++
		}
	}
	return hits
}

func TestRetrievalParaphrases(t *testing.T) {
	local := MustLocal(t)
	n := len(paraphrasePairs)
	localHits := retrievalScore(t, local)
	hashHits := retrievalScore(t, NewHash(384))
	t.Logf("paraphrase ranked first: local %d/%d, hash %d/%d", localHits, n, hashHits, n)
	if localHits*10 < n*8 {
		t.Errorf("local ranks the paraphrase first for %d/%d queries, want at least 80%%", localHits, n)
	}
	if localHits <= hashHits {
		t.Errorf("local (%d) does not beat hash (%d)", localHits, hashHits)
	}
}
