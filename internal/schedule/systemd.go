package schedule

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Systemd manages the crawl as a systemd user service and timer
// (~/.config/systemd/user/gds-crawl.{service,timer}).
type Systemd struct {
	Runner Runner
	// ConfigHome is $XDG_CONFIG_HOME, or ~/.config.
	ConfigHome string
}

// UnitDir is <ConfigHome>/systemd/user.
func (s Systemd) UnitDir() string { return filepath.Join(s.ConfigHome, "systemd", "user") }

// ServicePath and TimerPath are the two unit files.
func (s Systemd) ServicePath() string { return filepath.Join(s.UnitDir(), SystemdUnit+".service") }

// TimerPath is the timer unit file.
func (s Systemd) TimerPath() string { return filepath.Join(s.UnitDir(), SystemdUnit+".timer") }

// RenderSystemdUnits returns the service and timer unit files for sp. The
// service runs `gds crawl` once (journald keeps its output); the timer
// starts it 2 minutes after boot and then every sp.Interval after the
// previous run started.
func RenderSystemdUnits(sp Spec) (service, timer string, err error) {
	if err := sp.Validate(); err != nil {
		return "", "", err
	}
	var b strings.Builder
	b.WriteString("# Written by `gds schedule install --write`; `gds schedule uninstall` removes it.\n")
	b.WriteString("[Unit]\nDescription=gds incremental crawl\nWants=network-online.target\nAfter=network-online.target\n\n")
	b.WriteString("[Service]\nType=oneshot\n")
	for _, e := range sp.env() {
		fmt.Fprintf(&b, "Environment=%s\n", systemdQuote(e.Name+"="+e.Value))
	}
	fmt.Fprintf(&b, "ExecStart=%s crawl\n", systemdQuote(sp.Program))
	fmt.Fprintf(&b, "Nice=%d\nIOSchedulingClass=idle\n", Nice)
	service = b.String()

	b.Reset()
	b.WriteString("# Written by `gds schedule install --write`; `gds schedule uninstall` removes it.\n")
	fmt.Fprintf(&b, "[Unit]\nDescription=Run the gds crawl every %s\n\n", sp.Interval)
	fmt.Fprintf(&b, "[Timer]\nOnBootSec=2min\nOnUnitActiveSec=%ds\nUnit=%s.service\n\n", int64(sp.Interval/time.Second), SystemdUnit)
	b.WriteString("[Install]\nWantedBy=timers.target\n")
	return service, b.String(), nil
}

// systemdQuote double-quotes a unit-file value, escaping backslashes,
// quotes, specifiers (%) and variable expansion ($).
func systemdQuote(v string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, `%`, `%%`, `$`, `$$`)
	return `"` + r.Replace(v) + `"`
}

// Install writes both units, reloads systemd and enables the timer.
func (s Systemd) Install(ctx context.Context, sp Spec) error {
	service, timer, err := RenderSystemdUnits(sp)
	if err != nil {
		return err
	}
	if err := writeFileAtomic(s.ServicePath(), []byte(service), 0o644); err != nil {
		return err
	}
	if err := writeFileAtomic(s.TimerPath(), []byte(timer), 0o644); err != nil {
		return err
	}
	if _, err := s.Runner.Run(ctx, "systemctl", "--user", "daemon-reload"); err != nil {
		return fmt.Errorf("reload systemd user units: %w", err)
	}
	if _, err := s.Runner.Run(ctx, "systemctl", "--user", "enable", "--now", SystemdUnit+".timer"); err != nil {
		return fmt.Errorf("enable %s.timer: %w", SystemdUnit, err)
	}
	return nil
}

// Uninstall disables the timer (a missing unit is fine), removes both
// units and reloads systemd. It reports whether anything was installed.
func (s Systemd) Uninstall(ctx context.Context) (bool, error) {
	_, statErr := os.Stat(s.TimerPath())
	existed := statErr == nil
	if existed {
		if out, err := s.Runner.Run(ctx, "systemctl", "--user", "disable", "--now", SystemdUnit+".timer"); err != nil && !systemdMissing(out, err) {
			return existed, fmt.Errorf("disable %s.timer: %w", SystemdUnit, err)
		}
	}
	for _, p := range []string{s.TimerPath(), s.ServicePath()} {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return existed, fmt.Errorf("remove %s: %w", p, err)
		}
	}
	if existed {
		if _, err := s.Runner.Run(ctx, "systemctl", "--user", "daemon-reload"); err != nil {
			return existed, fmt.Errorf("reload systemd user units: %w", err)
		}
	}
	return existed, nil
}

