package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/i18n"
)

// fixture is an isolated world: a work dir, a user home and env variables.
type fixture struct {
	t       *testing.T
	work    string
	userDir string
	env     map[string]string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	root := t.TempDir()
	f := &fixture{t: t, work: filepath.Join(root, "work"), userDir: filepath.Join(root, "user"), env: map[string]string{}}
	for _, d := range []string{f.work, f.userDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func (f *fixture) home() string { return filepath.Join(f.userDir, ".config", "gds") }

func (f *fixture) writeEnv(dir, content string) string {
	f.t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		f.t.Fatal(err)
	}
	p := filepath.Join(dir, EnvFileName)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		f.t.Fatal(err)
	}
	return p
}

func (f *fixture) opts() LoadOptions {
	return LoadOptions{
		LookupEnv: func(k string) (string, bool) { v, ok := f.env[k]; return v, ok },
		WorkDir:   f.work,
		HomeDir:   f.userDir,
		GOOS:      "linux",
	}
}

func (f *fixture) load() (*Config, error) { return Load(f.opts()) }

func (f *fixture) mustLoad() *Config {
	f.t.Helper()
	c, err := f.load()
	if err != nil {
		f.t.Fatalf("Load: %v", err)
	}
	return c
}

func TestDefaults(t *testing.T) {
	f := newFixture(t)
	c := f.mustLoad()
	if c.Home != f.home() || c.DataDir != c.Home {
		t.Errorf("home = %q data = %q, want %q", c.Home, c.DataDir, f.home())
	}
	if got, want := c.IndexPath(), filepath.Join(f.home(), "index.db"); got != want {
		t.Errorf("IndexPath = %q, want %q", got, want)
	}
	checks := []struct {
		name string
		got  any
		want any
	}{
		{"OpenAIModel", c.OpenAIModel, DefaultOpenAIModel},
		{"OpenAIEmbeddingModel", c.OpenAIEmbeddingModel, DefaultOpenAIEmbedModel},
		{"OpenAIEmbeddingDim", c.OpenAIEmbeddingDim, 0},
		{"SummaryMaxLength", c.SummaryMaxLength, 200},
		{"SearchMaxLoopCount", c.SearchMaxLoopCount, 5},
		{"CrawlConcurrency", c.CrawlConcurrency, 4},
		{"AIProviderSetting", c.AIProviderSetting, ProviderAuto},
		{"AIProvider", c.AIProvider, ProviderOffline},
		{"Source", c.Source, CrawlSource{Kind: SourceDrive}},
		{"DatabaseURL", c.DatabaseURL, ""},
		{"UsesPostgres", c.UsesPostgres(), false},
		{"folders", len(c.DriveFolderIDs), 0},
		{"SourceOf model", c.SourceOf(EnvOpenAIModel).Kind, FromDefault},
		{"EnvFiles", len(c.EnvFiles), 0},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s = %v, want %v", ch.name, ch.got, ch.want)
		}
	}
}

func TestDefaultHomePerOS(t *testing.T) {
	cases := []struct {
		goos string
		env  map[string]string
		want string // relative to the user dir, or absolute when it starts with "/"
	}{
		{"darwin", nil, "Library/Application Support/gds"},
		{"linux", nil, ".config/gds"},
		{"linux", map[string]string{"XDG_CONFIG_HOME": "/xdg"}, "/xdg/gds"},
		{"linux", map[string]string{"XDG_CONFIG_HOME": "relative"}, ".config/gds"},
	}
	for _, tc := range cases {
		f := newFixture(t)
		f.env = tc.env
		if f.env == nil {
			f.env = map[string]string{}
		}
		o := f.opts()
		o.GOOS = tc.goos
		c, err := Load(o)
		if err != nil {
			t.Fatalf("%s: %v", tc.goos, err)
		}
		want := tc.want
		if !strings.HasPrefix(want, "/") {
			want = filepath.Join(f.userDir, want)
		}
		if c.Home != want {
			t.Errorf("%s %v: home = %q, want %q", tc.goos, tc.env, c.Home, want)
		}
	}
}

func TestNoHomeIsAnError(t *testing.T) {
	c, err := Load(LoadOptions{GOOS: "linux"})
	var ce *Error
	if !errors.As(err, &ce) || ce.Var != EnvHome {
		t.Fatalf("Load without any home = %v, %v; want an *Error naming GDS_HOME", c, err)
	}
}

