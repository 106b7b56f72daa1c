package main

import (
	"context"
	"path/filepath"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/cliflag"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/render"
)

// maxEvalWorkers is the most queries `gds eval` runs at once.
const maxEvalWorkers = 64

// evalOptions are the parsed flags of `gds eval`.
type evalOptions struct {
	Corpus   string
	Queries  string
	JSON     bool
	Baseline string // "" (the hybrid loop) or "bm25"
	Limit    int    // first N queries; 0 = all
	Home     string // where evaluation indexes live; "" = <GDS_HOME>/eval
	Provider string // AI provider of the loop and the index
	Workers  int
	Details  string // write per-query results (JSON Lines) to this file
	Capture  string // write every reranked search's ranking inputs (JSON Lines) to this file
	Mode     string // app.EvalModeFiles, EvalModeKeystroke, EvalModeAnswer, EvalModeAgentic or EvalModeHonest
	Seed     int    // the seed of the honest-search sets
}

func newEvalCommand(d *app.Deps) *cli.Command {
	return &cli.Command{
		Name:        "eval",
		Usage:       d.T("cmd.eval.usage"),
		Description: d.T("cmd.eval.desc"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "mode", Value: app.EvalModeFiles, Usage: d.T("flag.eval.mode")},
			&cli.StringFlag{Name: "corpus", Usage: d.T("flag.eval.corpus")},
			&cli.StringFlag{Name: "queries", Usage: d.T("flag.eval.queries")},
			jsonFlag(d),
			&cli.StringFlag{Name: "baseline", Usage: d.T("flag.eval.baseline")},
			cliflag.IntRange(&cli.IntFlag{Name: "limit", Usage: d.T("flag.eval.limit")}, 0, cliflag.NoMax),
			&cli.StringFlag{Name: "home", Usage: d.T("flag.eval.home")},
			&cli.StringFlag{Name: "provider", Value: config.ProviderOffline, Usage: d.T("flag.eval.provider")},
			cliflag.IntRange(&cli.IntFlag{Name: "workers", Value: 1, Usage: d.T("flag.eval.workers")}, 1, maxEvalWorkers),
			&cli.StringFlag{Name: "details", Usage: d.T("flag.eval.details")},
			&cli.StringFlag{Name: "capture", Usage: d.T("flag.eval.capture")},
			cliflag.IntRange(&cli.IntFlag{Name: "seed", Value: 1, Usage: d.T("flag.eval.seed")}, 0, cliflag.NoMax),
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runEval(ctx, d, evalOptions{
				Corpus:   cmd.String("corpus"),
				Queries:  cmd.String("queries"),
				JSON:     cmd.Bool("json"),
				Baseline: cmd.String("baseline"),
				Limit:    cmd.Int("limit"),
				Home:     cmd.String("home"),
				Provider: cmd.String("provider"),
				Workers:  cmd.Int("workers"),
				Details:  cmd.String("details"),
				Capture:  cmd.String("capture"),
				Mode:     cmd.String("mode"),
				Seed:     cmd.Int("seed"),
			})
		},
	}
}

// runEval evaluates the hybrid loop (or the BM25 baseline) on a query set,
// or question answering with --mode answer, and prints the metrics.
func runEval(ctx context.Context, d *app.Deps, opts evalOptions) error {
	if opts.Mode != app.EvalModeFiles && opts.Mode != app.EvalModeKeystroke && opts.Mode != app.EvalModeAnswer && opts.Mode != app.EvalModeAgentic &&
		opts.Mode != app.EvalModeHonest {
		return apperr.L(apperr.Usage, "eval.bad_mode", opts.Mode)
	}
	idxProgress := render.CountProgress(d.IOStreams) // a benchmark folder has thousands of files
	if d.StderrTTY {
		idxProgress = render.CrawlProgress(d.IOStreams)
	}
	req := app.EvalRequest{
		Corpus: opts.Corpus, Queries: opts.Queries, Baseline: opts.Baseline, Limit: opts.Limit, Home: opts.Home,
		Provider: opts.Provider, Workers: opts.Workers, Details: opts.Details, Capture: opts.Capture, Seed: uint64(opts.Seed),
		IndexProgress: idxProgress,
		Progress:      render.EvalProgress(d.IOStreams),
		OnIndex:       render.EvalIndexNote(d.Stderr, d.Lang),
	}
	corpus := filepath.Base(filepath.Clean(opts.Corpus))
	if opts.Mode == app.EvalModeAgentic {
		rep, err := d.EvalAgentic(ctx, req)
		if err != nil {
			return err
		}
		return writeJSON(d, rep) // the figures of docs/BENCHMARKS.md; no table yet
	}
	if opts.Mode == app.EvalModeHonest {
		rep, err := d.EvalHonest(ctx, req)
		if err != nil {
			return err
		}
		return writeJSON(d, rep) // the figures of docs/BENCHMARKS.md, "Honest search"
	}
	if opts.Mode == app.EvalModeAnswer {
		rep, err := d.EvalAnswers(ctx, req)
		if err != nil {
			return err
		}
		if opts.JSON {
			return writeJSON(d, rep)
		}
		render.EvalAnswerReport(d.Stdout, rep, corpus, d.Lang)
		return nil
	}
	evaluate := d.Eval
	if opts.Mode == app.EvalModeKeystroke {
		evaluate = d.EvalKeystroke
	}
	rep, err := evaluate(ctx, req)
	if err != nil {
		return err
	}
	if opts.JSON {
		return writeJSON(d, rep)
	}
	render.EvalReport(d.Stdout, rep, corpus, d.Lang)
	return nil
}
