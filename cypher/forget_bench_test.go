package cypher

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/realm-memory/realm"
)

// BenchmarkForgetRenaming: forgetting a message that renames an entity (a message that
// stays says only "Tom") in a space of 3,000 memories whose keyword index is held, until
// the index is current again: the deletion, and a read of the index when the deletion
// did not leave it current (a recall after it reads it in the background meanwhile, its
// seeds from the full-text statement). It reports the deletion's time (forget-ms) and
// the index's after it (index-ms: its read, when there is one), and how often it was read.
func BenchmarkForgetRenaming(b *testing.B) {
	const memories = 3000
	s := testStore(b, Config{})
	ctx := context.Background()
	space := fmt.Sprintf("test_forget_bench_%d", time.Now().UnixNano())
	b.Cleanup(func() {
		if _, err := s.DeleteSpace(context.Background(), space); err != nil {
			b.Errorf("erasing %s: %v", space, err)
		}
	})
	words := []string{"hiking", "pottery", "marathon", "garden", "violin", "recipe", "camping", "museum", "lecture", "painting"}
	var nodes []realm.Node
	for i := range memories {
		v := make([]float32, 384)
		v[i%384] = 1
		content := fmt.Sprintf("Ann talked about %s and %s on day %d", words[i%10], words[(i/10)%10], i)
		nodes = append(nodes, realm.Node{ID: fmt.Sprint(space, "-m", i), Type: realm.Fact, Name: fmt.Sprint("note ", i), Content: content, Embedding: v})
	}
	if err := s.PutMemories(ctx, space, nodes, nil); err != nil {
		b.Fatal(err)
	}
	lease := Lease{Owner: "owner-" + space, Until: time.Now().Add(time.Hour)}
	day := time.Date(2023, 5, 8, 13, 0, 0, 0, time.UTC)
	i, reads := 0, 0
	var forgetting, indexing time.Duration // DeleteObservation's, then until the index is current
	for b.Loop() {
		b.StopTimer()
		o, p, tom := fmt.Sprint("o", i), fmt.Sprint("p", i), fmt.Sprint(space, "-tom", i)
		if _, err := s.SaveObservations(ctx, space, "test", 384, []realm.Observation{
			{ID: o, Speaker: "Ann", Content: fmt.Sprintf("Tom Becker%d came.", i), ObservedAt: day.Add(time.Duration(2*i) * time.Minute)},
			{ID: p, Speaker: "Ann", Content: "Tom called.", ObservedAt: day.Add(time.Duration(2*i+1) * time.Minute)},
		}, lease); err != nil {
			b.Fatal(err)
		}
		for _, in := range []struct {
			obs string
			in  Integration
		}{
			{o, Integration{Adds: []realm.Node{{ID: tom, Type: realm.Entity, Name: fmt.Sprintf("Tom Becker%d", i), Aliases: []string{"Tom"}, Content: "a person"}}}},
			{p, Integration{Merges: []Merge{{ID: tom, Keywords: []string{"Tom"}}}}},
		} {
			in.in.Forgotten = int64(i) // the messages forgotten so far
			if applied, err := s.ApplyIntegration(ctx, space, in.obs, NeighbourQuery{}, nil, in.in); err != nil || !applied.Applied {
				b.Fatalf("%s: %+v %v", in.obs, applied, err)
			}
		}
		if counts, err := s.SpaceCounts(ctx, space); err != nil {
			b.Fatal(err)
		} else if s.texts.current(space, textKey(counts.InSpace, counts.Version)) == nil {
			if _, err := s.LoadKeywordIndex(ctx, space); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		started := time.Now()
		deleted, err := s.DeleteObservation(ctx, space, o, lease)
		if err != nil || len(deleted.Renamed) != 1 {
			b.Fatalf("forget %s: %+v %v", o, deleted, err)
		}
		forgot := time.Now()
		forgetting += forgot.Sub(started)
		counts, err := s.SpaceCounts(ctx, space)
		if err != nil {
			b.Fatal(err)
		}
		if s.texts.current(space, textKey(counts.InSpace, counts.Version)) == nil {
			reads++
			if _, err := s.LoadKeywordIndex(ctx, space); err != nil {
				b.Fatal(err)
			}
		}
		indexing += time.Since(forgot)
		i++
	}
	b.ReportMetric(float64(reads)/float64(i), "reads/op")
	b.ReportMetric(forgetting.Seconds()*1000/float64(i), "forget-ms/op")
	b.ReportMetric(indexing.Seconds()*1000/float64(i), "index-ms/op")
}
