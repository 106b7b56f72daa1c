package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gds-cli/gds/internal/ai/pricing"
	"github.com/gds-cli/gds/internal/envfile"
	"github.com/gds-cli/gds/internal/gdshome"
	"github.com/gds-cli/gds/internal/i18n"
)

// Setting names (environment variables) gds reads.
const (
	EnvHome               = "GDS_HOME"
	EnvDriveFolderIDs     = "GOOGLE_DRIVE_TARGET_FOLDER_IDS"
	EnvSource             = "GDS_SOURCE"
	EnvSources            = "GDS_SOURCES"
	EnvCrawlConcurrency   = "GDS_CRAWL_CONCURRENCY"
	EnvDriveEndpoint      = "GDS_DRIVE_ENDPOINT"
	EnvOAuthClientID      = "GOOGLE_OAUTH_CLIENT_ID"
	EnvOAuthClientSecret  = "GOOGLE_OAUTH_CLIENT_SECRET"
	EnvAIProvider         = "GDS_AI_PROVIDER"
	EnvOpenAIAPIKey       = "OPENAI_API_KEY"
	EnvOpenAIBaseURL      = "OPENAI_BASE_URL"
	EnvOpenAIModel        = "OPENAI_MODEL"
	EnvOpenAIEmbedModel   = "OPENAI_EMBEDDING_MODEL"
	EnvOpenAIEmbedDim     = "OPENAI_EMBEDDING_DIM"
	EnvAIMaxRPM           = "GDS_AI_MAX_RPM"
	EnvOpenAITier         = "GDS_OPENAI_TIER"
	EnvAIPrices           = "GDS_AI_PRICES"
	EnvAILimits           = "GDS_AI_LIMITS"
	EnvSummaryMaxLength   = "SUMMARY_MAX_LENGTH"
	EnvSearchMaxLoopCount = "SEARCH_MAX_LOOP_COUNT"
	EnvDatabaseURL        = "DATABASE_URL"
	EnvSupabaseDBURL      = "SUPABASE_DB_URL"
	EnvDatabaseSchema     = "GDS_DB_SCHEMA"
	EnvUploadDir          = "GDS_UPLOAD_DIR"
	EnvOCR                = "GDS_OCR"
)

// Defaults of the settings that have one.
const (
	DefaultOpenAIModel        = "gpt-4o-mini"
	DefaultOpenAIEmbedModel   = "text-embedding-3-small"
	DefaultSummaryMaxLength   = 200
	DefaultSearchMaxLoopCount = 5
	DefaultCrawlConcurrency   = 4
	DefaultAIProvider         = ProviderAuto
	DefaultOCR                = OCRAuto
)

// OCR choices (GDS_OCR).
const (
	OCRAuto      = "auto"      // the model with the openai provider, else tesseract when installed
	OCRTesseract = "tesseract" // tesseract when installed, whatever the provider
	OCRModel     = "model"     // the chat model's vision input (openai provider)
	OCROff       = "off"       // scans and photos are indexed by name only
)

// AI provider choices (GDS_AI_PROVIDER).
const (
	ProviderAuto    = "auto"
	ProviderOpenAI  = "openai"
	ProviderOffline = "offline"
)

// Source kinds (GDS_SOURCE).
const (
	SourceDrive = "drive"
	SourceLocal = "local"
)

// Ranges accepted for numeric settings (inclusive).
const (
	MinSummaryMaxLength   = 20
	MaxSummaryMaxLength   = 10000
	MinSearchMaxLoopCount = 1
	MaxSearchMaxLoopCount = 100
	MinCrawlConcurrency   = 1
	MaxCrawlConcurrency   = 64
	MaxEmbeddingDim       = 16000
	MaxAIMaxRPM           = 1_000_000
)

// File names inside the gds home.
const (
	EnvFileName   = ".env"
	IndexFileName = "index.db"
	// UploadDirName is the default upload directory inside the gds home.
	UploadDirName = "uploads"
)

