package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/testbin"
)

// The end-to-end tests build both binaries as a release lays them out — the
// front as gds, the full CLI as gds-core beside it — and compare the front's
// answers with the full CLI's on the same home.

// binaries returns gds (the front) and gds-core (the full CLI) side by
// side, stamped with testbin.Stamp: the ones scripts/test.sh built for the run,
// else built once per test process (internal/testbin).
func binaries(t *testing.T) (front, core string) {
	t.Helper()
	return testbin.Front(t), testbin.Core(t)
}

func TestMain(m *testing.M) {
	code := m.Run()
	testbin.Cleanup()
	if sampleDir != "" {
		os.RemoveAll(sampleDir)
	}
	os.Exit(code)
}

// result is one finished process.
type result struct {
	stdout, stderr string
	code           int
}

// runBin runs bin with args, env (added to a clean environment) and stdin.
func runBin(t *testing.T, bin string, env []string, stdin string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "GDS_AI_PROVIDER=offline", "LANG=C"}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	code := 0
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %v: %v", bin, args, err)
	}
	return result{out.String(), errb.String(), code}
}

var (
	sampleOnce sync.Once
	sampleDir  string // removed by TestMain
	sampleHome string
	sampleErr  error
)

// indexedHome is a GDS_HOME with testdata/sample indexed by the full CLI
// (gds-core crawl, offline provider), shared by the tests.
func indexedHome(t *testing.T, core string) string {
	t.Helper()
	sampleOnce.Do(func() {
		if sampleDir, sampleErr = os.MkdirTemp("", "gds-front-"); sampleErr != nil {
			return
		}
		sampleHome = filepath.Join(sampleDir, "home")
		sample, err := filepath.Abs("../../testdata/sample")
		if err != nil {
			sampleErr = err
			return
		}
		cmd := exec.Command(core, "crawl", "--source", "local:"+sample)
		cmd.Env = append(os.Environ(), "GDS_HOME="+sampleHome, "GDS_AI_PROVIDER=offline", "GDS_DATABASE_URL=", "DATABASE_URL=", "SUPABASE_DB_URL=")
		if out, err := cmd.CombinedOutput(); err != nil {
			sampleErr = errors.New("gds-core crawl: " + err.Error() + "\n" + string(out))
		}
	})
	if sampleErr != nil {
		t.Fatal(sampleErr)
	}
	return sampleHome
}

func TestFrontVersionEqualsCore(t *testing.T) {
	front, core := binaries(t)
	env := []string{"GDS_HOME=" + t.TempDir(), "GDS_CORE=/nonexistent/gds-core"} // answered without the core
	for _, args := range [][]string{{"version"}, {"version", "--json"}} {
		f := runBin(t, front, env, "", args...)
		c := runBin(t, core, env[:1], "", args...)
		if f != c {
			t.Errorf("gds %v: front %+v, full CLI %+v", args, f, c)
		}
		if f.code != 0 || !strings.Contains(f.stdout, "9.8.7") {
			t.Errorf("gds %v = %+v, want the stamped version", args, f)
		}
	}
	if got := runBin(t, front, env, "", "version").stdout; got != "gds 9.8.7 (commit feedbee, built 2030-01-01T00:00:00Z, "+runtime.GOOS+"/"+runtime.GOARCH+", "+runtime.Version()+")\n" {
		t.Errorf("gds version = %q", got)
	}
}

// The hand-over: the full CLI gets the same arguments, environment and
// streams and its exit code is the front's. gds-core is replaced by a
// script that reports what it got.
func TestFrontHandsOverEverythingElse(t *testing.T) {
	front, _ := binaries(t)
	dir := t.TempDir()
	fake := filepath.Join(dir, "fake-core")
	script := "#!/bin/sh\n" +
		"printf 'argv0=%s\\n' \"$0\"\n" +
		"for a in \"$@\"; do printf 'arg=%s\\n' \"$a\"; done\n" +
		"printf 'env=%s\\n' \"$GDS_TEST_MARK\"\n" +
		"printf 'stdin=%s\\n' \"$(cat)\"\n" +
		"echo 'to stderr' >&2\n" +
		"exit 42\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"GDS_HOME=" + t.TempDir(), "GDS_CORE=" + fake, "GDS_TEST_MARK=m 1"}
	for _, args := range [][]string{
		{}, {"--help"}, {"version", "--help"}, {"search", "--json", "two words"}, {"alfred", "filter", "--state", "T", "x"},
		{"alfred", "filter", "⌕ run the loop"}, {"alfred", "filter", "help"}, {"alfred", "workflow"}, {"crawl"},
	} {
		r := runBin(t, front, env, "from stdin", args...)
		want := "argv0=" + fake + "\n"
		for _, a := range args {
			want += "arg=" + a + "\n"
		}
		want += "env=m 1\nstdin=from stdin\n"
		if r.code != 42 || r.stdout != want || r.stderr != "to stderr\n" {
			t.Errorf("gds %q = %+v\nwant stdout %q, stderr \"to stderr\\n\", exit 42", args, r, want)
		}
	}
}

