package construction_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/offline"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// BenchmarkIngestChat is the offline write path on a chat with roles, the user (Priya)
// and the assistant taking turns, sessions of four turns, with the hashing embedder
// (Neo4j round trips, not model time): sent in order, an assistant's message finds the
// user's turn among the recent ones; shuffled (async jobs of a chat sent out of order),
// many read their session's user besides (statements/obs).
func BenchmarkIngestChat(b *testing.B) {
	for _, order := range []string{"in", "shuffled"} {
		for _, batch := range []int{25, 1} {
			b.Run(fmt.Sprintf("order=%s/batch=%d", order, batch), func(b *testing.B) { benchIngestChat(b, order == "shuffled", batch) })
		}
	}
}

func benchIngestChat(b *testing.B, shuffled bool, batch int) {
	places := []string{"Lisbon", "Porto", "Kyoto", "Oslo", "Lima", "Quito", "Hanoi", "Cork"}
	obs := make([]realm.Observation, b.N)
	for i := range obs {
		session, place := fmt.Sprint("s", i/4), places[(i/2)%len(places)]
		o := realm.Observation{ID: fmt.Sprint("c", i), SessionID: session, ObservedAt: t0.Add(time.Duration(i) * time.Minute)}
		if i%2 == 0 {
			o.Speaker, o.Role, o.Content = "Priya", "user", fmt.Sprintf("I booked the flight %d to %s for my sister and me.", i, place)
		} else {
			o.Speaker, o.Role, o.Content = "assistant", "assistant", fmt.Sprintf("Noted: flight %d to %s for you and your sister.", i-1, place)
		}
		obs[i] = o
	}
	if shuffled {
		r := rand.New(rand.NewPCG(3, 3))
		r.Shuffle(len(obs), func(i, j int) { obs[i], obs[j] = obs[j], obs[i] })
	}
	space := cyphertest.NewSpace(b)
	timedEmb := &timedEmbedder{Embedder: bowEmbedder{}}
	timedAg := &timedAgent{Agent: offline.New(offline.Options{})}
	p := construction.New(cyphertest.MustOpen(b), timedAg, timedEmb, construction.Options{Owner: "bench-" + space}, zerolog.Nop())
	b.Cleanup(func() { p.Close(context.Background()) })
	ctx, stmts := cypher.WithStatementLog(context.Background())
	ingestTimed(ctx, b, p, space, obs, batch)
	reportTimes(b, timedEmb, timedAg, stmts)
}
