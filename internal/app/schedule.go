package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/schedule"
)

// ScheduleRequest is one `gds schedule install`.
type ScheduleRequest struct {
	Interval time.Duration
	Write    bool // Linux: install the systemd units instead of printing them
	Cron     bool // a crontab line only
}

// scheduleBackend is the scheduler of env's system.
func (d *Deps) scheduleBackend(env schedule.Env) (schedule.Scheduler, error) {
	if b := env.Backend(); b != nil {
		return b, nil
	}
	return nil, errors.New(d.T("schedule.unsupported", env.GOOS))
}

// scheduledSources is the GDS_SOURCES a scheduled crawl must be given: the
// configured sources when they came from the environment of this process
// or a .env outside the gds home, which the scheduled crawl (GDS_HOME set,
// run from elsewhere) would not read; "" when the home .env or the
// default provides them.
func scheduledSources(cfg *config.Config) string {
	for _, name := range []string{config.EnvSources, config.EnvSource} {
		src := cfg.SourceOf(name)
		switch {
		case src.Kind == config.FromEnv,
			src.Kind == config.FromFile && filepath.Clean(src.Path) != filepath.Clean(cfg.EnvFilePath()):
			return config.FormatSources(cfg.Sources)
		case src.Kind == config.FromFile:
			return ""
		}
	}
	return ""
}

// ScheduleInstall installs the periodic crawl of this binary and
// configuration (launchd on macOS, systemd with Write on Linux), or
// returns what to install by hand.
func (d *Deps) ScheduleInstall(ctx context.Context, env schedule.Env, req ScheduleRequest) (schedule.InstallResult, error) {
	res := schedule.InstallResult{Interval: req.Interval}
	cfg, err := d.RequireConfig()
	if err != nil {
		return res, err
	}
	if req.Interval < schedule.MinInterval {
		return res, apperr.L(apperr.Usage, "schedule.bad_interval", req.Interval, schedule.MinInterval)
	}
	exe, err := env.Executable()
	if err != nil {
		return res, fmt.Errorf("find the gds binary: %w", err)
	}
	prog, err := schedule.ResolveProgram(exe, nil)
	if err != nil {
		return res, err
	}
	home, err := filepath.Abs(cfg.Home)
	if err != nil {
		return res, fmt.Errorf("resolve the gds home %s: %w", cfg.Home, err)
	}
	for _, f := range cfg.EnvFiles {
		if filepath.Dir(f) != filepath.Clean(cfg.Home) {
			res.Warnings = append(res.Warnings, schedule.EnvWarning{File: f, Home: home, HomeEnv: cfg.EnvFilePath()})
		}
	}
	spec := schedule.Spec{Program: prog, Interval: req.Interval, GDSHome: home, Sources: scheduledSources(cfg)}
	res.Program = prog
	if req.Cron {
		spec.LogDir = spec.GDSHome
		line, err := schedule.CronLine(spec)
		if err != nil {
			return res, apperr.Mark(err, apperr.Usage)
		}
		res.CronLine = line
		return res, nil
	}
	switch env.GOOS {
	case "darwin":
		l := schedule.Launchd{Runner: env.Runner, UID: env.UID, Home: env.UserHome}
		if err := l.Install(ctx, spec); err != nil {
			return res, err
		}
		res.Launchd = &schedule.Installed{Name: schedule.Label, Path: l.PlistPath(), Logs: l.LogDir()}
		return res, nil
	case "linux":
		s := schedule.Systemd{Runner: env.Runner, ConfigHome: env.ConfigHome}
		if req.Write {
			if err := s.Install(ctx, spec); err != nil {
				return res, err
			}
			res.Systemd = &schedule.Installed{Name: schedule.SystemdUnit, Path: s.TimerPath(), Logs: "journalctl --user -u " + schedule.SystemdUnit}
			return res, nil
		}
		service, timer, err := schedule.RenderSystemdUnits(spec)
		if err != nil {
			return res, err
		}
		res.Units = []schedule.Unit{{Path: s.ServicePath(), Content: service}, {Path: s.TimerPath(), Content: timer}}
		spec.LogDir = spec.GDSHome
		if line, err := schedule.CronLine(spec); err == nil {
			res.CronLine = line
		}
		return res, nil
	}
	_, err = d.scheduleBackend(env)
	return res, err
}

// ScheduleUninstall removes the schedule; the path it removed, "" when
// none was installed.
func (d *Deps) ScheduleUninstall(ctx context.Context, env schedule.Env) (string, error) {
	b, err := d.scheduleBackend(env)
	if err != nil {
		return "", err
	}
	existed, err := b.Uninstall(ctx)
	if err != nil || !existed {
		return "", err
	}
	st, _ := b.Status(ctx)
	return st.Path, nil
}

// ScheduleRunNow starts the scheduled crawl now and returns the command
// that follows its log.
func (d *Deps) ScheduleRunNow(ctx context.Context, env schedule.Env) (string, error) {
	b, err := d.scheduleBackend(env)
	if err != nil {
		return "", err
	}
	if err := b.RunNow(ctx); err != nil {
		if errors.Is(err, schedule.ErrNotInstalled) {
			return "", apperr.L(apperr.NotFound, "schedule.not_installed").Wrap(err)
		}
		return "", err
	}
	if l, ok := b.(schedule.Launchd); ok {
		return "tail -f " + shellArg(filepath.Join(l.LogDir(), schedule.LogFileName)), nil
	}
	return "journalctl --user -u " + schedule.SystemdUnit + " -f", nil
}

// ScheduleStatus reports the schedule's state.
func (d *Deps) ScheduleStatus(ctx context.Context, env schedule.Env) (schedule.Status, error) {
	b, err := d.scheduleBackend(env)
	if err != nil {
		return schedule.Status{}, err
	}
	return b.Status(ctx)
}

// shellArg quotes p for a command the user copies into a shell.
func shellArg(p string) string {
	if !strings.ContainsAny(p, " '\"$`\\!&;|<>()*?[]{}~#") {
		return p
	}
	return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}
