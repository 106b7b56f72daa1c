package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/render"
)

// dbOptions are the flags of `gds db migrate` and `gds db status`.
type dbOptions struct{ JSON bool }

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
				Name:  "status",
				Usage: d.T("cmd.db.status.usage"),
				Flags: []cli.Flag{jsonFlag(d)},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					return runDBStatus(ctx, d, dbOptions{JSON: cmd.Bool("json")})
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
	if opts.JSON {
		return writeJSON(d, render.NewIndexStatusDoc(st))
	}
	render.IndexStatus(d.Stdout, st, d.Lang)
	return nil
}
