package main

import (
	"context"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/reconsolidation"
	"github.com/realm-memory/realm/retrieval"
)

// pipelines are the write and read paths over opened deps, for serve and the CLI.
type pipelines struct {
	ingest *construction.Pipeline
	recall *retrieval.Retriever
	recon  *reconsolidation.Reconsolidator
}

func newPipelines(cfg config, d *deps, logger zerolog.Logger) (pipelines, error) {
	ag, err := newAgent(cfg, logger)
	if err != nil {
		return pipelines{}, err
	}
	return pipelines{
		ingest: construction.New(d.store, ag, d.embedder, construction.Options{}, logger),
		recall: retrieval.New(d.store, d.embedder, retrieval.NewOfflineDecider(), retrieval.Options{}, logger),
		recon: reconsolidation.New(d.store, reconsolidation.NewOffline(reconsolidation.DefaultOfflineConfig()),
			reconsolidation.DefaultConfig(), logger),
	}, nil
}

// benchIngester adapts the pipeline to bench.Ingester.
type benchIngester struct{ p *construction.Pipeline }

func (b benchIngester) Ingest(ctx context.Context, space string, obs []realm.Observation) (int, error) {
	res, err := b.p.Ingest(ctx, space, obs)
	return len(res), err
}
