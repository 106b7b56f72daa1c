package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"

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
			var res app.InitResult
			var err error
			// Flags say what to write: no questions then, as without a terminal.
			flags := cmd.IsSet("source") || cmd.IsSet("provider")
			if flags || cmd.Bool("no-input") || !isTerminal(d.Stdin) || !isTerminal(d.Stdout) {
				res, err = d.Init(ctx, app.InitRequest{Sources: cmd.StringSlice("source"), Provider: cmd.String("provider")})
			} else {
				res, err = d.InitWizard(ctx, app.InitWizardRequest{
					UI:      &render.InitPrompter{In: render.NewLines(d.Stdin), Out: d.Stdout, Lang: d.Lang, Pterm: true},
					ShowURL: func(u string) { fmt.Fprintln(d.Stderr, d.T("out.auth.open_url", app.SignInTimeout)+"\n  "+u) },
					Run:     runSelf(d),
				})
			}
			if err != nil {
				return err
			}
			render.InitResult(d.Stdout, d.Stderr, render.InitSummary{EnvFile: res.EnvFile, Set: res.Set, Overridden: res.Overridden,
				Problem: res.Problem, Changed: res.Changed, Crawled: res.Crawled, Cancelled: res.Cancelled}, d.Lang)
			return nil
		},
	}
}

// runSelf runs another gds command in a child process, so that it reads
// the .env just written.
func runSelf(d *app.Deps) func(ctx context.Context, args ...string) error {
	return func(ctx context.Context, args ...string) error {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("find the gds executable: %w", err)
		}
		c := exec.CommandContext(ctx, exe, args...)
		c.Stdin, c.Stdout, c.Stderr = d.Stdin, d.Stdout, d.Stderr
		return c.Run()
	}
}
