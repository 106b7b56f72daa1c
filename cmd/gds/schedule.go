package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/render"
	"github.com/gds-cli/gds/internal/schedule"
)

// scheduleOptions are the flags of `gds schedule install`.
type scheduleOptions struct {
	Interval time.Duration
	Write    bool // Linux: install the systemd units instead of printing them
	Cron     bool // print a crontab line
	JSON     bool
}

// scheduleEnv is the outside world of the schedule commands; tests
// replace it (GOOS, directories, a fake runner, the binary path).
type scheduleEnv = schedule.Env

func osScheduleEnv() scheduleEnv { return schedule.OSEnv() }

func requireBackend(d *app.Deps, e scheduleEnv) (schedule.Scheduler, error) {
	if b := e.Backend(); b != nil {
		return b, nil
	}
	return nil, errors.New(d.T("schedule.unsupported", e.GOOS))
}

func newScheduleCommand(d *app.Deps) *cli.Command {
	noArgs := func(run func(ctx context.Context, cmd *cli.Command) error) cli.ActionFunc {
		return func(ctx context.Context, cmd *cli.Command) error {
			if err := checkNoArgs(d, cmd); err != nil {
				return err
			}
			return run(ctx, cmd)
		}
	}
	return &cli.Command{
		Name:        "schedule",
		Usage:       d.T("cmd.schedule.usage"),
		Description: d.T("cmd.schedule.desc"),
		Commands: []*cli.Command{
			{
				Name:  "install",
				Usage: d.T("cmd.schedule.install.usage"),
				Flags: []cli.Flag{
					&cli.DurationFlag{Name: "interval", Value: schedule.DefaultInterval, Usage: d.T("flag.schedule.interval")},
					&cli.BoolFlag{Name: "write", Usage: d.T("flag.schedule.write")},
					&cli.BoolFlag{Name: "cron", Usage: d.T("flag.schedule.cron")},
				},
				Action: noArgs(func(ctx context.Context, cmd *cli.Command) error {
					opts := scheduleOptions{Interval: cmd.Duration("interval"), Write: cmd.Bool("write"), Cron: cmd.Bool("cron")}
					return runScheduleInstall(ctx, d, opts, osScheduleEnv())
				}),
			},
			{
				Name: "uninstall", Usage: d.T("cmd.schedule.uninstall.usage"),
				Action: noArgs(func(ctx context.Context, _ *cli.Command) error {
					return runScheduleUninstall(ctx, d, osScheduleEnv())
				}),
			},
			{
				Name: "status", Usage: d.T("cmd.schedule.status.usage"), Flags: []cli.Flag{jsonFlag(d)},
				Action: noArgs(func(ctx context.Context, cmd *cli.Command) error {
					return runScheduleStatus(ctx, d, scheduleOptions{JSON: cmd.Bool("json")}, osScheduleEnv())
				}),
			},
			{
				Name: "run-now", Usage: d.T("cmd.schedule.run_now.usage"),
				Action: noArgs(func(ctx context.Context, _ *cli.Command) error {
					return runScheduleRunNow(ctx, d, osScheduleEnv())
				}),
			},
		},
	}
}

// scheduleSpec builds the spec for this gds binary and configuration.
func scheduleSpec(d *app.Deps, opts scheduleOptions, env scheduleEnv) (schedule.Spec, error) {
	cfg, err := d.RequireConfig()
	if err != nil {
		return schedule.Spec{}, err
	}
	if opts.Interval < schedule.MinInterval {
		return schedule.Spec{}, usageError{err: fmt.Errorf("--interval %s: at least %s", opts.Interval, schedule.MinInterval)}
	}
	exe, err := env.Executable()
	if err != nil {
		return schedule.Spec{}, fmt.Errorf("find the gds binary: %w", err)
	}
	prog, err := schedule.ResolveProgram(exe, nil)
	if err != nil {
		return schedule.Spec{}, err
	}
	home, err := filepath.Abs(cfg.Home)
	if err != nil {
		return schedule.Spec{}, fmt.Errorf("resolve the gds home %s: %w", cfg.Home, err)
	}
	// The scheduled crawl sees GDS_HOME's .env only: warn about settings
	// that came from the current directory's .env.
	for _, f := range cfg.EnvFiles {
		if filepath.Dir(f) != filepath.Clean(cfg.Home) {
			fmt.Fprintln(d.Stderr, d.T("schedule.cwd_env_warning", f, home, cfg.EnvFilePath()))
		}
	}
	return schedule.Spec{Program: prog, Interval: opts.Interval, GDSHome: home}, nil
}

