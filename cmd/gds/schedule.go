package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/schedule"
)

// scheduleOptions are the flags of `gds schedule install`.
type scheduleOptions struct {
	Interval time.Duration
	Write    bool // Linux: install the systemd units instead of printing them
	Cron     bool // print a crontab line
	JSON     bool
}

// scheduler is what the schedule commands need from a back end
// (schedule.Launchd, schedule.Systemd).
type scheduler interface {
	Install(ctx context.Context, s schedule.Spec) error
	Uninstall(ctx context.Context) (bool, error)
	Status(ctx context.Context) (schedule.Status, error)
	RunNow(ctx context.Context) error
}

// scheduleEnv is the outside world of the schedule commands; tests replace
// it (GOOS, directories, a fake runner, the binary path).
type scheduleEnv struct {
	GOOS       string
	UserHome   string
	ConfigHome string // $XDG_CONFIG_HOME or ~/.config (Linux)
	UID        int
	Runner     schedule.Runner
	Executable func() (string, error)
}

func osScheduleEnv() scheduleEnv {
	home, _ := os.UserHomeDir()
	cfgHome := os.Getenv("XDG_CONFIG_HOME")
	if cfgHome == "" || !filepath.IsAbs(cfgHome) {
		cfgHome = filepath.Join(home, ".config")
	}
	return scheduleEnv{GOOS: runtime.GOOS, UserHome: home, ConfigHome: cfgHome, UID: os.Getuid(), Runner: schedule.ExecRunner{}, Executable: os.Executable}
}

// backend returns the scheduler of this OS, or nil when there is none.
func (e scheduleEnv) backend() scheduler {
	switch e.GOOS {
	case "darwin":
		return schedule.Launchd{Runner: e.Runner, UID: e.UID, Home: e.UserHome}
	case "linux":
		return schedule.Systemd{Runner: e.Runner, ConfigHome: e.ConfigHome}
	}
	return nil
}

func (e scheduleEnv) requireBackend(d *app.Deps) (scheduler, error) {
	if b := e.backend(); b != nil {
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
	_, err = env.requireBackend(d)
	return err
}

func runScheduleUninstall(ctx context.Context, d *app.Deps, env scheduleEnv) error {
	b, err := env.requireBackend(d)
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
	b, err := env.requireBackend(d)
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
	b, err := env.requireBackend(d)
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
	if !st.Installed {
		fmt.Fprintln(d.Stdout, d.T("schedule.status.not_installed", st.Backend))
		return nil
	}
	yesNo := func(b bool) string {
		if b {
			return d.T("schedule.yes")
		}
		return d.T("schedule.no")
	}
	fmt.Fprintln(d.Stdout, d.T("schedule.status.installed", st.Backend, st.Path))
	if st.Program != "" {
		fmt.Fprintln(d.Stdout, d.T("schedule.status.program", st.Program))
	}
	if st.Interval > 0 {
		fmt.Fprintln(d.Stdout, d.T("schedule.status.interval", st.Interval))
	}
	fmt.Fprintln(d.Stdout, d.T("schedule.status.loaded", yesNo(st.Loaded)))
	fmt.Fprintln(d.Stdout, d.T("schedule.status.running", yesNo(st.Running)))
	last := d.T("schedule.status.never")
	if !st.LastRun.IsZero() {
		last = st.LastRun.Local().Format(time.DateTime)
	}
	fmt.Fprintln(d.Stdout, d.T("schedule.status.last_run", last))
	if st.LastExitCode != nil {
		fmt.Fprintln(d.Stdout, d.T("schedule.status.last_exit", *st.LastExitCode))
	}
	if st.LastLogLine != "" {
		fmt.Fprintln(d.Stdout, d.T("schedule.status.last_line", st.LastLogLine))
	}
	if st.LogPath != "" {
		fmt.Fprintln(d.Stdout, d.T("schedule.status.logs", st.LogPath+", "+st.ErrLogPath))
	}
	return nil
}

// shellArg quotes p for a command the user copies into a shell.
func shellArg(p string) string {
	if !strings.ContainsAny(p, " '\"$`\\!&;|<>()*?[]{}~#") {
		return p
	}
	return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}
