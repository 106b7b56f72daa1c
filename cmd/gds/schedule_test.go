package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/iostreams"
	"github.com/gds-cli/gds/internal/schedule"
)

// recRunner records commands and succeeds, except `launchctl print` and
// `systemctl --user is-active`, which answer out.
type recRunner struct {
	calls []string
	print string
}

func (r *recRunner) Run(_ context.Context, name string, args ...string) (string, error) {
	cmd := strings.Join(append([]string{name}, args...), " ")
	r.calls = append(r.calls, cmd)
	if strings.HasPrefix(cmd, "launchctl print") {
		if r.print == "" {
			return "Could not find service", &schedule.CommandError{Command: cmd, ExitCode: 113, Err: errors.New("exit status 113")}
		}
		return r.print, nil
	}
	return "", nil
}

// scheduleDeps returns Deps over a temporary GDS_HOME and a fake schedule
// environment for goos.
func scheduleDeps(t *testing.T, goos string) (*app.Deps, scheduleEnv, *recRunner, *strings.Builder) {
	t.Helper()
	home := t.TempDir()
	cfg, err := config.Load(config.LoadOptions{
		LookupEnv: func(k string) (string, bool) {
			if k == config.EnvHome {
				return home, true
			}
			return "", false
		},
		WorkDir: t.TempDir(),
		GOOS:    goos,
	})
	if err != nil {
		t.Fatal(err)
	}
	out := &strings.Builder{}
	d := app.New(app.Options{Config: cfg, IO: iostreams.IOStreams{Stdout: out, Stderr: out}})
	r := &recRunner{}
	user := t.TempDir()
	bin := fakeBinary(t, filepath.Join(user, "bin", "gds"))
	env := scheduleEnv{
		GOOS: goos, UserHome: user, ConfigHome: filepath.Join(user, ".config"), UID: 501, Runner: r,
		Executable: func() (string, error) { return bin, nil },
	}
	return d, env, r, out
}

