package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/cliflag"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/launcher"
	"github.com/gds-cli/gds/internal/render"
)

// dbOptions are the flags of `gds db migrate` and `gds db status`.
type dbOptions struct{ JSON, Coverage bool }

func newDBCommand(d *app.Deps) *cli.Command {
	return &cli.Command{
		Name:        "db",
		Usage:       d.T("cmd.db.usage"),
		Description: d.T("cmd.db.desc"),
		Commands: []*cli.Command{
			{
				Name:  "migrate",
				Usage: d.T("cmd.db.migrate.usage"),
				Flags: []cli.Flag{jsonFlag(d)},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					return runDBMigrate(ctx, d, dbOptions{JSON: cmd.Bool("json")})
				},
			},
			{
				Name: "rebuild", Usage: d.T("cmd.db.rebuild.usage"), Description: d.T("cmd.db.rebuild.desc"),
				Flags: []cli.Flag{jsonFlag(d), cliflag.IntRange(&cli.IntFlag{Name: "concurrency", Aliases: []string{"j"}, HideDefault: true,
					Usage: d.T("flag.crawl.concurrency")}, config.MinCrawlConcurrency, config.MaxCrawlConcurrency)},
				Action: func(ctx context.Context, cmd *cli.Command) error { // progress on stderr; the summary or the --json report on stdout
					rep, err := d.Rebuild(ctx, app.RebuildRequest{Concurrency: cmd.Int("concurrency"), KeySocket: launcher.OSKeySocket(),
						Progress: render.CrawlProgress(d.IOStreams), Steps: render.RebuildSteps(d.IOStreams)})
					return render.RebuildResult(d.Stdout, rep, err, cmd.Bool("json"), d.Lang)
				},
			},
			{
				Name:  "status",
				Usage: d.T("cmd.db.status.usage"),
				Flags: []cli.Flag{jsonFlag(d), &cli.BoolFlag{Name: "coverage", Usage: d.T("flag.db.status.coverage")}},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					return runDBStatus(ctx, d, dbOptions{JSON: cmd.Bool("json"), Coverage: cmd.Bool("coverage")})
				},
			},
		},
	}
}

func runDBMigrate(ctx context.Context, d *app.Deps, opts dbOptions) error {
	st, err := d.Migrate(ctx)
	if err != nil {
		return err
	}
	if opts.JSON {
		return writeJSON(d, render.NewIndexStatusDoc(st))
	}
	fmt.Fprintln(d.Stdout, d.T("out.db.migrated", st.Backend, config.MaskURL(st.Location), st.SchemaVersion))
	return nil
}

func runDBStatus(ctx context.Context, d *app.Deps, opts dbOptions) error {
	st, err := d.IndexStatus(ctx)
	if err != nil {
		return err
	}
	doc := render.NewIndexStatusDoc(st)
	if opts.Coverage {
		if doc.Coverage, err = d.Coverage(ctx, app.CoverageRequest{Progress: true}); err != nil {
			return err
		}
	}
	if opts.JSON {
		return writeJSON(d, doc)
	}
	render.IndexStatus(d.Stdout, st, d.Lang)
	render.Coverage(d.Stdout, doc.Coverage, d.Lang)
	return nil
}
