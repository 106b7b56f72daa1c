package main

import (
	"context"
	"fmt"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/auth"
	"github.com/gds-cli/gds/internal/render"
)

// authLoginOptions are the flags of `gds auth login`.
type authLoginOptions struct {
	NoBrowser bool
	Timeout   time.Duration
}

// authStatusOptions are the flags of `gds auth status`.
type authStatusOptions struct {
	JSON  bool
	Check bool
}

// authLogoutOptions are the flags of `gds auth logout`.
type authLogoutOptions struct{ Revoke bool }

func newAuthCommand(d *app.Deps) *cli.Command {
	return &cli.Command{
		Name:        "auth",
		Usage:       d.T("cmd.auth.usage"),
		Description: d.T("cmd.auth.desc"),
		Commands: []*cli.Command{
			{
				Name:  "login",
				Usage: d.T("cmd.auth.login.usage"),
				Flags: []cli.Flag{
					&cli.BoolFlag{Name: "no-browser", Usage: d.T("flag.auth.no_browser")},
					&cli.DurationFlag{Name: "timeout", Value: auth.DefaultLoginTimeout, Usage: d.T("flag.auth.timeout")},
				},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					return runAuthLogin(ctx, d, authLoginOptions{NoBrowser: cmd.Bool("no-browser"), Timeout: cmd.Duration("timeout")})
				},
			},
			{
				Name:  "status",
				Usage: d.T("cmd.auth.status.usage"),
				Flags: []cli.Flag{jsonFlag(d), &cli.BoolFlag{Name: "check", Usage: d.T("flag.auth.check")}},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					return runAuthStatus(ctx, d, authStatusOptions{JSON: cmd.Bool("json"), Check: cmd.Bool("check")})
				},
			},
			{
				Name:  "logout",
				Usage: d.T("cmd.auth.logout.usage"),
				Flags: []cli.Flag{&cli.BoolFlag{Name: "revoke", Usage: d.T("flag.auth.revoke")}},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					return runAuthLogout(ctx, d, authLogoutOptions{Revoke: cmd.Bool("revoke")})
				},
			},
		},
	}
}

func runAuthLogin(ctx context.Context, d *app.Deps, opts authLoginOptions) error {
	loc, err := d.AuthLogin(ctx, app.AuthLoginRequest{
		NoBrowser: opts.NoBrowser,
		Timeout:   opts.Timeout,
		ShowURL:   func(u string) { render.AuthLoginURL(d.Stderr, u, opts.Timeout, d.Lang) },
		Warn:      func(err error) { fmt.Fprintln(d.Stderr, d.T("out.auth.browser_failed", err)) },
	})
	if err != nil {
		return err
	}
	render.AuthLoggedIn(d.Stdout, d.Stderr, loc, d.Lang)
	return nil
}

func runAuthStatus(ctx context.Context, d *app.Deps, opts authStatusOptions) error {
	st, problem, err := d.AuthStatus(ctx, opts.Check)
	if err != nil {
		return err
	}
	if opts.JSON {
		err = writeJSON(d, st)
	} else {
		err = render.AuthStatusText(d.Stdout, st, d.Lang)
	}
	if err != nil {
		return err
	}
	return problem
}

func runAuthLogout(ctx context.Context, d *app.Deps, opts authLogoutOptions) error {
	res, err := d.AuthLogout(ctx, opts.Revoke)
	if err != nil {
		return err
	}
	render.AuthLoggedOut(d.Stdout, res.Location, res.WasStored, res.Revoked, d.Lang)
	return nil
}
