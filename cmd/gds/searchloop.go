package main

import (
	"context"
	"fmt"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
)

// searchLoop is a ready hybrid loop with the store it reads; Close
// releases the store.
type searchLoop struct {
	Loop   *search.Loop
	Store  store.Store
	Config *config.Config
	d      *app.Deps
}

// NewState starts a search for query with the configured loop limit.
func (sl *searchLoop) NewState(query string) search.State {
	return search.NewState(query, sl.d.Lang, sl.d.Now(), sl.Config.SearchMaxLoopCount)
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
	return &searchLoop{
		Loop:   &search.Loop{Keywords: search.StoreSearcher{Index: st}, Index: st, AI: prov, Asker: asker},
		Store:  st,
		Config: cfg,
		d:      d,
	}, nil
}
