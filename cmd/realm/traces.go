package main

import (
	"context"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm/cypher"
	"github.com/realm-memory/realm/internal/ctxtime"
)

// traceSweepInterval is how often serve deletes the traces past their retention: every
// hour, or every tenth of the retention when that is shorter (a trace then outlives its
// retention by a tenth at most), but not more often than once a minute. Reads refuse such a
// trace already (cypher.Store.Trace): the sweep bounds how long its query stays stored.
func traceSweepInterval(retention time.Duration) time.Duration {
	return max(min(time.Hour, retention/10), time.Minute)
}

// sweepTraces deletes the traces older than the store's retention at once, then every
// traceSweepInterval, until ctx ends; with no retention it returns at once. The learned
// links added from a trace keep, in place of its query's text, the query's vector as
// queryVectors gives it (cypher.Store.ExpireTraces). A sweep that fails is logged and
// tried again at the next one. Every replica sweeps: deleting what another deleted
// already is harmless. expired is told how many traces each sweep deleted.
func sweepTraces(ctx context.Context, store *cypher.Store, queryVectors cypher.QueryVectors, logger zerolog.Logger, expired func(int64)) {
	retention := store.TraceRetention()
	if retention <= 0 {
		return
	}
	every := traceSweepInterval(retention)
	for {
		n, err := store.ExpireTraces(ctx, time.Now(), queryVectors)
		if n > 0 {
			expired(n)
			logger.Info().Int64("traces", n).Str("retention", cypher.RetentionText(retention)).Msg("deleted traces past their retention")
		}
		if err != nil && ctx.Err() == nil {
			logger.Error().Err(err).Dur("retry_in", every).Msg("deleting traces past their retention")
		}
		if ctxtime.Sleep(ctx, every) != nil {
			return
		}
	}
}
