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
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/gds-cli/gds/internal/app"
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
	d := app.FromOS()
	code := run(ctx, d, os.Args, buildInfo{Version: version, Commit: commit, Date: date})
	stop()
	os.Exit(code)
}
