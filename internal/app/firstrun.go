package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/store"
)

// SourcesConfigured reports whether the configuration names something to
// index: GDS_SOURCES, GDS_SOURCE or Drive target folders set anywhere (the
// environment, a .env file). Without any, the default Drive source has no
// folder and gds has not been set up: the first run's messages point to
// `gds init`.
func SourcesConfigured(cfg *config.Config) bool {
	for _, name := range []string{config.EnvSources, config.EnvSource, config.EnvDriveFolderIDs} {
		if cfg.SourceOf(name).Kind != config.FromDefault {
			return true
		}
	}
	return false
}

// NeedsInit reports whether gds has not been set up yet: its configuration
// loads and names no source.
func (d *Deps) NeedsInit() bool {
	return d.ConfigErr == nil && d.Config != nil && !SourcesConfigured(d.Config)
}

// needsInit is the error of a command that found nothing to work on
// because no source is configured: its hint names `gds init`.
type needsInit struct{ *apperr.Localized }

func (needsInit) Hint(lang string) string { return i18n.T(lang, "first_run.hint") }

// errIndexEmpty is returned by the index readers that know no Deps;
// emptyIndex turns it into what the user should do.
var errIndexEmpty = apperr.L(apperr.NoIndex, "search.empty_index")

// emptyIndex is the error of a command that needs an indexed file and finds
// none: "run gds crawl", or, before any source is configured, "run gds init".
func (d *Deps) emptyIndex() error {
	if d.NeedsInit() {
		return needsInit{apperr.L(apperr.NoIndex, "first_run.empty_index")}
	}
	return errIndexEmpty
}

// explainEmpty replaces errIndexEmpty in err by emptyIndex.
func (d *Deps) explainEmpty(err error) error {
	if errors.Is(err, errIndexEmpty) {
		return d.emptyIndex()
	}
	return err
}

// checkLocalTargets checks that the folders of local targets named on the
// command line exist: a missing one is a usage error naming it, before
// the crawl lock is taken or the index opened.
func checkLocalTargets(targets []config.CrawlSource) error {
	for _, t := range targets {
		if t.Kind != config.SourceLocal {
			continue
		}
		st, err := os.Stat(t.Path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return apperr.L(apperr.Usage, "crawl.no_such_folder", t.Key(), t.Path).Wrap(err)
		case err == nil && !st.IsDir():
			return apperr.L(apperr.Usage, "crawl.not_a_folder", t.Key(), t.Path)
		}
	}
	return nil
}

// NoteEmptyIndex prints on stderr what `gds serve` says at start-up when st
// holds no file: run gds crawl, or gds init first when no source is
// configured. Nothing when files are indexed (or the count cannot be read:
// the server's own requests will say why).
func (d *Deps) NoteEmptyIndex(ctx context.Context, st store.Store) {
	if n := d.emptyIndexNotice(ctx, st); n != "" {
		fmt.Fprintln(d.Stderr, n)
	}
}

func (d *Deps) emptyIndexNotice(ctx context.Context, st store.Store) string {
	count := st.Stats
	if s, ok := st.(interface {
		Summary(ctx context.Context) (store.Stats, error) // without the chunk count
	}); ok {
		count = s.Summary
	}
	stats, err := count(ctx)
	switch {
	case err != nil || stats.Files > 0:
		return ""
	case d.NeedsInit():
		return d.T("serve.empty_no_source")
	}
	return d.T("serve.empty_index")
}

// RunSelf runs another gds command (`gds crawl` after `gds init`) in a child
// process of this executable, on the same streams, so that it reads the
// .env just written.
func (d *Deps) RunSelf(ctx context.Context, args ...string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find the gds executable: %w", err)
	}
	c := exec.CommandContext(ctx, exe, args...)
	c.Stdin, c.Stdout, c.Stderr = d.Stdin, d.Stdout, d.Stderr
	return c.Run()
}
