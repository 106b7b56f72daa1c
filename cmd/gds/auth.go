package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/auth"
	"github.com/gds-cli/gds/internal/render"
)

func newAuthCommand(d *app.Deps) *cli.Command {
	account := func() cli.Flag { return &cli.StringFlag{Name: "account", Usage: d.T("flag.auth.account")} }
	return &cli.Command{
		Name:        "auth",
		Usage:       d.T("cmd.auth.usage"),
		Description: d.T("cmd.auth.desc"),
		Commands: []*cli.Command{
			{
				Name:  "login",
				Usage: d.T("cmd.auth.login.usage"),
				Flags: []cli.Flag{
					account(),
					&cli.BoolFlag{Name: "no-browser", Usage: d.T("flag.auth.no_browser")},
					&cli.DurationFlag{Name: "timeout", Value: auth.DefaultLoginTimeout, Usage: d.T("flag.auth.timeout")},
				},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					return runAuthLogin(ctx, d, app.AuthLoginRequest{Account: cmd.String("account"), NoBrowser: cmd.Bool("no-browser"), Timeout: cmd.Duration("timeout")})
				},
			},
			{
				Name:  "status",
				Usage: d.T("cmd.auth.status.usage"),
				Flags: []cli.Flag{jsonFlag(d), &cli.BoolFlag{Name: "check", Usage: d.T("flag.auth.check")}},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					return runAuthStatus(ctx, d, cmd.Bool("json"), cmd.Bool("check"))
				},
			},
			{
				Name:  "logout",
				Usage: d.T("cmd.auth.logout.usage"),
				Flags: []cli.Flag{account(), &cli.BoolFlag{Name: "revoke", Usage: d.T("flag.auth.revoke")}},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					res, err := d.AuthLogout(ctx, cmd.String("account"), cmd.Bool("revoke"))
					if err == nil {
						render.AuthLoggedOut(d.Stdout, res.Location, res.WasStored, res.Revoked, d.Lang)
					}
					return err
				},
			},
		},
	}
}

func runAuthLogin(ctx context.Context, d *app.Deps, req app.AuthLoginRequest) error {
	req.ShowURL = func(u string) { render.AuthLoginURL(d.Stderr, u, req.Timeout, d.Lang) }
	req.Warn = func(err error) { fmt.Fprintln(d.Stderr, d.T("out.auth.browser_failed", err)) }
	loc, err := d.AuthLogin(ctx, req)
	if err != nil {
		return err
	}
	render.AuthLoggedIn(d.Stdout, d.Stderr, loc, d.Lang)
	return nil
}

func runAuthStatus(ctx context.Context, d *app.Deps, asJSON, check bool) error {
	rep, problem, err := d.AuthStatus(ctx, check)
	if err != nil {
		return err
	}
	if asJSON {
		err = writeJSON(d, rep)
	} else {
		err = render.AuthStatusText(d.Stdout, rep.Accounts, d.Lang)
	}
	if err != nil {
		return err
	}
	return problem
}