// Names lists every setting in display order.
var Names = []string{
	EnvHome, EnvSources, EnvDriveFolderIDs, EnvSource, EnvCrawlConcurrency, EnvDriveEndpoint,
	EnvOAuthClientID, EnvOAuthClientSecret,
	EnvAIProvider, EnvOpenAIAPIKey, EnvOpenAIBaseURL, EnvOpenAIModel, EnvOpenAIEmbedModel, EnvOpenAIEmbedDim,
	EnvAIMaxRPM, EnvOpenAITier, EnvAIPrices, EnvAILimits, EnvSummaryMaxLength, EnvSearchMaxLoopCount,
	EnvDatabaseURL, EnvSupabaseDBURL, EnvDatabaseSchema,
	EnvUploadDir, EnvOCR,
}

// secretNames are never shown in full.
var secretNames = map[string]bool{
	EnvOpenAIAPIKey:      true,
	EnvOAuthClientSecret: true,
}

// urlNames may carry a password in the URL.
var urlNames = map[string]bool{
	EnvDatabaseURL:   true,
	EnvSupabaseDBURL: true,
	EnvOpenAIBaseURL: true,
	EnvDriveEndpoint: true,
}

// SourceKind says where a value came from.
type SourceKind string

// The kinds of source.
const (
	FromEnv     SourceKind = "env"     // a real environment variable
	FromFile    SourceKind = "file"    // a .env file (Source.Path)
	FromDefault SourceKind = "default" // the built-in default
)

// Source is where a setting's value came from.
type Source struct {
	Kind SourceKind
	Path string // the .env file when Kind is FromFile
}

// String renders the source for `gds config show`.
func (s Source) String() string {
	if s.Kind == FromFile {
		return s.Path
	}
	return string(s.Kind)
}

// CrawlSource is one parsed source spec of GDS_SOURCES (or the older
// GDS_SOURCE): "drive", "drive:FOLDER_ID", "drive@ACCOUNT",
// "drive@ACCOUNT:FOLDER_ID" or "local:PATH".
type CrawlSource struct {
	Kind string // SourceDrive or SourceLocal
	Path string // absolute folder path when Kind is SourceLocal
	// FolderID is the one Drive folder of "drive:FOLDER_ID"; "" for
	// "drive", which crawls GOOGLE_DRIVE_TARGET_FOLDER_IDS.
	FolderID string
	// Account is the Google account of a Drive source ("drive@ACCOUNT"):
	// a name given to `gds auth login --account`; "" is the default
	// account (plain "drive", and "drive@default").
	Account string
}

// String renders the source as it is written in GDS_SOURCES (its Key).
func (s CrawlSource) String() string { return s.Key() }

// Key is the stable key of the source: "drive", "drive:FOLDER_ID",
// "drive@ACCOUNT", "drive@ACCOUNT:FOLDER_ID" or "local:/abs/path" (the
// path cleaned and absolute). Every indexed file records the key of its
// source (store.File.Source), and every source has its own crawl
// checkpoint under it. The default account's keys have no "@", so indexes
// made before accounts existed keep theirs.
func (s CrawlSource) Key() string {
	if s.Kind == SourceLocal {
		return SourceLocal + ":" + s.Path
	}
	k := s.Kind
	if s.Kind == SourceDrive && s.Account != "" {
		k += "@" + s.Account
	}
	if s.FolderID != "" {
		k += ":" + s.FolderID
	}
	return k
}

