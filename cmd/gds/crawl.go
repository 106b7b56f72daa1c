package main

import (
	"context"
	"os"
	"time"

	"github.com/urfave/cli/v3"
	"golang.org/x/term"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/cliflag"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/render"
)

// crawlOptions are the parsed flags of `gds crawl`.
type crawlOptions struct {
	Sources     []string // --source specs (each may list several); none: GDS_SOURCES
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
			&cli.StringSliceFlag{Name: "source", Usage: d.T("flag.crawl.source")},
			&cli.BoolFlag{Name: "full", Usage: d.T("flag.crawl.full")},
			&cli.BoolFlag{Name: "dry-run", Usage: d.T("flag.crawl.dry_run")},
			cliflag.IntRange(&cli.IntFlag{Name: "concurrency", Aliases: []string{"j"}, HideDefault: true, Usage: d.T("flag.crawl.concurrency")},
				config.MinCrawlConcurrency, config.MaxCrawlConcurrency),
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			opts := crawlOptions{
				Sources:     cmd.StringSlice("source"),
				Full:        cmd.Bool("full"),
				DryRun:      cmd.Bool("dry-run"),
				Concurrency: cmd.Int("concurrency"),
			}
			longStop(ctx, d, crawlStopGrace)
			return runCrawl(ctx, d, opts)
		},
	}
}

// crawlStopGrace is how long a signalled crawl may take to record what it
// committed: cancelling a Postgres query in flight can take pgx 15 s.
const crawlStopGrace = 30 * time.Second

// runCrawl indexes the configured (or --source) sources and prints the
// summary, also when files failed (the crawl then fails, so schedulers see
// the problem).
func runCrawl(ctx context.Context, d *app.Deps, opts crawlOptions) error {
	rep, err := d.Crawl(ctx, app.CrawlRequest{
		Sources:     opts.Sources,
		Full:        opts.Full,
		DryRun:      opts.DryRun,
		Concurrency: opts.Concurrency,
		Progress:    render.CrawlProgress(d.Stderr, isTerminal(d.Stderr), d.Lang),
	})
	if rep != nil {
		render.CrawlReport(d.Stdout, rep.Sources, opts.DryRun, d.Lang)
	}
	return err
}

// isTerminal reports whether w is a terminal.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
