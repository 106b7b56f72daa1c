// Package app wires gds's dependencies in one struct, in the style of gh's
// Factory: the configuration, the standard streams, the user's language, a
// clock, and constructors for the index store and the AI provider chosen by
// the configuration. Commands receive a *Deps and nothing else; tests build
// one with buffers and a temporary GDS_HOME. There are no package globals.
//
// Operations take options and return data, for every front end (terminal,
// --json, Alfred, the HTTP and MCP servers): OpenSearch (a SearchSession:
// the loop over the index with the keyword searcher the index's sources
// pick, under the time budget of internal/resilient), Search (run or resume
// with a state token; NoQuestions for callers that cannot ask), GetFile, Ask
// and Retrieve, Agent, GraphBuild and GraphQuery, OpenFederation, Keystroke
// (the read-only index path), Crawl (lock, sources, run; progress as
// crawl.Progress events), IndexStatus and Migrate, Eval, DoctorInputs, Init
// (`gds init --no-input`: checks the source specs, edits the home .env) and
// InitWizard (the executor of package setup's state machine),
// AuthLogin/AuthStatus/AuthLogout and the Schedule operations. Their output
// is rendered by package render.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/ai/openai"
	"github.com/gds-cli/gds/internal/ai/ratelimit"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/auth"
	"github.com/gds-cli/gds/internal/budget"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/drive"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
	"github.com/gds-cli/gds/internal/isolate"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/postgres"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// Timeouts and retries of the OpenAI provider.
const (
	OpenAITimeout    = 60 * time.Second
	OpenAIMaxRetries = 4
)

// Deps holds everything a command needs.
type Deps struct {
	// Config is the effective configuration; nil when it failed to load
	// (ConfigErr says why). Commands that need it call RequireConfig.
	Config *config.Config
	// ConfigErr is the configuration error, if any.
	ConfigErr error

	// IOStreams are the standard streams, what the terminal supports and
	// the user's language (Lang: i18n.En or i18n.Ja; WithLang changes it
	// for one HTTP request), decided once by main (iostreams.System).
	iostreams.IOStreams
	Now func() time.Time
	// DriveRetry is how the Drive clients of crawls and coverage checks
	// (DriveClient) retry a failing call; the zero value is
	// drive.RetryPolicy's defaults (8 tries, backoff up to 32 s).
	DriveRetry drive.RetryPolicy

	// OpenStore opens (and migrates) the index: Postgres when a database URL
	// is configured, else the embedded SQLite store in the gds home. The
	// caller closes it.
	OpenStore func(ctx context.Context) (store.Store, error)
	// Backfill, when set, is told the progress of the data pass a
	// migration may start when OpenStore opens an index made by an older
	// gds (re-tokenising its stored text).
	Backfill func(store.Backfill)
	// Provider returns the AI provider chosen by GDS_AI_PROVIDER (created
	// once and shared).
	Provider func() (ai.Provider, error)
	// GoogleHTTPClient returns an HTTP client authorised for the Google
	// Drive API with the stored OAuth token of a Google account ("" is the
	// default account; refreshed and saved back as needed). Errors match
	// auth.ErrNoClient, auth.ErrNotLoggedIn or auth.ErrReauthRequired and
	// say to run `gds auth login` (`--account NAME` for a named account).
	GoogleHTTPClient func(ctx context.Context, account string) (*http.Client, error)
	// TokenStore returns where the OAuth token of a Google account is kept
	// ("" is the default account): the macOS Keychain, or a 0600 file in
	// the gds home on other systems.
	TokenStore func(account string) (auth.TokenStore, error)
	// GoogleBaseClient, when set, carries the OAuth token requests and the
	// authorised Drive requests (nil: http.DefaultClient). Tests point it
	// at the OAuth fake and the Drive emulator.
	GoogleBaseClient *http.Client
	// OAuthEndpoints are the OAuth server's URLs; zero means Google's.
	// Tests point them at a fake server (internal/auth/authtest).
	OAuthEndpoints auth.Endpoints
	// OpenBrowser opens a URL in the user's browser (`open` on macOS,
	// `xdg-open` elsewhere).
	OpenBrowser func(ctx context.Context, url string) error
	// Budget is the time budget of interactive searches (zero fields: the
	// defaults of package budget). FromOS reads it from the environment;
	// `gds search` flags override it.
	Budget budget.Policy
	// LoadAllConfig reads the configuration past its problems (see
	// config.LoadAll), for `gds config show` when Config could not load;
	// nil: not available.
	LoadAllConfig func() (*config.Config, []error)
	// Extractor reads the text of crawled and uploaded files. FromOS sets
	// an *isolate.Pool: every file is read in a worker process (this
	// binary in worker mode) under limits on time, memory and output. nil
	// (New, for tests): extract.Extract in this process.
	Extractor crawl.Extractor
}

