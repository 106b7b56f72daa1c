package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/alfredpkg"
	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/iostreams"
	"github.com/gds-cli/gds/internal/launcher"
	"github.com/gds-cli/gds/internal/sysopen"
)

// alfredPackageOptions are the flags of `gds alfred workflow` and
// `gds alfred install`.
type alfredPackageOptions struct {
	Output  string // file, or an existing directory to put gds.alfredworkflow in
	Version string
}

// opener opens a file with the desktop (macOS `open`); nil where there is none.
type opener func(ctx context.Context, path string) error

// alfredWorkflowCommand is `gds alfred workflow`: write the package.
func alfredWorkflowCommand(d *app.Deps) *cli.Command {
	return &cli.Command{
		Name:  "workflow",
		Usage: d.T("cmd.alfred.workflow.usage"),
		Flags: []cli.Flag{&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: alfredpkg.FileName, Usage: d.T("flag.alfred.output"), TakesFile: true}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			_, err := runAlfredWorkflow(d, alfredPackageOptions{Output: cmd.String("output"), Version: cmd.Root().Version})
			return err
		},
	}
}

// alfredInstallCommand is `gds alfred install`: write the package to the
// gds home and open it (Alfred imports it).
func alfredInstallCommand(d *app.Deps) *cli.Command {
	return &cli.Command{
		Name:  "install",
		Usage: d.T("cmd.alfred.install.usage"),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			var open opener
			if osScheduleEnv().GOOS == "darwin" {
				open = sysopen.New(d.Stdout).Open
			}
			return runAlfredInstall(ctx, d, cmd.Root().Version, open)
		},
	}
}

func runAlfredWorkflow(d *app.Deps, opts alfredPackageOptions) (string, error) {
	p, err := alfredpkg.WriteFile(opts.Output, opts.Version)
	if err != nil {
		return "", err
	}
	fmt.Fprintln(d.Stdout, d.T("alfred.written", p))
	return p, nil
}

func runAlfredInstall(ctx context.Context, d *app.Deps, version string, open opener) error {
	cfg, err := d.RequireConfig()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return fmt.Errorf("create the gds data directory %s: %w", cfg.DataDir, err)
	}
	p, err := runAlfredWorkflow(d, alfredPackageOptions{Output: cfg.DataDir, Version: version})
	if err != nil {
		return err
	}
	if open == nil {
		fmt.Fprintln(d.Stdout, d.T("alfred.open_manually", p))
		return nil
	}
	if err := open(ctx, p); err != nil {
		return err
	}
	fmt.Fprintln(d.Stdout, d.T("alfred.opened", p))
	return nil
}

func newAlfredCommand(d *app.Deps, info buildInfo) *cli.Command {
	return &cli.Command{
		Name:        "alfred",
		Usage:       d.T("cmd.alfred.usage"),
		Description: d.T("cmd.alfred.desc"),
		Commands: []*cli.Command{
			{
				Name:      "filter",
				Usage:     d.T("cmd.alfred.filter.usage"),
				ArgsUsage: "[QUERY]",
				Flags: []cli.Flag{&cli.StringFlag{Name: "state", Usage: d.T("flag.search.state")},
					&cli.StringFlag{Name: "folder", Usage: d.T("flag.alfred.folder"), Sources: cli.EnvVars(launcher.FolderEnv)}},
				Action: alfredFilterAction(d),
			},
			alfredWorkflowCommand(d),
			alfredInstallCommand(d),
			{
				Name:   "keyserver",
				Usage:  d.T("cmd.alfred.keyserver.usage"),
				Hidden: true, // the front starts it
				Action: func(ctx context.Context, cmd *cli.Command) error { return d.ServeKeys(ctx, info, servedRun(info)) },
			},
		},
	}
}

// servedRun runs a command line the keystroke server was sent (a full
// search: launcher.Served) as this binary would run it, with fresh
// dependencies writing to stdout and stderr.
func servedRun(info buildInfo) func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
		return run(ctx, app.FromOS(iostreams.Captured(stdout, stderr)), append([]string{"gds"}, args...), info)
	}
}
