package bench_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/bench"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/cypher/cyphertest"
	"github.com/realm-memory/realm/embed"
	"github.com/realm-memory/realm/reconsolidation"
)

// eraseSpaceMemories is the size of the space BenchmarkEraseSpace erases: 4,000 memories
// derived from about 3,400 observations, with about 19,000 edges between them.
const eraseSpaceMemories = 4000

// BenchmarkEraseSpace erases a space as DELETE /v1/spaces/{space} does: the scale
// benchmark's synthetic conversation (observations, embedded memories with their
// provenance, typed edges with the speakers as hubs), with recall traces, the edits of
// reconsolidations that added learned links, and a job. Each iteration writes the space
// anew (untimed) and erases it, with Neo4j's CPU time for it; the database hits of the erasure's statements, from
// Neo4j's PROFILE, are measured on one more space after the timed ones (db-hits/op).
//
//	NEO4J_URI=bolt://… go test ./bench -run '^$' -bench EraseSpace -benchtime 5x
func BenchmarkEraseSpace(b *testing.B) {
	store := cyphertest.MustOpen(b)
	ctx := context.Background()
	gen := bench.GenerateScale("erase", eraseSpaceMemories, 1)
	vecs, err := embed.NewHash(cyphertest.Dims).Embed(ctx, embedTexts(gen.Memories))
	if err != nil {
		b.Fatal(err)
	}
	for i := range gen.Memories {
		gen.Memories[i].Embedding = vecs[i]
	}
	var nodes int64
	var cpu time.Duration // Neo4j's, which the load of the machine changes less than time
	for b.Loop() {
		b.StopTimer()
		space := putEraseSpace(b, store, gen)
		before, err := store.ServerCPU(ctx)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		n, err := store.DeleteSpace(ctx, space)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		after, err := store.ServerCPU(ctx)
		if err != nil {
			b.Fatal(err)
		}
		cpu += after - before
		nodes = n
		b.StartTimer()
	}
	b.StopTimer()
	space := putEraseSpace(b, store, gen)
	pctx, log := cypher.WithStatementProfile(ctx)
	if _, err := store.DeleteSpace(pctx, space); err != nil {
		b.Fatal(err)
	}
	var hits int64
	for _, st := range log.Statements {
		hits += st.DBHits
	}
	b.ReportMetric(float64(nodes), "nodes/op")
	b.ReportMetric(cpu.Seconds()*1000/float64(b.N), "neo4j-cpu-ms/op")
	b.ReportMetric(float64(hits), "db-hits/op")
	b.ReportMetric(float64(len(log.Statements)), "statements/op")
}

func embedTexts(ms []realm.Node) []string {
	texts := make([]string, len(ms))
	for i, m := range ms {
		texts[i] = construction.EmbedText(m.Name, m.Content)
	}
	return texts
}

// putEraseSpace writes gen into a new space (its ids prefixed with the space's, as
// GenerateScale gives them), with 100 traces, the edits of 50 reconsolidations, each
// adding two learned links, and a job over the first observations.
func putEraseSpace(tb testing.TB, store *cypher.Store, gen bench.ScaleSpace) string {
	tb.Helper()
	ctx := context.Background()
	space := cyphertest.NewSpace(tb)
	memories := make([]realm.Node, len(gen.Memories))
	for i, m := range gen.Memories {
		m.ID, m.Space = space+m.ID[len("erase"):], space
		memories[i] = m
	}
	edges := make([]realm.Edge, len(gen.Edges))
	for i, e := range gen.Edges {
		e.ID, e.From, e.To = space+e.ID[len("erase"):], space+e.From[len("erase"):], space+e.To[len("erase"):]
		edges[i] = e
	}
	if err := store.PutScaleSpace(ctx, space, "hash:v1", cyphertest.Dims, int64(len(gen.Observations)), gen.Summary); err != nil {
		tb.Fatal(err)
	}
	if err := store.PutScaleObservations(ctx, space, gen.Observations); err != nil {
		tb.Fatal(err)
	}
	if _, err := store.PutScaleMemories(ctx, space, memories); err != nil {
		tb.Fatal(err)
	}
	if err := store.PutScaleEdges(ctx, space, edges); err != nil {
		tb.Fatal(err)
	}
	rule := reconsolidation.DefaultConfig().Rule(false)
	for i := range 100 {
		trace := realm.Trace{ID: fmt.Sprintf("%s-t%d", space, i), Space: space, Query: fmt.Sprintf("what did Maya do in week %d?", i), CreatedAt: time.Now()}
		if err := store.PutTrace(ctx, trace); err != nil {
			tb.Fatal(err)
		}
		if i%2 == 1 {
			continue
		}
		a, c, d := memories[(7*i)%len(memories)].ID, memories[(7*i+1)%len(memories)].ID, memories[(7*i+2)%len(memories)].ID
		edits := []realm.EditProposal{
			{From: a, To: c, Action: realm.EditAdd, Predicate: realm.Correlates, Confidence: 0.8, Query: trace.Query, Label: realm.KeyEvidence},
			{From: a, To: d, Action: realm.EditAdd, Predicate: realm.Correlates, Confidence: 0.8, Query: trace.Query, Label: realm.Misleading},
		}
		if _, err := store.ApplyEdits(ctx, space, cypher.EditBatch{ReconsolidationID: fmt.Sprintf("%s-r%d", space, i), TraceID: trace.ID,
			Source: realm.EditSourceFeedback, Edits: edits, NewWeight: rule.NewWeight, Step: rule.Step, Floor: rule.WMin}); err != nil {
			tb.Fatal(err)
		}
	}
	ids := make([]string, 50)
	for i := range ids {
		ids[i] = gen.Observations[i].ID
	}
	if err := store.CreateJob(ctx, space, space+"-job", ids); err != nil {
		tb.Fatal(err)
	}
	return space
}
