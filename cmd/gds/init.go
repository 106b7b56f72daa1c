package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"

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
				return runInitWizard(ctx, d, render.NewLines(d.Stdin))
			}
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
		Run:     runSelf(d),
	})
	if err != nil {
		return err
	}
	printInitResult(d, res)
	return nil
}

func printInitResult(d *app.Deps, res app.InitResult) {
	render.InitResult(d.Stdout, d.Stderr, render.InitSummary{EnvFile: res.EnvFile, Set: res.Set, Overridden: res.Overridden,
		Problem: res.Problem, Changed: res.Changed, Crawled: res.Crawled, Cancelled: res.Cancelled}, d.Lang)
}

// offerInit asks, on a terminal, whether to set gds up now (bare `gds`
// before any source is configured) and runs the wizard on yes; on no it
// says how to do it later and shows the help.
func offerInit(ctx context.Context, d *app.Deps, cmd *cli.Command) error {
	fmt.Fprint(d.Stdout, d.T("first_run.offer"))
	in := render.NewLines(d.Stdin)
	answer, err := in.ReadLine(ctx)
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil && answer == "": // Ctrl-D: no answer, the help
		fmt.Fprintln(d.Stdout)
		return cli.ShowRootCommandHelp(cmd)
	}
	if acceptsOffer(answer) {
		return runInitWizard(ctx, d, in)
	}
	fmt.Fprintln(d.Stdout, d.T("first_run.declined"))
	fmt.Fprintln(d.Stdout)
	return cli.ShowRootCommandHelp(cmd)
}

// acceptsOffer reads the answer to a [Y/n] question: yes unless it starts
// with n (or いいえ).
func acceptsOffer(answer string) bool {
	a := strings.ToLower(strings.TrimSpace(answer))
	return !strings.HasPrefix(a, "n") && !strings.HasPrefix(a, "いいえ")
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
