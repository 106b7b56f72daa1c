package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/doctor"
)

// On Linux there is no Alfred, so doctor does not vouch for its keystroke
// server; it counts one problem and one warning in the singular.
func TestDoctorOnLinuxSkipsTheKeystrokeServer(t *testing.T) {
	d, env, out := doctorDeps(t, "linux", map[string]string{"GDS_AI_PROVIDER": "offline", "GDS_SOURCES": "local:" + t.TempDir()})
	err := runDoctor(context.Background(), d, doctorOptions{Offline: true}, env)
	if !errors.Is(err, doctor.ErrUnhealthy) {
		t.Fatalf("err %v", err)
	}
	var line string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.Contains(l, "Alfred keystroke server") {
			line = l
		}
	}
	if !strings.HasPrefix(line, "- ") || !strings.Contains(line, "Alfred runs on macOS only") {
		t.Errorf("keystroke server line %q:\n%s", line, out.String())
	}
	if !strings.Contains(out.String(), "1 problem, 1 warning.") {
		t.Errorf("summary not in the singular:\n%s", out.String())
	}
	var stderr strings.Builder
	d.Stderr = &stderr
	printError(d, err)
	if !strings.Contains(stderr.String(), "found 1 problem (listed above with its fix)") {
		t.Errorf("error line %q", stderr.String())
	}
}

// A local crawl that removes a deleted file says so in a local folder's
// words, in the singular.
func TestLocalCrawlRemovalWording(t *testing.T) {
	h := newHarness(t)
	h.env[config.EnvAIProvider] = config.ProviderOffline
	dir := t.TempDir()
	for _, n := range []string{"a.txt", "b.txt"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("notes about "+n), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if code := h.run("crawl", "--source", "local:"+dir); code != exitOK {
		t.Fatalf("crawl: %d %s", code, h.stderr.String())
	}
	if err := os.Remove(filepath.Join(dir, "b.txt")); err != nil {
		t.Fatal(err)
	}
	if code := h.run("crawl", "--source", "local:"+dir); code != exitOK {
		t.Fatalf("crawl: %d %s", code, h.stderr.String())
	}
	out := h.stdout.String()
	if !strings.Contains(out, "Removed 1 file that is no longer in the crawled folders") || strings.Contains(out, "target folders") {
		t.Errorf("summary:\n%s", out)
	}
}
