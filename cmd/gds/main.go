// Command gds finds files in Google Drive (or a local folder) from the
// terminal, Alfred and Raycast with a hybrid keyword/vector/LLM search loop.
//
// main builds the dependencies (internal/app), runs the root command with a
// context cancelled on SIGINT/SIGTERM, and maps errors to exit codes in one
// place (exitCode in errors.go). Each command lives in its own file, parses
// its flags into an options struct and calls into internal packages.
//
// An error that did not come from an Action came from the flag parser and is
// a usage error (a --json run still gets the JSON error document). One rule
// in root.go: a command that declares no ArgsUsage refuses arguments. The
// package stays wiring only: at most 2,000 lines of non-test Go, checked by
// internal/archtest (SizeLimits).
//
// The signals are caught before anything else runs, and a watchdog
// (internal/interrupt) ends the process with the interrupted exit code when
// a signalled command has not returned within its grace (a second); so even
// work that does not watch the context — loading the configuration, a
// library call — cannot keep gds running after Ctrl-C.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/interrupt"
	"github.com/gds-cli/gds/internal/iostreams"
	"github.com/gds-cli/gds/internal/isolate"
)

// Stamped at build time:
//
//	go build -ldflags "-X main.version=1.2.3 -X main.commit=abc1234 -X main.date=2025-01-01T00:00:00Z" ./cmd/gds
var (
	version = "dev"
	commit  = "dev"
	date    = "dev"
)

func main() {
	// A file reader started by this binary (internal/isolate): it reads
	// files and nothing else.
	if isolate.IsWorker() {
		os.Exit(isolate.Serve())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	var forced atomic.Pointer[string] // the line printed when the watchdog ends gds
	forced.Store(ptr(forcedMessage(i18n.En)))
	wd, stopWatch := interrupt.Start(func() {
		fmt.Fprintln(os.Stderr, *forced.Load())
		os.Exit(apperr.ExitInterrupted)
	})
	ctx = interrupt.NewContext(ctx, wd)
	d := app.FromOS(iostreams.System())
	forced.Store(ptr(forcedMessage(d.Lang)))
	code := run(ctx, d, os.Args, buildInfo{Version: version, Commit: commit, Date: date})
	stopWatch()
	stop()
	os.Exit(code)
}

func forcedMessage(lang string) string {
	return i18n.T(lang, i18n.ErrorPrefix) + i18n.T(lang, "interrupt.forced")
}

func ptr[T any](v T) *T { return &v }

// longStop gives a command whose stop saves state (a crawl's checkpoint, a
// server's requests in flight) grace to do it, and has it say so once the
// stop takes longer than interrupt.NoticeAfter.
func longStop(ctx context.Context, d *app.Deps, grace time.Duration) {
	interrupt.SetGrace(ctx, grace, func() { fmt.Fprintln(d.Stderr, d.T("interrupt.stopping")) })
}
