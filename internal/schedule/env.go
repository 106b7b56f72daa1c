package schedule

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
)

// Scheduler is what the schedule commands need from a back end (Launchd,
// Systemd).
type Scheduler interface {
	Install(ctx context.Context, s Spec) error
	Uninstall(ctx context.Context) (bool, error)
	Status(ctx context.Context) (Status, error)
	RunNow(ctx context.Context) error
}

// Env is the outside world of scheduling: the OS, directories, the
// command runner and the path of the running binary. Tests replace it.
type Env struct {
	GOOS       string
	UserHome   string
	ConfigHome string // $XDG_CONFIG_HOME or ~/.config (Linux)
	UID        int
	Runner     Runner
	Executable func() (string, error)
}

// OSEnv is the environment of this process.
func OSEnv() Env {
	home, _ := os.UserHomeDir()
	cfgHome := os.Getenv("XDG_CONFIG_HOME")
	if cfgHome == "" || !filepath.IsAbs(cfgHome) {
		cfgHome = filepath.Join(home, ".config")
	}
	return Env{GOOS: runtime.GOOS, UserHome: home, ConfigHome: cfgHome, UID: os.Getuid(), Runner: ExecRunner{}, Executable: os.Executable}
}

// Backend returns the scheduler of this OS (launchd on macOS, a systemd
// user timer on Linux), or nil when there is none.
func (e Env) Backend() Scheduler {
	switch e.GOOS {
	case "darwin":
		return Launchd{Runner: e.Runner, UID: e.UID, Home: e.UserHome}
	case "linux":
		return Systemd{Runner: e.Runner, ConfigHome: e.ConfigHome}
	}
	return nil
}
