package main

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
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
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			addr, token := cmd.String("addr"), cmd.String("token")
			if err := server.CheckAddr(addr, token); err != nil {
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
			srv := server.New(d, server.Options{
				Token: token, CORSOrigin: cmd.String("cors-origin"), Version: info.Version,
				UploadDir: cfg.UploadDir, Log: d.Stderr,
			})
			longStop(ctx, d, serveStopGrace)
			return srv.ListenAndServe(ctx, addr, func(a net.Addr) {
				fmt.Fprintln(d.Stderr, d.T("serve.listening", a.String()))
			})
		},
	}
}

// serveStopGrace covers the server's drain of requests in flight (5 s).
const serveStopGrace = 7 * time.Second
