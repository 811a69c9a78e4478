package main

import (
	"context"
	"os"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent/llm"
	"github.com/realm-memory/realm/api"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/reconsolidation"
	"github.com/realm-memory/realm/retrieval"
)

// pipelines are the write and read paths over opened deps, for serve and the CLI.
type pipelines struct {
	ingest *construction.Pipeline
	recall *retrieval.Retriever
	recon  *reconsolidation.Reconsolidator
	answer *llm.Agent // nil without an LLM: the offline agent cannot answer
}

func newPipelines(cfg config, d *deps, logger zerolog.Logger) (pipelines, error) {
	return newObservedPipelines(cfg, d, logger, nil)
}

// newObservedPipelines is newPipelines with every pipeline's hook feeding m (nil: none).
func newObservedPipelines(cfg config, d *deps, logger zerolog.Logger, m *api.Metrics) (pipelines, error) {
	var observeLLM func(llm.Event)
	opts := construction.Options{Zone: cfg.Zone, ResumeInterval: cfg.ResumeInterval, ExtractRoles: cfg.ExtractRoles}
	if m != nil {
		observeLLM, opts.OnJob = m.ObserveLLM, m.ObserveJob
	}
	ag, err := newAgent(cfg, logger, observeLLM)
	if err != nil {
		return pipelines{}, err
	}
	answer, _ := ag.(*llm.Agent)
	ropts := retrieval.DefaultOptions()
	ropts.Zone = cfg.Zone
	if err := ropts.SetScore(cfg.Score); err != nil {
		return pipelines{}, err
	}
	p := pipelines{
		answer: answer,
		ingest: construction.New(d.store, ag, d.embedder, opts, logger),
		recall: retrieval.New(d.store, d.embedder, ag, ropts, logger),
		recon:  reconsolidation.New(d.store, ag, reconsolidation.DefaultConfig(), logger),
	}
	if m != nil {
		p.recall = p.recall.ObserveTimings(m.ObserveRecall)
		p.recon = p.recon.ObserveEdits(m.ObserveEdits)
	}
	return p, nil
}

// openCommand opens what a one-shot command (ingest, recall, bench) needs; warnings go
// to stderr so that stdout stays the command's output.
func openCommand(ctx context.Context, cfg config) (*deps, pipelines, error) {
	logger := newLogger(os.Stderr, "warn")
	d, err := openDeps(ctx, cfg, logger)
	if err != nil {
		return nil, pipelines{}, err
	}
	p, err := newPipelines(cfg, d, logger)
	if err != nil {
		d.close()
		return nil, pipelines{}, err
	}
	return d, p, nil
}

// benchIngester adapts the pipeline to bench.Ingester.
type benchIngester struct{ p *construction.Pipeline }

func (b benchIngester) Ingest(ctx context.Context, space string, obs []realm.Observation) (int, error) {
	res, err := b.p.Ingest(ctx, space, obs)
	return len(res), err
}
