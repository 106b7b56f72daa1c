// Command gds-front is the installed `gds`: a small binary that answers the
// commands run most often — `gds version`, and the Alfred keystroke path
// `gds alfred filter QUERY`, which the workflow starts on every key, by
// asking the keystroke server (gds-core's `alfred keyserver`, which keeps
// the index open) over a Unix socket — and hands every other command line,
// and a keystroke no server answers, to the full CLI (cmd/gds, installed
// next to it as gds-core) with the same arguments, environment, standard
// streams and exit code (exec(2): the full CLI takes over the process).
//
// Why two binaries: a Go process runs the package initialisation of
// everything it links before main, and the full CLI links the AI client,
// the HTTP server, the Drive client, PDF and Office extraction, the SQLite
// driver and the Japanese dictionary. The front links internal/launcher
// and the Alfred renderer only (see docs/ARCHITECTURE.md "How a keystroke flows";
// internal/archtest keeps it so).
//
// Release builds stamp both binaries alike:
//
//	go build -ldflags "-X main.version=1.2.3 -X main.commit=abc1234 -X main.date=2025-01-01T00:00:00Z" -o gds ./cmd/gds-front
package main

import (
	"fmt"
	"os"
	"time"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
	"github.com/gds-cli/gds/internal/launcher"
	"github.com/gds-cli/gds/internal/render/scriptfilter"
	"github.com/gds-cli/gds/internal/termsafe"
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
	streams := iostreams.System()
	lang := streams.Lang
	act, typed := launcher.Route(args)
	switch act {
	case launcher.Version, launcher.VersionJSON:
		info := launcher.BuildInfo{Version: version, Commit: commit, Date: date}
		if err := launcher.WriteVersion(os.Stdout, info, act == launcher.VersionJSON); err != nil {
			return fail(lang, err)
		}
		return apperr.ExitOK
	case launcher.Served:
		if code, ok := runServed(streams, args); ok {
			return code
		}
	case launcher.Keystroke:
		served, start := serve(lang, typed)
		if served {
			return apperr.ExitOK
		}
		if start && typed.Query == "" {
			return prompt(lang)
		}
		if start {
			os.Setenv(launcher.StartServerEnv, "1") // the full CLI starts a server after answering
		}
		err := launcher.HandOver(args)
		// Alfred shows items only: say what is missing as one.
		_ = launcher.RespondAlfred(os.Stdout, os.Stderr, nil, lang, func() (scriptfilter.Output, error) { return scriptfilter.Output{}, err })
		return apperr.ExitOK
	}
	err := launcher.HandOver(args)
	return fail(lang, err)
}

// serve asks the keystroke server for `gds alfred filter [--folder F]
// QUERY` and prints its answer — the bytes the full CLI prints (both
// answer through keystroke.Answer). The front reads no configuration: it
// sends its environment and directory, and the server answers only when
// the configuration they give is its own (an SQLite index, the one it
// holds). served is false when no server answered: the server is turned
// off, or the one listening refused (another build, index or
// configuration: the full CLI answers, reports or serves those); start
// says that none listened at all, so the full CLI should start one (it
// does for an SQLite index that exists).
func serve(lang string, typed launcher.Typed) (served, start bool) {
	if launcher.KeyServerOff(os.LookupEnv) {
		return false, false
	}
	t := typing(lang, typed)
	info := launcher.BuildInfo{Version: version, Commit: commit, Date: date}
	sock := launcher.OSKeySocket()
	wd, _ := os.Getwd()
	out, errb, ok, running := launcher.AskKeyServer(sock, info, os.Environ(), wd, t, keyServerTimeout)
	if !ok {
		return false, !running && sock != ""
	}
	os.Stderr.Write(errb)
	os.Stdout.Write(out)
	return true, false
}

// prompt answers the keyword alone — Alfred runs the filter with an empty
// query before the first typed letter — when no keystroke server listens:
// it prints the item that asks for a query (the full CLI prints the same,
// reading no index; a bad Alfred source variable, which the full CLI
// reports here already, is reported at the first letter) and starts the
// server, so that it is up by the first letter (the server exits at once
// for a Postgres index).
func prompt(lang string) int {
	if err := launcher.RespondAlfred(os.Stdout, os.Stderr, nil, lang, func() (scriptfilter.Output, error) {
		return launcher.Prompt(lang), nil
	}); err != nil {
		return fail(lang, err)
	}
	if exe, err := os.Executable(); err == nil {
		if core, err := launcher.CorePath(exe, os.Getenv); err == nil {
			_ = launcher.StartKeyServer(core, os.Environ()) // best effort: else the first letter starts it
		}
	}
	return apperr.ExitOK
}

// typing is the keystroke typed, with the environment it is read in.
func typing(lang string, typed launcher.Typed) launcher.Typing {
	source, _ := os.LookupEnv(launcher.AlfredSourceVar)
	return launcher.Typing{Query: typed.Query, Lang: lang, Folder: typed.FolderFrom(os.LookupEnv), SourceVar: source, Home: os.Getenv("HOME"), Now: time.Now()}
}

// runServed asks the keystroke server to run a full search (a Served
// command line) and prints its output: the server runs it as the full CLI
// would, without its start-up. Only when neither stdin nor stdout is a
// terminal (Alfred, pipes, scripts): on a terminal the full CLI asks its
// clarifying questions and draws spinners. ok is false — the caller hands
// the command over — when no server runs it.
func runServed(streams iostreams.IOStreams, args []string) (code int, ok bool) {
	if streams.StdinTTY || streams.StdoutTTY || launcher.KeyServerOff(os.LookupEnv) {
		return 0, false
	}
	wd, err := os.Getwd()
	if err != nil {
		return 0, false
	}
	info := launcher.BuildInfo{Version: version, Commit: commit, Date: date}
	resp, ok := launcher.AskServed(launcher.OSKeySocket(), info, os.Environ(), wd, args[1:], servedTimeout)
	if !ok {
		return 0, false
	}
	os.Stderr.Write(resp.Stderr)
	os.Stdout.Write(resp.Stdout)
	return resp.Exit, true
}

// servedTimeout bounds a full search run by the server (it may call a
// model); past it the command is handed to the full CLI.
const servedTimeout = 5 * time.Minute

// keyServerTimeout bounds one exchange with the keystroke server; past it
// the keystroke is handed to the full CLI.
const keyServerTimeout = 2 * time.Second

// fail prints err as the full CLI prints errors and returns its exit code.
func fail(lang string, err error) int {
	r := apperr.Describe(err, lang)
	fmt.Fprintln(os.Stderr, i18n.T(lang, i18n.ErrorPrefix)+termsafe.String(r.Message))
	if r.Hint != "" {
		fmt.Fprintln(os.Stderr, i18n.T(lang, i18n.HintPrefix)+termsafe.String(r.Hint))
	}
	return r.Exit
}
