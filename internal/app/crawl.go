package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/crawl/drivesource"
	"github.com/gds-cli/gds/internal/estimate"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/schedule"
	"github.com/gds-cli/gds/internal/store"
)

// CrawlRequest is one crawl.
type CrawlRequest struct {
	// Sources are the sources to crawl, each a spec ("drive",
	// "drive:FOLDER_ID", "local:PATH") or a comma-separated list of them
	// (the repeatable --source flag); none means every configured source
	// (GDS_SOURCES).
	Sources []string
	// Source is one more spec (or list), as Sources.
	Source string
	// Full checks every file again and removes the files gone from each
	// crawled source (never another source's).
	Full bool
	// DryRun lists what would change without writing.
	DryRun bool
	// Concurrency is the number of files processed at once; 0 means
	// GDS_CRAWL_CONCURRENCY.
	Concurrency int
	// MaxRPM caps the model requests per minute (--max-rpm); 0 means
	// GDS_AI_MAX_RPM. It applies when the crawl is the first user of the
	// provider (SetMaxRPM).
	MaxRPM int
	// Progress receives the crawl's events (may be nil). When it also
	// implements SourceProgress, it is told each source before its crawl.
	Progress crawl.Progress
}

// SourceProgress is told which source a multi-source crawl starts next.
type SourceProgress interface {
	Source(key string, index, count int)
}

// CrawlReport is the outcome of a crawl of one or more sources, in order.
type CrawlReport struct {
	Sources []crawl.SourceResult
	// Usage is what the crawl's model calls took (the usage the responses
	// reported), priced; nil for the offline provider or a dry run.
	Usage *estimate.Figures
	// Estimated is the estimate made for this crawl (gds crawl --estimate
	// with the same sources), when there is one.
	Estimated *estimate.Figures
}

// Total adds up the summaries of every source.
func (r *CrawlReport) Total() crawl.Summary {
	var t crawl.Summary
	for _, s := range r.Sources {
		m := s.Summary
		t.Full = t.Full || m.Full
		t.Listed += m.Listed
		t.New += m.New
		t.Updated += m.Updated
		t.Unchanged += m.Unchanged
		t.Reextracted += m.Reextracted
		t.Planned += m.Planned
		t.Skipped = append(t.Skipped, m.Skipped...)
		t.Failed = append(t.Failed, m.Failed...)
		t.Removed += m.Removed
		t.KeptUnlisted += m.KeptUnlisted
		t.Unreadable = append(t.Unreadable, m.Unreadable...)
		if m.CheckpointSaved && m.Checkpoint.After(t.Checkpoint) {
			t.Checkpoint, t.CheckpointSaved = m.Checkpoint, true
		}
	}
	return t
}

// CrawlTargets resolves the sources of a crawl: the specs of req (each may
// be a comma-separated list), or every configured source when there are
// none. A bad spec is an apperr.Usage error that names it and suggests
// "local:" for a bare path.
func CrawlTargets(cfg *config.Config, specs []string) ([]config.CrawlSource, error) {
	var value []string
	for _, s := range specs {
		if strings.TrimSpace(s) != "" {
			value = append(value, s)
		}
	}
	if len(value) == 0 {
		return cfg.Sources, nil
	}
	wd, _ := os.Getwd()
	home, _ := os.UserHomeDir()
	targets, err := config.ParseSources(strings.Join(value, ","), wd, home)
	if err != nil {
		var se *config.SourceError
		if errors.As(err, &se) && se.Suggest != "" {
			return nil, apperr.L(apperr.Usage, "crawl.source_path", se.Value, se.Suggest).Wrap(err)
		}
		return nil, apperr.Mark(fmt.Errorf("--source: %w", err), apperr.Usage)
	}
	return targets, nil
}