// ParseSource parses one source spec ("drive", "drive:FOLDER_ID" or
// "local:PATH"). A relative PATH is resolved against workDir and a leading
// "~/" against homeDir. An unknown spec is a *SourceError, which suggests
// "local:" for a bare folder path.
func ParseSource(v, workDir, homeDir string) (CrawlSource, error) {
	v = strings.TrimSpace(v)
	switch {
	case v == "" || v == SourceDrive:
		return CrawlSource{Kind: SourceDrive}, nil
	case strings.HasPrefix(v, SourceDrive+"@"):
		rest := strings.TrimPrefix(v, SourceDrive+"@")
		name, folder, hasFolder := strings.Cut(rest, ":")
		account, err := CheckAccount(name)
		if name == "" {
			err = &AccountError{Name: name}
		}
		if err != nil {
			return CrawlSource{}, &SourceError{Value: v, Err: err}
		}
		if !hasFolder {
			return CrawlSource{Kind: SourceDrive, Account: account}, nil
		}
		id, err := parseFolderID(folder)
		if err != nil {
			return CrawlSource{}, &SourceError{Value: v, Err: err}
		}
		return CrawlSource{Kind: SourceDrive, Account: account, FolderID: id}, nil
	case strings.HasPrefix(v, SourceDrive+":"):
		id, err := parseFolderID(strings.TrimPrefix(v, SourceDrive+":"))
		if err != nil {
			return CrawlSource{}, &SourceError{Value: v, Err: err}
		}
		return CrawlSource{Kind: SourceDrive, FolderID: id}, nil
	case strings.HasPrefix(v, SourceLocal+":"):
		p := strings.TrimSpace(strings.TrimPrefix(v, SourceLocal+":"))
		if p == "" {
			return CrawlSource{}, &SourceError{Value: v, Err: errors.New("needs a folder path after \"local:\"")}
		}
		return CrawlSource{Kind: SourceLocal, Path: gdshome.Resolve(p, workDir, homeDir)}, nil
	default:
		e := &SourceError{Value: v}
		if looksLikePath(v) {
			e.Suggest = SourceLocal + ":" + v
		}
		return CrawlSource{}, e
	}
}

// parseFolderID reads the folder ID after "drive:" (or a folder URL).
func parseFolderID(v string) (string, error) {
	id := strings.TrimSpace(v)
	if guess := folderIDFromURL(id); guess != "" {
		id = guess
	}
	if !validFolderID(id) {
		return "", errors.New("needs a folder ID after \"drive:\" (the part after /folders/ in the folder's Drive URL)")
	}
	return id, nil
}

// SourceError is a source spec gds cannot use: an unknown one (Err nil;
// Suggest is the spelling gds would accept when the value looks like a
// folder path, "/data" → "local:/data", "" otherwise), or a known kind with
// a bad rest (Err says what is wrong: "local:" without a path, "drive:"
// without a folder ID).
type SourceError struct {
	Value   string
	Suggest string
	Err     error
}

func (e *SourceError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("source %q: %v", e.Value, e.Err)
	}
	return fmt.Sprintf("unknown source %q", e.Value)
}

func (e *SourceError) Unwrap() error { return e.Err }

// looksLikePath tells a folder path written without "local:" from other
// words: absolute, home-relative, dot-relative, or with a separator.
func looksLikePath(v string) bool {
	return v == "." || v == "~" || strings.HasPrefix(v, "~/") || strings.HasPrefix(v, "./") ||
		strings.HasPrefix(v, "../") || filepath.IsAbs(v) || strings.ContainsRune(v, '/') || strings.ContainsRune(v, filepath.Separator)
}

