// Package launcher is what the `gds` front binary (cmd/gds-front) does
// itself, shared with the full CLI (cmd/gds, released as gds-core) so that
// both print the same bytes: the version text, the Alfred keystroke and
// full searches as requests to the keystroke server (keyclient.go; the
// server is internal/keystroke, run by gds-core) and the Alfred error
// items. Route
// (route.go) decides which command lines the front answers; everything
// else — and a keystroke no server answers — is handed to the full CLI
// (core.go, handover.go).
//
// The package exists for start-up time: every Alfred keystroke starts a
// process, and a Go process runs the package initialisation of everything
// it links before main. So launcher imports only the configuration, the
// error and message catalogues and the Alfred renderer — no SQLite driver,
// AI client, HTTP server, Drive client, extraction, crawl or internal/app.
// internal/archtest enforces the list.
//
// The keystroke server's client side: KeySocket (<home from the
// environment>/keystroke.sock, package gdshome), the length-prefixed
// KeyRequest/KeyResponse frames (no reflection), AskKeyServer, AskServed,
// KeyServerOff and StartKeyServer. The hand-over: CorePath is $GDS_CORE,
// else gds-core beside the executable after resolving symlinks; a missing
// one is a CoreError (exit 3).
package launcher

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
)

// BuildInfo is what `gds version` prints; both binaries are stamped with
// the same values at release (-ldflags -X main.version=...).
type BuildInfo struct {
	Version string
	Commit  string
	Date    string
}

// String is the one-line version text.
func (b BuildInfo) String() string {
	return fmt.Sprintf("gds %s (commit %s, built %s, %s/%s, %s)", b.Version, b.Commit, b.Date, runtime.GOOS, runtime.GOARCH, runtime.Version())
}

// WriteVersion prints `gds version` (asJSON: `gds version --json`).
func WriteVersion(w io.Writer, b BuildInfo, asJSON bool) error {
	if !asJSON {
		_, err := fmt.Fprintln(w, b.String())
		return err
	}
	return WriteJSON(w, map[string]string{"version": b.Version, "commit": b.Commit, "date": b.Date})
}

// WriteJSON writes v as gds's --json output does: indented by two spaces,
// HTML characters unescaped.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write JSON output: %w", err)
	}
	return nil
}
