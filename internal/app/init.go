package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/doctor"
	"github.com/gds-cli/gds/internal/drive"
	"github.com/gds-cli/gds/internal/envfile"
	"github.com/gds-cli/gds/internal/mirror"
	"github.com/gds-cli/gds/internal/setup"
)

// InitRequest is a non-interactive `gds init`.
type InitRequest struct {
	// Sources are source specs ("drive", "drive:FOLDER_ID", "local:PATH";
	// a value may hold several, comma-separated). Empty keeps the
	// configured sources.
	Sources []string
	// Provider is offline or openai; "" keeps the configured one.
	Provider string
}

// InitResult says what `gds init` did.
type InitResult struct {
	EnvFile   string
	Sources   []setup.Source
	Set       []setup.Setting // secrets masked
	Commented []string        // superseded settings commented out
	Changed   bool            // the file changed
	// Overridden are settings just written that a real environment
	// variable or the current directory's .env overrides (name → where).
	Overridden map[string]string
	// Problem is the last message of the wizard (a rejected key, a failed
	// crawl), already in the user's language.
	Problem            string
	Crawled, Scheduled bool
	Cancelled          bool // the wizard was left before writing
	// AccountOffered: the wizard offered another Google account already.
	AccountOffered bool
	// Model: the configuration written calls a model (the openai
	// provider), so a crawl costs money: the next step names
	// `gds crawl --estimate`.
	Model bool
}

// OfferAccount reports whether `gds init` should say how to add a second
// Google account: the sources read the default account's Drive and no
// other account's, and the wizard did not offer one.
func (r InitResult) OfferAccount() bool {
	if r.AccountOffered {
		return false
	}
	defaultDrive, other := false, false
	for _, s := range r.Sources {
		defaultDrive = defaultDrive || s.Kind == setup.KindDrive && s.Account == ""
		other = other || s.Kind == setup.KindDrive && s.Account != ""
	}
	return defaultDrive && !other && !r.Cancelled
}

// initConfig is the configuration init edits: the loaded one, or, when a
// bad value keeps it from loading, everything readable (init is how such
// a setup gets repaired).
func (d *Deps) initConfig() (*config.Config, error) {
	if d.Config != nil {
		return d.Config, nil
	}
	if d.LoadAllConfig != nil {
		cfg, problems := d.LoadAllConfig()
		for _, p := range problems {
			// A .env file that cannot be read or parsed would be kept
			// broken by an edit (and stays in force): its error names the
			// file and line to fix first. Bad values are what init repairs.
			var ce *config.Error
			if errors.As(p, &ce) && ce.File != "" {
				return nil, p
			}
		}
		if cfg != nil {
			return cfg, nil
		}
	}
	return nil, d.ConfigErr
}

// currentSetup reads the configured sources (GDS_SOURCES, or the legacy
// GDS_SOURCE; none when neither is set) and provider.
func currentSetup(cfg *config.Config) setup.Current {
	cur := setup.Current{Provider: cfg.AIProviderSetting, HasKey: cfg.OpenAIAPIKey != ""}
	if cfg.SourceOf(config.EnvSources).Kind == config.FromDefault && cfg.SourceOf(config.EnvSource).Kind == config.FromDefault {
		return cur // the built-in default is not a choice the user made
	}
	for _, cs := range cfg.Sources {
		cur.Sources = append(cur.Sources, sourceOf(cs))
	}
	return cur
}

func sourceOf(cs config.CrawlSource) setup.Source {
	if cs.Kind == config.SourceLocal {
		return setup.Source{Kind: setup.KindLocal, Path: cs.Path}
	}
	return setup.Source{Kind: setup.KindDrive, FolderID: cs.FolderID, Account: cs.Account}
}

func homeDirOf() string {
	h, _ := os.UserHomeDir()
	return h
}

