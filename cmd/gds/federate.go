package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/render"
)

// federateOptions are the parsed flags and arguments of `gds federate`.
type federateOptions struct {
	Question   string
	JSON       bool
	Mock       bool
	Debug      bool
	ConfigPath string
	InitConfig bool
	Force      bool
}

func newFederateCommand(d *app.Deps) *cli.Command {
	return &cli.Command{
		Name:        "federate",
		Usage:       d.T("cmd.federate.usage"),
		Description: d.T("cmd.federate.desc"),
		ArgsUsage:   "[QUESTION]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "mock", Usage: d.T("flag.federate.mock")},
			&cli.BoolFlag{Name: "json", Usage: d.T("flag.federate.json")},
			&cli.StringFlag{Name: "config", Usage: d.T("flag.federate.config")},
			&cli.BoolFlag{Name: "init-config", Usage: d.T("flag.federate.init_config")},
			&cli.BoolFlag{Name: "force", Usage: d.T("flag.federate.force")},
			&cli.BoolFlag{Name: "debug", Usage: d.T("flag.federate.debug")},
		},
		Commands: []*cli.Command{{
			Name:      "mock-server",
			Usage:     d.T("cmd.federate.mock.usage"),
			ArgsUsage: "KIND",
			Hidden:    true,
			Action: func(ctx context.Context, cmd *cli.Command) error {
				if cmd.Args().Len() != 1 {
					return usageError{err: errors.New(d.T("federate.mock_kind"))}
				}
				return d.RunMockServer(ctx, cmd.Args().First())
			},
		}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runFederate(ctx, d, federateOptions{
				Question:   strings.TrimSpace(strings.Join(cmd.Args().Slice(), " ")),
				JSON:       cmd.Bool("json"),
				Mock:       cmd.Bool("mock"),
				Debug:      cmd.Bool("debug"),
				ConfigPath: cmd.String("config"),
				InitConfig: cmd.Bool("init-config"),
				Force:      cmd.Bool("force"),
			})
		},
	}
}

func runFederate(ctx context.Context, d *app.Deps, o federateOptions) error {
	if o.InitConfig {
		p, err := d.InitFederateConfig(o.ConfigPath, o.Force)
		if err != nil {
			return err
		}
		fmt.Fprintln(d.Stderr, d.T("federate.config_written", p))
		return nil
	}
	if o.Question == "" && (o.JSON || !d.StdinTTY) {
		return usageError{err: errors.New(d.T("federate.no_question"))}
	}
	out := d.Stdout
	if o.JSON {
		out = nil // the summary is in the JSON document, not streamed
	}
	f, err := d.OpenFederation(ctx, app.FederateOptions{ConfigPath: o.ConfigPath, Mock: o.Mock, Debug: o.Debug,
		OnEvent: render.FederateProgress(d.Stderr, out, d.Lang)})
	if err != nil {
		return err
	}
	defer f.Close()
	if f.TracePath != "" {
		fmt.Fprintln(d.Stderr, d.T("federate.trace", f.TracePath))
	}
	one := func(ctx context.Context, q string) error {
		res, err := f.Ask(ctx, q)
		if o.JSON {
			if err != nil {
				return err
			}
			return writeJSON(d, res)
		}
		render.FederateText(d.Stdout, res, d.Lang)
		return err
	}
	if o.Question != "" {
		return one(ctx, o.Question)
	}
	// The REPL (the one gds search and gds ask use): one process, the
	// servers kept running between questions; Ctrl-C cancels a question,
	// a second one at the prompt, an empty line or Ctrl-D ends it.
	return render.RunREPL(ctx, &render.REPL{
		Lines: render.NewLines(d.Stdin), Msgs: d.Stderr, T: d.T, Prompt: "federate.prompt",
		Run: one, OnError: func(err error) { printError(d, err) },
	})
}
