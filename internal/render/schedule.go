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
