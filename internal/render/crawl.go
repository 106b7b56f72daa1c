package render

import (
	"fmt"
	"io"
	"path"
	"sync"
	"time"

	"github.com/pterm/pterm"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
	"github.com/gds-cli/gds/internal/redact"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/termsafe"
)

// CrawlProgress returns a crawl.Progress on ios.Stderr, in ios.Lang: a
// progress bar when stderr is a terminal, otherwise one plain, timestamped
// line per file (launchd, cron).
func CrawlProgress(ios iostreams.IOStreams) crawl.Progress {
	return CrawlProgressRates(ios, nil)
}

// CrawlProgressRates is CrawlProgress that also says the files per second,
// the ETA and, when calls is not nil, the model calls per second against
// the limit they run under: in the bar's title on a terminal, otherwise on
// a count line every tenth of the files (at most every 100).
func CrawlProgressRates(ios iostreams.IOStreams, calls Calls) crawl.Progress {
	if ios.StderrTTY {
		return &barProgress{w: &lockedWriter{w: ios.Stderr}, lang: ios.Lang, rates: newRates(calls), now: time.Now}
	}
	return &lineProgress{w: ios.Stderr, lang: ios.Lang, now: time.Now, rates: newRates(calls)}
}

// CountProgress reports a crawl on ios.Stderr without a line per file, for callers whose
// output is not a crawl log (gds eval indexing a benchmark folder when
// stderr is not a terminal): the begin line, a count at every tenth of the
// files, and every skipped or failed file with its reason.
func CountProgress(ios iostreams.IOStreams) crawl.Progress {
	return &countProgress{w: ios.Stderr, lang: ios.Lang}
}

type countProgress struct {
	mu          sync.Mutex
	w           io.Writer
	lang        string
	total, done int
}

func (p *countProgress) Begin(total int, full bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total, p.done = total, 0
	key := i18n.Key("crawl.begin.incremental")
	if full {
		key = "crawl.begin.full"
	}
	fmt.Fprintln(p.w, i18n.T(p.lang, key, total))
}

func (p *countProgress) File(e crawl.Entry, s crawl.Status, detail string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if s == crawl.StatusSkipped || s == crawl.StatusFailed {
		line := i18n.T(p.lang, statusKey(s)) + " " + entryName(e)
		if detail != "" {
			line += ": " + crawlDetail(detail)
		}
		fmt.Fprintln(p.w, line)
	}
	step := max(p.total/10, 1)
	if p.done%step == 0 || p.done == p.total {
		fmt.Fprintln(p.w, i18n.T(p.lang, "crawl.progress.count", p.done, p.total))
	}
}

type lineProgress struct {
	mu          sync.Mutex
	w           io.Writer
	lang        string
	now         func() time.Time
	rates       *rates
	total, done int
}

func (p *lineProgress) Begin(total int, full bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	key := i18n.Key("crawl.begin.incremental")
	if full {
		key = "crawl.begin.full"
	}
	fmt.Fprintf(p.w, "%s %s\n", p.now().Format(time.RFC3339), i18n.T(p.lang, key, total))
	p.total, p.done = total, 0
	if p.rates != nil {
		p.rates.observe(p.now(), 0)
	}
}

func (p *lineProgress) File(e crawl.Entry, s crawl.Status, detail string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	line := fmt.Sprintf("%s %s %s", now.Format(time.RFC3339), i18n.T(p.lang, statusKey(s)), entryName(e))
	if detail != "" {
		line += ": " + crawlDetail(detail)
	}
	fmt.Fprintln(p.w, line)
	if p.rates == nil {
		return
	}
	p.done++
	p.rates.observe(now, p.done)
	if step := max(1, min(p.total/10, 100)); p.done%step == 0 && p.done < p.total {
		if r := p.rates.line(p.lang, "progress.unit.files", p.done, p.total); r != "" {
			fmt.Fprintf(p.w, "%s %s · %s\n", now.Format(time.RFC3339), i18n.T(p.lang, "crawl.progress.count", p.done, p.total), r)
		}
	}
}

// lockedWriter serialises writes: a pterm progress bar redraws from its
// own ticker goroutine while the crawl's progress writes lines and
// increments the bar, and the destination need not be safe for
// concurrent writes (a buffer, a pipe wrapper).
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