func runScheduleInstall(ctx context.Context, d *app.Deps, opts scheduleOptions, env scheduleEnv) error {
	spec, err := scheduleSpec(d, opts, env)
	if err != nil {
		return err
	}
	if opts.Cron {
		spec.LogDir = spec.GDSHome
		line, err := schedule.CronLine(spec)
		if err != nil {
			return usageError{err: err}
		}
		fmt.Fprintln(d.Stdout, line)
		return nil
	}
	switch env.GOOS {
	case "darwin":
		l := schedule.Launchd{Runner: env.Runner, UID: env.UID, Home: env.UserHome}
		if err := l.Install(ctx, spec); err != nil {
			return err
		}
		fmt.Fprintln(d.Stdout, d.T("schedule.installed", schedule.Label, opts.Interval))
		fmt.Fprintln(d.Stdout, d.T("schedule.paths", l.PlistPath(), spec.Program, l.LogDir()))
		return nil
	case "linux":
		s := schedule.Systemd{Runner: env.Runner, ConfigHome: env.ConfigHome}
		if opts.Write {
			if err := s.Install(ctx, spec); err != nil {
				return err
			}
			fmt.Fprintln(d.Stdout, d.T("schedule.installed.systemd", schedule.SystemdUnit, opts.Interval))
			fmt.Fprintln(d.Stdout, d.T("schedule.paths", s.TimerPath(), spec.Program, "journalctl --user -u "+schedule.SystemdUnit))
			return nil
		}
		service, timer, err := schedule.RenderSystemdUnits(spec)
		if err != nil {
			return err
		}
		fmt.Fprintln(d.Stdout, d.T("schedule.linux.intro"))
		fmt.Fprintf(d.Stdout, "# %s\n%s\n# %s\n%s\n", s.ServicePath(), service, s.TimerPath(), timer)
		spec.LogDir = spec.GDSHome
		if line, err := schedule.CronLine(spec); err == nil {
			fmt.Fprintln(d.Stdout, d.T("schedule.linux.cron"))
			fmt.Fprintln(d.Stdout, line)
		} else {
			fmt.Fprintln(d.Stdout, d.T("schedule.linux.cron_none", opts.Interval))
		}
		return nil
	}
	_, err = requireBackend(d, env)
	return err
}

func runScheduleUninstall(ctx context.Context, d *app.Deps, env scheduleEnv) error {
	b, err := requireBackend(d, env)
	if err != nil {
		return err
	}
	existed, err := b.Uninstall(ctx)
	if err != nil {
		return err
	}
	if !existed {
		fmt.Fprintln(d.Stdout, d.T("schedule.nothing_removed"))
		return nil
	}
	st, _ := b.Status(ctx)
	fmt.Fprintln(d.Stdout, d.T("schedule.removed", st.Path))
	return nil
}

func runScheduleRunNow(ctx context.Context, d *app.Deps, env scheduleEnv) error {
	b, err := requireBackend(d, env)
	if err != nil {
		return err
	}
	if err := b.RunNow(ctx); err != nil {
		if errors.Is(err, schedule.ErrNotInstalled) {
			return fmt.Errorf("%s: %w", d.T("schedule.not_installed"), err)
		}
		return err
	}
	follow := "journalctl --user -u " + schedule.SystemdUnit + " -f"
	if l, ok := b.(schedule.Launchd); ok {
		follow = "tail -f " + shellArg(filepath.Join(l.LogDir(), schedule.LogFileName))
	}
	fmt.Fprintln(d.Stdout, d.T("schedule.started", follow))
	return nil
}

func runScheduleStatus(ctx context.Context, d *app.Deps, opts scheduleOptions, env scheduleEnv) error {
	b, err := requireBackend(d, env)
	if err != nil {
		return err
	}
	st, err := b.Status(ctx)
	if err != nil {
		return err
	}
	if opts.JSON {
		return writeJSON(d, st)
	}
	render.ScheduleStatus(d.Stdout, st, d.Lang)
	return nil
}

// shellArg quotes p for a command the user copies into a shell.
func shellArg(p string) string {
	if !strings.ContainsAny(p, " '\"$`\\!&;|<>()*?[]{}~#") {
		return p
	}
	return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}