// Config is the effective configuration.
type Config struct {
	Home    string // the gds home directory (GDS_HOME)
	DataDir string // where the index and tokens live (same as Home)
	WorkDir string // the directory whose .env was considered

	DriveFolderIDs []string // GOOGLE_DRIVE_TARGET_FOLDER_IDS: trimmed, deduplicated, in order
	// Sources are the configured sources, in order, without duplicates:
	// GDS_SOURCES, or the one source of GDS_SOURCE when it is unset.
	Sources []CrawlSource
	// Source is the first of Sources (what GDS_SOURCE alone said before
	// GDS_SOURCES); prefer Sources.
	Source           CrawlSource
	CrawlConcurrency int
	// OCR is GDS_OCR: who reads scans and photos — OCRAuto (the chat
	// model with the openai provider, else tesseract when installed),
	// OCRTesseract, OCRModel or OCROff.
	OCR           string
	DriveEndpoint string // "" for the real Drive API

	OAuthClientID     string
	OAuthClientSecret string

	AIProviderSetting    string // as configured: auto, openai or offline
	AIProvider           string // resolved: openai or offline
	OpenAIAPIKey         string
	OpenAIBaseURL        string
	OpenAIModel          string
	OpenAIEmbeddingModel string
	OpenAIEmbeddingDim   int // 0: the model's native dimension
	// AIMaxRPM caps every model's requests per minute below the account's
	// limit (GDS_AI_MAX_RPM, gds crawl/graph build --max-rpm); 0: none.
	AIMaxRPM int
	// Pricing is the price and rate-limit book of cost estimates: the
	// embedded table at the account's usage tier (GDS_OPENAI_TIER) with
	// the overrides of GDS_AI_PRICES and GDS_AI_LIMITS.
	Pricing *pricing.Book

	SummaryMaxLength   int
	SearchMaxLoopCount int

	DatabaseURL    string // "" means the embedded SQLite store at IndexPath()
	DatabaseURLVar string // DATABASE_URL or SUPABASE_DB_URL, whichever was used
	// DatabaseSchema is the Postgres schema holding the gds tables
	// (GDS_DB_SCHEMA); "" means public.
	DatabaseSchema string

	// UploadDir is where `gds serve` keeps uploaded documents
	// (GDS_UPLOAD_DIR; default: the uploads folder of the gds home).
	UploadDir string

	// EnvFiles are the .env files that were read, highest precedence first.
	EnvFiles []string
	// EnvFilesUnread are .env files that exist but could not be read (a
	// line that is not NAME=value, …): none of their values is used, and
	// the configuration's problems say why.
	EnvFilesUnread []string

	raw     map[string]string
	sources map[string]Source
}

// LoadOptions injects everything Load reads from the outside world.
type LoadOptions struct {
	// LookupEnv reads a real environment variable (os.LookupEnv in
	// production). Nil means an empty environment.
	LookupEnv func(key string) (string, bool)
	// WorkDir is the current directory; its .env is read. "" skips it.
	WorkDir string
	// HomeDir is the user's home directory, for "~" and the default gds
	// home. "" means $HOME from LookupEnv.
	HomeDir string
	// UserConfigDir overrides the OS user config directory (the default gds
	// home is UserConfigDir/gds). "" computes it from GOOS and the
	// environment like os.UserConfigDir.
	UserConfigDir string
	// GOOS overrides runtime.GOOS for the default directories.
	GOOS string
}

// OSOptions returns LoadOptions for the real process: os.LookupEnv, the
// current directory and the user's home directory.
func OSOptions() LoadOptions {
	wd, _ := os.Getwd()
	home, _ := os.UserHomeDir()
	return LoadOptions{LookupEnv: os.LookupEnv, WorkDir: wd, HomeDir: home}
}

// layer is one source of raw values.
type layer struct {
	src  Source
	vals map[string]string
}

// Load reads and validates the configuration; the first problem is the
// error.
func Load(opts LoadOptions) (*Config, error) {
	return load(opts, func(error) bool { return true })
}

// LoadAll reads the configuration like Load but goes on past bad values
// and unparsable .env files (their values are left out), for `gds config
// show`: the configuration with every readable value, and every problem
// found. The configuration is nil only when no gds home can be found.
// It is for showing, never for running a command.
func LoadAll(opts LoadOptions) (*Config, []error) {
	var problems []error
	cfg, err := load(opts, func(e error) bool { problems = append(problems, e); return false })
	if err != nil {
		return nil, append(problems, err)
	}
	return cfg, problems
}

