package main

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/cliflag"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/render"
)

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
			cliflag.IntRange(&cli.IntFlag{Name: "max-rpm", HideDefault: true, Usage: d.T("flag.max_rpm")}, 1, cliflag.NoMax),
			&cli.BoolFlag{Name: "estimate", Usage: d.T("flag.crawl.estimate")},
			&cli.BoolFlag{Name: "json", Usage: d.T("flag.crawl.json")},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			req := app.CrawlRequest{Sources: cmd.StringSlice("source"), Full: cmd.Bool("full"), DryRun: cmd.Bool("dry-run"),
				Concurrency: cmd.Int("concurrency"), MaxRPM: cmd.Int("max-rpm")}
			if cmd.Bool("json") && !cmd.Bool("estimate") {
				return usageError{err: errors.New(d.T("crawl.json_needs_estimate"))}
			} else if cmd.Bool("estimate") {
				if d.StderrTTY { // a bar, not lines that would say "indexed" of files an estimate only reads
					req.Progress = render.CrawlProgressRates(d.IOStreams, nil)
				}
				return render.EstimateOut(d.Stdout, cmd.Bool("json"), d.Lang)(d.EstimateCrawl(ctx, req))
			}
			longStop(ctx, d, crawlStopGrace)
			app.CrawlGC(os.LookupEnv)
			return runCrawl(ctx, d, req)
		},
	}
}

// crawlStopGrace is how long a signalled crawl may take to record what it
// committed: cancelling a Postgres query in flight can take pgx 15 s.
const crawlStopGrace = 30 * time.Second

// runCrawl indexes the configured (or --source) sources and prints the
// summary, also when files failed (the crawl then fails, so schedulers see
// the problem).
func runCrawl(ctx context.Context, d *app.Deps, req app.CrawlRequest) error {
	req.Progress = render.CrawlProgressRates(d.IOStreams, d.PaceModelCalls(req.MaxRPM))
	rep, err := d.Crawl(ctx, req)
	if rep != nil {
		render.CrawlReport(d.Stdout, rep.Sources, req.DryRun, d.Lang)
		render.ModelUsage(d.Stdout, rep.Usage, rep.Estimated, d.Lang)
	}
	return err
}