// parseSpecs parses a --source value (one spec or a comma-separated list)
// with config.ParseSources, as GDS_SOURCES is read.
func parseSpecs(value, workDir, homeDir string) ([]setup.Source, error) {
	css, err := config.ParseSources(value, workDir, homeDir)
	if err != nil {
		var se *config.SourceError
		var ae *config.AccountError
		switch {
		case errors.As(err, &ae):
			return nil, apperr.Mark(err, apperr.Usage)
		case errors.As(err, &se) && se.Suggest != "":
			return nil, apperr.L(apperr.Usage, "init.source_path", se.Value, se.Suggest).Wrap(err)
		case errors.As(err, &se) && strings.HasPrefix(se.Value, config.SourceDrive+":"):
			return nil, apperr.L(apperr.Usage, "init.bad_folder_id", se.Value).Wrap(err)
		case errors.As(err, &se) && strings.HasPrefix(se.Value, config.SourceLocal+":"):
			return nil, apperr.L(apperr.Usage, "init.empty_source").Wrap(err)
		case errors.As(err, &se):
			return nil, apperr.L(apperr.Usage, "init.bad_source", se.Value).Wrap(err)
		}
		return nil, apperr.Mark(fmt.Errorf("--source: %w", err), apperr.Usage)
	}
	out := make([]setup.Source, len(css))
	for i, cs := range css {
		out[i] = sourceOf(cs)
	}
	return out, nil
}

// checkLocalFolder resolves path and checks that it is a folder.
func checkLocalFolder(path, workDir, homeDir string) (string, error) {
	srcs, err := parseSpecs(config.SourceLocal+":"+path, workDir, homeDir)
	if err != nil {
		return "", err
	}
	src := srcs[0]
	st, err := os.Stat(src.Path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", apperr.L(apperr.Usage, "init.no_such_folder", src.Path)
	case err != nil:
		return "", fmt.Errorf("check %s: %w", src.Path, err)
	case !st.IsDir():
		return "", apperr.L(apperr.Usage, "init.not_a_folder", src.Path)
	}
	return src.Path, nil
}

// Init configures gds without questions: it checks every source spec
// (nothing is written when one is bad), then writes GDS_SOURCES and
// GDS_AI_PROVIDER into the home .env, keeping its other lines.
func (d *Deps) Init(ctx context.Context, req InitRequest) (InitResult, error) {
	cfg, err := d.initConfig()
	if err != nil {
		return InitResult{}, err
	}
	cur := currentSetup(cfg)
	wd, home := cfg.WorkDir, homeDirOf()
	sources := cur.Sources
	if len(req.Sources) > 0 {
		sources = nil
		for _, v := range req.Sources {
			srcs, err := parseSpecs(v, wd, home)
			if err != nil {
				return InitResult{}, err
			}
			for _, src := range srcs {
				if src.Kind == setup.KindLocal {
					if _, err := checkLocalFolder(src.Path, wd, home); err != nil {
						return InitResult{}, err
					}
				}
				if !containsSource(sources, src) {
					sources = append(sources, src)
				}
			}
		}
	}
	if len(sources) == 0 {
		return InitResult{}, apperr.L(apperr.Usage, "init.need_source")
	}
	st, _ := setup.Start(cur)
	provider := st.Provider
	switch req.Provider {
	case "":
	case setup.ProviderOffline, setup.ProviderOpenAI:
		provider = req.Provider
	default:
		return InitResult{}, apperr.L(apperr.Usage, "init.bad_provider", req.Provider)
	}
	if provider == setup.ProviderOpenAI && !cur.HasKey && cfg.OpenAIBaseURL == "" {
		return InitResult{}, apperr.L(apperr.Usage, "init.need_key")
	}
	return d.writePlan(cfg, sources, setup.PlanFor(sources, provider, ""))
}

func containsSource(ss []setup.Source, s setup.Source) bool {
	for _, x := range ss {
		if x.Spec() == s.Spec() {
			return true
		}
	}
	return false
}

// writePlan applies plan to the home .env.
func (d *Deps) writePlan(cfg *config.Config, sources []setup.Source, plan setup.Plan) (InitResult, error) {
	res := InitResult{EnvFile: cfg.EnvFilePath(), Sources: sources, Commented: plan.Comment, Overridden: map[string]string{}}
	res.Model = cfg.AIProvider == config.ProviderOpenAI
	edit := envfile.Edit{Comment: plan.Comment, Note: d.T("init.env_note")}
	for _, st := range plan.Set {
		edit.Set = append(edit.Set, envfile.KV{Key: st.Name, Value: st.Value})
		if st.Name == config.EnvAIProvider {
			res.Model = st.Value == config.ProviderOpenAI
		}
		shown := st
		if st.Secret {
			shown.Value = config.MaskSecret(st.Value)
		}
		res.Set = append(res.Set, shown)
		if src := cfg.SourceOf(st.Name); src.Kind == config.FromEnv || (src.Kind == config.FromFile && src.Path != res.EnvFile) {
			res.Overridden[st.Name] = src.String()
		}
	}
	changed, err := envfile.Apply(res.EnvFile, edit)
	if isReadOnly(err) {
		return InitResult{}, homeWriteError(filepath.Dir(res.EnvFile), err)
	}
	if err != nil {
		return InitResult{}, apperr.L(apperr.Config, "init.write_failed", res.EnvFile).Wrap(err)
	}
	res.Changed = changed
	return res, nil
}

