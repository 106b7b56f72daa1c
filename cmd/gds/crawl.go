package main

import (
	"context"
	"fmt"
	"os"

	"github.com/urfave/cli/v3"
	"golang.org/x/term"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/render"
	"github.com/gds-cli/gds/internal/schedule"
)

// crawlOptions are the parsed flags of `gds crawl`.
type crawlOptions struct {
	Source      string // "drive" or "local:PATH"; "" means GDS_SOURCE
	Full        bool
	DryRun      bool
	Concurrency int // 0 means GDS_CRAWL_CONCURRENCY
}

func newCrawlCommand(d *app.Deps) *cli.Command {
	return &cli.Command{
		Name:        "crawl",
		Usage:       d.T("cmd.crawl.usage"),
		Description: d.T("cmd.crawl.desc"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "source", Usage: d.T("flag.crawl.source")},
			&cli.BoolFlag{Name: "full", Usage: d.T("flag.crawl.full")},
			&cli.BoolFlag{Name: "dry-run", Usage: d.T("flag.crawl.dry_run")},
			&cli.IntFlag{Name: "concurrency", Aliases: []string{"j"}, HideDefault: true, Usage: d.T("flag.crawl.concurrency")},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := checkNoArgs(d, cmd); err != nil {
				return err
			}
			opts := crawlOptions{
				Source:      cmd.String("source"),
				Full:        cmd.Bool("full"),
				DryRun:      cmd.Bool("dry-run"),
				Concurrency: cmd.Int("concurrency"),
			}
			return runCrawl(ctx, d, opts)
		},
	}
}

// runCrawl indexes the configured (or --source) source and prints the
// summary. It fails when any file failed, so schedulers see the problem.
func runCrawl(ctx context.Context, d *app.Deps, opts crawlOptions) error {
	cfg, err := d.RequireConfig()
	if err != nil {
		return err
	}
	if !opts.DryRun {
		// One crawl at a time (the scheduler may fire while one runs).
		lock, err := schedule.AcquireCrawlLock(cfg.DataDir)
		if err != nil {
			return err
		}
		defer lock.Release()
	}
	target := cfg.Source
	if opts.Source != "" {
		wd, _ := os.Getwd()
		home, _ := os.UserHomeDir()
		if target, err = config.ParseSource(opts.Source, wd, home); err != nil {
			return usageError{err: fmt.Errorf("--source: %w", err)}
		}
	}
	var src crawl.Source
	switch target.Kind {
	case config.SourceLocal:
		if src, err = crawl.NewLocalSource(target.Path); err != nil {
			return err
		}
	default:
		if src, err = newDriveSource(ctx, d, cfg); err != nil {
			return err
		}
	}
	prov, err := d.Provider()
	if err != nil {
		return err
	}
	st, err := d.OpenStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	concurrency := opts.Concurrency
	if concurrency <= 0 {
		concurrency = cfg.CrawlConcurrency
	}
	sum, err := crawl.Run(ctx, crawl.Options{
		Source:           src,
		Index:            st,
		Provider:         prov,
		SummaryMaxLength: cfg.SummaryMaxLength,
		Concurrency:      concurrency,
		Full:             opts.Full,
		DryRun:           opts.DryRun,
		Progress:         render.CrawlProgress(d.Stderr, isTerminal(d.Stderr), d.Lang),
		Now:              d.Now,
	})
	render.CrawlSummary(d.Stdout, sum, opts.DryRun, d.Lang)
	if err != nil {
		return err
	}
	if n := len(sum.Failed); n > 0 {
		return fmt.Errorf("%s", d.T("crawl.failed_files", n))
	}
	return nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
