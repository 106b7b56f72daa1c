package schedule

import "time"

// InstallResult says what `gds schedule install` did or prints.
type InstallResult struct {
	Interval time.Duration
	Program  string
	// Warnings are settings the scheduled crawl will not see (they came
	// from the current directory's .env, not the gds home's).
	Warnings []EnvWarning
	// CronLine is set with Cron, and on Linux without Write (the
	// alternative to the units; "" when the interval has no cron form).
	CronLine string
	// Launchd: the agent was installed.
	Launchd *Installed
	// Systemd: the units were installed (Write).
	Systemd *Installed
	// Units: the systemd units to install by hand (Linux without Write).
	Units []Unit
}

// Installed names what was installed and where its output goes.
type Installed struct {
	Name, Path, Logs string
}

// Unit is one systemd unit file: where it goes and its content.
type Unit struct {
	Path, Content string
}

// EnvWarning is a .env file outside the gds home.
type EnvWarning struct {
	File, Home, HomeEnv string
}
