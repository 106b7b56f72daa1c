package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
)

func newVersionCommand(d *app.Deps, info buildInfo) *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: d.T("cmd.version.usage"),
		Flags: []cli.Flag{jsonFlag(d)},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Bool("json") {
				return writeJSON(d, map[string]string{"version": info.Version, "commit": info.Commit, "date": info.Date})
			}
			_, err := fmt.Fprintln(d.Stdout, info.String())
			return err
		},
	}
}
