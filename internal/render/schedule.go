package render

import (
	"fmt"
	"io"
	"time"

	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/schedule"
)

// ScheduleStatus prints the state of the crawl schedule.
func ScheduleStatus(w io.Writer, st schedule.Status, lang string) {
	t := func(k i18n.Key, args ...any) string { return i18n.T(lang, k, args...) }
	if !st.Installed {
		fmt.Fprintln(w, t("schedule.status.not_installed", st.Backend))
		return
	}
	yesNo := func(b bool) string {
		if b {
			return t("schedule.yes")
		}
		return t("schedule.no")
	}
	fmt.Fprintln(w, t("schedule.status.installed", st.Backend, st.Path))
	if st.Program != "" {
		fmt.Fprintln(w, t("schedule.status.program", st.Program))
	}
	if st.Interval > 0 {
		fmt.Fprintln(w, t("schedule.status.interval", st.Interval))
	}
	fmt.Fprintln(w, t("schedule.status.loaded", yesNo(st.Loaded)))
	fmt.Fprintln(w, t("schedule.status.running", yesNo(st.Running)))
	last := t("schedule.status.never")
	if !st.LastRun.IsZero() {
		last = st.LastRun.Local().Format(time.DateTime)
	}
	fmt.Fprintln(w, t("schedule.status.last_run", last))
	if st.LastExitCode != nil {
		fmt.Fprintln(w, t("schedule.status.last_exit", *st.LastExitCode))
	}
	if st.LastLogLine != "" {
		fmt.Fprintln(w, t("schedule.status.last_line", st.LastLogLine))
	}
	if st.LogPath != "" {
		fmt.Fprintln(w, t("schedule.status.logs", st.LogPath+", "+st.ErrLogPath))
	}
}

// ScheduleInstall prints what `gds schedule install` did, or the units and
// crontab line to install by hand; warnings go to errw.
func ScheduleInstall(w, errw io.Writer, res schedule.InstallResult, lang string) {
	t := func(k i18n.Key, args ...any) string { return i18n.T(lang, k, args...) }
	for _, wr := range res.Warnings {
		fmt.Fprintln(errw, t("schedule.cwd_env_warning", wr.File, wr.Home, wr.HomeEnv))
	}
	switch {
	case res.Launchd != nil:
		fmt.Fprintln(w, t("schedule.installed", res.Launchd.Name, res.Interval))
		fmt.Fprintln(w, t("schedule.paths", res.Launchd.Path, res.Program, res.Launchd.Logs))
	case res.Systemd != nil:
		fmt.Fprintln(w, t("schedule.installed.systemd", res.Systemd.Name, res.Interval))
		fmt.Fprintln(w, t("schedule.paths", res.Systemd.Path, res.Program, res.Systemd.Logs))
	case len(res.Units) > 0:
		fmt.Fprintln(w, t("schedule.linux.intro"))
		for _, u := range res.Units {
			fmt.Fprintf(w, "# %s\n%s\n", u.Path, u.Content)
		}
		if res.CronLine != "" {
			fmt.Fprintln(w, t("schedule.linux.cron"))
			fmt.Fprintln(w, res.CronLine)
		} else {
			fmt.Fprintln(w, t("schedule.linux.cron_none", res.Interval))
		}
	case res.CronLine != "":
		fmt.Fprintln(w, res.CronLine)
	}
}

// ScheduleUninstalled reports `gds schedule uninstall`: the file removed,
// or that there was nothing to remove (path "").
func ScheduleUninstalled(w io.Writer, path, lang string) {
	if path == "" {
		fmt.Fprintln(w, i18n.T(lang, "schedule.nothing_removed"))
		return
	}
	fmt.Fprintln(w, i18n.T(lang, "schedule.removed", path))
}