func TestPrecedence(t *testing.T) {
	const name = EnvSearchMaxLoopCount
	cases := []struct {
		desc       string
		env, wd, h string // "" = not set there; "-" = set but empty
		want       int
		wantSource string // "env", "wd", "home", "default"
	}{
		{"default only", "", "", "", 5, "default"},
		{"home .env", "", "", "7", 7, "home"},
		{"work .env beats home", "", "8", "7", 8, "wd"},
		{"env beats both", "9", "8", "7", 9, "env"},
		{"env beats home", "9", "", "7", 9, "env"},
		{"empty env means default", "-", "8", "7", 5, "default"},
	}
	for _, tc := range cases {
		t.Run(tc.desc, func(t *testing.T) {
			f := newFixture(t)
			var wdPath, homePath string
			if tc.wd != "" {
				wdPath = f.writeEnv(f.work, name+"="+tc.wd+"\n")
			}
			if tc.h != "" {
				homePath = f.writeEnv(f.home(), name+"="+tc.h+"\n")
			}
			switch tc.env {
			case "":
			case "-":
				f.env[name] = ""
			default:
				f.env[name] = tc.env
			}
			c := f.mustLoad()
			if c.SearchMaxLoopCount != tc.want {
				t.Errorf("SearchMaxLoopCount = %d, want %d", c.SearchMaxLoopCount, tc.want)
			}
			want := map[string]Source{
				"env":     {Kind: FromEnv},
				"wd":      {Kind: FromFile, Path: wdPath},
				"home":    {Kind: FromFile, Path: homePath},
				"default": {Kind: FromDefault},
			}[tc.wantSource]
			if got := c.SourceOf(name); got != want {
				t.Errorf("source = %+v, want %+v", got, want)
			}
		})
	}
}

func TestGDSHome(t *testing.T) {
	t.Run("from env, relative to the work dir", func(t *testing.T) {
		f := newFixture(t)
		f.env[EnvHome] = "isolated"
		f.writeEnv(filepath.Join(f.work, "isolated"), "OPENAI_MODEL=from-gds-home\n")
		f.writeEnv(f.home(), "OPENAI_MODEL=from-default-home\n")
		c := f.mustLoad()
		if want := filepath.Join(f.work, "isolated"); c.Home != want {
			t.Fatalf("home = %q, want %q", c.Home, want)
		}
		if c.OpenAIModel != "from-gds-home" {
			t.Errorf("model = %q: the .env of GDS_HOME was not used", c.OpenAIModel)
		}
		if c.SourceOf(EnvHome).Kind != FromEnv {
			t.Errorf("GDS_HOME source = %v", c.SourceOf(EnvHome))
		}
	})
	t.Run("from the work dir .env, with ~", func(t *testing.T) {
		f := newFixture(t)
		wd := f.writeEnv(f.work, "GDS_HOME=~/elsewhere\n")
		f.writeEnv(filepath.Join(f.userDir, "elsewhere"), "SUMMARY_MAX_LENGTH=300\n")
		c := f.mustLoad()
		if want := filepath.Join(f.userDir, "elsewhere"); c.Home != want {
			t.Fatalf("home = %q, want %q", c.Home, want)
		}
		if c.SummaryMaxLength != 300 {
			t.Errorf("SummaryMaxLength = %d, want 300 from the home .env", c.SummaryMaxLength)
		}
		if got := c.SourceOf(EnvHome); got.Path != wd {
			t.Errorf("GDS_HOME source = %v, want %s", got, wd)
		}
		if len(c.EnvFiles) != 2 || c.EnvFiles[0] != wd {
			t.Errorf("EnvFiles = %v", c.EnvFiles)
		}
	})
	t.Run("work dir is the home: read once", func(t *testing.T) {
		f := newFixture(t)
		f.env[EnvHome] = f.work
		f.writeEnv(f.work, "SUMMARY_MAX_LENGTH=100\n")
		c := f.mustLoad()
		if len(c.EnvFiles) != 1 || c.SummaryMaxLength != 100 {
			t.Errorf("EnvFiles = %v, SummaryMaxLength = %d", c.EnvFiles, c.SummaryMaxLength)
		}
	})
}

func TestLoadDoesNotTouchProcessEnv(t *testing.T) {
	f := newFixture(t)
	const marker = "GDS_TEST_MARKER_NOT_SET"
	f.writeEnv(f.work, marker+"=1\nOPENAI_MODEL=x\n")
	f.mustLoad()
	if _, ok := os.LookupEnv(marker); ok {
		t.Fatal("Load set a process environment variable")
	}
}

