package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/coverage"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/doctor"
	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/termsafe"
)

// CoverageRequest configures Deps.Coverage.
type CoverageRequest struct {
	// Offline skips the Drive sources (listing them needs the network).
	Offline bool
	// Progress shows on Deps.Stderr, when it is a terminal, the count of
	// files listed so far (every ListProgressEvery files), cleared before
	// Coverage returns: listing a large Drive takes a while.
	Progress bool
}

// ListProgressEvery is how often (in files listed) CoverageRequest.Progress
// is told.
const ListProgressEvery = 500

// coverageBatch is the number of records read from the index at once.
const coverageBatch = 500

// CoverageRules are what a crawl reads: the types it extracts (and images
// when it reads them by OCR) and the extraction size limit.
func CoverageRules(ocr bool) coverage.Rules {
	return coverage.Rules{
		ReadsType: func(m string) bool {
			return ai.FileTypeOf(m) != "" || strings.HasPrefix(m, "text/") || (ocr && strings.HasPrefix(m, "image/"))
		},
		MaxBytes: extract.DefaultMaxBytes,
	}
}

// Coverage compares every configured source's listing (the crawler's own:
// the walk of a local folder, the Drive listing of a Drive source) with the
// files the index holds for it. A source that cannot be listed has its
// Error set and does not stop the others; an index that cannot be opened
// is the returned error. It honours ctx's cancellation.
func (d *Deps) Coverage(ctx context.Context, req CoverageRequest) ([]coverage.Source, error) {
	cfg, err := d.RequireConfig()
	if err != nil {
		return nil, err
	}
	st, err := d.OpenStore(ctx)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	// Images are read when the crawl's reader has OCR (as crawlOne decides).
	readImages := false
	if prov, err := d.Provider(); err == nil {
		readImages = readsImages(d.fileReader(cfg, prov))
	}
	rules := CoverageRules(readImages)
	var progress func(string, int)
	if req.Progress && d.StderrTTY {
		var done func()
		progress, done = ListingProgress(d.IOStreams)
		defer done()
	}
	var out []coverage.Source
	for _, target := range cfg.Sources {
		key := target.Key()
		sc := coverage.Source{Source: key}
		if req.Offline && target.Kind != config.SourceLocal {
			sc.Skipped = true
			out = append(out, sc)
			continue
		}
		res, err := d.sourceCoverage(ctx, st, target, rules, progress)
		if err != nil {
			if ctx.Err() != nil {
				return out, ctx.Err()
			}
			sc.Err, sc.Error = err, apperr.Message(err, d.Lang)
			if target.Kind == config.SourceDrive && errors.Is(err, apperr.Auth) {
				// The listing needs the account's sign-in first.
				sc.Fix = doctor.LoginCommand(target.Account)
			}
		} else {
			sc.Result, sc.Fix = res, coverage.Fix(key, res)
		}
		out = append(out, sc)
	}
	return out, nil
}

// coverageIndex is what a coverage check reads from the index.
type coverageIndex interface {
	SourceIDs(ctx context.Context, source string) ([]string, error)
	GetFiles(ctx context.Context, ids []string) ([]store.File, error)
	SourceFailures(ctx context.Context, source string) ([]store.Failure, error)
}

func (d *Deps) sourceCoverage(ctx context.Context, idx coverageIndex, target config.CrawlSource, rules coverage.Rules, progress func(string, int)) (coverage.Result, error) {
	var src crawl.Source
	var refused []coverage.Listed
	if target.Kind == config.SourceLocal {
		l, err := crawl.NewLocalSource(target.Path)
		if err != nil {
			return coverage.Result{}, err
		}
		src = l
	} else {
		ds, err := d.driveSource(ctx, target)
		if err != nil {
			return coverage.Result{}, err
		}
		ds.SetReadImages(rules.ReadsType("image/png"))
		ds.SetOnRefused(func(e crawl.Entry) {
			refused = append(refused, coverage.Listed{ID: e.ID, Name: e.Name, Path: e.Path, MimeType: e.MimeType, Size: e.Size, ModifiedAt: e.ModifiedAt})
		})
		src = ds
	}
	key := target.Key()
	var listed []coverage.Listed
	err := src.List(ctx, time.Time{}, func(e crawl.Entry) error {
		listed = append(listed, coverage.Listed{ID: e.ID, Name: e.Name, Path: e.Path, MimeType: e.MimeType, Size: e.Size, ModifiedAt: e.ModifiedAt})
		if progress != nil && len(listed)%ListProgressEvery == 0 {
			progress(key, len(listed))
		}
		return nil
	})
	if err != nil {
		return coverage.Result{}, fmt.Errorf("list %s: %w", key, err)
	}
	ids, err := idx.SourceIDs(ctx, key)
	if err != nil {
		return coverage.Result{}, fmt.Errorf("read the index: %w", err)
	}
	if legacy := crawl.LegacyKey(key); legacy != "" {
		// An older index keeps this source's files under the bare kind
		// until a crawl claims them: those the listing holds are this
		// source's (the others may be another folder's).
		old, err := idx.SourceIDs(ctx, legacy)
		if err != nil {
			return coverage.Result{}, fmt.Errorf("read the index: %w", err)
		}
		inListing := make(map[string]bool, len(listed))
		for _, l := range listed {
			inListing[l.ID] = true
		}
		for _, id := range old {
			if inListing[id] {
				ids = append(ids, id)
			}
		}
	}
	indexed := make([]coverage.Indexed, 0, len(ids))
	for start := 0; start < len(ids); start += coverageBatch {
		files, err := idx.GetFiles(ctx, ids[start:min(start+coverageBatch, len(ids))])
		if err != nil && !errors.Is(err, store.ErrDamaged) {
			return coverage.Result{}, fmt.Errorf("read the index: %w", err)
		}
		for _, f := range files {
			indexed = append(indexed, coverage.Indexed{ID: f.ID, Name: f.Name, Path: f.Path, MimeType: f.MimeType, Size: f.Size, ModifiedAt: f.ModifiedAt, SkipReason: f.SkipReason})
		}
	}
	fails, err := idx.SourceFailures(ctx, key)
	if err != nil {
		return coverage.Result{}, fmt.Errorf("read the failed files: %w", err)
	}
	failures := make([]coverage.Failure, 0, len(fails))
	for _, f := range fails {
		failures = append(failures, coverage.Failure{ID: f.FileID, Kind: f.Kind, Message: f.Message, Attempts: f.Attempts})
	}
	return coverage.Compare(listed, refused, indexed, failures, rules), nil
}

// ListingProgress shows on ios.Stderr, a terminal, how many files of a
// source were listed so far, rewriting one line; done clears it.
func ListingProgress(ios iostreams.IOStreams) (progress func(source string, listed int), done func()) {
	w, lang := ios.Stderr, ios.Lang
	shown := false
	progress = func(source string, listed int) {
		shown = true
		fmt.Fprintf(w, "\r\033[K%s", i18n.T(lang, "coverage.progress", termsafe.String(source), listed))
	}
	done = func() {
		if shown {
			fmt.Fprint(w, "\r\033[K")
		}
	}
	return progress, done
}
