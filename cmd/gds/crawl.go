package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
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

// runCrawl indexes the configured source. Not built yet in this file: the
// lead replaces this function.
func runCrawl(ctx context.Context, d *app.Deps, opts crawlOptions) error {
	return notImplementedError{command: "gds crawl"}
}