func TestValues(t *testing.T) {
	f := newFixture(t)
	f.writeEnv(f.work, strings.Join([]string{
		"GOOGLE_DRIVE_TARGET_FOLDER_IDS= abc123 , def_456,abc123,, ",
		"GDS_SOURCE=local:docs",
		"GDS_CRAWL_CONCURRENCY=8",
		"OPENAI_EMBEDDING_DIM=512",
		"SUPABASE_DB_URL=postgresql://u:pw@db.example.com:5432/postgres",
		"GDS_AI_PROVIDER=Offline",
		"OPENAI_API_KEY=sk-test-0123456789abcdef",
	}, "\n"))
	c := f.mustLoad()
	if got := strings.Join(c.DriveFolderIDs, "|"); got != "abc123|def_456" {
		t.Errorf("folders = %q", got)
	}
	if c.Source != (CrawlSource{Kind: SourceLocal, Path: filepath.Join(f.work, "docs")}) {
		t.Errorf("source = %+v", c.Source)
	}
	if c.CrawlConcurrency != 8 || c.OpenAIEmbeddingDim != 512 {
		t.Errorf("concurrency = %d, dim = %d", c.CrawlConcurrency, c.OpenAIEmbeddingDim)
	}
	if c.DatabaseURLVar != EnvSupabaseDBURL || !c.UsesPostgres() {
		t.Errorf("db var = %q", c.DatabaseURLVar)
	}
	if c.AIProvider != ProviderOffline {
		t.Errorf("explicit offline provider = %q despite a key", c.AIProvider)
	}
	if c.RequireDriveFolders() != nil {
		t.Error("RequireDriveFolders failed with two folders")
	}
}

func TestDatabaseURLWinsOverSupabase(t *testing.T) {
	f := newFixture(t)
	f.env[EnvDatabaseURL] = "postgres://a@h1/db"
	f.env[EnvSupabaseDBURL] = "postgres://b@h2/db"
	c := f.mustLoad()
	if c.DatabaseURL != "postgres://a@h1/db" || c.DatabaseURLVar != EnvDatabaseURL {
		t.Errorf("DatabaseURL = %q via %s", c.DatabaseURL, c.DatabaseURLVar)
	}
}

func TestProviderAuto(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{}, ProviderOffline},
		{map[string]string{EnvOpenAIAPIKey: "sk-x"}, ProviderOpenAI},
		{map[string]string{EnvOpenAIBaseURL: "http://127.0.0.1:11434/v1"}, ProviderOpenAI},
		{map[string]string{EnvAIProvider: "auto", EnvOpenAIAPIKey: ""}, ProviderOffline},
		{map[string]string{EnvAIProvider: "openai", EnvOpenAIAPIKey: "sk-x"}, ProviderOpenAI},
		{map[string]string{EnvAIProvider: "offline", EnvOpenAIAPIKey: "sk-x"}, ProviderOffline},
	}
	for _, tc := range cases {
		f := newFixture(t)
		f.env = tc.env
		c := f.mustLoad()
		if c.AIProvider != tc.want {
			t.Errorf("%v: provider = %q, want %q", tc.env, c.AIProvider, tc.want)
		}
	}
}