func load(opts LoadOptions, stop func(error) bool) (*Config, error) {
	lookup := opts.LookupEnv
	if lookup == nil {
		lookup = func(string) (string, bool) { return "", false }
	}
	homeDir := opts.HomeDir
	if homeDir == "" {
		homeDir, _ = lookup("HOME")
	}
	goos := opts.GOOS
	if goos == "" {
		goos = runtime.GOOS
	}

	envLayer := layer{src: Source{Kind: FromEnv}, vals: map[string]string{}}
	for _, n := range Names {
		if v, ok := lookup(n); ok {
			envLayer.vals[n] = v
		}
	}
	layers := []layer{envLayer}

	cfg := &Config{WorkDir: opts.WorkDir, sources: map[string]Source{}, raw: map[string]string{}}

	// The current directory's .env may set GDS_HOME, so read it first.
	var wdEnv string
	if opts.WorkDir != "" {
		wdEnv = filepath.Join(opts.WorkDir, EnvFileName)
		vals, err := readEnvFile(wdEnv)
		if err != nil && stop(err) {
			return nil, err
		}
		if err != nil {
			cfg.EnvFilesUnread = append(cfg.EnvFilesUnread, wdEnv)
		}
		if vals != nil {
			layers = append(layers, layer{src: Source{Kind: FromFile, Path: wdEnv}, vals: vals})
			cfg.EnvFiles = append(cfg.EnvFiles, wdEnv)
		}
	}

	// Resolve the home directory.
	home, homeSrc := "", Source{Kind: FromDefault}
	for _, l := range layers {
		if v, ok := l.vals[EnvHome]; ok && strings.TrimSpace(v) != "" {
			home, homeSrc = gdshome.Resolve(strings.TrimSpace(v), opts.WorkDir, homeDir), l.src
			break
		}
	}
	if home == "" {
		base := opts.UserConfigDir
		if base == "" {
			base = gdshome.UserConfigDir(goos, lookup, homeDir)
		}
		if base == "" {
			return nil, &Error{Var: EnvHome, Problem: "config.problem.no_home", Fix: "config.fix.set_home"}
		}
		home = filepath.Join(base, "gds")
	}
	cfg.Home, cfg.DataDir = home, home
	cfg.sources[EnvHome] = homeSrc
	cfg.raw[EnvHome] = home

	homeEnv := filepath.Join(home, EnvFileName)
	if homeEnv != wdEnv {
		vals, err := readEnvFile(homeEnv)
		if err != nil && stop(err) {
			return nil, err
		}
		if err != nil {
			cfg.EnvFilesUnread = append(cfg.EnvFilesUnread, homeEnv)
		}
		if vals != nil {
			layers = append(layers, layer{src: Source{Kind: FromFile, Path: homeEnv}, vals: vals})
			cfg.EnvFiles = append(cfg.EnvFiles, homeEnv)
		}
	}

	// Pick each setting from the highest layer that has it. A variable that
	// is present but empty still wins and means "use the default".
	get := func(name string) (string, Source) {
		for _, l := range layers {
			if v, ok := l.vals[name]; ok {
				v = strings.TrimSpace(v)
				if v == "" {
					break
				}
				return v, l.src
			}
		}
		return "", Source{Kind: FromDefault}
	}
	val := func(name, def string) string {
		v, src := get(name)
		if v == "" {
			v = def
		}
		cfg.raw[name], cfg.sources[name] = v, src
		return v
	}

	if err := cfg.fill(val, opts.WorkDir, homeDir, stop); err != nil {
		return nil, err
	}
	return cfg, nil
}

