package app

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/crawl/drivesource"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/schedule"
)

// CrawlRequest is one crawl.
type CrawlRequest struct {
	// Source is "drive" or "local:PATH"; "" means GDS_SOURCE.
	Source string
	// Full checks every file again and removes files gone from the targets.
	Full bool
	// DryRun lists what would change without writing.
	DryRun bool
	// Concurrency is the number of files processed at once; 0 means
	// GDS_CRAWL_CONCURRENCY.
	Concurrency int
	// Progress receives the crawl's events (may be nil).
	Progress crawl.Progress
}

// Crawl indexes the configured (or requested) source, one crawl at a time
// (the crawl lock; an apperr.Busy error when another holds it). The
// summary is returned also when the crawl fails; files that failed make
// the crawl fail after the others were indexed, so schedulers see it.
func (d *Deps) Crawl(ctx context.Context, req CrawlRequest) (*crawl.Summary, error) {
	cfg, err := d.RequireConfig()
	if err != nil {
		return nil, err
	}
	if !req.DryRun {
		lock, err := schedule.AcquireCrawlLock(cfg.DataDir)
		if err != nil {
			return nil, err
		}
		defer lock.Release()
	}
	target := cfg.Source
	if req.Source != "" {
		wd, _ := os.Getwd()
		home, _ := os.UserHomeDir()
		if target, err = config.ParseSource(req.Source, wd, home); err != nil {
			var se *config.SourceError
			if errors.As(err, &se) && se.Suggest != "" {
				return nil, apperr.L(apperr.Usage, "crawl.source_path", se.Value, se.Suggest).Wrap(err)
			}
			return nil, apperr.Mark(fmt.Errorf("--source: %w", err), apperr.Usage)
		}
	}
	var src crawl.Source
	switch target.Kind {
	case config.SourceLocal:
		if src, err = crawl.NewLocalSource(target.Path); err != nil {
			return nil, err
		}
	default:
		if src, err = d.DriveSource(ctx); err != nil {
			return nil, err
		}
	}
	prov, err := d.Provider()
	if err != nil {
		return nil, err
	}
	st, err := d.OpenStore(ctx)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	concurrency := req.Concurrency
	if concurrency <= 0 {
		concurrency = cfg.CrawlConcurrency
	}
	sum, err := crawl.Run(ctx, crawl.Options{
		Source:           src,
		Index:            st,
		Provider:         prov,
		SummaryMaxLength: cfg.SummaryMaxLength,
		Concurrency:      concurrency,
		Full:             req.Full,
		DryRun:           req.DryRun,
		Progress:         req.Progress,
		Now:              d.Now,
	})
	if err != nil {
		return &sum, err
	}
	if n := len(sum.Failed); n > 0 {
		if u, ok := prov.(interface{ Unreachable() bool }); ok && u.Unreachable() {
			return &sum, aiUnreachable{apperr.L(apperr.Unavailable, "crawl.failed_files_unreachable", n)}
		}
		return &sum, apperr.L(apperr.Internal, "crawl.failed_files", n)
	}
	return &sum, nil
}

// aiUnreachable is a crawl whose files failed because the AI provider
// could not be reached: its hint names the offline provider.
type aiUnreachable struct{ *apperr.Localized }

func (aiUnreachable) Hint(lang string) string { return i18n.T(lang, "ai.hint_unreachable") }

// DriveSource builds the Google Drive source of a crawl and resolves its
// target folders, so a missing, non-folder or forbidden ID stops the crawl
// before the index is opened or any file is listed.
func (d *Deps) DriveSource(ctx context.Context) (*drivesource.Source, error) {
	cfg, err := d.RequireConfig()
	if err != nil {
		return nil, err
	}
	if err := cfg.RequireDriveFolders(); err != nil {
		return nil, err
	}
	c, err := d.DriveClient(ctx)
	if err != nil {
		return nil, err
	}
	src := drivesource.New(c, drivesource.Options{FolderIDs: cfg.DriveFolderIDs, Lang: d.Lang})
	if _, err := src.Resolve(ctx); err != nil {
		return nil, err
	}
	return src, nil
}
