package main

import (
	"context"
	"fmt"
	"net/http"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/drive"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/search/drivesearch"
	"github.com/gds-cli/gds/internal/store"
)

// searchLoop is a ready hybrid loop with the store it reads; Close
// releases the store.
type searchLoop struct {
	Loop   *search.Loop
	Store  store.Store
	Config *config.Config
	// Scope is the folder new searches are limited to (--folder; "" for all).
	Scope string
	d     *app.Deps
}

// NewState starts a search for query with the configured loop limit,
// limited to Scope.
func (sl *searchLoop) NewState(query string) search.State {
	s := search.NewState(query, sl.d.Lang, sl.d.Now(), sl.Config.SearchMaxLoopCount)
	s.Scope = sl.Scope
	return s
}

// Close closes the store.
func (sl *searchLoop) Close() error { return sl.Store.Close() }

// newLoop opens the index and the AI provider and builds the loop every
// search front end shares. It refuses an empty index with the fix.
func newLoop(ctx context.Context, d *app.Deps, asker search.Asker) (*searchLoop, error) {
	cfg, err := d.RequireConfig()
	if err != nil {
		return nil, err
	}
	prov, err := d.Provider()
	if err != nil {
		return nil, err
	}
	st, err := d.OpenStore(ctx)
	if err != nil {
		return nil, err
	}
	stats, err := st.Stats(ctx)
	if err != nil {
		st.Close()
		return nil, err
	}
	if stats.Files == 0 {
		st.Close()
		return nil, fmt.Errorf("%s", d.T("search.empty_index"))
	}
	keywords, err := keywordSearcher(ctx, d, cfg, st, stats.Sync.Fingerprint)
	if err != nil {
		st.Close()
		return nil, err
	}
	return &searchLoop{
		Loop:   &search.Loop{Keywords: keywords, Index: st, AI: prov, Asker: asker},
		Store:  st,
		Config: cfg,
		d:      d,
	}, nil
}

// keywordSearcher picks the keyword-search step for the index: Drive's
// full-text search when the index was crawled from Google Drive (seed §6.3),
// the store's own full-text index for a local folder.
func keywordSearcher(ctx context.Context, d *app.Deps, cfg *config.Config, st store.Store, fingerprint string) (search.KeywordSearcher, error) {
	local := search.StoreSearcher{Index: st}
	if crawl.SourceKindOf(fingerprint) != config.SourceDrive {
		return local, nil
	}
	var hc *http.Client
	if cfg.DriveEndpoint == "" {
		var err error
		if hc, err = d.GoogleHTTPClient(ctx); err != nil {
			return nil, err
		}
	}
	c, err := drive.New(ctx, drive.Options{Endpoint: cfg.DriveEndpoint, HTTPClient: hc})
	if err != nil {
		return nil, err
	}
	return drivesearch.Searcher{Drive: c, Index: st, Local: local}, nil
}