func TestValidation(t *testing.T) {
	cases := []struct {
		name, value string
		wantVar     string
		mustNotShow string // a secret that must not appear in the message
		wantInMsg   string
	}{
		{EnvSearchMaxLoopCount, "five", EnvSearchMaxLoopCount, "", "1 to 100"},
		{EnvSearchMaxLoopCount, "0", EnvSearchMaxLoopCount, "", "out of range"},
		{EnvSearchMaxLoopCount, "101", EnvSearchMaxLoopCount, "", "\"101\""},
		{EnvSummaryMaxLength, "-5", EnvSummaryMaxLength, "", "20 to 10000"},
		{EnvSummaryMaxLength, "1e3", EnvSummaryMaxLength, "", "not a whole number"},
		{EnvCrawlConcurrency, "1000", EnvCrawlConcurrency, "", "1 to 64"},
		{EnvOpenAIEmbedDim, "wide", EnvOpenAIEmbedDim, "", "not a whole number"},
		{EnvAIProvider, "claude", EnvAIProvider, "", "auto, openai or offline"},
		{EnvAIProvider, "openai", EnvOpenAIAPIKey, "", "OPENAI_BASE_URL"},
		{EnvSource, "dropbox", EnvSource, "", "local:PATH"},
		{EnvSource, "local:", EnvSource, "", "local:PATH"},
		{EnvDatabaseURL, "mysql://root:hunter2secret@db/x", EnvDatabaseURL, "hunter2secret", "postgres://"},
		{EnvDatabaseURL, "postgres://u:hunter2secret@[::1/x", EnvDatabaseURL, "hunter2secret", "not a valid database URL"},
		{EnvSupabaseDBURL, "postgresql:///nohost", EnvSupabaseDBURL, "", "no host"},
		{EnvOpenAIBaseURL, "localhost:11434", EnvOpenAIBaseURL, "", "http://"},
		{EnvDriveEndpoint, "ftp://x/y", EnvDriveEndpoint, "", "http://"},
		{EnvDatabaseSchema, "Gds-Index", EnvDatabaseSchema, "", "lower-case"},
		{EnvDatabaseSchema, "1gds", EnvDatabaseSchema, "", "lower-case"},
		{EnvDriveFolderIDs, "ok1,bad id", EnvDriveFolderIDs, "", "\"bad id\""},
		{EnvDriveFolderIDs, "https://drive.google.com/drive/folders/1AbC_x-9?usp=sharing", EnvDriveFolderIDs, "", "folder ID 1AbC_x-9"},
		{EnvOpenAITier, "gold", EnvOpenAITier, "", "free, 1, 2, 3, 4 or 5"},
		{EnvAIPrices, "gpt-4o-mini=cheap", EnvAIPrices, "", "MODEL=INPUT/OUTPUT"},
		{EnvAILimits, "gpt-4o-mini=500", EnvAILimits, "", "MODEL=RPM/TPM"},
	}
	for _, tc := range cases {
		t.Run(tc.name+"="+tc.value, func(t *testing.T) {
			f := newFixture(t)
			f.env[tc.name] = tc.value
			c, err := f.load()
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("Load = %v, %v; want *Error", c, err)
			}
			if ce.Var != tc.wantVar {
				t.Errorf("Var = %q, want %q", ce.Var, tc.wantVar)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, tc.wantVar) || !strings.Contains(msg, tc.wantInMsg) {
				t.Errorf("message %q: want it to start with %s and contain %q", msg, tc.wantVar, tc.wantInMsg)
			}
			if tc.mustNotShow != "" && strings.Contains(msg, tc.mustNotShow) {
				t.Errorf("message leaks the secret: %q", msg)
			}
			for _, k := range []i18n.Key{ce.Problem, ce.Fix} {
				if _, ok := i18n.Lookup(k); !ok {
					t.Errorf("message key %q is not in the catalog", k)
				}
			}
			ja := ce.Message(i18n.Ja)
			if ja == msg || !strings.HasPrefix(ja, tc.wantVar) {
				t.Errorf("Japanese message not localised: %q", ja)
			}
		})
	}
}

func TestBadEnvFile(t *testing.T) {
	f := newFixture(t)
	p := f.writeEnv(f.work, "OPENAI_MODEL='unterminated\n")
	_, err := f.load()
	var ce *Error
	if !errors.As(err, &ce) || ce.File != p {
		t.Fatalf("err = %v, want *Error for %s", err, p)
	}
}

func TestRequireDriveFolders(t *testing.T) {
	f := newFixture(t)
	f.env[EnvDriveFolderIDs] = " , ,"
	c := f.mustLoad()
	err := c.RequireDriveFolders()
	var ce *Error
	if !errors.As(err, &ce) || ce.Var != EnvDriveFolderIDs || !strings.Contains(err.Error(), "/folders/") {
		t.Fatalf("RequireDriveFolders = %v", err)
	}
}

