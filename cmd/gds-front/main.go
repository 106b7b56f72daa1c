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
// as the full CLI answers it (launcher.Answer): by the keystroke server
// when one runs for this index and build, else from the index directly —
// and then it starts the server for the keystrokes that follow.
func keystroke(cfg *config.Config, cerr error, lang, query, folder string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	source, _ := os.LookupEnv(launcher.AlfredSourceVar)
	t := launcher.Typing{Query: query, Lang: lang, Folder: folder, SourceVar: source, Home: os.Getenv("HOME"), Now: time.Now()}
	info := launcher.BuildInfo{Version: version, Commit: commit, Date: date}
	startServer := false
	if cerr == nil && query != "" && !launcher.KeyServerOff(os.LookupEnv) {
		sock := launcher.KeySocket(cfg)
		out, errb, ok, running := launcher.AskKeyServer(sock, info, cfg.IndexPath(), t, keyServerTimeout)
		if ok {
			os.Stderr.Write(errb)
			if _, err := os.Stdout.Write(out); err != nil {
				return fail(lang, err)
			}
			return apperr.ExitOK
		}
		startServer = !running && sock != ""
	}
	open := func(ctx context.Context) (launcher.Index, error) {
		if cerr != nil {
			return nil, cerr
		}
		return launcher.OpenIndex(ctx, cfg)
	}
	if err := launcher.Answer(ctx, os.Stdout, os.Stderr, cfg, open, t); err != nil {
		return fail(lang, err)
	}
	if startServer {
		if _, err := os.Stat(cfg.IndexPath()); err == nil {
			if exe, err := os.Executable(); err == nil {
				if core, err := launcher.CorePath(exe, os.Getenv); err == nil {
					_ = launcher.StartKeyServer(core, os.Environ()) // best effort: the next keystroke answers itself too
				}
			}
		}
	}
	return apperr.ExitOK
}

// keyServerTimeout bounds one exchange with the keystroke server; past it
// the front answers the keystroke itself.
const keyServerTimeout = 2 * time.Second

// fail prints err as the full CLI prints errors and returns its exit code.
func fail(lang string, err error) int {
	r := apperr.Describe(err, lang)
	fmt.Fprintln(os.Stderr, i18n.T(lang, i18n.ErrorPrefix)+r.Message)
	if r.Hint != "" {
		fmt.Fprintln(os.Stderr, i18n.T(lang, i18n.HintPrefix)+r.Hint)
	}
	return r.Exit
}
