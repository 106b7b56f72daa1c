package doctor

import (
	"context"

	"github.com/gds-cli/gds/internal/coverage"
)

// coverage reports, per configured source, what its listing holds that
// the index does not hold with its content, by reason, and the command
// that brings the index up to it. It never fails the setup: files not
// crawled yet, changed or gone are a warning (a crawl fixes them); types
// gds does not read, large files and name-only entries are reported on an
// OK line.
func (c *checker) coverage(ctx context.Context) []Check {
	switch {
	case c.in.Coverage == nil || c.in.Config == nil || c.in.NoSource:
		return nil
	case c.statsErr != nil: // the index check already says why
		return []Check{c.unread("coverage")}
	}
	srcs, err := c.in.Coverage(ctx)
	if err != nil {
		return []Check{c.check("coverage", Warn, c.t("doctor.coverage.failed", err), "")}
	}
	out := make([]Check, 0, len(srcs))
	for i := range srcs {
		s := &srcs[i]
		var ch Check
		switch {
		case s.Skipped:
			ch = c.check("coverage", Skip, c.t("doctor.coverage.offline", s.Source), "")
		case s.Error != "":
			ch = c.check("coverage", Warn, c.t("doctor.coverage.error", s.Source, s.Error), s.Fix)
		case len(s.Groups) == 0:
			ch = c.check("coverage", OK, c.t("doctor.coverage.ok", s.Source, s.Listed), "")
		default:
			lvl := OK
			if s.Actionable() {
				lvl = Warn
			}
			detail := c.t("doctor.coverage.diff", s.Source, s.Complete, s.Listed, coverage.Describe(s.Result, c.in.Lang))
			ch = c.check("coverage", lvl, detail, s.Fix)
		}
		ch.Coverage = s
		out = append(out, ch)
	}
	return out
}
