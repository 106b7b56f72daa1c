package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/budget"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/drive"
	"github.com/gds-cli/gds/internal/keystroke"
	"github.com/gds-cli/gds/internal/launcher"
	"github.com/gds-cli/gds/internal/resilient"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/search/drivesearch"
	"github.com/gds-cli/gds/internal/store"
)

// SearchSession is the hybrid search loop over the configured index,
// ready to run searches. Every front end (terminal, REPL, --json, Alfred,
// and the HTTP and MCP servers) searches through one. Each search runs
// within the session's time budget (package budget): every remote step has
// a deadline, Drive's keyword search falls back to the local full-text
// index and an AI call to the offline provider, and the outcome lists what
// was degraded (Outcome.Degraded).
type SearchSession struct {
	// Loop is the loop; front ends may set Loop.OnStep.
	Loop *search.Loop
	// Scope is the folder new searches stay in (--folder; "" for all).
	Scope string
	// Sources are the source keys new searches stay in (--source; none for
	// all); set them with SetSources.
	Sources []string
	// Drive is true when keyword search goes to Google Drive (an index
	// crawled from Drive, not --local), false for the local full-text index.
	Drive bool
	// Budget is the time budget of each search.
	Budget budget.Policy

	store    store.Store
	local    search.KeywordSearcher
	drive    drivesearch.Finder          // nil when keyword search stays local
	accounts []drivesearch.AccountFinder // the Drive of each indexed account that could be opened
	// mergeLocal adds the local full-text hits to Drive's: the index holds
	// files Drive's search cannot find (local folders, another account's).
	mergeLocal bool
	notices    []budget.Notice // degradations found while opening (Drive sign-in)
	where      string          // the masked database location, for errors
	remoteDB   bool            // the index is a Postgres server
	maxLoops   int
	d          *Deps
}

// OpenSearch opens the index and the AI provider and builds the loop with
// asker (nil: search.Deferred, which hands a clarifying question back),
// with the time budget d.Budget. An empty index is an apperr.NoIndex error
// saying how to fill it. The caller closes the session.
func (d *Deps) OpenSearch(ctx context.Context, asker search.Asker) (*SearchSession, error) {
	cfg, err := d.RequireConfig()
	if err != nil {
		return nil, err
	}
	pol := d.Budget.WithDefaults()
	prov, err := d.Provider()
	if err != nil {
		return nil, err
	}
	st, err := d.openBudgeted(ctx, cfg, pol)
	if err != nil {
		return nil, err
	}
	where := cfg.IndexPath()
	if cfg.UsesPostgres() {
		where = dbLocation(cfg.DatabaseURL)
	}
	run := resilient.NewRun(pol, nil)
	stats, err := resilient.Index{Store: st, Run: run, Where: where}.Summary(ctx)
	if err != nil {
		st.Close()
		return nil, err
	}
	if stats.Files == 0 {
		st.Close()
		return nil, d.emptyIndex()
	}
	ss := &SearchSession{Budget: pol, store: st, where: where, remoteDB: cfg.UsesPostgres(), maxLoops: cfg.SearchMaxLoopCount, d: d}
	accounts := driveAccounts(stats.Syncs)
	if len(accounts) > 0 && !pol.Local {
		for _, account := range accounts {
			c, err := d.interactiveDriveClient(ctx, cfg, pol, account)
			if err != nil {
				// This account's Drive cannot be asked (no sign-in): the
				// local index answers for its files.
				cause := resilient.Classify(ctx, err)
				dec := budget.Decide(budget.Drive, cause)
				if !dec.Degrade() {
					st.Close()
					return nil, err
				}
				n := budget.Notice{Service: budget.Drive, Reason: cause, Fallback: dec.Fallback}
				if account != "" || len(accounts) > 1 {
					n.Account = config.AccountLabel(account)
				}
				ss.notices = append(ss.notices, n)
				continue
			}
			ss.accounts = append(ss.accounts, drivesearch.AccountFinder{Account: account, Finder: c})
		}
		switch {
		case len(accounts) == 1 && len(ss.accounts) == 1:
			ss.drive = ss.accounts[0].Finder
		case len(ss.accounts) > 0:
			ss.drive = drivesearch.Accounts{Finders: ss.accounts}
		}
		ss.Drive = ss.drive != nil
	}
	if asker == nil {
		asker = search.Deferred{}
	}
	local := search.StoreSearcher{Index: st}
	ss.local = local
	var keywords search.KeywordSearcher = local
	if ss.drive != nil {
		// Files of other sources (local folders) are not in Drive, and the
		// files of an account whose Drive cannot be asked are not in the
		// others': the index's own full-text search is merged in for them.
		ss.mergeLocal = len(accounts) > 1 || slices.ContainsFunc(stats.Syncs, func(s store.SyncState) bool { return s.SourceKind() != config.SourceDrive })
		keywords = drivesearch.Searcher{Drive: ss.drive, Index: st, Local: local, MergeLocal: ss.mergeLocal}
	}
	ss.Loop = &search.Loop{Keywords: keywords, Index: st, AI: prov, Asker: asker}
	return ss, nil
}