func (c *Config) fill(val func(name, def string) string, workDir, homeDir string, stop func(error) bool) error {
	var err error

	c.DriveFolderIDs, err = parseFolderIDs(val(EnvDriveFolderIDs, ""))
	if err != nil {
		if stop(err) {
			return err
		}
	}

	if err := c.fillSources(val, workDir, homeDir); err != nil {
		if stop(err) {
			return err
		}
	}
	if c.CrawlConcurrency, err = intSetting(EnvCrawlConcurrency, val(EnvCrawlConcurrency, strconv.Itoa(DefaultCrawlConcurrency)), MinCrawlConcurrency, MaxCrawlConcurrency); err != nil {
		if stop(err) {
			return err
		}
	}
	if c.DriveEndpoint, err = httpURLSetting(EnvDriveEndpoint, val(EnvDriveEndpoint, "")); err != nil {
		if stop(err) {
			return err
		}
	}

	switch c.OCR = strings.ToLower(strings.TrimSpace(val(EnvOCR, DefaultOCR))); c.OCR {
	case OCRAuto, OCRTesseract, OCRModel, OCROff:
	default:
		if e := (&Error{Var: EnvOCR, Value: c.OCR, Problem: "config.problem.bad_ocr", Fix: "config.fix.ocr"}); stop(e) {
			return e
		}
	}

	c.OAuthClientID = val(EnvOAuthClientID, "")
	c.OAuthClientSecret = val(EnvOAuthClientSecret, "")

	c.OpenAIAPIKey = val(EnvOpenAIAPIKey, "")
	if c.OpenAIBaseURL, err = httpURLSetting(EnvOpenAIBaseURL, val(EnvOpenAIBaseURL, "")); err != nil {
		if stop(err) {
			return err
		}
	}
	c.OpenAIModel = val(EnvOpenAIModel, DefaultOpenAIModel)
	c.OpenAIEmbeddingModel = val(EnvOpenAIEmbedModel, DefaultOpenAIEmbedModel)
	dimRaw := val(EnvOpenAIEmbedDim, "")
	if dimRaw != "" {
		if c.OpenAIEmbeddingDim, err = intSetting(EnvOpenAIEmbedDim, dimRaw, 1, MaxEmbeddingDim); err != nil {
			if stop(err) {
				return err
			}
		}
	}
	if c.AIMaxRPM, err = intSetting(EnvAIMaxRPM, val(EnvAIMaxRPM, "0"), 0, MaxAIMaxRPM); err != nil {
		if stop(err) {
			return err
		}
	}
	if err := c.fillPricing(val); err != nil && stop(err) {
		return err
	}
	c.AIProviderSetting = strings.ToLower(val(EnvAIProvider, DefaultAIProvider))
	switch c.AIProviderSetting {
	case ProviderOpenAI, ProviderOffline:
		c.AIProvider = c.AIProviderSetting
	case ProviderAuto:
		c.AIProvider = ProviderOffline
		if c.OpenAIAPIKey != "" || c.OpenAIBaseURL != "" {
			c.AIProvider = ProviderOpenAI
		}
	default:
		if e := (&Error{Var: EnvAIProvider, Value: c.AIProviderSetting, Problem: "config.problem.bad_provider", Fix: "config.fix.provider"}); stop(e) {
			return e
		}
	}
	if c.AIProvider == ProviderOpenAI && c.OpenAIAPIKey == "" && c.OpenAIBaseURL == "" {
		if e := (&Error{Var: EnvOpenAIAPIKey, Problem: "config.problem.openai_needs_key", Fix: "config.fix.openai_key"}); stop(e) {
			return e
		}
	}

	if c.SummaryMaxLength, err = intSetting(EnvSummaryMaxLength, val(EnvSummaryMaxLength, strconv.Itoa(DefaultSummaryMaxLength)), MinSummaryMaxLength, MaxSummaryMaxLength); err != nil {
		if stop(err) {
			return err
		}
	}
	if c.SearchMaxLoopCount, err = intSetting(EnvSearchMaxLoopCount, val(EnvSearchMaxLoopCount, strconv.Itoa(DefaultSearchMaxLoopCount)), MinSearchMaxLoopCount, MaxSearchMaxLoopCount); err != nil {
		if stop(err) {
			return err
		}
	}

	dbURL, supaURL := val(EnvDatabaseURL, ""), val(EnvSupabaseDBURL, "")
	switch {
	case dbURL != "":
		c.DatabaseURL, c.DatabaseURLVar = dbURL, EnvDatabaseURL
	case supaURL != "":
		c.DatabaseURL, c.DatabaseURLVar = supaURL, EnvSupabaseDBURL
	}
	if c.DatabaseURL != "" {
		if err := validateDatabaseURL(c.DatabaseURLVar, c.DatabaseURL); err != nil {
			if stop(err) {
				return err
			}
		}
	}
	if c.DatabaseSchema = val(EnvDatabaseSchema, ""); c.DatabaseSchema != "" && !validSchemaName(c.DatabaseSchema) {
		if e := (&Error{Var: EnvDatabaseSchema, Value: c.DatabaseSchema, Problem: "config.problem.db_schema", Fix: "config.fix.db_schema"}); stop(e) {
			return e
		}
	}
	c.UploadDir = gdshome.Resolve(val(EnvUploadDir, filepath.Join(c.Home, UploadDirName)), workDir, homeDir)
	if st, err := os.Stat(c.UploadDir); err == nil && !st.IsDir() {
		if e := (&Error{Var: EnvUploadDir, Value: c.UploadDir, Problem: "config.problem.upload_dir", Fix: "config.fix.upload_dir"}); stop(e) {
			return e
		}
	}
	return nil
}

