package schedule

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"howett.net/plist"
)

// ErrNotInstalled is returned by RunNow when no schedule is installed.
var ErrNotInstalled = errors.New("the crawl schedule is not installed")

// Status is what `gds schedule status` and `gds doctor` report, for
// launchd and systemd alike. Fields a back end cannot know stay zero.
type Status struct {
	Backend   string        `json:"backend"` // "launchd" or "systemd"
	Installed bool          `json:"installed"`
	Path      string        `json:"path"` // the plist or the timer unit
	Program   string        `json:"program,omitempty"`
	Interval  time.Duration `json:"-"`
	// IntervalSeconds is Interval for JSON output.
	IntervalSeconds int64 `json:"interval_seconds,omitempty"`
	Loaded          bool  `json:"loaded"`
	Running         bool  `json:"running"`
	// LastExitCode is the exit status of the last run, nil when unknown.
	LastExitCode *int `json:"last_exit_code,omitempty"`
	// LastRun is when the last run wrote its log (launchd) or finished
	// (systemd); zero when unknown.
	LastRun time.Time `json:"last_run,omitzero"`
	// LastLogLine is the last line the crawl printed (launchd logs).
	LastLogLine string `json:"last_log_line,omitempty"`
	LogPath     string `json:"log_path,omitempty"`
	ErrLogPath  string `json:"err_log_path,omitempty"`
}

// Launchd manages the crawl LaunchAgent of one user.
type Launchd struct {
	Runner Runner
	UID    int
	// Home is the user's home directory.
	Home string
}

// PlistPath is ~/Library/LaunchAgents/dev.gds.crawl.plist.
func (l Launchd) PlistPath() string {
	return filepath.Join(l.Home, "Library", "LaunchAgents", Label+".plist")
}

// LogDir is ~/Library/Logs/gds.
func (l Launchd) LogDir() string { return filepath.Join(l.Home, "Library", "Logs", "gds") }

func (l Launchd) domain() string  { return "gui/" + strconv.Itoa(l.UID) }
func (l Launchd) service() string { return l.domain() + "/" + Label }

// Install writes the agent's plist, creates the log directory and
// (re)loads the agent: bootout (its errors ignored: usually "not loaded"),
// then bootstrap; a bootstrap failing with "5: Input/output error" (the
// label was still loaded or draining) gets one more bootout and bootstrap.
// An empty s.LogDir means LogDir().
func (l Launchd) Install(ctx context.Context, s Spec) error {
	if s.LogDir == "" {
		s.LogDir = l.LogDir()
	}
	data, err := RenderPlist(s)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.LogDir, 0o755); err != nil {
		return fmt.Errorf("create the log directory %s: %w", s.LogDir, err)
	}
	if err := writeFileAtomic(l.PlistPath(), data, 0o644); err != nil {
		return err
	}
	_, _ = l.Runner.Run(ctx, "launchctl", "bootout", l.service())
	out, err := l.Runner.Run(ctx, "launchctl", "bootstrap", l.domain(), l.PlistPath())
	if err != nil && strings.Contains(commandOutput(out, err), "5: Input/output error") {
		_, _ = l.Runner.Run(ctx, "launchctl", "bootout", l.service())
		_, err = l.Runner.Run(ctx, "launchctl", "bootstrap", l.domain(), l.PlistPath())
	}
	if err != nil {
		return fmt.Errorf("load the launchd agent %s: %w", Label, err)
	}
	return nil
}

// Uninstall unloads the agent (not being loaded is fine) and removes its
// plist. It reports whether anything was installed.
func (l Launchd) Uninstall(ctx context.Context) (bool, error) {
	_, statErr := os.Stat(l.PlistPath())
	existed := statErr == nil
	out, err := l.Runner.Run(ctx, "launchctl", "bootout", l.service())
	if err != nil && !launchdNotLoaded(out, err) {
		return existed, fmt.Errorf("unload the launchd agent %s: %w", Label, err)
	}
	loaded := err == nil
	if err := os.Remove(l.PlistPath()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return existed || loaded, fmt.Errorf("remove %s: %w", l.PlistPath(), err)
	}
	return existed || loaded, nil
}

