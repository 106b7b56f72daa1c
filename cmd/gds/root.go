package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/cliflag"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/launcher"
	"github.com/gds-cli/gds/internal/manpage"
	"github.com/gds-cli/gds/internal/render"
)

// buildInfo is what `gds version` prints (shared with the front binary).
type buildInfo = launcher.BuildInfo

// run executes gds with args (args[0] is the program name) and returns the
// process exit code. Errors are printed here and nowhere else.
func run(ctx context.Context, d *app.Deps, args []string, info buildInfo) int {
	if d.Backfill == nil {
		d.Backfill = render.BackfillProgress(d.IOStreams)
	}
	root := newRootCommand(d, info)
	if len(args) > 0 {
		cliflag.Install(root, args[1:])
	}
	err := root.Run(ctx, args)
	if err == nil {
		return apperr.ExitOK
	}
	var (
		ae  actionError
		cec cli.ExitCoder
	)
	switch {
	case ctx.Err() != nil:
		err = errInterrupted{cause: err}
	case errors.Is(err, apperr.Usage):
	case !errors.As(err, &ae), errors.As(err, &cec):
		// Not from an Action: the flag parser (unknown flag, bad value,
		// missing or clashing flags), or cli's own exit errors.
		err = usageError{err: err}
	}
	if !errors.As(err, &ae) && errors.Is(err, apperr.Usage) && len(args) > 1 && cliflag.WantsJSON(args[1:]) {
		// The parser refused the command line of a --json run: stdout
		// still gets the JSON error document.
		_ = render.WriteJSON(d.Stdout, render.ErrorDoc{Error: jsonError(d, err)})
	}
	printError(d, err)
	return exitCode(err)
}

// newRootCommand builds the command tree; help texts follow d.Lang.
func newRootCommand(d *app.Deps, info buildInfo) *cli.Command {
	t := func(k i18n.Key) string { return d.T(k) }
	root := &cli.Command{
		Name:                  "gds",
		Usage:                 t("cmd.root.usage"),
		Description:           t("cmd.root.desc"),
		Version:               info.Version,
		Reader:                d.Stdin,
		Writer:                d.Stdout,
		ErrWriter:             d.Stderr,
		EnableShellCompletion: true, ConfigureShellCompletionCommand: manpage.Completion(d.Lang),
		Suggest: true,
		// Errors are printed and mapped to exit codes by run, not by cli.
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Present() {
				return cliflag.UnknownCommand(cmd, cmd.Args().First())
			}
			if d.NeedsInit() && d.StdinTTY && d.StdoutTTY {
				in := render.NewLines(d.Stdin)
				if yes, err := render.OfferInit(ctx, in, d.Stdout, d.Lang); err != nil {
					return err
				} else if yes {
					return runInitWizard(ctx, d, in)
				}
			}
			return cli.ShowRootCommandHelp(cmd)
		},
		Commands: []*cli.Command{
			newInitCommand(d),
			newSearchCommand(d),
			newAskCommand(d),
			newGraphCommand(d),
			newCrawlCommand(d),
			newAuthCommand(d),
			newScheduleCommand(d),
			newAlfredCommand(d, info),
			newConfigCommand(d),
			newDBCommand(d),
			newDoctorCommand(d),
			newEvalCommand(d),
			newServeCommand(d, info),
			newMCPCommand(d, info),
			newFederateCommand(d),
			newVersionCommand(d, info), manpage.Command(d.Stdout),
		},
	}
	// Usage errors of every command become usageError, printed once by run
	// (instead of cli printing "Incorrect Usage" and the whole help).
	// Actions' errors are marked, so run tells them from the parser's.
	_ = root.Walk(func(c *cli.Command) error {
		c.OnUsageError = func(_ context.Context, _ *cli.Command, err error, _ bool) error {
			return usageError{err: err}
		}
		if c.Action == nil && len(c.Commands) > 0 && c != root {
			// A group (`gds db`): a mistyped subcommand gets a suggestion
			// instead of cli's "No help topic".
			c.Action = func(ctx context.Context, cmd *cli.Command) error {
				if cmd.Args().Present() {
					return cliflag.UnknownCommand(cmd, cmd.Args().First())
				}
				return cli.ShowSubcommandHelp(cmd)
			}
		}
		if act := c.Action; act != nil {
			// A command that declares no ArgsUsage takes no arguments.
			noArgs := c.ArgsUsage == "" && len(c.Commands) == 0
			c.Action = func(ctx context.Context, cmd *cli.Command) error {
				if err := checkNoArgs(d, cmd); noArgs && err != nil {
					return actionError{err: err}
				}
				if err := act(ctx, cmd); err != nil {
					return actionError{err: err}
				}
				return nil
			}
		}
		return nil
	})
	return root
}

// checkNoArgs returns a usage error when cmd got positional arguments.
func checkNoArgs(d *app.Deps, cmd *cli.Command) error {
	if cmd.Args().Present() {
		return usageError{err: fmt.Errorf("%s", d.T("err.extra_args", cmd.FullName(), strings.Join(cmd.Args().Slice(), " ")))}
	}
	return nil
}

// jsonFlag is the --json flag shared by several commands.
func jsonFlag(d *app.Deps) *cli.BoolFlag {
	return &cli.BoolFlag{Name: "json", Usage: d.T("flag.json")}
}