// validSchemaName accepts a plain lower-case Postgres identifier of 1 to 63
// bytes: a letter or underscore, then letters, digits or underscores.
func validSchemaName(s string) bool {
	if len(s) == 0 || len(s) > 63 {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || (r >= 'a' && r <= 'z'):
		case i > 0 && r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}

// readEnvFile parses a .env file; a missing file returns (nil, nil).
// The file is read in one linear pass and at most envfile.MaxSize bytes
// of it, so no file can stall loading.
func readEnvFile(path string) (map[string]string, error) {
	vals, err := envfile.Read(path)
	var pe *envfile.ParseError
	switch {
	case err == nil:
		return vals, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case errors.As(err, &pe):
		e := &Error{File: path, Line: pe.Line, Problem: "config.problem.parse_env", Fix: "config.fix.env_file", Err: err, errShown: true}
		switch pe.Problem {
		case envfile.NoAssign:
			e.Problem = "config.problem.env_no_assign"
		case envfile.BadChar:
			e.Problem, e.ProblemArgs = "config.problem.env_bad_char", []any{pe.Char}
		case envfile.Unterminated:
			e.Problem, e.ProblemArgs = "config.problem.env_unterminated", []any{pe.Char}
		case envfile.NoName:
			e.Problem = "config.problem.env_no_name"
		case envfile.Expansion:
			e.Problem, e.ProblemArgs = "config.problem.env_expansion", []any{sizeString(envfile.MaxExpanded)}
		default:
			e.errShown = false
		}
		return nil, e
	case errors.Is(err, envfile.ErrTooLarge):
		return nil, &Error{File: path, Problem: "config.problem.env_too_large", ProblemArgs: []any{sizeString(envfile.MaxSize)}, Fix: "config.fix.env_file", Err: err, errShown: true}
	case errors.Is(err, envfile.ErrNotRegular):
		return nil, &Error{File: path, Problem: "config.problem.env_not_regular", Fix: "config.fix.env_file", Err: err, errShown: true}
	}
	return nil, &Error{File: path, Problem: "config.problem.read_env", Fix: "config.fix.env_file", Err: err}
}

// sizeString renders a power-of-two size: "1 MiB".
func sizeString(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return strconv.Itoa(n>>20) + " MiB"
	}
	return strconv.Itoa(n) + " bytes"
}

func intSetting(name, raw string, minV, maxV int) (int, error) {
	n, err := strconv.Atoi(raw)
	if err != nil {
		return 0, &Error{Var: name, Value: raw, Problem: "config.problem.not_integer", Fix: "config.fix.range", FixArgs: []any{minV, maxV}}
	}
	if n < minV || n > maxV {
		return 0, &Error{Var: name, Value: raw, Problem: "config.problem.out_of_range", Fix: "config.fix.range", FixArgs: []any{minV, maxV}}
	}
	return n, nil
}

