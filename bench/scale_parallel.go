package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
)

// ingestParallel ingests IngestTurns new observations into each of IngestSpaces new
// spaces at once, in batches of ScaleIngestBatch, one client per space, and reports them
// together: what a server takes from several clients. One client's batches leave a core
// idle while its integration waits on Neo4j (the embedder alone uses both); other spaces'
// requests take it. The spaces are deleted after.
func ingestParallel(ctx context.Context, ing Ingester, store *cypher.Store, space string, cfg ScaleConfig, n int, progress io.Writer) (IngestReport, error) {
	spaces := make([]string, cfg.IngestSpaces)
	obs := make([][]realm.Observation, len(spaces))
	after := time.Now().UTC()
	for k := range spaces {
		spaces[k] = fmt.Sprintf("%s-parallel-%d", space, k+1)
		if _, err := store.DeleteSpace(ctx, spaces[k]); err != nil { // left by an interrupted run
			return IngestReport{}, err
		}
		obs[k] = ingestTurns(spaces[k], cfg.IngestTurns, cfg.Seed+100+uint64(k), after)[:cfg.IngestTurns]
	}
	defer func() {
		for _, sp := range spaces {
			_, _ = store.DeleteSpace(context.WithoutCancel(ctx), sp)
		}
	}()
	load := loadAverage()
	server, _ := store.ServerCPU(ctx)
	cpu := processCPU()
	started := time.Now()
	errs := make([]error, len(spaces))
	var wg sync.WaitGroup
	for k := range spaces {
		wg.Go(func() {
			errs[k] = ingestBatches(ctx, ing, spaces[k], obs[k], ScaleIngestBatch, nil, fmt.Sprintf("scale %d parallel %d", n, k+1))
		})
	}
	wg.Wait()
	secs := time.Since(started).Seconds()
	if err := errors.Join(errs...); err != nil {
		return IngestReport{}, err
	}
	total := float64(len(spaces) * cfg.IngestTurns)
	r := IngestReport{Observations: int(total), Seconds: secs, PerSecond: total / secs, Load: load, CPUms: ms(processCPU()-cpu) / total}
	if after, err := store.ServerCPU(ctx); err == nil && server > 0 {
		r.ServerCPUms = ms(after-server) / total
	}
	fmt.Fprintf(progress, "  scale %d: ingest batches of %d into %d spaces at once: %d observations in %.1f s (%.1f/s); CPU per observation %.1f ms here and %.1f ms in Neo4j; load %v\n",
		n, ScaleIngestBatch, len(spaces), r.Observations, secs, r.PerSecond, r.CPUms, r.ServerCPUms, load)
	return r, nil
}
