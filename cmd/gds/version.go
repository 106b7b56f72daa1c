package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/launcher"
)

func newVersionCommand(d *app.Deps, info buildInfo) *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: d.T("cmd.version.usage"),
		Flags: []cli.Flag{jsonFlag(d)},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return launcher.WriteVersion(d.Stdout, info, cmd.Bool("json"))
		},
	}
}