type barProgress struct {
	mu    sync.Mutex
	w     io.Writer
	lang  string
	bar   *pterm.ProgressbarPrinter
	rates *rates
	now   func() time.Time
}

func (p *barProgress) Begin(total int, full bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	key := i18n.Key("crawl.begin.incremental")
	if full {
		key = "crawl.begin.full"
	}
	fmt.Fprintln(p.w, i18n.T(p.lang, key, total))
	if total == 0 {
		return
	}
	if p.rates != nil {
		p.rates.observe(p.now(), 0)
	}
	bar, err := pterm.DefaultProgressbar.WithTotal(total).WithWriter(p.w).
		WithTitle(i18n.T(p.lang, "crawl.progress.title")).WithRemoveWhenDone(true).Start()
	if err == nil {
		p.bar = bar
	}
}

func (p *barProgress) File(e crawl.Entry, s crawl.Status, detail string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar == nil {
		return
	}
	if s == crawl.StatusFailed {
		// Failures stay visible above the bar.
		pterm.Fprintln(p.w, pterm.Red(i18n.T(p.lang, statusKey(s))+" "+entryName(e)+": "+crawlDetail(detail)))
	}
	title := termsafe.String(e.Name)
	if p.rates != nil {
		p.rates.observe(p.now(), p.bar.Current+1)
		if r := p.rates.line(p.lang, "progress.unit.files", p.bar.Current+1, p.bar.Total); r != "" {
			title = r
		}
	}
	p.bar.UpdateTitle(title)
	p.bar.Increment()
	if p.bar.Current >= p.bar.Total {
		_, _ = p.bar.Stop() // a progress bar's stop only redraws the terminal
		p.bar = nil
	}
}

// Source heads the progress of each source of a multi-source crawl.
func (p *countProgress) Source(key string, i, n int) { sourceLine(&p.mu, p.w, p.lang, "", key, i, n) }

// Source heads the progress of each source of a multi-source crawl.
func (p *lineProgress) Source(key string, i, n int) {
	sourceLine(&p.mu, p.w, p.lang, p.now().Format(time.RFC3339)+" ", key, i, n)
}

// Source heads the progress of each source of a multi-source crawl.
func (p *barProgress) Source(key string, i, n int) { sourceLine(&p.mu, p.w, p.lang, "", key, i, n) }

func sourceLine(mu *sync.Mutex, w io.Writer, lang, prefix, key string, i, n int) {
	mu.Lock()
	defer mu.Unlock()
	fmt.Fprintln(w, prefix+i18n.T(lang, "crawl.source.begin", i, n, termsafe.String(key)))
}

// CrawlReport prints the summary of every crawled source: as CrawlSummary
// for one source, else each under a heading naming it, with the reason a
// source could not be crawled.
func CrawlReport(w io.Writer, sources []crawl.SourceResult, dryRun bool, lang string) {
	if len(sources) == 1 {
		if sources[0].Started {
			CrawlSummary(w, sources[0].Summary, dryRun, lang)
		}
		return
	}
	for i, s := range sources {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, i18n.T(lang, "crawl.source.heading", termsafe.String(s.Source)))
		if s.Started {
			CrawlSummary(w, s.Summary, dryRun, lang)
		}
		if s.Err != nil {
			key := i18n.Key("crawl.source.failed")
			if s.Started {
				key = "crawl.source.stopped"
			}
			fmt.Fprintln(w, "  "+i18n.T(lang, key, termsafe.String(apperr.Message(s.Err, lang))))
		}
	}
}

// crawlDetail is why a file was skipped or failed, as shown: an error's
// text, with the credentials of any URL it quotes masked and the names it
// quotes safe for a terminal.
func crawlDetail(s string) string { return termsafe.String(redact.URLs(s)) }

// entryName is a crawled file's folder path and name, safe for a terminal
// (names come from the files: termsafe).
func entryName(e crawl.Entry) string { return termsafe.String(path.Join(e.Path, e.Name)) }

func statusKey(s crawl.Status) i18n.Key { return i18n.Key("crawl.status." + string(s)) }

