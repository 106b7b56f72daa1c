package main

import (
	"archive/zip"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"
	"howett.net/plist"

	"github.com/gds-cli/gds/alfred"
	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/iostreams"
)

// findCommand walks the CLI tree along path.
func findCommand(root *cli.Command, path []string) *cli.Command {
	c := root
	for _, name := range path {
		var next *cli.Command
		for _, sub := range c.Commands {
			if sub.Name == name {
				next = sub
			}
		}
		if next == nil {
			return nil
		}
		c = next
	}
	return c
}

// gdsInvocation returns the gds subcommand words a script runs ("exec
// "$gds" alfred filter "$1"" → [alfred filter]).
func gdsInvocation(t *testing.T, script string) []string {
	t.Helper()
	m := regexp.MustCompile(`exec "\$gds" ((?:[a-z-]+ )+)`).FindStringSubmatch(script)
	if m == nil {
		t.Fatalf("no gds invocation in:\n%s", script)
	}
	return strings.Fields(m[1])
}

func TestAlfredScriptFilterNamesARealCommand(t *testing.T) {
	data, err := alfred.Source.ReadFile("info.plist")
	if err != nil {
		t.Fatal(err)
	}
	var info struct {
		Objects []struct {
			Type   string         `plist:"type"`
			Config map[string]any `plist:"config"`
		} `plist:"objects"`
	}
	if _, err := plist.Unmarshal(data, &info); err != nil {
		t.Fatal(err)
	}
	root := newRootCommand(harnessDeps(t, newHarness(t)), buildInfo{Version: "1"})
	found := false
	for _, o := range info.Objects {
		if o.Type != "alfred.workflow.input.scriptfilter" {
			continue
		}
		found = true
		path := gdsInvocation(t, o.Config["script"].(string))
		c := findCommand(root, path)
		if c == nil || c.Action == nil {
			t.Errorf("the Script Filter runs gds %v, which is not a command", path)
		}
	}
	if !found {
		t.Fatal("no script filter")
	}
}

func TestAlfredWorkflowAndInstall(t *testing.T) {
	h := newHarness(t)
	out := filepath.Join(h.work, "wf")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if code := h.run("alfred", "workflow", "--output", out); code != exitOK {
		t.Fatalf("exit %d: %s", code, h.stderr.String())
	}
	zr, err := zip.OpenReader(filepath.Join(out, "gds.alfredworkflow"))
	if err != nil {
		t.Fatal(err)
	}
	var info struct {
		Version string `plist:"version"`
	}
	for _, f := range zr.File {
		if f.Name == "info.plist" {
			if _, err := plist.Unmarshal(readAll(t, f), &info); err != nil {
				t.Fatal(err)
			}
		}
	}
	zr.Close()
	if info.Version != "1.2.3" {
		t.Errorf("workflow version %q, want the binary's 1.2.3", info.Version)
	}

	d := harnessDeps(t, h)
	var opened string
	var stdout strings.Builder
	d.Stdout = &stdout
	if err := runAlfredInstall(context.Background(), d, "1.2.3", func(_ context.Context, p string) error { opened = p; return nil }); err != nil {
		t.Fatal(err)
	}
	if opened != filepath.Join(d.Config.DataDir, "gds.alfredworkflow") || !strings.Contains(stdout.String(), "gd <query>") {
		t.Errorf("opened %q, said %q", opened, stdout.String())
	}
	stdout.Reset()
	if err := runAlfredInstall(context.Background(), d, "1.2.3", nil); err != nil || !strings.Contains(stdout.String(), "macOS only") {
		t.Errorf("no opener: %v %q", err, stdout.String())
	}
}

func readAll(t *testing.T, f *zip.File) []byte {
	t.Helper()
	rc, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// harnessDeps builds Deps like harness.run does (its GDS_HOME and work dir).
func harnessDeps(t *testing.T, h *harness) *app.Deps {
	t.Helper()
	cfg, err := config.Load(config.LoadOptions{
		LookupEnv: func(k string) (string, bool) { v, ok := h.env[k]; return v, ok },
		WorkDir:   h.work,
		GOOS:      "linux",
	})
	return app.New(app.Options{Config: cfg, ConfigErr: err, IO: iostreams.IOStreams{Stdout: &h.stdout, Stderr: &h.stderr, Lang: h.lang}})
}
