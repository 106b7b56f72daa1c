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
			{
				Name:   "workflow",
				Usage:  d.T("cmd.alfred.workflow.usage"),
				Flags:  []cli.Flag{&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "gds.alfredworkflow", Usage: d.T("flag.alfred.output"), TakesFile: true}},
				Action: notImplementedAction,
			},
		},
	}
}

func newDoctorCommand(d *app.Deps) *cli.Command {
	return &cli.Command{
		Name:        "doctor",
		Usage:       d.T("cmd.doctor.usage"),
		Description: d.T("cmd.doctor.desc"),
		Flags:       []cli.Flag{jsonFlag(d), &cli.BoolFlag{Name: "offline", Usage: d.T("flag.doctor.offline")}},
		Action:      notImplementedAction,
	}
}

// notImplementedAction returns the not-implemented error naming the command.
func notImplementedAction(_ context.Context, cmd *cli.Command) error { return errNotImplemented(cmd) }