// InitUI asks the wizard's questions: it shows the question of action a
// in state s and returns the answer as an event (setup.EvCancel when the
// user gives up). render.InitPrompter implements it.
type InitUI interface {
	Ask(ctx context.Context, s setup.State, a setup.Action) (setup.Event, error)
}

// InitWizardRequest is an interactive `gds init`.
type InitWizardRequest struct {
	UI InitUI
	// ShowURL shows the Google sign-in URL (it carries no secret).
	ShowURL func(url string)
	// Run runs another gds command (`gds crawl`, `gds schedule install`)
	// with the new settings; the CLI re-executes itself.
	Run func(ctx context.Context, args ...string) error
	// ProbeKey checks an OpenAI key against the API (nil: GET /models
	// with the configured base URL, as `gds doctor` does).
	ProbeKey func(ctx context.Context, key string) error
	// GOOS and UserHome decide where the Google Drive for desktop mirror
	// is looked for (""/"": this machine's).
	GOOS, UserHome string
}

// SignInTimeout bounds the Google sign-in of the wizard.
const SignInTimeout = 5 * time.Minute

// InitWizard runs the interactive setup: the state machine of package
// setup, whose actions are performed here (sign-in, Drive listings, key
// check, writing the .env, the first crawl, the schedule) and whose
// questions req.UI asks.
func (d *Deps) InitWizard(ctx context.Context, req InitWizardRequest) (InitResult, error) {
	cfg, err := d.initConfig()
	if err != nil {
		return InitResult{}, err
	}
	cur := currentSetup(cfg)
	cur.Mirror = findMirror(req.GOOS, req.UserHome)
	if cfg.DriveEndpoint != "" {
		cur.SignedIn, cur.NoSignIn = true, true // an emulator or proxy needs no Google sign-in
	} else if st, _, err := d.AuthStatus(ctx, false); err == nil {
		cur.SignedIn = st.LoggedIn
		for _, a := range st.Accounts {
			if a.LoggedIn && a.Account != config.DefaultAccount {
				cur.Accounts = append(cur.Accounts, a.Account)
			}
		}
	}
	probe := req.ProbeKey
	if probe == nil {
		probe = func(ctx context.Context, key string) error {
			return doctor.HTTPModelsProbe{BaseURL: cfg.OpenAIBaseURL, APIKey: key}.ProbeModels(ctx)
		}
	}
	clients := map[string]*drive.Client{} // by Google account
	driveClient := func(ctx context.Context, account string) (*drive.Client, error) {
		if c := clients[account]; c != nil {
			return c, nil
		}
		c, err := d.DriveClient(ctx, account)
		if err == nil {
			clients[account] = c
		}
		return c, err
	}

	var res InitResult
	s, act := setup.Start(cur)
	for act.Kind != setup.Finish {
		if err := ctx.Err(); err != nil {
			return InitResult{}, err
		}
		var ev setup.Event
		switch act.Kind {
		case setup.SignIn:
			_, err := d.AuthLogin(ctx, AuthLoginRequest{Account: act.Account, Timeout: SignInTimeout, ShowURL: req.ShowURL})
			if err != nil && ctx.Err() == nil {
				err = errors.New(apperr.Message(err, d.Lang))
			}
			ev = setup.Event{Kind: setup.EvSignedIn, Err: err}
		case setup.ListFolders, setup.FindFolders:
			ev = setup.Event{Kind: setup.EvListed}
			ev.Folders, ev.Err = d.listFolders(ctx, driveClient, act)
			if ev.Err != nil && ctx.Err() == nil {
				ev.Err = errors.New(apperr.Message(ev.Err, d.Lang))
			}
		case setup.CheckKey:
			key := act.Key
			if key == "" {
				key = cfg.OpenAIAPIKey
			}
			ev = setup.Event{Kind: setup.EvKeyChecked, Result: setup.KeyOK}
			if err := probe(ctx, key); err != nil {
				ev.Result, ev.Err = setup.KeyUnreachable, err
				if errors.Is(err, doctor.ErrKeyRejected) {
					ev.Result = setup.KeyRejected
				}
			}
		case setup.WriteEnv:
			r, err := d.writePlan(cfg, s.Sources(), act.Plan)
			if err == nil {
				res = r
			}
			ev = setup.Event{Kind: setup.EvWritten, Err: err}
		case setup.Crawl:
			ev = setup.Event{Kind: setup.EvRan, Err: req.Run(ctx, "crawl")}
		case setup.Schedule:
			ev = setup.Event{Kind: setup.EvRan, Err: req.Run(ctx, "schedule", "install")}
		default:
			if act.Kind == setup.AskCrawl && s.Provider == setup.ProviderOpenAI && req.Run != nil {
				// What the first crawl would cost, before the offer: the
				// estimate runs with the settings just written. Best effort:
				// a failed estimate leaves the question as it was.
				fmt.Fprintln(d.Stdout, d.T("estimate.init_offer"))
				_ = req.Run(ctx, "crawl", "--estimate")
			}
			if ev, err = req.UI.Ask(ctx, s, act); err != nil {
				return InitResult{}, err
			}
			if ev.Kind == setup.EvAccount && ev.Account != "" {
				name, aerr := checkAccount(ev.Account)
				if ev.Account = name; aerr != nil {
					ev.Err = errors.New(apperr.Message(aerr, d.Lang))
				}
			}
			if ev.Kind == setup.EvLocalPath && ev.Err == nil {
				ev.Path, ev.Err = checkLocalFolder(ev.Path, cfg.WorkDir, homeDirOf())
				if ev.Err != nil {
					ev.Err = errors.New(apperr.Message(ev.Err, d.Lang))
				}
			}
		}
		s, act = setup.Next(s, ev)
	}
	if s.Err != nil {
		return InitResult{}, s.Err
	}
	if ctx.Err() != nil {
		return InitResult{}, ctx.Err()
	}
	res.Cancelled = s.Cancelled && !s.Written
	res.Crawled, res.Scheduled, res.AccountOffered = s.Crawled, s.Scheduled, s.AccountAsked
	if s.Problem != "" {
		res.Problem = d.T(s.Problem, s.ProblemArgs...)
	}
	return res, nil
}