func TestMaskSecret(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", ""},
		{"short", "****"},
		{"sk-proj-abcdefghijklmnopqrstuvwxyz1234", "sk-…1234"},
	}
	for _, tc := range cases {
		if got := MaskSecret(tc.in); got != tc.want {
			t.Errorf("MaskSecret(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMaskURL(t *testing.T) {
	cases := []struct{ in, want, secret string }{
		{"", "", ""},
		{"postgres://user:s3cr3tpw@db.example.com:5432/app?sslmode=require", "postgres://user:****@db.example.com:5432/app?sslmode=require", "s3cr3tpw"},
		{"postgres://user@127.0.0.1:5432/app", "postgres://user@127.0.0.1:5432/app", ""},
		{"postgres://h/app?password=s3cr3tpw&sslmode=disable", "postgres://h/app?password=%2A%2A%2A%2A&sslmode=disable", "s3cr3tpw"},
		{"postgres://u:s3cr3tpw@[::1/x", "postgres://u:****@[::1/x", "s3cr3tpw"},
		{"https://s3cr3tpw@llm.example.com/v1", "https://****@llm.example.com/v1", "s3cr3tpw"},
		{"host=db user=gds password=s3cr3tpw dbname=gds", "host=db user=gds password=**** dbname=gds", "s3cr3tpw"},
		{"gds:s3cr3tpw@db:5432/gds", "gds:****@db:5432/gds", "s3cr3tpw"},
	}
	for _, tc := range cases {
		got := MaskURL(tc.in)
		if tc.secret != "" && strings.Contains(got, tc.secret) {
			t.Errorf("MaskURL(%q) = %q leaks the password", tc.in, got)
		}
		if got != tc.want && !(strings.Contains(tc.want, "%2A") && strings.Contains(got, "password=****")) {
			t.Errorf("MaskURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSettingsMaskSecretsAndNameSources(t *testing.T) {
	f := newFixture(t)
	const key = "sk-live-0123456789abcdefWXYZ"
	const secret = "oauth-client-secret-value"
	const pw = "dbpassw0rd"
	envFile := f.writeEnv(f.home(), "OPENAI_API_KEY="+key+"\nGOOGLE_OAUTH_CLIENT_SECRET="+secret+"\n")
	f.env[EnvDatabaseURL] = "postgres://me:" + pw + "@db:5432/x"
	c := f.mustLoad()
	settings := c.Settings()
	if len(settings) != len(Names) {
		t.Fatalf("%d settings, want %d", len(settings), len(Names))
	}
	byName := map[string]Setting{}
	for _, s := range settings {
		byName[s.Name] = s
		for _, leak := range []string{key, secret, pw} {
			if strings.Contains(s.Value, leak) {
				t.Errorf("%s shows a secret: %q", s.Name, s.Value)
			}
		}
	}
	if s := byName[EnvOpenAIAPIKey]; s.Value != "sk-…WXYZ" || s.Source != envFile || !s.Secret {
		t.Errorf("api key setting = %+v", s)
	}
	if s := byName[EnvDatabaseURL]; s.Value != "postgres://me:****@db:5432/x" || s.Source != "env" {
		t.Errorf("db setting = %+v", s)
	}
	if s := byName[EnvAIProvider]; s.Value != "auto → openai" || s.Source != "default" {
		t.Errorf("provider setting = %+v", s)
	}
	if s := byName[EnvSummaryMaxLength]; s.Value != "200" || s.Source != "default" {
		t.Errorf("summary setting = %+v", s)
	}
}

func TestCrawlFingerprint(t *testing.T) {
	load := func(env map[string]string) string {
		f := newFixture(t)
		f.env = env
		return f.mustLoad().CrawlFingerprint()
	}
	base := load(map[string]string{EnvDriveFolderIDs: "a,b"})
	if load(map[string]string{EnvDriveFolderIDs: "b, a"}) != base {
		t.Error("folder order changed the fingerprint")
	}
	if load(map[string]string{EnvDriveFolderIDs: "a,b", EnvSummaryMaxLength: "300"}) != base {
		t.Error("a non-target setting changed the fingerprint")
	}
	for _, env := range []map[string]string{
		{EnvDriveFolderIDs: "a"},
		{EnvDriveFolderIDs: "a,b", EnvDriveEndpoint: "http://127.0.0.1:9/"},
		{EnvDriveFolderIDs: "a,b", EnvSource: "local:/x"},
	} {
		if load(env) == base {
			t.Errorf("%v did not change the fingerprint", env)
		}
	}
}

func TestDatabaseSchema(t *testing.T) {
	f := newFixture(t)
	if c := f.mustLoad(); c.DatabaseSchema != "" {
		t.Errorf("default schema = %q, want empty (public)", c.DatabaseSchema)
	}
	f.env[EnvDatabaseSchema] = "gds_run_42"
	if c := f.mustLoad(); c.DatabaseSchema != "gds_run_42" {
		t.Errorf("schema = %q", c.DatabaseSchema)
	}
}

// TestPricing: the book of estimates is the table at the configured tier
// with the overrides.
func TestPricing(t *testing.T) {
	f := newFixture(t)
	if b := f.mustLoad().Pricing; b == nil || b.Tier != "1" {
		t.Fatalf("default book %+v, want tier 1", b)
	}
	f.env[EnvOpenAITier] = "tier-4"
	f.env[EnvAIPrices] = "llama3.1=0/0"
	f.env[EnvAILimits] = "gpt-4o-mini=7/70000"
	b := f.mustLoad().Pricing
	if b.Tier != "4" {
		t.Errorf("tier %q, want 4", b.Tier)
	}
	if p, ok := b.Price("llama3.1"); !ok || p.Input != 0 {
		t.Errorf("llama3.1 price %+v %v, want the configured 0/0", p, ok)
	}
	if l, ok := b.Limit("gpt-4o-mini"); !ok || l.RPM != 7 || l.TPM != 70000 {
		t.Errorf("gpt-4o-mini limit %+v %v, want 7/70000", l, ok)
	}
}
