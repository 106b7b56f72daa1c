package app

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gds-cli/gds/internal/config"
)

// A scheduled crawl runs with GDS_HOME only: sources set in the installing
// shell's environment are written into the schedule; sources in the home
// .env (or the default) are left for the crawl to read.
func TestScheduledSources(t *testing.T) {
	dir := t.TempDir()
	if got := scheduledSources(loadConfig(t, map[string]string{config.EnvSources: "local:" + dir + ",drive:F1"})); got != "local:"+dir+",drive:F1" {
		t.Errorf("GDS_SOURCES from the environment: %q, want it passed on", got)
	}
	if got := scheduledSources(loadConfig(t, map[string]string{config.EnvSource: "local:" + dir})); got != "local:"+dir {
		t.Errorf("GDS_SOURCE from the environment: %q, want it passed on as GDS_SOURCES", got)
	}
	if got := scheduledSources(loadConfig(t, nil)); got != "" {
		t.Errorf("default sources: %q, want none passed", got)
	}
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".env"), []byte("GDS_SOURCES=local:"+dir+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(config.LoadOptions{
		LookupEnv: func(k string) (string, bool) {
			if k == config.EnvHome {
				return home, true
			}
			return "", false
		},
		WorkDir: t.TempDir(), GOOS: "linux",
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := scheduledSources(cfg); got != "" {
		t.Errorf("GDS_SOURCES in the home .env: %q, want none passed (the crawl reads it)", got)
	}
}
