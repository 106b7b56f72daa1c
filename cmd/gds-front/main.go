// Command gds-front is the installed `gds`: a small binary that answers the
// commands run most often — `gds version` and the Alfred keystroke path
// `gds alfred filter QUERY`, which the workflow starts on every key — and
// hands every other command line to the full CLI (cmd/gds, installed next
// to it as gds-core) with the same arguments, environment, standard streams
// and exit code (exec(2): the full CLI takes over the process).
//
// Why two binaries: a Go process runs the package initialisation of
// everything it links before main, and the full CLI links the AI client,
// the HTTP server, the Drive client, PDF and Office extraction and the
// Japanese dictionary. The front links internal/launcher only (see
// docs/ARCHITECTURE.md "Two binaries"; internal/archtest keeps it so).
//
// Release builds stamp both binaries alike:
//
//	go build -ldflags "-X main.version=1.2.3 -X main.commit=abc1234 -X main.date=2025-01-01T00:00:00Z" -o gds ./cmd/gds-front
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/launcher"
	"github.com/gds-cli/gds/internal/render/alfred"
)

// Stamped at build time, as in cmd/gds.
var (
	version = "dev"
	commit  = "dev"
	date    = "dev"
)

func main() {
	os.Exit(run(os.Args))
}

func run(args []string) int {
	lang := i18n.Detect(os.LookupEnv)
	act, typed := launcher.Route(args)
	switch act {
	case launcher.Version, launcher.VersionJSON:
		info := launcher.BuildInfo{Version: version, Commit: commit, Date: date}
		if err := launcher.WriteVersion(os.Stdout, info, act == launcher.VersionJSON); err != nil {
			return fail(lang, err)
		}
		return apperr.ExitOK
	case launcher.Keystroke:
		cfg, cerr := config.Load(config.OSOptions())
		if cerr == nil && cfg.UsesPostgres() {
			break // the Postgres store lives in the full CLI
		}
		return keystroke(cfg, cerr, lang, typed.Query, typed.FolderFrom(os.LookupEnv))
	}
	err := launcher.HandOver(args)
	return fail(lang, err)
}

// keystroke is `gds alfred filter [--folder F] QUERY` for a typed query,
// as the full CLI answers it (launcher.Alfred, launcher.RespondAlfred).
func keystroke(cfg *config.Config, cerr error, lang, query, folder string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	open := func(ctx context.Context) (launcher.Index, error) {
		if cerr != nil {
			return nil, cerr
		}
		return launcher.OpenIndex(ctx, cfg)
	}
	err := launcher.RespondAlfred(os.Stdout, os.Stderr, cfg, lang, func() (alfred.Output, error) {
		sources, err := launcher.AlfredSources(os.LookupEnv)
		if err != nil {
			return alfred.Output{}, err
		}
		return launcher.Alfred(ctx, open, launcher.Request{Query: query, Lang: lang, Now: time.Now(), Limit: launcher.AlfredLimit,
			Home: os.Getenv("HOME"), Sources: sources, Folder: folder})
	})
	if err != nil {
		return fail(lang, err)
	}
	return apperr.ExitOK
}

// fail prints err as the full CLI prints errors and returns its exit code.
func fail(lang string, err error) int {
	r := apperr.Describe(err, lang)
	fmt.Fprintln(os.Stderr, i18n.T(lang, i18n.ErrorPrefix)+r.Message)
	if r.Hint != "" {
		fmt.Fprintln(os.Stderr, i18n.T(lang, i18n.HintPrefix)+r.Hint)
	}
	return r.Exit
}
