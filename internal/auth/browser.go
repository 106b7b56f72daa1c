package auth

import (
	"context"
	"fmt"
)

// BrowserCommand returns the command that opens url on goos: `open` on
// macOS, `rundll32 url.dll,FileProtocolHandler` on Windows, `xdg-open`
// elsewhere. The URL is one argument, never passed through a shell.
func BrowserCommand(goos, url string) (string, []string) {
	switch goos {
	case "darwin":
		return "open", []string{url}
	case "windows":
		return "rundll32", []string{"url.dll,FileProtocolHandler", url}
	default:
		return "xdg-open", []string{url}
	}
}

// BrowserOpener returns an opener for goos that starts the command of
// BrowserCommand through run (ExecRunner in production).
func BrowserOpener(goos string, run CommandRunner) func(ctx context.Context, url string) error {
	if run == nil {
		run = ExecRunner
	}
	return func(ctx context.Context, url string) error {
		name, args := BrowserCommand(goos, url)
		_, stderr, status, err := run(ctx, nil, name, args...)
		if err != nil {
			return err
		}
		if status != 0 {
			return fmt.Errorf("%s exited with status %d: %s", name, status, firstLine(stderr))
		}
		return nil
	}
}

func firstLine(b []byte) string {
	for i, c := range b {
		if c == '\n' {
			return string(b[:i])
		}
	}
	return string(b)
}
