package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
)

func loadConfig(t *testing.T, env map[string]string) *config.Config {
	t.Helper()
	home := t.TempDir()
	if env == nil {
		env = map[string]string{}
	}
	env[config.EnvHome] = home
	cfg, err := config.Load(config.LoadOptions{
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		WorkDir:   t.TempDir(),
		GOOS:      "linux",
	})
	if err != nil {
		t.Fatalf("config.Load: %v", err)
	}
	return cfg
}

func TestConfigErrorReachesEveryConstructor(t *testing.T) {
	cfgErr := &config.Error{Var: config.EnvSearchMaxLoopCount, Value: "x", Problem: "config.problem.not_integer"}
	d := New(Options{ConfigErr: cfgErr})
	if _, err := d.RequireConfig(); !errors.Is(err, cfgErr) {
		t.Errorf("RequireConfig = %v", err)
	}
	if _, err := d.OpenStore(context.Background()); !errors.Is(err, cfgErr) {
		t.Errorf("OpenStore = %v", err)
	}
	if _, err := d.Provider(); !errors.Is(err, cfgErr) {
		t.Errorf("Provider = %v", err)
	}
}

func TestDefaults(t *testing.T) {
	d := New(Options{Config: loadConfig(t, nil)})
	if d.Lang != i18n.En || d.Now == nil || d.Stdout == nil || d.Stderr == nil || d.Stdin == nil {
		t.Fatalf("defaults not filled: %+v", d)
	}
	if n, err := d.Stdin.Read(make([]byte, 1)); n != 0 || err == nil {
		t.Errorf("default stdin read = %d, %v; want EOF", n, err)
	}
}

func TestProviderChoice(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want string
	}{
		{nil, "offline"},
		{map[string]string{config.EnvAIProvider: "offline", config.EnvOpenAIAPIKey: "sk-test"}, "offline"},
		{map[string]string{config.EnvOpenAIBaseURL: "http://127.0.0.1:1/v1"}, "openai"},
		{map[string]string{config.EnvAIProvider: "openai", config.EnvOpenAIAPIKey: "sk-test"}, "openai"},
	}
	for _, tc := range cases {
		d := New(Options{Config: loadConfig(t, tc.env)})
		p, err := d.Provider()
		if err != nil {
			t.Fatalf("%v: Provider: %v", tc.env, err)
		}
		if p.Name() != tc.want {
			t.Errorf("%v: provider %q, want %q", tc.env, p.Name(), tc.want)
		}
		p2, _ := d.Provider()
		if p2 != p {
			t.Errorf("%v: Provider built a second instance", tc.env)
		}
	}
}

func TestOpenStoreSQLite(t *testing.T) {
	cfg := loadConfig(t, nil)
	cfg.DataDir = filepath.Join(cfg.Home, "nested", "data") // created on demand
	d := New(Options{Config: cfg})
	ctx := context.Background()
	s, err := d.OpenStore(ctx)
	if err != nil {
		t.Fatalf("OpenStore: %v", err)
	}
	defer s.Close()
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatalf("Stats: %v", err)
	}
	if st.Backend != "sqlite" || st.SchemaVersion < 1 {
		t.Errorf("stats = %+v, want a migrated sqlite store", st)
	}
	if _, err := os.Stat(cfg.IndexPath()); err != nil {
		t.Errorf("index file not created: %v", err)
	}
}

func TestOpenStorePostgres(t *testing.T) {
	url := os.Getenv("GDS_TEST_DATABASE_URL")
	if url == "" {
		t.Skip("GDS_TEST_DATABASE_URL is not set (scripts/test.sh starts PGlite and sets it)")
	}
	d := New(Options{Config: loadConfig(t, map[string]string{config.EnvDatabaseURL: url})})
	ctx := context.Background()
	s, err := d.OpenStore(ctx)
	if err != nil {
		t.Fatalf("OpenStore: %v", err)
	}
	defer s.Close()
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatalf("Stats: %v", err)
	}
	if st.Backend != "postgres" {
		t.Errorf("backend = %q, want postgres", st.Backend)
	}
}

func TestOpenStorePostgresErrorMasksPassword(t *testing.T) {
	const pw = "n0tRealPassw0rd"
	// Port 1 on loopback refuses connections quickly.
	d := New(Options{Config: loadConfig(t, map[string]string{config.EnvDatabaseURL: "postgres://u:" + pw + "@127.0.0.1:1/db?connect_timeout=2"})})
	_, err := d.OpenStore(context.Background())
	if err == nil {
		t.Fatal("OpenStore to a closed port succeeded")
	}
	if strings.Contains(err.Error(), pw) {
		t.Errorf("error leaks the password: %v", err)
	}
}
