package main

import (
	"context"
	"fmt"
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

func newScheduleCommand(d *app.Deps) *cli.Command {
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
				Action: func(ctx context.Context, cmd *cli.Command) error {
					opts := scheduleOptions{Interval: cmd.Duration("interval"), Write: cmd.Bool("write"), Cron: cmd.Bool("cron")}
					return runScheduleInstall(ctx, d, opts, osScheduleEnv())
				},
			},
			{
				Name: "uninstall", Usage: d.T("cmd.schedule.uninstall.usage"),
				Action: func(ctx context.Context, _ *cli.Command) error {
					return runScheduleUninstall(ctx, d, osScheduleEnv())
				},
			},
			{
				Name: "status", Usage: d.T("cmd.schedule.status.usage"), Flags: []cli.Flag{jsonFlag(d)},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					return runScheduleStatus(ctx, d, scheduleOptions{JSON: cmd.Bool("json")}, osScheduleEnv())
				},
			},
			{
				Name: "run-now", Usage: d.T("cmd.schedule.run_now.usage"),
				Action: func(ctx context.Context, _ *cli.Command) error {
					return runScheduleRunNow(ctx, d, osScheduleEnv())
				},
			},
		},
	}
}

func runScheduleInstall(ctx context.Context, d *app.Deps, opts scheduleOptions, env scheduleEnv) error {
	res, err := d.ScheduleInstall(ctx, env, app.ScheduleRequest{Interval: opts.Interval, Write: opts.Write, Cron: opts.Cron})
	if err != nil {
		return err
	}
	render.ScheduleInstall(d.Stdout, d.Stderr, res, d.Lang)
	return nil
}

func runScheduleUninstall(ctx context.Context, d *app.Deps, env scheduleEnv) error {
	path, err := d.ScheduleUninstall(ctx, env)
	if err != nil {
		return err
	}
	render.ScheduleUninstalled(d.Stdout, path, d.Lang)
	return nil
}

func runScheduleRunNow(ctx context.Context, d *app.Deps, env scheduleEnv) error {
	follow, err := d.ScheduleRunNow(ctx, env)
	if err != nil {
		return err
	}
	fmt.Fprintln(d.Stdout, d.T("schedule.started", follow))
	return nil
}

func runScheduleStatus(ctx context.Context, d *app.Deps, opts scheduleOptions, env scheduleEnv) error {
	st, err := d.ScheduleStatus(ctx, env)
	if err != nil {
		return err
	}
	if opts.JSON {
		return writeJSON(d, st)
	}
	render.ScheduleStatus(d.Stdout, st, d.Lang)
	return nil
}