// Crawl indexes the requested sources (every configured one by default),
// one after the other under one crawl lock (an apperr.Busy error when
// another crawl holds it). Each source records its files and checkpoint
// under its own key, so a crawl never removes another source's files. The
// report is returned also when the crawl fails; a source that fails does
// not stop the next ones (except an embedding model mismatch or a
// cancellation), and the first error is returned after all ran. Files that
// failed make the crawl fail after the others were indexed, so schedulers
// see it.
// crawlSetup is what a crawl and its estimate resolve alike before any
// source is read: the rate cap, the config and the sources req names (or
// the configured ones), refusing a first run without any and a named local
// folder that is not there.
func (d *Deps) crawlSetup(req CrawlRequest) (*config.Config, []config.CrawlSource, error) {
	d.SetMaxRPM(req.MaxRPM)
	cfg, err := d.RequireConfig()
	if err != nil {
		return nil, nil, err
	}
	specs := req.Sources
	if req.Source != "" {
		specs = append(slices.Clone(specs), req.Source)
	}
	targets, err := CrawlTargets(cfg, specs)
	if err != nil {
		return nil, nil, err
	}
	if len(specs) == 0 && d.NeedsInit() {
		return nil, nil, needsInit{apperr.L(apperr.Config, "first_run.no_source")}
	}
	if err := checkLocalTargets(targets); len(specs) > 0 && err != nil {
		return nil, nil, err
	}
	return cfg, targets, nil
}

func (d *Deps) Crawl(ctx context.Context, req CrawlRequest) (*CrawlReport, error) {
	cfg, targets, err := d.crawlSetup(req)
	if err != nil {
		return nil, err
	}
	if !req.DryRun {
		lock, err := schedule.AcquireCrawlLock(cfg.DataDir)
		if err != nil {
			return nil, homeWriteError(cfg.DataDir, err)
		}
		// The lock dies with the process: a failed release leaves nothing held.
		defer func() { _ = lock.Release() }()
	}
	rep := &CrawlReport{}
	prov, perr := d.Provider()
	before := meterTotals(prov)
	var first error
	for i, target := range targets {
		if sp, ok := req.Progress.(SourceProgress); ok && len(targets) > 1 {
			sp.Source(target.Key(), i+1, len(targets))
		}
		sum, started, err := d.crawlOne(ctx, cfg, target, req, nil)
		rep.Sources = append(rep.Sources, crawl.SourceResult{Source: target.Key(), Summary: sum, Err: err, Started: started})
		if err != nil && first == nil {
			first = err
		}
		if err != nil && (ctx.Err() != nil || errors.Is(err, store.ErrEmbeddingMismatch) || errors.Is(err, ai.ErrQuotaExhausted)) {
			break
		}
	}
	if t := rep.Total(); !req.DryRun && t.New+t.Updated+t.Removed+t.Moved > 0 {
		d.optimizeText(ctx)
	}
	if !req.DryRun && perr == nil {
		rep.Usage, rep.Estimated = d.actualFigures(cfg, estimate.OpCrawl, crawlScope(targets, req.Full), prov, before)
	}
	if first != nil {
		return rep, first
	}
	if n := len(rep.Total().Failed); n > 0 {
		if prov, err := d.Provider(); err == nil {
			if u, ok := prov.(interface{ Unreachable() bool }); ok && u.Unreachable() {
				return rep, aiUnreachable{apperr.L(apperr.Unavailable, "crawl.failed_files_unreachable", n)}
			}
		}
		return rep, apperr.L(apperr.Internal, "crawl.failed_files", n)
	}
	return rep, nil
}

// textOptimizer is a store whose full-text index can be merged into one
// segment (the SQLite store; Postgres has no such step).
type textOptimizer interface {
	OptimizeText(ctx context.Context) (merged bool, err error)
}

// optimizeText merges the file full-text index after a crawl that changed
// files when it holds more than a few segments, so each keystroke (a new
// process) seeks every term once instead of once per segment. It is best effort: the index is complete without it,
// so an error (a busy database, a cancelled crawl) only leaves the
// segments for the next crawl to merge.
func (d *Deps) optimizeText(ctx context.Context) {
	if ctx.Err() != nil {
		return
	}
	st, err := d.OpenStore(ctx)
	if err != nil {
		return
	}
	defer st.Close()
	if o, ok := st.(textOptimizer); ok {
		_, _ = o.OptimizeText(ctx)
	}
}