// listFolders performs a picker listing: the top level (My Drive and the
// Shared drives), a folder's subfolders, or a search by name.
func (d *Deps) listFolders(ctx context.Context, client func(context.Context, string) (*drive.Client, error), act setup.Action) ([]setup.Folder, error) {
	c, err := client(ctx, act.Account)
	if err != nil {
		return nil, err
	}
	var entries []drive.FolderEntry
	switch {
	case act.Kind == setup.FindFolders:
		entries, err = c.FindFolders(ctx, act.Query)
	case act.Parent != nil:
		entries, err = c.ChildFolders(ctx, act.Parent.ID)
	default:
		var shared []drive.FolderEntry
		if shared, err = c.SharedDrives(ctx); err == nil {
			entries = append([]drive.FolderEntry{{ID: drive.MyDriveRoot, Name: d.T("init.my_drive")}}, shared...)
		}
	}
	if err != nil {
		return nil, err
	}
	out := make([]setup.Folder, len(entries))
	for i, e := range entries {
		out[i] = setup.Folder{ID: e.ID, Name: e.Name, SharedDrive: e.SharedDrive}
	}
	return out, nil
}

// findMirror returns the My Drive folder of Google Drive for desktop on
// macOS, "" elsewhere or when it is not installed.
func findMirror(goos, userHome string) string {
	if goos == "" {
		goos = runtime.GOOS
	}
	if goos != "darwin" {
		return ""
	}
	if userHome == "" {
		userHome = homeDirOf()
	}
	for _, r := range mirror.Roots(userHome) {
		if filepath.Base(r) == "My Drive" {
			return r
		}
	}
	return ""
}