// openBudgeted opens the index within the budget's database limit: a
// server that accepts connections but never answers, or refuses them, is a
// one-line budget.Failure naming it.
func (d *Deps) openBudgeted(ctx context.Context, cfg *config.Config, pol budget.Policy) (store.Store, error) {
	return d.openStoreWithin(ctx, cfg, pol.DB)
}

// openStoreWithin opens the index; a Postgres server that does not answer
// within limit, or refuses the connection, is a budget.Failure naming it
// ("connects but does not answer" against "cannot connect").
func (d *Deps) openStoreWithin(ctx context.Context, cfg *config.Config, limit time.Duration) (store.Store, error) {
	if !cfg.UsesPostgres() {
		return d.OpenStore(ctx)
	}
	pol := budget.Policy{DB: limit}
	octx, cancel := context.WithTimeout(ctx, pol.DB)
	defer cancel()
	st, err := d.OpenStore(octx)
	if err == nil {
		return st, nil
	}
	if ctx.Err() != nil {
		return nil, err
	}
	cause := resilient.Classify(octx, err)
	if octx.Err() != nil {
		cause = budget.CauseTimeout
	}
	switch cause {
	case budget.CauseTimeout, budget.CauseUnreachable:
		return nil, &budget.Failure{Service: budget.DB, Cause: cause, Where: dbLocation(cfg.DatabaseURL), Limit: pol.DB, Err: err}
	}
	return nil, err
}

// dbLocation names the database in a one-line error: the masked URL
// without its query string (parameters may be long and are not the
// location).
func dbLocation(raw string) string {
	loc, _, _ := strings.Cut(config.MaskURL(raw), "?")
	return loc
}

// interactiveDriveClient is DriveClient with the interactive retry
// policy: few, short retries, a Retry-After longer than the Drive step is
// not waited out, and each try bounded by the step's limit.
func (d *Deps) interactiveDriveClient(ctx context.Context, cfg *config.Config, pol budget.Policy, account string) (*drive.Client, error) {
	var hc *http.Client
	var err error
	if cfg.DriveEndpoint == "" {
		if hc, err = d.GoogleHTTPClient(ctx, account); err != nil {
			return nil, err
		}
	}
	return drive.New(ctx, drive.Options{Endpoint: cfg.DriveEndpoint, HTTPClient: hc, Retry: drive.RetryPolicy{
		MaxAttempts: 3, Base: 100 * time.Millisecond, Cap: 500 * time.Millisecond,
		MaxRetryAfter: pol.Drive, GiveUpAfter: pol.Drive, CallTimeout: pol.Drive,
	}})
}

