package main

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/config"
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
					if err := checkNoArgs(d, cmd); err != nil {
						return err
					}
					return runConfigShow(d, configShowOptions{JSON: cmd.Bool("json")})
				},
			},
			{
				Name:  "path",
				Usage: d.T("cmd.config.path.usage"),
				Flags: []cli.Flag{jsonFlag(d)},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					if err := checkNoArgs(d, cmd); err != nil {
						return err
					}
					return runConfigPath(d, configPathOptions{JSON: cmd.Bool("json")})
				},
			},
		},
	}
}

// configShowJSON is the --json output of `gds config show`.
type configShowJSON struct {
	Home     string           `json:"home"`
	EnvFiles []string         `json:"env_files"`
	Settings []config.Setting `json:"settings"`
	// Problems are the configuration's problems, when it has any (the
	// settings then show every value that could be read).
	Problems []render.JSONError `json:"problems,omitempty"`
}

func runConfigShow(d *app.Deps, opts configShowOptions) error {
	cfg, err := d.RequireConfig()
	var problems []error
	if err != nil {
		// Show what can be read, then the problems (doctor sends users here).
		if d.LoadAllConfig == nil {
			return err
		}
		if cfg, problems = d.LoadAllConfig(); cfg == nil || len(problems) == 0 {
			return err
		}
	}
	if err := writeConfigShow(d, cfg, opts, problems); err != nil {
		return err
	}
	if len(problems) == 0 {
		return nil
	}
	// All but the last problem here; run prints the last and exits 3.
	for _, p := range problems[:len(problems)-1] {
		printError(d, p)
	}
	return problems[len(problems)-1]
}

func writeConfigShow(d *app.Deps, cfg *config.Config, opts configShowOptions, problems []error) error {
	settings := cfg.Settings()
	if opts.JSON {
		envFiles := cfg.EnvFiles
		if envFiles == nil {
			envFiles = []string{}
		}
		doc := configShowJSON{Home: cfg.Home, EnvFiles: envFiles, Settings: settings}
		for _, p := range problems {
			doc.Problems = append(doc.Problems, jsonError(d, p))
		}
		return writeJSON(d, doc)
	}
	fmt.Fprintf(d.Stdout, "%s: %s\n", d.T("out.config.home"), cfg.Home)
	files := d.T("out.config.none")
	if len(cfg.EnvFiles) > 0 {
		files = ""
		for i, f := range cfg.EnvFiles {
			if i > 0 {
				files += ", "
			}
			files += f
		}
	}
	fmt.Fprintf(d.Stdout, "%s: %s\n\n", d.T("out.config.env_files"), files)
	tw := tabwriter.NewWriter(d.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, d.T("out.config.header"))
	for _, s := range settings {
		v := s.Value
		if v == "" {
			v = d.T("out.config.unset")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Name, v, s.Source)
	}
	return tw.Flush()
}

// configPathJSON is the --json output of `gds config path`.
type configPathJSON struct {
	Home    string `json:"home"`
	EnvFile string `json:"env_file"`
	DataDir string `json:"data_dir"`
	Index   string `json:"index"`
}

func runConfigPath(d *app.Deps, opts configPathOptions) error {
	cfg, err := d.RequireConfig()
	if err != nil {
		return err
	}
	index := cfg.IndexPath()
	if cfg.UsesPostgres() {
		index = config.MaskURL(cfg.DatabaseURL)
	}
	out := configPathJSON{Home: cfg.Home, EnvFile: cfg.EnvFilePath(), DataDir: cfg.DataDir, Index: index}
	if opts.JSON {
		return writeJSON(d, out)
	}
	tw := tabwriter.NewWriter(d.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\t%s\n", d.T("out.path.home"), out.Home)
	fmt.Fprintf(tw, "%s\t%s\n", d.T("out.path.env"), out.EnvFile)
	fmt.Fprintf(tw, "%s\t%s\n", d.T("out.path.data"), out.DataDir)
	fmt.Fprintf(tw, "%s\t%s\n", d.T("out.path.index"), out.Index)
	return tw.Flush()
}

// writeJSON prints v as indented JSON on stdout.
func writeJSON(d *app.Deps, v any) error {
	return launcher.WriteJSON(d.Stdout, v)
}
