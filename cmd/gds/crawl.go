package main

import (
	"context"
	"os"
	"runtime/debug"
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
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			longStop(ctx, d, crawlStopGrace)
			crawlGC(os.LookupEnv)
			return runCrawl(ctx, d, app.CrawlRequest{Sources: cmd.StringSlice("source"), Full: cmd.Bool("full"), DryRun: cmd.Bool("dry-run"),
				Concurrency: cmd.Int("concurrency"), MaxRPM: cmd.Int("max-rpm")})
		},
	}
}

// crawlStopGrace is how long a signalled crawl may take to record what it
// committed: cancelling a Postgres query in flight can take pgx 15 s.
const crawlStopGrace = 30 * time.Second

// crawlGCPercent is the collector's target during a crawl (GOGC; Go's
// default is 100). A crawl's heap is mostly garbage made per file (file
// bytes, text, tokens): collecting at half the live heap instead of all
// of it lowered gds's own peak resident size from about 250 to 215 MB on
// the real documents of docs/BENCHMARKS.md, at no measurable cost in
// files/s.
const crawlGCPercent = 50

// crawlGC sets the crawl's collector target unless the user set GOGC.
func crawlGC(lookup func(string) (string, bool)) {
	if _, set := lookup("GOGC"); !set {
		debug.SetGCPercent(crawlGCPercent)
	}
}

// runCrawl indexes the configured (or --source) sources and prints the
// summary, also when files failed (the crawl then fails, so schedulers see
// the problem).
func runCrawl(ctx context.Context, d *app.Deps, req app.CrawlRequest) error {
	req.Progress = render.CrawlProgressRates(d.Stderr, d.StderrTTY, d.Lang, d.PaceModelCalls(req.MaxRPM))
	rep, err := d.Crawl(ctx, req)
	if rep != nil {
		render.CrawlReport(d.Stdout, rep.Sources, req.DryRun, d.Lang)
	}
	return err
}
