package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/launcher"
	"github.com/gds-cli/gds/internal/render"
)

// configShowOptions are the flags of `gds config show`.
type configShowOptions struct{ JSON bool }

// configPathOptions are the flags of `gds config path`.
type configPathOptions struct{ JSON bool }

func newConfigCommand(d *app.Deps) *cli.Command {
	return &cli.Command{
		Name:        "config",
		Usage:       d.T("cmd.config.usage"),
		Description: d.T("cmd.config.desc"),
		Commands: []*cli.Command{
			{
				Name:  "show",
				Usage: d.T("cmd.config.show.usage"),
				Flags: []cli.Flag{jsonFlag(d)},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					return runConfigShow(d, configShowOptions{JSON: cmd.Bool("json")})
				},
			},
			{
				Name:  "path",
				Usage: d.T("cmd.config.path.usage"),
				Flags: []cli.Flag{jsonFlag(d)},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					return runConfigPath(d, configPathOptions{JSON: cmd.Bool("json")})
				},
			},
		},
	}
}

func runConfigShow(d *app.Deps, opts configShowOptions) error {
	cfg, problems, err := d.ConfigForShow()
	if err != nil {
		return err
	}
	var docProblems []render.JSONError
	for _, p := range problems {
		docProblems = append(docProblems, jsonError(d, p))
	}
	doc := render.NewConfigShowDoc(cfg, docProblems)
	if opts.JSON {
		err = writeJSON(d, doc)
	} else {
		err = render.ConfigShowText(d.Stdout, doc, d.Lang)
	}
	if err != nil || len(problems) == 0 {
		return err
	}
	// All but the last problem here; run prints the last and exits 3.
	for _, p := range problems[:len(problems)-1] {
		printError(d, p)
	}
	return problems[len(problems)-1]
}

func runConfigPath(d *app.Deps, opts configPathOptions) error {
	cfg, err := d.RequireConfig()
	if err != nil {
		return err
	}
	doc := render.NewConfigPathDoc(cfg)
	if opts.JSON {
		return writeJSON(d, doc)
	}
	return render.ConfigPathText(d.Stdout, doc, d.Lang)
}

// writeJSON prints v as indented JSON on stdout.
func writeJSON(d *app.Deps, v any) error {
	return launcher.WriteJSON(d.Stdout, v)
}