// RunNow starts the crawl service now without waiting for it.
func (s Systemd) RunNow(ctx context.Context) error {
	if _, err := os.Stat(s.ServicePath()); err != nil {
		return ErrNotInstalled
	}
	if _, err := s.Runner.Run(ctx, "systemctl", "--user", "start", "--no-block", SystemdUnit+".service"); err != nil {
		return fmt.Errorf("start %s.service: %w", SystemdUnit, err)
	}
	return nil
}

// Status reports whether the timer is installed and active and how the
// last run of the service ended (systemctl show, parsed loosely).
func (s Systemd) Status(ctx context.Context) (Status, error) {
	st := Status{Backend: "systemd", Path: s.TimerPath()}
	data, err := os.ReadFile(st.Path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return st, nil
		}
		return st, fmt.Errorf("read %s: %w", st.Path, err)
	}
	st.Installed = true
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "OnUnitActiveSec="); ok {
			if d, err := time.ParseDuration(v); err == nil {
				st.Interval, st.IntervalSeconds = d, int64(d/time.Second)
			}
		}
	}
	if out, err := s.Runner.Run(ctx, "systemctl", "--user", "is-active", SystemdUnit+".timer"); err == nil || strings.TrimSpace(out) != "" {
		st.Loaded = strings.TrimSpace(out) == "active"
	}
	out, err := s.Runner.Run(ctx, "systemctl", "--user", "show", SystemdUnit+".service",
		"--property=ActiveState,ExecMainStatus,ExecMainExitTimestamp,ExecStart")
	if err != nil {
		return st, nil // no user manager (e.g. a container): report what the files say
	}
	for _, line := range strings.Split(out, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if !ok {
			continue
		}
		switch k {
		case "ActiveState":
			st.Running = v == "activating" || v == "active"
		case "ExecMainStatus":
			if n, err := strconv.Atoi(v); err == nil {
				st.LastExitCode = &n
			}
		case "ExecMainExitTimestamp":
			// e.g. "Sat 2026-11-21 18:31:06 UTC"; empty when it never ran.
			if f := strings.Fields(v); len(f) >= 3 {
				if t, err := time.Parse("2006-01-02 15:04:05", f[1]+" "+f[2]); err == nil {
					st.LastRun = t
				}
			}
		case "ExecStart":
			if _, after, ok := strings.Cut(v, "path="); ok {
				st.Program = strings.TrimSpace(strings.SplitN(after, ";", 2)[0])
			}
		}
	}
	if st.LastRun.IsZero() {
		st.LastExitCode = nil
	}
	return st, nil
}

func systemdMissing(out string, err error) bool {
	s := strings.ToLower(commandOutput(out, err))
	return strings.Contains(s, "not loaded") || strings.Contains(s, "does not exist") || strings.Contains(s, "not found")
}

// CronLine returns a crontab line that runs the crawl every sp.Interval,
// appending its output to <sp.LogDir>/crawl.log. cron can only express
// intervals that divide an hour (in minutes) or a day (in hours).
func CronLine(sp Spec) (string, error) {
	if err := sp.Validate(); err != nil {
		return "", err
	}
	if sp.LogDir == "" || !filepath.IsAbs(sp.LogDir) {
		return "", fmt.Errorf("the log directory %q is not absolute", sp.LogDir)
	}
	var when string
	m := int(sp.Interval / time.Minute)
	switch {
	case sp.Interval%time.Minute != 0:
		return "", fmt.Errorf("cron cannot run every %s: use whole minutes", sp.Interval)
	case m < 60 && 60%m == 0:
		when = "*/" + strconv.Itoa(m) + " * * * *"
		if m == 1 {
			when = "* * * * *"
		}
	case m%60 == 0 && 24%(m/60) == 0:
		h := m / 60
		when = "0 */" + strconv.Itoa(h) + " * * *"
		if h == 1 {
			when = "0 * * * *"
		}
	default:
		return "", fmt.Errorf("cron cannot run every %s: use a divisor of 60 minutes or of 24 hours", sp.Interval)
	}
	var b strings.Builder
	b.WriteString(when)
	for _, e := range sp.env() {
		b.WriteString(" " + e.Name + "=" + shellQuote(e.Value))
	}
	b.WriteString(" " + shellQuote(sp.Program) + " crawl >>" + shellQuote(filepath.Join(sp.LogDir, LogFileName)) + " 2>&1")
	// In a crontab, an unescaped % ends the command.
	return strings.ReplaceAll(b.String(), "%", `\%`), nil
}

// shellQuote single-quotes s for /bin/sh.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-:") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