// parseFolderIDs splits, trims and deduplicates the folder list.
func parseFolderIDs(raw string) ([]string, error) {
	var ids []string
	for _, part := range strings.Split(raw, ",") {
		id := strings.TrimSpace(part)
		if id == "" || slices.Contains(ids, id) {
			continue
		}
		if !validFolderID(id) {
			fix, args := i18n.Key("config.fix.folder_ids"), []any(nil)
			if guess := folderIDFromURL(id); guess != "" {
				fix, args = "config.fix.folder_url", []any{guess}
			}
			return nil, &Error{Var: EnvDriveFolderIDs, Value: id, Problem: "config.problem.bad_folder_id", Fix: fix, FixArgs: args}
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func validFolderID(id string) bool {
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return id != ""
}

// folderIDFromURL extracts the ID of a pasted Drive folder URL.
func folderIDFromURL(s string) string {
	const marker = "/folders/"
	i := strings.Index(s, marker)
	if i < 0 {
		return ""
	}
	id := s[i+len(marker):]
	if j := strings.IndexAny(id, "/?#"); j >= 0 {
		id = id[:j]
	}
	if !validFolderID(id) {
		return ""
	}
	return id
}

// RequireDriveFolders returns an error naming GOOGLE_DRIVE_TARGET_FOLDER_IDS
// when no target folder is configured; a Drive crawl needs at least one.
func (c *Config) RequireDriveFolders() error {
	if len(c.DriveFolderIDs) == 0 {
		return &Error{Var: EnvDriveFolderIDs, Problem: "config.problem.no_folders", Fix: "config.fix.folder_ids"}
	}
	return nil
}

// EnvFilePath is the .env file in the gds home.
func (c *Config) EnvFilePath() string { return filepath.Join(c.Home, EnvFileName) }

// IndexPath is the embedded SQLite index file.
func (c *Config) IndexPath() string { return filepath.Join(c.DataDir, IndexFileName) }

// UsesPostgres reports whether a Postgres URL is configured.
func (c *Config) UsesPostgres() bool { return c.DatabaseURL != "" }

// SourceOf returns where a setting's value came from.
func (c *Config) SourceOf(name string) Source {
	if s, ok := c.sources[name]; ok {
		return s
	}
	return Source{Kind: FromDefault}
}

// CrawlFingerprint hashes the settings that decide what a crawl covers
// (source, target folders, Drive endpoint). When it changes, the next crawl
// starts over with a full scan.
func (c *Config) CrawlFingerprint() string {
	ids := slices.Clone(c.DriveFolderIDs)
	sort.Strings(ids)
	h := sha256.New()
	fmt.Fprintf(h, "source=%s\n", c.Source.Key())
	if c.Source.Kind == SourceDrive {
		fmt.Fprintf(h, "folders=%s\nendpoint=%s\n", strings.Join(ids, ","), c.DriveEndpoint)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Setting is one line of `gds config show`.
type Setting struct {
	Name   string `json:"name"`
	Value  string `json:"value"` // masked when Secret or a URL with a password
	Source string `json:"source"`
	Secret bool   `json:"secret,omitempty"`
}

// Settings lists every setting with its display value (secrets masked) and
// source, in the order of Names.
func (c *Config) Settings() []Setting {
	out := make([]Setting, 0, len(Names))
	for _, n := range Names {
		v := c.raw[n]
		switch {
		case secretNames[n]:
			v = MaskSecret(v)
		case urlNames[n]:
			v = MaskURL(v)
		}
		switch n {
		case EnvAIProvider:
			if c.AIProviderSetting == ProviderAuto {
				v = ProviderAuto + " → " + c.AIProvider
			}
		case EnvDriveFolderIDs:
			v = strings.Join(c.DriveFolderIDs, ",")
		case EnvSource:
			v = c.Source.String()
		}
		out = append(out, Setting{Name: n, Value: v, Source: c.SourceOf(n).String(), Secret: secretNames[n]})
	}
	return out
}

// fillPricing reads the usage tier and the price and limit overrides; a
// bad one is named with its fix, and the book falls back to the table.
func (c *Config) fillPricing(val func(name, def string) string) error {
	tier, prices, limits := val(EnvOpenAITier, pricing.DefaultTier), val(EnvAIPrices, ""), val(EnvAILimits, "")
	var first error
	if _, err := pricing.New(tier, "", ""); err != nil {
		first, tier = &Error{Var: EnvOpenAITier, Value: tier, Problem: "config.problem.bad_tier", Fix: "config.fix.tier", Err: err}, ""
	}
	if _, err := pricing.New("", prices, ""); err != nil && first == nil {
		first, prices = &Error{Var: EnvAIPrices, Value: prices, Problem: "config.problem.bad_prices", Fix: "config.fix.prices", Err: err}, ""
	} else if err != nil {
		prices = ""
	}
	if _, err := pricing.New("", "", limits); err != nil && first == nil {
		first, limits = &Error{Var: EnvAILimits, Value: limits, Problem: "config.problem.bad_limits", Fix: "config.fix.limits", Err: err}, ""
	} else if err != nil {
		limits = ""
	}
	c.Pricing, _ = pricing.New(tier, prices, limits)
	return first
}