// run runs one search with a fresh budget: the loop's components wrapped
// with their deadlines and fallbacks, the notices of degraded steps
// returned in the outcome.
func (s *SearchSession) run(ctx context.Context, fn func(l *search.Loop) (search.Outcome, error)) (search.Outcome, error) {
	r := resilient.NewRun(s.Budget, nil)
	for _, n := range s.notices {
		r.Degraded(n, budget.Decision{Fallback: n.Fallback, Sticky: true})
	}
	l := *s.Loop
	// Only a database server gets query deadlines: the embedded SQLite
	// file cannot stop answering the way a server can, and a deadline
	// there would only make a slow machine fail healthy searches.
	var ix interface {
		search.LoopIndex
		search.KeywordIndex
		drivesearch.IndexedFilter
	} = s.store
	if s.remoteDB {
		ix = resilient.Index{Store: s.store, Run: r, Where: s.where}
	}
	l.Index = ix
	local := search.StoreSearcher{Index: ix}
	rs := resilient.Searcher{Local: local, Run: r}
	if s.drive != nil {
		finder := s.drive
		if _, several := s.drive.(drivesearch.Accounts); several {
			// An account whose search fails is noted and skipped; its
			// files come from the local index (mergeLocal).
			finder = drivesearch.Accounts{Finders: s.accounts, OnFail: func(account string, err error) {
				cause := resilient.Classify(ctx, err)
				dec := budget.Decide(budget.Drive, cause)
				r.Degraded(budget.Notice{Service: budget.Drive, Reason: cause, Fallback: dec.Fallback, Account: config.AccountLabel(account)}, dec)
			}}
		}
		rs.Drive = drivesearch.Searcher{Drive: finder, Index: ix, Local: local, MergeLocal: s.mergeLocal}
	}
	l.Keywords = rs
	if s.Loop.AI.Name() != offline.Name {
		l.AI = resilient.Provider{Primary: s.Loop.AI, Offline: offline.New(), Run: r}
	}
	l.Asker = resilient.Asker{Asker: s.Loop.Asker, Run: r}
	onStep := s.Loop.OnStep
	l.OnStep = func(st search.Step, state search.State) {
		r.SetStep(string(st))
		if onStep != nil {
			onStep(st, state)
		}
	}
	out, err := fn(&l)
	out.Degraded = budget.Localize(r.Notices(), s.d.Lang)
	return out, err
}

// DriveClient returns a Drive API client of a Google account ("" is the
// default account): against GDS_DRIVE_ENDPOINT without OAuth when it is
// set (the Drive emulator), else with the account's stored OAuth token.
func (d *Deps) DriveClient(ctx context.Context, account string) (*drive.Client, error) {
	cfg, err := d.RequireConfig()
	if err != nil {
		return nil, err
	}
	var hc *http.Client
	if cfg.DriveEndpoint == "" {
		if hc, err = d.GoogleHTTPClient(ctx, account); err != nil {
			return nil, err
		}
	}
	return drive.New(ctx, drive.Options{Endpoint: cfg.DriveEndpoint, HTTPClient: hc, Retry: d.DriveRetry})
}