// Options are the inputs of New.
type Options struct {
	Config    *config.Config
	ConfigErr error
	// LoadAllConfig becomes Deps.LoadAllConfig.
	LoadAllConfig func() (*config.Config, []error)
	// IO becomes Deps.IOStreams; nil streams read nothing and write
	// nowhere, an empty Lang is English.
	IO  iostreams.IOStreams
	Now func() time.Time // nil: time.Now
	// DriveRetry becomes Deps.DriveRetry.
	DriveRetry drive.RetryPolicy
}

// New builds Deps whose OpenStore and Provider follow o.Config.
func New(o Options) *Deps {
	d := &Deps{
		Config:        o.Config,
		ConfigErr:     o.ConfigErr,
		LoadAllConfig: o.LoadAllConfig,
		IOStreams:     o.IO,
		Now:           o.Now,
		DriveRetry:    o.DriveRetry,
	}
	if d.Stdin == nil {
		d.Stdin = eofReader{}
	}
	if d.Stdout == nil {
		d.Stdout = io.Discard
	}
	if d.Stderr == nil {
		d.Stderr = io.Discard
	}
	if d.Lang == "" {
		d.Lang = i18n.En
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Config == nil && d.ConfigErr == nil {
		d.ConfigErr = errors.New("no configuration loaded")
	}
	d.OpenStore = func(ctx context.Context) (store.Store, error) {
		cfg, err := d.RequireConfig()
		if err != nil {
			return nil, err
		}
		return OpenStore(ctx, cfg, d.Backfill)
	}
	var (
		once sync.Once
		prov ai.Provider
		perr error
	)
	d.Provider = func() (ai.Provider, error) {
		once.Do(func() {
			cfg, err := d.RequireConfig()
			if err != nil {
				perr = err
				return
			}
			prov, perr = NewProvider(cfg, d.Lang)
		})
		return prov, perr
	}
	d.TokenStore = func(account string) (auth.TokenStore, error) {
		cfg, err := d.RequireConfig()
		if err != nil {
			return nil, err
		}
		return auth.AccountStore(cfg.DataDir, account), nil
	}
	d.OpenBrowser = auth.BrowserOpener(runtime.GOOS, nil)
	d.GoogleHTTPClient = func(ctx context.Context, account string) (*http.Client, error) {
		cfg, err := d.RequireConfig()
		if err != nil {
			return nil, err
		}
		ts, err := d.TokenStore(account)
		if err != nil {
			return nil, err
		}
		return auth.HTTPClient(ctx, auth.SessionOptions{
			Client:     auth.Client{ID: cfg.OAuthClientID, Secret: cfg.OAuthClientSecret},
			Endpoints:  d.OAuthEndpoints,
			Store:      ts,
			Account:    account,
			HTTPClient: d.GoogleBaseClient,
			Warn:       func(err error) { fmt.Fprintln(d.Stderr, d.T("auth.warning", err.Error())) },
			Now:        d.Now,
		})
	}
	return d
}

// FromOS builds Deps for the real process: configuration from the
// environment, the current directory and the gds home; the streams, the
// terminal and the language main decided (iostreams.System). A
// configuration error is kept in ConfigErr so that help and `gds version`
// still work.
func FromOS(streams iostreams.IOStreams) *Deps {
	cfg, err := config.Load(config.OSOptions())
	pol, perr := budget.FromEnv(os.LookupEnv)
	if perr != nil && err == nil {
		cfg, err = nil, apperr.Mark(perr, apperr.Config)
	}
	d := New(Options{
		Config:        cfg,
		ConfigErr:     err,
		LoadAllConfig: func() (*config.Config, []error) { return config.LoadAll(config.OSOptions()) },
		IO:            streams,
	})
	d.Budget = pol
	size := 4
	if cfg != nil && cfg.CrawlConcurrency > size {
		size = cfg.CrawlConcurrency
	}
	// Workers start on the first file and end with this process (they
	// read their input until it closes).
	d.Extractor = isolate.New(isolate.Options{Size: size})
	return d
}

// RequireConfig returns the configuration or the error that kept it from
// loading.
func (d *Deps) RequireConfig() (*config.Config, error) {
	if d.Config == nil {
		return nil, d.ConfigErr
	}
	return d.Config, nil
}

// T formats a message in the user's language.
func (d *Deps) T(key i18n.Key, args ...any) string { return i18n.T(d.Lang, key, args...) }

// N is i18n.N in the user's language: a message about n things.
func (d *Deps) N(key i18n.Key, n int, args ...any) string { return i18n.N(d.Lang, key, n, args...) }

// OpenStore opens the index configured by cfg: Postgres when cfg has a
// database URL, else the embedded SQLite file at cfg.IndexPath() (its
// directory is created with mode 0700). backfill (may be nil) is told the
// progress of a migration's data pass.
func OpenStore(ctx context.Context, cfg *config.Config, backfill func(store.Backfill)) (store.Store, error) {
	if cfg.UsesPostgres() {
		opts := []postgres.Option{postgres.WithBackfill(backfill)}
		if cfg.DatabaseSchema != "" {
			opts = append(opts, postgres.WithSchema(cfg.DatabaseSchema))
		}
		s, err := postgres.Open(ctx, cfg.DatabaseURL, opts...)
		if err != nil {
			return nil, fmt.Errorf("open the Postgres index at %s (from %s): %w", config.MaskURL(cfg.DatabaseURL), cfg.DatabaseURLVar, err)
		}
		return s, nil
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		err = fmt.Errorf("create the gds data directory %s: %w", cfg.DataDir, err)
		if isReadOnly(err) {
			return nil, apperr.L(apperr.Config, "store.read_only", cfg.DataDir).Wrap(err)
		}
		return nil, err
	}
	s, err := sqlite.Open(ctx, cfg.IndexPath(), sqlite.Options{Backfill: backfill})
	if err != nil {
		err = fmt.Errorf("open the index %s: %w", cfg.IndexPath(), err)
		// SQLite says only "unable to open database file (14)"; whether
		// the folder is writable is asked of the file system itself.
		if perr := writeProbe(cfg.DataDir); isReadOnly(perr) {
			return nil, apperr.L(apperr.Config, "store.read_only", cfg.DataDir).Wrap(errors.Join(err, perr))
		}
		return nil, err
	}
	return s, nil
}

// writeProbe creates and removes a file in dir: nil when dir is writable.
// A variable so tests can stand in for a read-only file system.
var writeProbe = func(dir string) error {
	f, err := os.CreateTemp(dir, ".gds-write-check-*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// isReadOnly tells a permission or read-only-file-system error.
func isReadOnly(err error) bool {
	return err != nil && (errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS))
}

// NewProvider returns the AI provider cfg.AIProvider names; its errors
// speak lang.
func NewProvider(cfg *config.Config, lang string) (ai.Provider, error) {
	switch cfg.AIProvider {
	case config.ProviderOffline:
		return offline.New(), nil
	case config.ProviderOpenAI:
		p, err := openai.New(openai.Config{
			APIKey:         cfg.OpenAIAPIKey,
			BaseURL:        cfg.OpenAIBaseURL,
			ChatModel:      cfg.OpenAIModel,
			EmbeddingModel: cfg.OpenAIEmbeddingModel,
			EmbeddingDim:   cfg.OpenAIEmbeddingDim,
			Timeout:        OpenAITimeout,
			MaxRetries:     OpenAIMaxRetries,
			RateLimits:     ratelimit.Config{MaxRPM: cfg.AIMaxRPM},
			Lang:           lang,
		})
		if err != nil {
			return nil, fmt.Errorf("set up the OpenAI provider: %w", err)
		}
		return p, nil
	default:
		return nil, fmt.Errorf("unknown AI provider %q", cfg.AIProvider)
	}
}

// eofReader is an empty standard input.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
