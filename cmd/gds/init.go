package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/render"
)

func newInitCommand(d *app.Deps) *cli.Command {
	return &cli.Command{
		Name:        "init",
		Usage:       d.T("cmd.init.usage"),
		Description: d.T("cmd.init.desc"),
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "source", Usage: d.T("flag.init.source")},
			&cli.StringFlag{Name: "provider", Usage: d.T("flag.init.provider")},
			&cli.BoolFlag{Name: "no-input", Usage: d.T("flag.init.no_input")},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := checkNoArgs(d, cmd); err != nil {
				return err
			}
			// Flags say what to write: no questions then, as without a terminal.
			flags := cmd.IsSet("source") || cmd.IsSet("provider")
			if !flags && !cmd.Bool("no-input") && d.StdinTTY && d.StdoutTTY {
				return runInitWizard(ctx, d, render.NewLines(d.Stdin))
			}
			res, err := d.Init(ctx, app.InitRequest{Sources: cmd.StringSlice("source"), Provider: cmd.String("provider")})
			if err != nil {
				return err
			}
			printInitResult(d, res)
			return nil
		},
	}
}

// runInitWizard runs `gds init`'s questions on the terminal, reading lines
// from in.
func runInitWizard(ctx context.Context, d *app.Deps, in *render.Lines) error {
	res, err := d.InitWizard(ctx, app.InitWizardRequest{
		UI:      &render.InitPrompter{In: in, Out: d.Stdout, Lang: d.Lang, Pterm: true},
		ShowURL: func(u string) { fmt.Fprintln(d.Stderr, d.T("out.auth.open_url", app.SignInTimeout)+"\n  "+u) },
		Run:     d.RunSelf,
	})
	if err != nil {
		return err
	}
	printInitResult(d, res)
	return nil
}

func printInitResult(d *app.Deps, res app.InitResult) {
	render.InitResult(d.Stdout, d.Stderr, render.InitSummary{EnvFile: res.EnvFile, Set: res.Set, Overridden: res.Overridden,
		Problem: res.Problem, Changed: res.Changed, Crawled: res.Crawled, Cancelled: res.Cancelled, OfferAccount: res.OfferAccount(), Model: res.Model}, d.Lang)
}