// CrawlSummary prints the end-of-crawl summary with the reasons of skipped
// and failed files (at most max of each).
func CrawlSummary(w io.Writer, sum crawl.Summary, dryRun bool, lang string) {
	const maxListed = 20
	if dryRun {
		fmt.Fprintln(w, i18n.T(lang, "crawl.summary.dry_run", sum.Planned, len(sum.Skipped)))
	} else {
		fmt.Fprintln(w, i18n.T(lang, "crawl.summary", sum.New, sum.Updated, sum.Unchanged, len(sum.Skipped), len(sum.Failed)))
	}
	if sum.Notice != "" {
		fmt.Fprintln(w, i18n.T(lang, "crawl.notice", termsafe.String(sum.Notice)))
	}
	if sum.Moved > 0 {
		fmt.Fprintln(w, i18n.T(lang, "crawl.summary.moved", sum.Moved))
	}
	switch {
	case sum.Reextracted > 0 && dryRun:
		fmt.Fprintln(w, i18n.T(lang, "crawl.summary.would_reextract", sum.Reextracted))
	case sum.Reextracted > 0:
		fmt.Fprintln(w, i18n.T(lang, "crawl.summary.reextracted", sum.Reextracted))
	}
	switch {
	case sum.Removed > 0 && dryRun:
		fmt.Fprintln(w, i18n.T(lang, "crawl.summary.would_remove", sum.Removed))
	case sum.Removed > 0:
		fmt.Fprintln(w, i18n.N(lang, "crawl.summary.removed", sum.Removed))
	case sum.KeptUnlisted > 0:
		fmt.Fprintln(w, i18n.T(lang, "crawl.summary.kept_unlisted", sum.KeptUnlisted))
	}
	for _, group := range []struct {
		key   i18n.Key
		items []crawl.Problem
	}{{"crawl.summary.truncated", sum.Truncated}, {"crawl.summary.skipped", sum.Skipped}, {"crawl.summary.failed", sum.Failed},
		{unreadableKey(dryRun), sum.Unreadable}} {
		if len(group.items) == 0 {
			continue
		}
		fmt.Fprintln(w, i18n.T(lang, group.key))
		for i, p := range group.items {
			if i == maxListed {
				fmt.Fprintln(w, i18n.T(lang, "crawl.summary.more", len(group.items)-maxListed))
				break
			}
			fmt.Fprintf(w, "  %s: %s\n", termsafe.String(path.Join(p.Path, p.Name)), crawlDetail(p.Reason))
		}
	}
	// Only a checkpoint this crawl committed: one that stopped first
	// leaves the previous one, which it did not write.
	if !dryRun && sum.CheckpointSaved && !sum.Checkpoint.IsZero() {
		fmt.Fprintln(w, i18n.T(lang, "crawl.checkpoint", sum.Checkpoint.UTC().Format(time.RFC3339)))
	}
}

// unreadableKey heads the files whose index records could not be read.
func unreadableKey(dryRun bool) i18n.Key {
	if dryRun {
		return "crawl.summary.unreadable_dry_run"
	}
	return "crawl.summary.unreadable"
}

// BackfillProgress returns the hook that reports an index update on
// ios.Stderr —
// the data pass a migration starts when a command opens an index made by
// an older gds (seconds at 10,000 files, minutes at 100,000): a line when
// it starts, the count at every tenth of the files, and a line when it is
// done with the time it took. A pass with nothing left to do prints
// nothing.
func BackfillProgress(ios iostreams.IOStreams) func(store.Backfill) {
	w, lang := ios.Stderr, ios.Lang
	var (
		started time.Time
		step    int
		done    bool
	)
	return func(b store.Backfill) {
		if done || b.Total == 0 {
			return
		}
		if started.IsZero() {
			started = time.Now()
			fmt.Fprintln(w, i18n.T(lang, "store.backfill.begin", b.Total))
			step = b.Done * 10 / b.Total
			return
		}
		if b.Done >= b.Total {
			done = true
			fmt.Fprintln(w, i18n.T(lang, "store.backfill.done", b.Total, time.Since(started).Round(100*time.Millisecond)))
			return
		}
		if s := b.Done * 10 / b.Total; s > step {
			step = s
			fmt.Fprintln(w, i18n.T(lang, "store.backfill.progress", b.Done, b.Total))
		}
	}
}
