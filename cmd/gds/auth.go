package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/auth"
	"github.com/gds-cli/gds/internal/i18n"
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
					if err := checkNoArgs(d, cmd); err != nil {
						return err
					}
					return runAuthLogin(ctx, d, authLoginOptions{NoBrowser: cmd.Bool("no-browser"), Timeout: cmd.Duration("timeout")})
				},
			},
			{
				Name:  "status",
				Usage: d.T("cmd.auth.status.usage"),
				Flags: []cli.Flag{jsonFlag(d), &cli.BoolFlag{Name: "check", Usage: d.T("flag.auth.check")}},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					if err := checkNoArgs(d, cmd); err != nil {
						return err
					}
					return runAuthStatus(ctx, d, authStatusOptions{JSON: cmd.Bool("json"), Check: cmd.Bool("check")})
				},
			},
			{
				Name:  "logout",
				Usage: d.T("cmd.auth.logout.usage"),
				Flags: []cli.Flag{&cli.BoolFlag{Name: "revoke", Usage: d.T("flag.auth.revoke")}},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					if err := checkNoArgs(d, cmd); err != nil {
						return err
					}
					return runAuthLogout(ctx, d, authLogoutOptions{Revoke: cmd.Bool("revoke")})
				},
			},
		},
	}
}

// authClient returns the configured OAuth client.
func authClient(d *app.Deps) (auth.Client, error) {
	cfg, err := d.RequireConfig()
	if err != nil {
		return auth.Client{}, err
	}
	return auth.Client{ID: cfg.OAuthClientID, Secret: cfg.OAuthClientSecret}, nil
}

func runAuthLogin(ctx context.Context, d *app.Deps, opts authLoginOptions) error {
	if opts.Timeout <= 0 {
		return usageError{err: fmt.Errorf("--timeout must be positive, got %s", opts.Timeout)}
	}
	client, err := authClient(d)
	if err != nil {
		return err
	}
	store, err := d.TokenStore()
	if err != nil {
		return err
	}
	opener := d.OpenBrowser
	if opts.NoBrowser {
		opener = nil
	}
	_, err = auth.Login(ctx, auth.LoginOptions{
		Client:    client,
		Endpoints: d.OAuthEndpoints,
		Store:     store,
		ShowURL: func(u string) {
			// The URL carries the client ID, state and PKCE challenge,
			// none of them secret; it goes to stderr with the prompts.
			fmt.Fprintln(d.Stderr, d.T("out.auth.open_url", opts.Timeout))
			fmt.Fprintln(d.Stderr, "  "+u)
		},
		OpenBrowser: opener,
		Warn:        func(err error) { fmt.Fprintln(d.Stderr, d.T("out.auth.browser_failed", err)) },
		Timeout:     opts.Timeout,
		Now:         d.Now,
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(d.Stdout, d.T("out.auth.logged_in", store.Location()))
	fmt.Fprintln(d.Stderr, d.T("out.auth.testing_note"))
	return nil
}

func runAuthStatus(ctx context.Context, d *app.Deps, opts authStatusOptions) error {
	client, err := authClient(d)
	if err != nil {
		return err
	}
	store, err := d.TokenStore()
	if err != nil {
		return err
	}
	st, err := auth.Inspect(ctx, store, client.ID)
	if err != nil {
		return err
	}
	var checkErr error
	if opts.Check && st.LoggedIn {
		st.Checked = true
		s, err := auth.OpenSession(ctx, auth.SessionOptions{Client: client, Endpoints: d.OAuthEndpoints, Store: store})
		if err == nil {
			err = s.Verify()
		}
		if err != nil {
			checkErr = err
			st.Problem = apperr.Message(err, d.Lang)
		} else {
			st.Valid = true
		}
	}
	if opts.JSON {
		if err := writeJSON(d, st); err != nil {
			return err
		}
		return checkErr
	}
	tw := tabwriter.NewWriter(d.Stdout, 0, 4, 2, ' ', 0)
	row := func(k i18n.Key, v string) { fmt.Fprintf(tw, "%s:\t%s\n", d.T(k), v) }
	if !st.LoggedIn {
		row("out.auth.status.state", d.T("out.auth.status.out"))
		row("out.auth.status.store", st.Store)
		return tw.Flush()
	}
	row("out.auth.status.state", d.T("out.auth.status.in"))
	row("out.auth.status.store", st.Store)
	if st.ClientMatches {
		row("out.auth.status.client", st.ClientID)
	} else {
		row("out.auth.status.client", d.T("out.auth.status.other", st.ClientID))
	}
	row("out.auth.status.scopes", strings.Join(st.Scopes, " "))
	if st.ObtainedAt != nil {
		row("out.auth.status.since", st.ObtainedAt.Local().Format(time.RFC3339))
	}
	if st.AccessExpiry != nil {
		row("out.auth.status.expiry", st.AccessExpiry.Local().Format(time.RFC3339))
	}
	if st.HasRefreshToken {
		row("out.auth.status.refresh", d.T("out.auth.status.yes"))
	} else {
		row("out.auth.status.refresh", d.T("out.auth.status.no"))
	}
	if st.Checked {
		if st.Valid {
			row("out.auth.status.check", d.T("out.auth.status.ok"))
		} else {
			row("out.auth.status.check", st.Problem)
		}
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write the status: %w", err)
	}
	return checkErr
}

func runAuthLogout(ctx context.Context, d *app.Deps, opts authLogoutOptions) error {
	store, err := d.TokenStore()
	if err != nil {
		return err
	}
	rec, err := store.Load(ctx)
	if errors.Is(err, auth.ErrNotLoggedIn) {
		fmt.Fprintln(d.Stdout, d.T("out.auth.not_stored", store.Location()))
		return nil
	}
	if err != nil && opts.Revoke {
		return err
	}
	if opts.Revoke {
		tok := rec.Token.RefreshToken // revoking it ends the whole grant
		if tok == "" {
			tok = rec.Token.AccessToken
		}
		// On failure the token is kept so that --revoke can be retried.
		if err := auth.Revoke(ctx, nil, d.OAuthEndpoints.RevokeURL, tok); err != nil {
			return err
		}
		fmt.Fprintln(d.Stdout, d.T("out.auth.revoked"))
	}
	if err := store.Delete(ctx); err != nil {
		return err
	}
	fmt.Fprintln(d.Stdout, d.T("out.auth.logged_out", store.Location()))
	return nil
}
