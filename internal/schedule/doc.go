// Package schedule keeps the index fresh without the user: it installs the
// periodic crawl as a macOS LaunchAgent (launchctl bootstrap/bootout/
// kickstart), as a systemd user timer on Linux, or prints a crontab line,
// and it provides the lock file that keeps two crawls from running at once.
//
// Every external command goes through a Runner, so the exact launchctl and
// systemctl sequences are tested without launchd or systemd. Rendering
// (plist, unit files, crontab line) is pure and separate from the I/O.
package schedule