// RunNow starts the crawl immediately (kickstart -k: a running instance is
// killed first). It returns ErrNotInstalled when there is no plist.
func (l Launchd) RunNow(ctx context.Context) error {
	if _, err := os.Stat(l.PlistPath()); err != nil {
		return ErrNotInstalled
	}
	if _, err := l.Runner.Run(ctx, "launchctl", "kickstart", "-k", l.service()); err != nil {
		return fmt.Errorf("start the launchd agent %s: %w", Label, err)
	}
	return nil
}

// Status reports whether the plist exists, whether launchd has the job
// loaded (launchctl print, parsed loosely: its format is not stable) and
// when the crawl last wrote its logs.
func (l Launchd) Status(ctx context.Context) (Status, error) {
	st := Status{
		Backend:    "launchd",
		Path:       l.PlistPath(),
		LogPath:    filepath.Join(l.LogDir(), LogFileName),
		ErrLogPath: filepath.Join(l.LogDir(), ErrLogFileName),
	}
	if data, err := os.ReadFile(st.Path); err == nil {
		st.Installed = true
		var p struct {
			ProgramArguments []string `plist:"ProgramArguments"`
			StartInterval    int64    `plist:"StartInterval"`
			StandardOutPath  string   `plist:"StandardOutPath"`
			StandardErrPath  string   `plist:"StandardErrorPath"`
		}
		if _, err := plist.Unmarshal(data, &p); err == nil {
			if len(p.ProgramArguments) > 0 {
				st.Program = p.ProgramArguments[0]
			}
			st.Interval = time.Duration(p.StartInterval) * time.Second
			st.IntervalSeconds = p.StartInterval
			if p.StandardOutPath != "" {
				st.LogPath = p.StandardOutPath
			}
			if p.StandardErrPath != "" {
				st.ErrLogPath = p.StandardErrPath
			}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return st, fmt.Errorf("read %s: %w", st.Path, err)
	}
	out, err := l.Runner.Run(ctx, "launchctl", "print", l.service())
	switch {
	case err == nil:
		st.Loaded = true
		parseLaunchctlPrint(out, &st)
	case !launchdNotLoaded(out, err):
		return st, fmt.Errorf("query the launchd agent %s: %w", Label, err)
	}
	for _, p := range []string{st.LogPath, st.ErrLogPath} {
		if fi, err := os.Stat(p); err == nil && fi.ModTime().After(st.LastRun) {
			st.LastRun = fi.ModTime()
		}
	}
	st.LastLogLine = lastLine(st.LogPath)
	return st, nil
}

// parseLaunchctlPrint picks "state = running", "last exit code = N" out of
// `launchctl print` output, ignoring everything it does not recognise.
func parseLaunchctlPrint(out string, st *Status) {
	for _, line := range strings.Split(out, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch k {
		case "state":
			st.Running = v == "running"
		case "last exit code", "last exit status":
			if n, err := strconv.Atoi(strings.Fields(v + " x")[0]); err == nil {
				st.LastExitCode = &n
			}
		}
	}
}

// launchdNotLoaded reports whether a launchctl failure means "no such
// service" (bootout or print of a job that is not loaded).
func launchdNotLoaded(out string, err error) bool {
	var ce *CommandError
	if errors.As(err, &ce) && (ce.ExitCode == 3 || ce.ExitCode == 113) {
		return true
	}
	s := strings.ToLower(commandOutput(out, err))
	return strings.Contains(s, "no such process") || strings.Contains(s, "could not find") || strings.Contains(s, "not loaded")
}

// lastLine returns the last non-empty line of the file's final 4 KiB.
func lastLine(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > 4096 {
		_, _ = f.Seek(-4096, io.SeekEnd)
	}
	var last string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if t := strings.TrimSpace(sc.Text()); t != "" {
			last = t
		}
	}
	return last
}

// writeFileAtomic writes data to path through a temporary file and a
// rename, creating the directory.
func writeFileAtomic(path string, data []byte, perm fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
