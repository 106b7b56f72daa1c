package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
)

func newAlfredCommand(d *app.Deps) *cli.Command {
	return &cli.Command{
		Name:        "alfred",
		Usage:       d.T("cmd.alfred.usage"),
		Description: d.T("cmd.alfred.desc"),
		Commands: []*cli.Command{
			{
				Name:      "filter",
				Usage:     d.T("cmd.alfred.filter.usage"),
				ArgsUsage: "[QUERY]",
				Flags:     []cli.Flag{&cli.StringFlag{Name: "state", Usage: d.T("flag.search.state")}},
				Action:    alfredFilterAction(d),
			},
			alfredWorkflowCommand(d),
			alfredInstallCommand(d),
		},
	}
}

// notImplementedAction returns the not-implemented error naming the command.
func notImplementedAction(_ context.Context, cmd *cli.Command) error { return errNotImplemented(cmd) }