// driveAccounts lists the Google accounts of the indexed Drive sources
// ("" is the default account), the default first, then by name.
func driveAccounts(syncs []store.SyncState) []string {
	var out []string
	for _, s := range syncs {
		if s.SourceKind() != config.SourceDrive {
			continue
		}
		if a := store.SourceAccountOf(s.Source); !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	slices.Sort(out)
	return out
}

// NewState starts a search for query, limited to the session's Scope and
// Sources.
func (s *SearchSession) NewState(query string) search.State {
	st := search.NewState(query, s.d.Lang, s.d.Now(), s.maxLoops)
	st.Scope = s.Scope
	st.Sources = s.Sources
	return st
}

// SetFolder limits new searches to the folder a user typed, resolved in
// the index (ResolveFolder: any case, a path as results show it, a source
// folder's name or local path, a source spec); a folder of one source also
// limits the sources, unless --source already did. An unknown folder is a
// *FolderError naming the closest indexed ones.
func (s *SearchSession) SetFolder(ctx context.Context, typed string) error {
	scope, err := ResolveScope(ctx, s.store, typed)
	if err != nil {
		return err
	}
	s.Scope = scope.Path
	if len(scope.Sources) > 0 && len(s.Sources) == 0 {
		return s.SetSources(scope.Sources)
	}
	return nil
}

// SetSources limits new searches to the sources of specs (--source values,
// each a spec or a comma-separated list; none: every source). A bare
// "drive" keeps every Drive source of the default account, "drive@NAME"
// every Drive source of account NAME. When no Drive source is left, keyword
// search stays in the local index. A bad spec is an apperr.Usage error.
func (s *SearchSession) SetSources(specs []string) error {
	keys, err := SourceKeys(specs)
	if err != nil || len(keys) == 0 {
		return err
	}
	s.Sources = keys
	if !slices.ContainsFunc(keys, func(k string) bool { return store.SourceKindOf(k) == config.SourceDrive }) {
		s.Loop.Keywords, s.Drive, s.drive = s.local, false, nil
	}
	return nil
}

// SourceKeys parses --source specs (each a spec or a comma-separated list)
// into source keys; none gives none. A bad spec is an apperr.Usage error
// naming it (suggesting "local:" for a bare path).
func SourceKeys(specs []string) ([]string, error) {
	if len(specs) == 0 {
		return nil, nil
	}
	targets, err := CrawlTargets(&config.Config{}, specs)
	if err != nil {
		return nil, err
	}
	keys := make([]string, len(targets))
	for i, t := range targets {
		keys[i] = t.Key()
	}
	return keys, nil
}

// Run runs a new search for query.
func (s *SearchSession) Run(ctx context.Context, query string) (search.Outcome, error) {
	return s.run(ctx, func(l *search.Loop) (search.Outcome, error) { return l.Run(ctx, s.NewState(query)) })
}

// Resume continues the search waiting in st with the answer text.
func (s *SearchSession) Resume(ctx context.Context, st search.State, answer string) (search.Outcome, error) {
	// The state keeps the sources it started with (source keys).
	if err := s.SetSources(st.Sources); err != nil {
		return search.Outcome{}, err
	}
	return s.run(ctx, func(l *search.Loop) (search.Outcome, error) {
		return l.Resume(ctx, st, search.ParseAnswer(*st.Question, answer))
	})
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
	// Sources limit a new search to these sources (--source specs; none:
	// all).
	Sources []string
	// NoQuestions applies the no-answer policy instead of pausing on a
	// clarifying question (callers that cannot ask anyone: gds federate).
	NoQuestions bool
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
	var asker search.Asker = search.Deferred{}
	if req.NoQuestions {
		asker = search.NoAnswer{}
	}
	ss, err := d.OpenSearch(ctx, asker)
	if err != nil {
		return SearchResult{}, err
	}
	defer ss.Close()
	if err := ss.SetSources(req.Sources); err != nil {
		return SearchResult{}, err
	}
	if err := ss.SetFolder(ctx, req.Folder); err != nil {
		return SearchResult{}, err
	}
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
		// The decoder's own words ("flate: corrupt input") mean nothing
		// to a user; they stay in the cause for logs.
		if errors.Is(err, search.ErrTokenVersion) {
			return s, apperr.L(apperr.Usage, "searchjson.state_version").Wrap(err)
		}
		return s, apperr.L(apperr.Usage, "searchjson.bad_state").Wrap(err)
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
type KeystrokeIndex = keystroke.Index

// OpenKeystrokeIndex opens the index for the per-keystroke path without
// migrating it or taking a write lock: SQLite read-only, or the configured
// Postgres. A missing index file is an apperr.NoIndex error.
func (d *Deps) OpenKeystrokeIndex(ctx context.Context) (KeystrokeIndex, error) {
	cfg, err := d.RequireConfig()
	if err != nil {
		return nil, err
	}
	if cfg.UsesPostgres() {
		return d.openBudgeted(ctx, cfg, d.Budget.WithDefaults())
	}
	ix, err := keystroke.OpenIndex(ctx, cfg)
	if errors.Is(err, store.ErrSchemaOld) && startsKeyServer() {
		// An index an older gds made: the keystroke server this keystroke
		// starts updates it first (keystroke.Serve).
		return nil, fmt.Errorf("%w: %w", keystroke.ErrUpdating, err)
	}
	return ix, err
}

// startsKeyServer reports whether StartKeyServer may start a server: the
// front handed a keystroke over because none listened, and the server is
// not turned off.
func startsKeyServer() bool {
	v, _ := os.LookupEnv(launcher.StartServerEnv)
	return v == "1" && !launcher.KeyServerOff(os.LookupEnv)
}

// ServeKeys runs the keystroke server of the configured SQLite index
// (keystroke.Serve: `gds alfred keyserver`, started by StartKeyServer). Another server already running for the
// index is not an error; a Postgres index has no keystroke server.
//
// run, when not nil, runs the Served command lines fronts send (a full
// search: `gds search WORDS`, Alfred's ⌕ queries) in this process, for
// fronts in the same environment as the server (launcher.ServedEnvKey).
func (d *Deps) ServeKeys(ctx context.Context, build launcher.BuildInfo, run func(ctx context.Context, args []string, stdout, stderr io.Writer) int) error {
	cfg, err := d.RequireConfig()
	if err != nil {
		return err
	}
	if cfg.UsesPostgres() {
		return apperr.L(apperr.Usage, "alfred.keyserver.postgres")
	}
	// The server outlives the keystroke that started it: it sizes itself to
	// the machine, not to the GOMAXPROCS=1 the Alfred workflow gives each
	// keystroke process (with one P, a 100,000-file index's queries paid
	// for the garbage collector themselves: p95 28 → 48 ms).
	runtime.SetDefaultGOMAXPROCS()
	exe, _ := os.Executable()
	wd, _ := os.Getwd()
	err = keystroke.Serve(ctx, keystroke.ServerOptions{Socket: launcher.OSKeySocket(), Config: cfg, Build: build, Executable: exe,
		Run: run, Env: keystroke.ServedEnvKey(os.Environ(), wd)})
	if errors.Is(err, keystroke.ErrServerRunning) {
		return nil
	}
	return err
}

// StartKeyServer starts the keystroke server of the configured SQLite
// index in the background (this executable's `alfred keyserver`) after a
// keystroke the front handed over because no server listened — the front
// says so with launcher.StartServerEnv; otherwise, with the server turned
// off (launcher.KeyServerEnv), for a Postgres index or one not built yet,
// it does nothing. Best effort: a failure only means the next keystroke is
// handed over too.
func (d *Deps) StartKeyServer() {
	if !startsKeyServer() {
		return
	}
	cfg, err := d.RequireConfig()
	if err != nil || cfg.UsesPostgres() || launcher.OSKeySocket() == "" {
		return
	}
	if _, err := os.Stat(cfg.IndexPath()); err != nil {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, launcher.StartServerEnv+"=") {
			env = append(env, kv)
		}
	}
	_ = launcher.StartKeyServer(exe, env)
}

// Keystroke answers one launcher keystroke from the index alone
// (keystroke.Files): it never builds the configured AI provider — the
// offline query rules read the period and type — and opens the index
// read-only. onDrive reports whether the index was crawled from Google
// Drive (the launcher's header names Drive only then).
func (d *Deps) Keystroke(ctx context.Context, query string, limit int) (files []store.File, onDrive bool, err error) {
	ix, err := d.OpenKeystrokeIndex(ctx)
	if err != nil {
		return nil, false, err
	}
	defer ix.Close()
	res, err := keystroke.Files(ctx, ix, keystroke.Request{Query: query, Lang: d.Lang, Now: d.Now(), Limit: limit})
	if err != nil {
		return nil, false, err
	}
	files = res.Files
	onDrive, err = keystroke.OnDrive(ctx, ix)
	if err != nil {
		return nil, false, err
	}
	return files, onDrive, nil
}