// crawlOne crawls one source under its key; started is false when the
// source, the provider or the store could not be set up.
//
// With count (an estimate), count stands for the provider and the crawl
// writes nothing: neither the index nor the OCR cache.
func (d *Deps) crawlOne(ctx context.Context, cfg *config.Config, target config.CrawlSource, req CrawlRequest, count ai.Provider) (sum crawl.Summary, started bool, err error) {
	var src crawl.Source
	switch target.Kind {
	case config.SourceLocal:
		src, err = crawl.NewLocalSource(target.Path)
	default:
		src, err = d.driveSource(ctx, target)
	}
	if err != nil {
		return sum, false, err
	}
	prov, err := d.Provider()
	if err != nil {
		return sum, false, err
	}
	st, err := d.OpenStore(ctx)
	if err != nil {
		return sum, false, err
	}
	defer st.Close()
	var index crawl.Index = st
	if count != nil {
		prov, index = count, &dryIndex{Index: st}
	}
	concurrency := req.Concurrency
	if concurrency <= 0 {
		concurrency = cfg.CrawlConcurrency
	}
	x := d.fileReader(cfg, prov)
	if count != nil {
		x = readOnlyCache(x)
	}
	if s, ok := src.(interface{ SetReadImages(bool) }); ok {
		// Photos and scans in Drive are downloaded when OCR can read them;
		// a reader appearing makes the next crawl of a source a full scan.
		s.SetReadImages(readsImages(x))
	}
	sum, err = crawl.Run(ctx, crawl.Options{
		Source:           src,
		Key:              target.Key(),
		Index:            index,
		Provider:         prov,
		SummaryMaxLength: cfg.SummaryMaxLength,
		Concurrency:      concurrency,
		Full:             req.Full,
		DryRun:           req.DryRun && count == nil,
		Progress:         req.Progress,
		Now:              d.Now,
		Extractor:        x,
	})
	if errors.Is(err, ai.ErrQuotaExhausted) {
		// The provider's error stays the cause, so its hint (check the
		// plan and billing) is the one shown.
		err = apperr.L(apperr.RateLimited, "crawl.quota_stopped", sum.New+sum.Updated+sum.Moved).Wrap(err)
	}
	return sum, true, err
}

// aiUnreachable is a crawl whose files failed because the AI provider
// could not be reached: its hint names the offline provider.
type aiUnreachable struct{ *apperr.Localized }

func (aiUnreachable) Hint(lang string) string { return i18n.T(lang, "ai.hint_unreachable") }

// DriveSource builds the Google Drive source of a crawl of
// GOOGLE_DRIVE_TARGET_FOLDER_IDS (the "drive" source) and resolves its
// target folders, so a missing, non-folder or forbidden ID stops the crawl
// before the index is opened or any file is listed.
func (d *Deps) DriveSource(ctx context.Context) (*drivesource.Source, error) {
	return d.driveSource(ctx, config.CrawlSource{Kind: config.SourceDrive})
}

// driveSource is DriveSource of one Drive source: its account's Drive,
// one folder ("drive:FOLDER_ID", "drive@NAME:FOLDER_ID") or
// GOOGLE_DRIVE_TARGET_FOLDER_IDS when it names none. A named account
// whose sign-in fails fails this source only, naming its fix.
func (d *Deps) driveSource(ctx context.Context, target config.CrawlSource) (*drivesource.Source, error) {
	cfg, err := d.RequireConfig()
	if err != nil {
		return nil, err
	}
	ids := []string{target.FolderID}
	if target.FolderID == "" {
		if err := cfg.RequireDriveFolders(); err != nil {
			return nil, err
		}
		ids = cfg.DriveFolderIDs
	}
	c, err := d.DriveClient(ctx, target.Account)
	if err != nil {
		return nil, err
	}
	src := drivesource.New(c, drivesource.Options{FolderIDs: ids, Lang: d.Lang})
	if _, err := src.Resolve(ctx); err != nil {
		return nil, err
	}
	return src, nil
}