// The hand-over finds gds-core next to the front's executable, through a
// symlink (Homebrew links bin/gds into the keg).
func TestFrontFindsCoreThroughSymlink(t *testing.T) {
	front, core := binaries(t)
	bin := t.TempDir()
	link := filepath.Join(bin, "gds")
	if err := os.Symlink(front, link); err != nil {
		t.Fatal(err)
	}
	r := runBin(t, link, []string{"GDS_HOME=" + t.TempDir()}, "", "config", "path")
	c := runBin(t, core, []string{"GDS_HOME=" + t.TempDir()}, "", "config", "path")
	if r.code != 0 || r.code != c.code || r.stdout == "" {
		t.Errorf("gds config path through a symlink = %+v (full CLI %+v)", r, c)
	}
	help := runBin(t, link, []string{"GDS_HOME=" + t.TempDir()}, "", "--help")
	if help.code != 0 || !strings.Contains(help.stdout, "alfred") {
		t.Errorf("gds --help through the front = %+v", help)
	}
}

func TestFrontWithoutCoreSaysWhichFileIsMissing(t *testing.T) {
	front, _ := binaries(t)
	dir := t.TempDir()
	lone := filepath.Join(dir, "gds")
	b, err := os.ReadFile(front)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lone, b, 0o755); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, "gds-core")
	for _, tc := range []struct{ lang, phrase string }{{"C", "is missing"}, {"ja_JP.UTF-8", "見つかりません"}} {
		r := runBin(t, lone, []string{"GDS_HOME=" + t.TempDir(), "LANG=" + tc.lang}, "", "crawl")
		if r.code != apperr.ExitConfig || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, tc.phrase) || r.stdout != "" {
			t.Errorf("LANG=%s: gds crawl without gds-core = %+v, want exit %d and %q naming %s", tc.lang, r, apperr.ExitConfig, tc.phrase, want)
		}
	}
	r := runBin(t, lone, []string{"GDS_HOME=" + t.TempDir(), "GDS_CORE=" + filepath.Join(dir, "nope")}, "", "crawl")
	if r.code != apperr.ExitConfig || !strings.Contains(r.stderr, filepath.Join(dir, "nope")) || !strings.Contains(r.stderr, "GDS_CORE") {
		t.Errorf("GDS_CORE pointing nowhere = %+v", r)
	}
	// version needs no core; a keystroke no server answers says, as an
	// Alfred item, which file is missing.
	if r := runBin(t, lone, []string{"GDS_HOME=" + t.TempDir()}, "", "version"); r.code != 0 {
		t.Errorf("gds version without gds-core = %+v", r)
	}
	for _, tc := range []struct{ lang, phrase string }{{"C", "is missing"}, {"ja_JP.UTF-8", "見つかりません"}} {
		r := runBin(t, lone, []string{"GDS_HOME=" + t.TempDir(), "LANG=" + tc.lang}, "", "alfred", "filter", "budget")
		var out struct {
			Items []struct{ Title, Subtitle string }
		}
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || r.code != 0 || len(out.Items) != 1 ||
			!strings.Contains(out.Items[0].Subtitle, want) || !strings.Contains(out.Items[0].Subtitle, tc.phrase) || !strings.Contains(r.stderr, want) {
			t.Errorf("LANG=%s: a keystroke without gds-core = %+v, want one Alfred item naming %s", tc.lang, r, want)
		}
	}
}
