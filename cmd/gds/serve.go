package main

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/server"
)

func newServeCommand(d *app.Deps, info buildInfo) *cli.Command {
	return &cli.Command{
		Name:        "serve",
		Usage:       d.T("cmd.serve.usage"),
		Description: d.T("cmd.serve.desc"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: server.DefaultAddr, Usage: d.T("flag.serve.addr")},
			&cli.StringFlag{Name: "token", Usage: d.T("flag.serve.token"), Sources: cli.EnvVars("GDS_SERVE_TOKEN")},
			&cli.StringFlag{Name: "cors-origin", Usage: d.T("flag.serve.cors")},
			&cli.StringSliceFlag{Name: "allow-host", Usage: d.T("flag.serve.allow_host"), Sources: cli.EnvVars("GDS_SERVE_ALLOW_HOSTS")},
			&cli.DurationFlag{Name: "upload-timeout", Value: server.DefaultUploadTimeout, Usage: d.T("flag.serve.upload_timeout")},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			addr := cmd.String("addr")
			if t := cmd.Duration("upload-timeout"); t <= 0 {
				return apperr.L(apperr.Usage, "serve.bad_upload_timeout", t.String())
			}
			opts := server.Options{
				Addr: addr, Token: cmd.String("token"), AllowHosts: cmd.StringSlice("allow-host"),
				CORSOrigin: cmd.String("cors-origin"), Version: info.Version, UploadTimeout: cmd.Duration("upload-timeout"),
				Log: d.Stderr,
			}
			if err := server.Check(opts); err != nil {
				return err
			}
			cfg, err := d.RequireConfig()
			if err != nil {
				return err
			}
			st, err := d.OpenStore(ctx)
			if err != nil {
				return err
			}
			defer st.Close()
			d.ShareStore(st)
			opts.UploadDir = cfg.UploadDir
			srv := server.New(d, opts)
			longStop(ctx, d, serveStopGrace)
			return srv.ListenAndServe(ctx, addr, func(a net.Addr) {
				fmt.Fprintln(d.Stderr, d.T("serve.listening", a.String()))
				d.NoteEmptyIndex(ctx, st)
			})
		},
	}
}

// serveStopGrace covers the server's drain of requests in flight (5 s).
const serveStopGrace = 7 * time.Second
