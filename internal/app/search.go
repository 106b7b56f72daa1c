package app

import (
	"context"
	"net/http"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/drive"
	"github.com/gds-cli/gds/internal/launcher"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/search/drivesearch"
	"github.com/gds-cli/gds/internal/store"
)

// SearchSession is the hybrid loop of seed §6 over the configured index,
// ready to run searches. Every front end (terminal, REPL, --json, Alfred,
// and the HTTP and MCP servers) searches through one.
type SearchSession struct {
	// Loop is the loop; front ends may set Loop.OnStep.
	Loop *search.Loop
	// Scope is the folder new searches stay in (--folder; "" for all).
	Scope string
	// Drive is true when keyword search goes to Google Drive (an index
	// crawled from Drive), false for the local full-text index.
	Drive bool

	store    store.Store
	maxLoops int
	d        *Deps
}

// OpenSearch opens the index and the AI provider and builds the loop with
// asker (nil: search.Deferred, which hands a clarifying question back). An
// empty index is an apperr.NoIndex error saying how to fill it. The caller
// closes the session.
func (d *Deps) OpenSearch(ctx context.Context, asker search.Asker) (*SearchSession, error) {
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
		return nil, apperr.L(apperr.NoIndex, "search.empty_index")
	}
	keywords, onDrive, err := d.keywordSearcher(ctx, cfg, st, stats.Sync.Fingerprint)
	if err != nil {
		st.Close()
		return nil, err
	}
	if asker == nil {
		asker = search.Deferred{}
	}
	return &SearchSession{
		Loop:     &search.Loop{Keywords: keywords, Index: st, AI: prov, Asker: asker},
		Drive:    onDrive,
		store:    st,
		maxLoops: cfg.SearchMaxLoopCount,
		d:        d,
	}, nil
}

// keywordSearcher picks the keyword-search step for the index: Drive's
// full-text search when the index was crawled from Google Drive (seed
// §6.3), the store's own full-text index for a local folder.
func (d *Deps) keywordSearcher(ctx context.Context, cfg *config.Config, st store.Store, fingerprint string) (search.KeywordSearcher, bool, error) {
	local := search.StoreSearcher{Index: st}
	if crawl.SourceKindOf(fingerprint) != config.SourceDrive {
		return local, false, nil
	}
	c, err := d.DriveClient(ctx)
	if err != nil {
		return nil, false, err
	}
	return drivesearch.Searcher{Drive: c, Index: st, Local: local}, true, nil
}

// DriveClient returns a Drive API client: against GDS_DRIVE_ENDPOINT
// without OAuth when it is set (the Drive emulator), else with the stored
// OAuth token.
func (d *Deps) DriveClient(ctx context.Context) (*drive.Client, error) {
	cfg, err := d.RequireConfig()
	if err != nil {
		return nil, err
	}
	var hc *http.Client
	if cfg.DriveEndpoint == "" {
		if hc, err = d.GoogleHTTPClient(ctx); err != nil {
			return nil, err
		}
	}
	return drive.New(ctx, drive.Options{Endpoint: cfg.DriveEndpoint, HTTPClient: hc})
}

// NewState starts a search for query, limited to the session's Scope.
func (s *SearchSession) NewState(query string) search.State {
	st := search.NewState(query, s.d.Lang, s.d.Now(), s.maxLoops)
	st.Scope = s.Scope
	return st
}

// Run runs a new search for query.
func (s *SearchSession) Run(ctx context.Context, query string) (search.Outcome, error) {
	return s.Loop.Run(ctx, s.NewState(query))
}

// Resume continues the search waiting in st with the answer text.
func (s *SearchSession) Resume(ctx context.Context, st search.State, answer string) (search.Outcome, error) {
	return s.Loop.Resume(ctx, st, search.ParseAnswer(*st.Question, answer))
}

// Index is the index the session reads.
func (s *SearchSession) Index() store.Store { return s.store }

// Close releases the index.
func (s *SearchSession) Close() error { return s.store.Close() }