// fakeBinary creates an executable file at p and returns p with symlinks
// resolved (t.TempDir may sit behind a symlink, e.g. /var on macOS).
func fakeBinary(t *testing.T, p string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestScheduleInstallDarwin(t *testing.T) {
	ctx := context.Background()
	d, env, r, out := scheduleDeps(t, "darwin")
	bin, _ := env.Executable()
	if err := runScheduleInstall(ctx, d, scheduleOptions{Interval: 2 * time.Hour}, env); err != nil {
		t.Fatal(err)
	}
	plistPath := filepath.Join(env.UserHome, "Library/LaunchAgents/dev.gds.crawl.plist")
	want := []string{"launchctl bootout gui/501/dev.gds.crawl", "launchctl bootstrap gui/501 " + plistPath}
	if !reflect.DeepEqual(r.calls, want) {
		t.Errorf("calls %q", r.calls)
	}
	data, err := os.ReadFile(plistPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"<string>" + bin + "</string>", "<integer>7200</integer>", "<string>" + d.Config.Home + "</string>"} {
		if !strings.Contains(string(data), w) {
			t.Errorf("plist lacks %s", w)
		}
	}
	if !strings.Contains(out.String(), "every 2h0m0s") {
		t.Errorf("output %q", out.String())
	}

	out.Reset()
	r.print = "state = running\nlast exit code = 0\n"
	if err := runScheduleStatus(ctx, d, scheduleOptions{JSON: true}, env); err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal([]byte(out.String()), &st); err != nil {
		t.Fatalf("status --json: %v\n%s", err, out)
	}
	if st["installed"] != true || st["loaded"] != true || st["running"] != true || st["interval_seconds"] != 7200.0 || st["program"] != bin {
		t.Errorf("status %v", st)
	}

	out.Reset()
	r.calls = nil
	if err := runScheduleRunNow(ctx, d, env); err != nil || !reflect.DeepEqual(r.calls, []string{"launchctl kickstart -k gui/501/dev.gds.crawl"}) {
		t.Errorf("run-now: %v %q", err, r.calls)
	}
	if !strings.Contains(out.String(), "tail -f ") {
		t.Errorf("run-now output %q", out.String())
	}

	out.Reset()
	if err := runScheduleUninstall(ctx, d, env); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(plistPath); !os.IsNotExist(err) || !strings.Contains(out.String(), "Removed") {
		t.Errorf("uninstall left %s (%v), said %q", plistPath, err, out.String())
	}
	if err := runScheduleRunNow(ctx, d, env); !errors.Is(err, schedule.ErrNotInstalled) || !strings.Contains(err.Error(), "gds schedule install") {
		t.Errorf("run-now after uninstall: %v", err)
	}
}

func TestScheduleRefusesTemporaryBinary(t *testing.T) {
	d, env, r, _ := scheduleDeps(t, "darwin")
	tmp := fakeBinary(t, filepath.Join(t.TempDir(), "go-build1234", "b001", "exe", "gds"))
	env.Executable = func() (string, error) { return tmp, nil }
	err := runScheduleInstall(context.Background(), d, scheduleOptions{Interval: time.Hour}, env)
	if !errors.Is(err, schedule.ErrTemporaryBinary) || len(r.calls) != 0 {
		t.Errorf("err %v, calls %q", err, r.calls)
	}
	if err := runScheduleInstall(context.Background(), d, scheduleOptions{Interval: time.Second}, env); exitCode(err) != exitUsage {
		t.Errorf("1s interval: %v", err)
	}
}

func TestScheduleInstallLinux(t *testing.T) {
	ctx := context.Background()
	d, env, r, out := scheduleDeps(t, "linux")
	bin, _ := env.Executable()
	// Without --write: print the units and a crontab line, touch nothing.
	if err := runScheduleInstall(ctx, d, scheduleOptions{Interval: 30 * time.Minute}, env); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"[Timer]", "OnUnitActiveSec=1800s", "ExecStart=\"" + bin + "\" crawl", "*/30 * * * * GDS_HOME=", "gds schedule install --write"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	if len(r.calls) != 0 {
		t.Errorf("printing ran %q", r.calls)
	}
	out.Reset()
	if err := runScheduleInstall(ctx, d, scheduleOptions{Interval: time.Hour, Cron: true}, env); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(out.String()), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], "0 * * * * GDS_HOME=") {
		t.Errorf("--cron output %q", out.String())
	}
	if err := runScheduleInstall(ctx, d, scheduleOptions{Interval: time.Hour, Write: true}, env); err != nil {
		t.Fatal(err)
	}
	if want := []string{"systemctl --user daemon-reload", "systemctl --user enable --now gds-crawl.timer"}; !reflect.DeepEqual(r.calls, want) {
		t.Errorf("calls %q", r.calls)
	}
	if _, err := os.Stat(filepath.Join(env.ConfigHome, "systemd/user/gds-crawl.timer")); err != nil {
		t.Error(err)
	}
}

func TestScheduleUnsupportedOS(t *testing.T) {
	d, env, _, _ := scheduleDeps(t, "windows")
	if err := runScheduleStatus(context.Background(), d, scheduleOptions{}, env); err == nil || !strings.Contains(err.Error(), "gds crawl") {
		t.Errorf("windows: %v", err)
	}
}

// A crawl that finds the lock taken exits with exitBusy and says why.
func TestCrawlLockedExitCode(t *testing.T) {
	h := newHarness(t)
	h.env["GDS_AI_PROVIDER"] = "offline"
	lock, err := schedule.AcquireCrawlLock(h.env[config.EnvHome])
	if err != nil {
		t.Fatal(err)
	}
	sample, _ := filepath.Abs("../../testdata/sample")
	if code := h.run("crawl", "--source", "local:"+sample); code != exitBusy {
		t.Errorf("exit %d, want %d; stderr %q", code, exitBusy, h.stderr.String())
	}
	if !strings.Contains(h.stderr.String(), "another gds crawl is running (pid ") || !strings.Contains(h.stderr.String(), "gds schedule status") {
		t.Errorf("stderr %q", h.stderr.String())
	}
	_ = lock.Release()
	if code := h.run("crawl", "--dry-run", "--source", "local:"+sample); code != exitOK {
		t.Errorf("dry run after release: exit %d %q", code, h.stderr.String())
	}
}