// SearchRequest is one search for a front end without a prompt: a new
// query, or a paused search's state token with the answer to its question.
type SearchRequest struct {
	Query  string
	State  string // a state token from an earlier SearchResult
	Answer string // the answer to the question the state is waiting on
	Folder string // limit a new search to this folder and its subfolders
}

// SearchResult is where a search ended: results, an end message, or a
// pending question with the token that resumes it.
type SearchResult struct {
	Outcome search.Outcome
	// Token resumes a search waiting for an answer ("" otherwise).
	Token string
}

// Search runs or resumes one search with the deferred asker: a clarifying
// question ends the run and is returned with a state token. Bad
// combinations of the request's fields are apperr.Usage errors.
func (d *Deps) Search(ctx context.Context, req SearchRequest) (SearchResult, error) {
	var resume *search.State
	switch {
	case req.State != "" && req.Folder != "":
		return SearchResult{}, apperr.L(apperr.Usage, "search.folder_and_state")
	case req.State != "" && req.Query != "":
		return SearchResult{}, apperr.L(apperr.Usage, "searchjson.state_and_query")
	case req.State != "":
		s, err := DecodeWaitingState(req.State)
		if err != nil {
			return SearchResult{}, err
		}
		resume = &s
	case req.Answer != "":
		return SearchResult{}, apperr.L(apperr.Usage, "searchjson.answer_no_state")
	case req.Query == "":
		return SearchResult{}, apperr.L(apperr.Usage, "search.no_query")
	}
	ss, err := d.OpenSearch(ctx, search.Deferred{})
	if err != nil {
		return SearchResult{}, err
	}
	defer ss.Close()
	ss.Scope = req.Folder
	var out search.Outcome
	if resume != nil {
		out, err = ss.Resume(ctx, *resume, req.Answer)
	} else {
		out, err = ss.Run(ctx, req.Query)
	}
	if err != nil {
		return SearchResult{}, err
	}
	tok, err := PendingToken(out)
	if err != nil {
		return SearchResult{}, err
	}
	return SearchResult{Outcome: out, Token: tok}, nil
}

// DecodeWaitingState decodes the state token of a search waiting for an
// answer; a damaged token, or one of a search that is not waiting, is an
// apperr.Usage error.
func DecodeWaitingState(tok string) (search.State, error) {
	s, err := search.DecodeState(tok)
	if err != nil {
		return s, apperr.L(apperr.Usage, "searchjson.bad_state", err).Wrap(err)
	}
	if !s.Waiting() {
		return s, apperr.L(apperr.Usage, "searchjson.not_waiting")
	}
	return s, nil
}

// PendingToken is the state token of a paused search, "" otherwise.
func PendingToken(out search.Outcome) (string, error) {
	if out.Pending == nil {
		return "", nil
	}
	return search.EncodeState(out.State)
}

// KeystrokeIndex is what the per-keystroke path reads.
type KeystrokeIndex = launcher.Index

// OpenKeystrokeIndex opens the index for the per-keystroke path without
// migrating it or taking a write lock: SQLite read-only, or the configured
// Postgres. A missing index file is an apperr.NoIndex error.
func (d *Deps) OpenKeystrokeIndex(ctx context.Context) (KeystrokeIndex, error) {
	cfg, err := d.RequireConfig()
	if err != nil {
		return nil, err
	}
	if cfg.UsesPostgres() {
		return d.OpenStore(ctx)
	}
	return launcher.OpenIndex(ctx, cfg)
}

// Keystroke answers one launcher keystroke from the index alone
// (launcher.Files): it never builds the configured AI provider — the
// offline query rules read the period and type — and opens the index
// read-only.
func (d *Deps) Keystroke(ctx context.Context, query string, limit int) ([]store.File, error) {
	ix, err := d.OpenKeystrokeIndex(ctx)
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	return launcher.Files(ctx, ix, launcher.Request{Query: query, Lang: d.Lang, Now: d.Now(), Limit: limit})
}
